//! Shell state: variables (scalars, indexed and associative arrays, attributes,
//! dynamic scopes for `local`), functions, options, traps, jobs.

pub use crate::assoc::AssocMap;
use crate::ast::{Bytes, FuncDef};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum Value {
    Str(Bytes),
    Arr(BTreeMap<i64, Bytes>),
    Assoc(AssocMap),
}

pub const A_EXPORT: u16 = 1;
pub const A_READONLY: u16 = 2;
pub const A_INTEGER: u16 = 4;
pub const A_LOWER: u16 = 8;
pub const A_UPPER: u16 = 16;
pub const A_ARRAY: u16 = 32;
pub const A_ASSOC: u16 = 64;
pub const A_NAMEREF: u16 = 128;
/// A variable the shell computes when read (bash's dynamic variables:
/// `$RANDOM`, `$LINENO`, ...); unsetting it drops the behaviour for good.
pub const A_DYNAMIC: u16 = 256;
/// declare -t (functions: inherit DEBUG and RETURN traps).
pub const A_TRACE: u16 = 512;
/// declare -c: the first character upper case, the rest lower case.
pub const A_CAPITAL: u16 = 1024;
/// The case-changing attributes: at most one holds at a time.
pub const A_CASE: u16 = A_LOWER | A_UPPER | A_CAPITAL;

#[derive(Clone, Debug)]
pub struct Var {
    /// None: declared (e.g. `local x`, `declare -a x`) but unset.
    pub value: Option<Value>,
    pub attrs: u16,
}

#[derive(Default, Clone)]
pub struct Options {
    pub errexit: bool,
    pub nounset: bool,
    pub xtrace: bool,
    pub pipefail: bool,
    pub noglob: bool,
    pub noclobber: bool,
    pub allexport: bool,
    pub noexec: bool,
    pub verbose: bool,
    pub monitor: bool,
    pub hashall: bool,
    pub interactive: bool,
    /// set -E: functions, substitutions and subshells inherit the ERR trap.
    pub errtrace: bool,
    /// set -T: they inherit the DEBUG and RETURN traps.
    pub functrace: bool,
    /// set -B (on by default; the child encoding sends it like the others).
    pub braceexpand: bool,
    pub interactive_comments: bool,
    /// set -P: cd and pwd resolve symbolic links.
    pub physical: bool,
    /// set -k: assignments anywhere among a command's words.
    pub keyword: bool,
    pub posix: bool,
    pub notify: bool,
    pub histexpand: bool,
    pub privileged: bool,
    pub onecmd: bool,
    pub emacs: bool,
    pub vi: bool,
    pub history: bool,
    pub ignoreeof: bool,
    pub nolog: bool,
    // shopt
    pub extglob: bool,
    pub nullglob: bool,
    pub failglob: bool,
    pub dotglob: bool,
    pub globstar: bool,
    pub nocaseglob: bool,
    pub nocasematch: bool,
    pub expand_aliases: bool,
    pub lastpipe: bool,
    pub inherit_errexit: bool,
    /// `shopt` options without behaviour here, by name, once set.
    pub other: BTreeMap<&'static str, bool>,
}

/// `set -o` names, in the order bash lists them.
pub const SET_O: &[&str] = &[
    "allexport",
    "braceexpand",
    "emacs",
    "errexit",
    "errtrace",
    "functrace",
    "hashall",
    "histexpand",
    "history",
    "ignoreeof",
    "interactive-comments",
    "keyword",
    "monitor",
    "noclobber",
    "noexec",
    "noglob",
    "nolog",
    "notify",
    "nounset",
    "onecmd",
    "physical",
    "pipefail",
    "posix",
    "privileged",
    "verbose",
    "vi",
    "xtrace",
];
pub const SHOPTS: &[&str] = &[
    "dotglob",
    "expand_aliases",
    "extglob",
    "failglob",
    "globstar",
    "inherit_errexit",
    "lastpipe",
    "nocaseglob",
    "nocasematch",
    "nullglob",
];

