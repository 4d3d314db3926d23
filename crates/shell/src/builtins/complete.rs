//! `complete`: completion specifications are kept (the sandbox's line
//! editor does not use them) so scripts can define, list and remove them as
//! in bash; `complete -p` prints them in bash's canonical form. `compgen`
//! generates the words a specification would.

use crate::ast::Bytes;
use crate::eval::Shell;

/// `-A action` names that have a one-letter option, in bash's print order.
const ACTION_LETTERS: &[(u8, &str)] = &[
    (b'a', "alias"),
    (b'b', "builtin"),
    (b'c', "command"),
    (b'd', "directory"),
    (b'e', "export"),
    (b'f', "file"),
    (b'g', "group"),
    (b'j', "job"),
    (b'k', "keyword"),
    (b's', "service"),
    (b'u', "user"),
    (b'v', "variable"),
];

/// The reserved words, in bash's table order (`compgen -k`).
pub const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// Every `-A` action compgen knows, in the order bash generates them.
const ACTIONS: &[&str] = &[
    "alias",
    "arrayvar",
    "binding",
    "builtin",
    "command",
    "directory",
    "disabled",
    "enabled",
    "export",
    "file",
    "function",
    "group",
    "helptopic",
    "hostname",
    "job",
    "keyword",
    "running",
    "service",
    "setopt",
    "shopt",
    "signal",
    "stopped",
    "user",
    "variable",
];

/// Options taking a value, in the order `complete -p` prints them.
const VALUED: &[u8] = b"GWPSXCF";

fn quoted(v: &[u8]) -> Bytes {
    let mut o = b"'".to_vec();
    for &c in v {
        if c == b'\'' {
            o.extend_from_slice(b"'\\''");
        } else {
            o.push(c);
        }
    }
    o.push(b'\'');
    o
}

impl Shell {
    /// The options of `complete` / `compgen`: the valued ones (`-o -A` and
    /// VALUED) in order, the flag letters (action letters and `extra`), and
    /// where the operands start. None after a usage error (status 2).
    #[allow(clippy::type_complexity)]
    fn spec_options(
        &mut self,
        cmd: &str,
        args: &[Bytes],
        usage: &str,
        extra: &[u8],
    ) -> Option<(Vec<(u8, Bytes)>, Vec<u8>, usize)> {
        let mut valued = Vec::new();
        let mut flags = Vec::new();
        let mut i = 0;
        while i < args.len() && args[i].len() > 1 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            let a = &args[i];
            let mut k = 1;
            while k < a.len() {
                let c = a[k];
                k += 1;
                if matches!(c, b'o' | b'A') || VALUED.contains(&c) {
                    let v = if k < a.len() {
                        let v = a[k..].to_vec();
                        k = a.len();
                        v
                    } else {
                        i += 1;
                        match args.get(i) {
                            Some(v) => v.clone(),
                            None => {
                                let m = format!("-{}: option requires an argument", c as char);
                                self.berr(cmd, m.as_bytes());
                                self.write_fd(2, usage.as_bytes());
                                self.status = 2;
                                return None;
                            }
                        }
                    };
                    valued.push((c, v));
                } else if extra.contains(&c) || ACTION_LETTERS.iter().any(|(l, _)| *l == c) {
                    flags.push(c);
                } else {
                    self.invalid_option(cmd, c, usage.as_bytes());
                    return None;
                }
            }
            i += 1;
        }
        Some((valued, flags, i))
    }

    pub fn b_complete(&mut self, args: &[Bytes]) {
        let usage = "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]\n";
        let (mut print, mut remove) = (false, false);
        let mut opts: Vec<Bytes> = Vec::new();
        let mut letters: Vec<u8> = Vec::new();
        let mut named_actions: Vec<Bytes> = Vec::new();
        let mut values: Vec<(u8, Bytes)> = Vec::new();
        let (valued, flags, i) = match self.spec_options("complete", args, usage, b"prDEI") {
            Some(x) => x,
            None => return,
        };
        for (c, v) in valued {
            match c {
                b'o' => opts.push(v),
                b'A' => match ACTION_LETTERS.iter().find(|(_, n)| n.as_bytes() == v) {
                    Some((l, _)) => letters.push(*l),
                    None => named_actions.push(v),
                },
                _ => values.push((c, v)),
            }
        }
        for c in flags {
            match c {
                b'p' => print = true,
                b'r' => remove = true,
                b'D' | b'E' | b'I' => {}
                c => letters.push(c),
            }
        }
        let names = &args[i..];
        let nothing_set =
            opts.is_empty() && letters.is_empty() && named_actions.is_empty() && values.is_empty();
        self.status = 0;
        if remove || (print || nothing_set) {
            if names.is_empty() {
                if remove {
                    self.completions.clear();
                } else {
                    let out: Bytes = self
                        .completions
                        .iter()
                        .flat_map(|(_, l)| l.clone())
                        .collect();
                    self.write_fd(1, &out);
                }
                return;
            }
            for n in names {
                match self.completions.iter().position(|(k, _)| k == n) {
                    Some(p) if remove => {
                        self.completions.remove(p);
                    }
                    Some(p) => {
                        let l = self.completions[p].1.clone();
                        self.write_fd(1, &l);
                    }
                    None => {
                        let mut m = n.clone();
                        m.extend_from_slice(b": no completion specification");
                        self.berr("complete", &m);
                        self.status = 1;
                    }
                }
            }
            return;
        }
        let mut line = b"complete".to_vec();
        for o in &opts {
            line.extend_from_slice(b" -o ");
            line.extend_from_slice(o);
        }
        for (l, _) in ACTION_LETTERS {
            if letters.contains(l) {
                line.extend_from_slice(format!(" -{}", *l as char).as_bytes());
            }
        }
        for a in &named_actions {
            line.extend_from_slice(b" -A ");
            line.extend_from_slice(a);
        }
        for c in VALUED {
            if let Some((_, v)) = values.iter().rev().find(|(k, _)| k == c) {
                line.extend_from_slice(format!(" -{} ", *c as char).as_bytes());
                if *c == b'F' {
                    line.extend_from_slice(v);
                } else {
                    line.extend_from_slice(&quoted(v));
                }
            }
        }
        for n in names {
            let mut l = line.clone();
            l.push(b' ');
            l.extend_from_slice(n);
            l.push(b'\n');
            self.completions.retain(|(k, _)| k != n);
            // bash lists the newest first
            self.completions.insert(0, (n.clone(), l));
        }
    }
}

