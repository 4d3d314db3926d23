//! The variables bash itself sets: dynamic ones computed when read
//! (`$RANDOM`, `$LINENO`, `$BASH_SUBSHELL`, ...), and those it keeps in step
//! with its state (`$SHELLOPTS`, `$BASHOPTS`, `$DIRSTACK`, `$BASH_ALIASES`).
//! All live in the variable table with bash's attributes, so `declare -p`,
//! `${X+set}` and `unset` see them as bash does.

use super::Shell;
use crate::ast::Bytes;
use crate::state::*;

/// Dynamic variables and their attributes (besides A_DYNAMIC).
const DYNAMIC: &[(&[u8], u16)] = &[
    (b"BASHPID", A_INTEGER),
    (b"BASH_ARGV0", 0),
    (b"BASH_COMMAND", 0),
    (b"BASH_SUBSHELL", 0),
    (b"EPOCHREALTIME", 0),
    (b"EPOCHSECONDS", 0),
    (b"EUID", A_INTEGER | A_READONLY),
    (b"HISTCMD", A_INTEGER),
    (b"LINENO", 0),
    (b"PPID", A_INTEGER | A_READONLY),
    (b"RANDOM", A_INTEGER),
    (b"SECONDS", A_INTEGER),
    (b"SRANDOM", A_INTEGER),
    (b"UID", A_INTEGER | A_READONLY),
    // arrays the shell computes from its call stack (see shell_array)
    (b"FUNCNAME", A_ARRAY),
    (b"BASH_SOURCE", A_ARRAY),
    (b"BASH_LINENO", A_ARRAY),
];

/// Set once at startup, then ordinary variables.
const STATIC: &[(&[u8], &[u8])] = &[
    (b"OSTYPE", b"linux-gnu"),
    (b"HOSTTYPE", b"wasm32"),
    (b"MACHTYPE", b"wasm32-unknown-linux-gnu"),
    (b"OPTERR", b"1"),
    (
        b"BASH_LOADABLES_PATH",
        b"/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.",
    ),
    (b"COMP_WORDBREAKS", b" \t\n\"'@><=;|&(:"),
];

fn now() -> std::time::Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

impl Shell {
    /// Create bash's own variables (after the environment is read).
    pub fn init_specials(&mut self) {
        for (name, attrs) in DYNAMIC {
            let v = self.vars.entry_raw(name);
            v.attrs |= attrs | A_DYNAMIC;
            if v.value.is_none() {
                v.value = Some(Value::Str(Vec::new()));
            }
        }
        for (name, val) in STATIC {
            if self.vars.get(name).is_none() {
                self.vars.entry_raw(name).value = Some(Value::Str(val.to_vec()));
            }
        }
        self.vars.entry_raw(b"OPTIND").attrs |= A_INTEGER;
        self.vars.entry_raw(b"SHLVL").attrs |= A_EXPORT;
        // bash starts with OLDPWD exported but unset
        self.vars.entry_raw(b"OLDPWD").attrs |= A_EXPORT;
        let gid = self.sys.ids().1;
        self.set_array(b"GROUPS", vec![gid.to_string().into_bytes()]);
        self.set_array(b"BASH_ARGC", vec![b"0".to_vec()]);
        self.set_array(b"BASH_ARGV", Vec::new());
        for n in [&b"BASH_ALIASES"[..], b"BASH_CMDS"] {
            let v = self.vars.entry_raw(n);
            v.attrs |= A_ASSOC;
            v.value = Some(Value::Assoc(AssocMap::new()));
        }
        self.sync_specials();
    }

    /// Whether `name` is still one of the shell's dynamic variables.
    pub fn is_dynamic(&self, name: &[u8]) -> bool {
        self.vars
            .get_raw(name)
            .map_or(false, |v| v.attrs & A_DYNAMIC != 0)
    }