impl Options {
    pub fn get(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "errexit" => &mut self.errexit,
            "nounset" => &mut self.nounset,
            "xtrace" => &mut self.xtrace,
            "pipefail" => &mut self.pipefail,
            "noglob" => &mut self.noglob,
            "noclobber" => &mut self.noclobber,
            "allexport" => &mut self.allexport,
            "noexec" => &mut self.noexec,
            "verbose" => &mut self.verbose,
            "monitor" => &mut self.monitor,
            "hashall" => &mut self.hashall,
            "errtrace" => &mut self.errtrace,
            "functrace" => &mut self.functrace,
            "extglob" => &mut self.extglob,
            "nullglob" => &mut self.nullglob,
            "failglob" => &mut self.failglob,
            "dotglob" => &mut self.dotglob,
            "globstar" => &mut self.globstar,
            "nocaseglob" => &mut self.nocaseglob,
            "nocasematch" => &mut self.nocasematch,
            "expand_aliases" => &mut self.expand_aliases,
            "lastpipe" => &mut self.lastpipe,
            "inherit_errexit" => &mut self.inherit_errexit,
            "braceexpand" => &mut self.braceexpand,
            "interactive-comments" => &mut self.interactive_comments,
            "physical" => &mut self.physical,
            "keyword" => &mut self.keyword,
            "posix" => &mut self.posix,
            "notify" => &mut self.notify,
            "histexpand" => &mut self.histexpand,
            "privileged" => &mut self.privileged,
            "onecmd" => &mut self.onecmd,
            "emacs" => &mut self.emacs,
            "vi" => &mut self.vi,
            "history" => &mut self.history,
            "ignoreeof" => &mut self.ignoreeof,
            "nolog" => &mut self.nolog,
            _ => return None,
        })
    }
    pub fn flag_name(c: u8) -> Option<&'static str> {
        Some(match c {
            b'e' => "errexit",
            b'u' => "nounset",
            b'x' => "xtrace",
            b'f' => "noglob",
            b'C' => "noclobber",
            b'a' => "allexport",
            b'n' => "noexec",
            b'v' => "verbose",
            b'm' => "monitor",
            b'h' => "hashall",
            b'E' => "errtrace",
            b'T' => "functrace",
            b'B' => "braceexpand",
            b'H' => "histexpand",
            b'P' => "physical",
            b'k' => "keyword",
            b'b' => "notify",
            b'p' => "privileged",
            b't' => "onecmd",
            _ => return None,
        })
    }
    /// `$-`, in bash's order; `c` when the commands came from `-c`.
    pub fn dash(&self, c_mode: bool) -> Bytes {
        let flags = [
            (self.allexport, b'a'),
            (self.notify, b'b'),
            (self.errexit, b'e'),
            (self.noglob, b'f'),
            (self.hashall, b'h'),
            (self.interactive, b'i'),
            (self.keyword, b'k'),
            (self.monitor, b'm'),
            (self.noexec, b'n'),
            (self.privileged, b'p'),
            (self.onecmd, b't'),
            (self.nounset, b'u'),
            (self.verbose, b'v'),
            (self.xtrace, b'x'),
            (self.braceexpand, b'B'),
            (self.noclobber, b'C'),
            (self.errtrace, b'E'),
            (self.histexpand, b'H'),
            (self.physical, b'P'),
            (self.functrace, b'T'),
            (c_mode, b'c'),
        ];
        flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, c)| *c)
            .collect()
    }
}

pub type Scope = HashMap<Bytes, Var>;

/// Longest chain of namerefs followed before calling it circular.
const NAMEREF_MAX: usize = 8;

/// Where a name leads through namerefs.
pub enum Resolved {
    Name(Bytes),
    /// A nameref to an array element: `a[1]`.
    Element(Bytes),
    Circular,
}

/// Variable storage with dynamic scoping: index 0 is the global scope.
#[derive(Default, Clone)]
pub struct Vars {
    pub scopes: Vec<Scope>,
}