impl Shell {
    /// `compgen [-abcdefgjksuv] [-o opt] [-A action] [-G glob] [-W words]
    /// [-X filter] [-P prefix] [-S suffix] [word]`: the actions' words in
    /// bash's order, then the glob's, then the word list's (split as shell
    /// words and expanded), those starting with `word`, less those `-X`
    /// matches (`!pat`: those it does not), each between prefix and suffix.
    pub fn b_compgen(&mut self, args: &[Bytes]) -> crate::eval::R<()> {
        let usage = "compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]\n";
        let mut actions: Vec<&str> = Vec::new();
        let mut values: Vec<(u8, Bytes)> = Vec::new();
        let (valued, flags, i) = match self.spec_options("compgen", args, usage, b"") {
            Some(x) => x,
            None => return Ok(()),
        };
        for (c, v) in valued {
            match c {
                b'o' => {}
                b'A' => match ACTIONS.iter().find(|n| n.as_bytes() == v) {
                    Some(n) => actions.push(n),
                    None => {
                        let mut m = v.clone();
                        m.extend_from_slice(b": invalid action name");
                        self.berr("compgen", &m);
                        self.status = 2;
                        return Ok(());
                    }
                },
                _ => values.push((c, v)),
            }
        }
        for c in flags {
            if let Some((_, n)) = ACTION_LETTERS.iter().find(|(l, _)| *l == c) {
                actions.push(n);
            }
        }
        if args.is_empty() {
            self.status = 0;
            return Ok(());
        }
        let word = args.get(i).cloned().unwrap_or_default();
        let value = |c: u8| {
            values
                .iter()
                .rev()
                .find(|(k, _)| *k == c)
                .map(|(_, v)| v.clone())
        };
        let mut out: Vec<Bytes> = Vec::new();
        for a in ACTIONS {
            if actions.contains(a) {
                out.extend(self.action_words(a, &word));
            }
        }
        if let Some(g) = value(b'G') {
            let mut m = crate::eval::pattern::glob_expand(self, &g);
            m.retain(|x| x.starts_with(&word));
            out.extend(m);
        }
        if let Some(w) = value(b'W') {
            for x in self.wordlist_words(&w)? {
                if x.starts_with(&word) {
                    out.push(x);
                }
            }
        }
        if let Some(x) = value(b'X') {
            let (neg, pat) = match x.strip_prefix(b"!") {
                Some(p) => (true, p.to_vec()),
                None => (false, x),
            };
            let mode = self.match_mode();
            out.retain(|w| crate::eval::pattern::pat_match(&pat, w, mode) == neg);
        }
        let (pre, suf) = (
            value(b'P').unwrap_or_default(),
            value(b'S').unwrap_or_default(),
        );
        let mut text = Vec::new();
        for w in &out {
            text.extend_from_slice(&pre);
            text.extend_from_slice(w);
            text.extend_from_slice(&suf);
            text.push(b'\n');
        }
        self.write_fd(1, &text);
        self.status = if out.is_empty() { 1 } else { 0 };
        Ok(())
    }