    /// The current value of a dynamic scalar (`$RANDOM` is drawn in expand,
    /// which may change the generator).
    pub fn dynamic_scalar(&self, name: &[u8]) -> Option<Bytes> {
        let n: i64 = match name {
            b"SECONDS" => (now().as_secs().wrapping_sub(self.start_secs)) as i64,
            b"EPOCHSECONDS" => now().as_secs() as i64,
            b"EPOCHREALTIME" => {
                let t = now();
                return Some(format!("{}.{:06}", t.as_secs(), t.subsec_micros()).into_bytes());
            }
            b"SRANDOM" => {
                // 32 random bits: the clock's nanoseconds stirred with a counter
                let c = self.srandom.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
                self.srandom.set(c);
                let mut x = c ^ now().as_nanos() as u64;
                x ^= x >> 33;
                x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
                x ^= x >> 33;
                (x & 0xffff_ffff) as i64
            }
            b"LINENO" => self.lineno as i64,
            b"BASHPID" => self.bashpid as i64,
            b"PPID" => self.ppid as i64,
            b"UID" => self.uid as i64,
            b"EUID" => self.euid as i64,
            b"HISTCMD" => self.history.len() as i64,
            b"BASH_SUBSHELL" => (self.subshell_level as usize + self.subshells) as i64,
            b"BASH_ARGV0" => return Some(self.arg0.clone()),
            b"BASH_COMMAND" => return Some(self.bash_command_text()),
            _ => return None,
        };
        Some(n.to_string().into_bytes())
    }

    /// A variable as `declare -p` shows it: dynamic ones with their value
    /// now (`listing`: bash's full listing leaves dynamic scalars bare).
    pub fn var_for_print(&mut self, name: &[u8], v: &Var, listing: bool) -> Var {
        if v.attrs & A_DYNAMIC == 0 {
            return v.clone();
        }
        let value = if let Some(list) = self.shell_array(name) {
            if name == b"FUNCNAME" && list.is_empty() {
                None
            } else {
                Some(Value::Arr(
                    list.into_iter()
                        .enumerate()
                        .map(|(i, s)| (i as i64, s))
                        .collect(),
                ))
            }
        } else if listing {
            None
        } else if name == b"RANDOM" {
            Some(Value::Str(self.next_random().to_string().into_bytes()))
        } else {
            self.dynamic_scalar(name).map(Value::Str)
        };
        Var {
            value,
            attrs: v.attrs,
        }
    }

    /// Bring the variables that mirror shell state up to date.
    pub fn sync_specials(&mut self) {
        let set_o: Vec<&str> = SET_O
            .iter()
            .copied()
            .filter(|n| self.opts.get(n).map_or(false, |b| *b))
            .collect();
        let bashopts: Vec<&str> = crate::builtins::vars::shopt_names()
            .filter(|n| self.shopt_state(n).unwrap_or(false))
            .collect();
        for (name, val) in [
            (&b"SHELLOPTS"[..], set_o.join(":")),
            (b"BASHOPTS", bashopts.join(":")),
        ] {
            let v = self.vars.entry_raw(name);
            v.attrs |= A_READONLY;
            v.value = Some(Value::Str(val.into_bytes()));
        }
        self.sync_dirstack();
        self.sync_aliases();
    }

    /// `$DIRSTACK`: the current directory, then the saved ones.
    pub fn sync_dirstack(&mut self) {
        let mut list = vec![self.get_var(b"PWD").unwrap_or_default()];
        list.extend(self.dirstack.iter().rev().cloned());
        let v = self.vars.entry_raw(b"DIRSTACK");
        v.attrs |= A_ARRAY;
        v.value = Some(Value::Arr(
            list.into_iter()
                .enumerate()
                .map(|(i, s)| (i as i64, s))
                .collect(),
        ));
    }

    /// `$BASH_ALIASES` and `$BASH_CMDS`: the alias and command hash tables.
    pub fn sync_aliases(&mut self) {
        for (name, table) in [
            (&b"BASH_ALIASES"[..], &self.aliases),
            (b"BASH_CMDS", &self.hash),
        ] {
            let mut m = AssocMap::new();
            let mut keys: Vec<&Bytes> = table.keys().collect();
            keys.sort();
            for k in keys {
                m.insert(k.clone(), table[k].clone());
            }
            if let Some(v) = self.vars.scopes[0].get_mut(name) {
                if v.attrs & A_ASSOC != 0 {
                    v.value = Some(Value::Assoc(m));
                }
            }
        }
    }
}