impl Vars {
    pub fn new() -> Vars {
        Vars {
            scopes: vec![HashMap::new()],
        }
    }
    /// The variable called `name` itself, a nameref not followed.
    pub fn get_raw(&self, name: &[u8]) -> Option<&Var> {
        for s in self.scopes.iter().rev() {
            if let Some(v) = s.get(name) {
                return Some(v);
            }
        }
        None
    }
    /// The variable `name` stands for: namerefs followed to their target (a
    /// nameref to an array element, `a[1]`, yields None here; the shell's
    /// lookups resolve those through `resolve`).
    pub fn get(&self, name: &[u8]) -> Option<&Var> {
        let v = self.get_raw(name)?;
        if v.attrs & A_NAMEREF == 0 {
            return Some(v);
        }
        match self.resolve(name) {
            Resolved::Name(t) if t != name => self.get_raw(&t),
            Resolved::Name(_) => Some(v),
            _ => None,
        }
    }
    /// Where `name` leads through namerefs: itself when it is no nameref
    /// (or one without a target yet), else the last name of the chain.
    pub fn resolve(&self, name: &[u8]) -> Resolved {
        let mut cur = name.to_vec();
        for _ in 0..NAMEREF_MAX {
            let next = match self.get_raw(&cur) {
                Some(Var {
                    value: Some(Value::Str(t)),
                    attrs,
                }) if attrs & A_NAMEREF != 0 && !t.is_empty() => t.clone(),
                _ => return Resolved::Name(cur),
            };
            if next.contains(&b'[') {
                return Resolved::Element(next);
            }
            cur = next;
        }
        Resolved::Circular
    }
    /// The name assignments and lookups of `name` act on (namerefs followed;
    /// a circular chain or an element target leaves the name itself).
    pub fn target(&self, name: &[u8]) -> Bytes {
        match self.resolve(name) {
            Resolved::Name(t) => t,
            _ => name.to_vec(),
        }
    }
    pub fn get_mut(&mut self, name: &[u8]) -> Option<&mut Var> {
        let name = self.followed(name);
        for s in self.scopes.iter_mut().rev() {
            if let Some(v) = s.get_mut(&name[..]) {
                return Some(v);
            }
        }
        None
    }
    /// `name` itself when no nameref is involved (the common case, no copy).
    fn followed<'a>(&self, name: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        match self.get_raw(name) {
            Some(v) if v.attrs & A_NAMEREF != 0 => std::borrow::Cow::Owned(self.target(name)),
            _ => std::borrow::Cow::Borrowed(name),
        }
    }
    /// The scope that holds `name` (or the global scope), namerefs followed.
    pub fn entry(&mut self, name: &[u8]) -> &mut Var {
        let name = self.followed(name).into_owned();
        self.entry_raw(&name)
    }
    /// Like `entry`, for the variable `name` itself (a nameref not followed).
    pub fn entry_raw(&mut self, name: &[u8]) -> &mut Var {
        let idx = self
            .scopes
            .iter()
            .rposition(|s| s.contains_key(name))
            .unwrap_or(0);
        self.scopes[idx].entry(name.to_vec()).or_insert(Var {
            value: None,
            attrs: 0,
        })
    }
    pub fn local(&mut self, name: &[u8]) -> &mut Var {
        let top = self.scopes.len() - 1;
        self.scopes[top].entry(name.to_vec()).or_insert(Var {
            value: None,
            attrs: 0,
        })
    }
    pub fn unset(&mut self, name: &[u8]) -> bool {
        let name = self.followed(name).into_owned();
        self.unset_raw(&name)
    }
    /// `unset -n`: the nameref itself.
    pub fn unset_raw(&mut self, name: &[u8]) -> bool {
        for s in self.scopes.iter_mut().rev() {
            if let Some(v) = s.get_mut(name) {
                if v.attrs & A_READONLY != 0 {
                    return false;
                }
                v.value = None;
                v.attrs &= A_LOCALKEEP;
                return true;
            }
        }
        true
    }
    /// All visible variable names, sorted.
    pub fn names(&self) -> Vec<Bytes> {
        let mut seen: BTreeMap<Bytes, ()> = BTreeMap::new();
        for s in &self.scopes {
            for k in s.keys() {
                seen.insert(k.clone(), ());
            }
        }
        seen.into_keys().collect()
    }
}

/// Attributes kept when a variable is unset (none: bash drops them).
const A_LOCALKEEP: u16 = 0;

impl Value {
    pub fn scalar(&self) -> Bytes {
        match self {
            Value::Str(s) => s.clone(),
            Value::Arr(m) => m.get(&0).cloned().unwrap_or_default(),
            Value::Assoc(m) => m.get(b"0".as_slice()).cloned().unwrap_or_default(),
        }
    }
    /// The value `$name` sees: element 0 of an array, None when it has none.
    pub fn scalar_opt(&self) -> Option<Bytes> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Arr(m) => m.get(&0).cloned(),
            Value::Assoc(m) => m.get(b"0".as_slice()).cloned(),
        }
    }
    pub fn values(&self) -> Vec<Bytes> {
        match self {
            Value::Str(s) => vec![s.clone()],
            Value::Arr(m) => m.values().cloned().collect(),
            Value::Assoc(m) => m.values().cloned().collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Job {
    pub id: usize,
    pub pids: Vec<i32>,
    pub pgid: i32,
    pub cmd: Bytes,
    pub status: Option<i32>,
    /// Stopped by Ctrl-Z (SIGTSTP); `fg`/`bg` continue it.
    pub stopped: bool,
    /// The signal that ended it (0: it exited).
    pub signal: i32,
}

/// Everything a function lookup needs.
pub type Functions = HashMap<Bytes, Rc<FuncDef>>;