    /// The words of one `-A` action that start with `word`.
    fn action_words(&mut self, action: &str, word: &[u8]) -> Vec<Bytes> {
        let names = |list: &mut dyn Iterator<Item = String>| -> Vec<Bytes> {
            list.map(String::into_bytes)
                .filter(|n| n.starts_with(word))
                .collect()
        };
        match action {
            "alias" | "builtin" | "command" | "directory" | "export" | "file" | "function"
            | "keyword" | "variable" => self.completions(action.as_bytes(), word),
            "arrayvar" => {
                let mut v: Vec<Bytes> = self
                    .vars
                    .names()
                    .into_iter()
                    .filter(|n| {
                        n.starts_with(word)
                            && matches!(
                                self.vars.get(n).and_then(|x| x.value.as_ref()),
                                Some(crate::state::Value::Arr(_))
                            )
                    })
                    .collect();
                v.sort();
                v
            }
            "enabled" | "disabled" => {
                let want = action == "disabled";
                super::BUILTINS
                    .iter()
                    .filter(|b| self.disabled.contains(b.as_bytes()) == want)
                    .map(|b| b.as_bytes().to_vec())
                    .filter(|b| b.starts_with(word))
                    .collect()
            }
            "helptopic" => names(
                &mut super::help_topics::HELP_TOPICS
                    .iter()
                    .map(|(t, _, _)| t.to_string()),
            ),
            "setopt" => names(&mut crate::state::SET_O.iter().map(|s| s.to_string())),
            "shopt" => names(
                &mut super::vars::SHOPT_DEFAULTS
                    .iter()
                    .map(|(s, _)| s.to_string()),
            ),
            "signal" => names(
                &mut std::iter::once("EXIT".to_string()).chain((1..=64).filter_map(|n| {
                    super::flow::signal_short_name(n).map(|s| format!("SIG{}", s))
                })),
            ),
            // no jobs, users, groups, hosts, services or key bindings to offer
            _ => Vec::new(),
        }
    }

    /// `compgen -W`'s list: shell words (quotes group), each expanded.
    fn wordlist_words(&mut self, list: &[u8]) -> crate::eval::R<Vec<Bytes>> {
        let mut src = b": ".to_vec();
        src.extend_from_slice(list);
        let words = crate::parse::Parser::parse_all(&src, self.lineno)
            .ok()
            .and_then(
                |prog| match prog.items.first()?.and_or.first.cmds.first()? {
                    crate::ast::Command::Simple(s) => Some(s.words.clone()),
                    _ => None,
                },
            );
        let mut out = Vec::new();
        match words {
            Some(ws) => {
                // every expansion but pathname expansion (bash's shellexp)
                let noglob = std::mem::replace(&mut self.opts.noglob, true);
                let r = self.expand_words(&ws[1..]);
                self.opts.noglob = noglob;
                out = r?;
            }
            None => out.extend(
                list.split(|c| matches!(c, b' ' | b'\t' | b'\n'))
                    .filter(|s| !s.is_empty())
                    .map(<[u8]>::to_vec),
            ),
        }
        Ok(out)
    }
}
