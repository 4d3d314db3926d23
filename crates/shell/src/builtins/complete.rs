//! `complete`: completion specifications are kept (the sandbox's line
//! editor does not use them) so scripts can define, list and remove them as
//! in bash; `complete -p` prints them in bash's canonical form.

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
    pub fn b_complete(&mut self, args: &[Bytes]) {
        let usage = "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]\n";
        let (mut print, mut remove) = (false, false);
        let mut opts: Vec<Bytes> = Vec::new();
        let mut letters: Vec<u8> = Vec::new();
        let mut named_actions: Vec<Bytes> = Vec::new();
        let mut values: Vec<(u8, Bytes)> = Vec::new();
        let mut i = 0;
        while i < args.len() && args[i].len() > 1 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            let a = args[i].clone();
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
                                self.berr(
                                    "complete",
                                    format!("-{}: option requires an argument", c as char)
                                        .as_bytes(),
                                );
                                self.write_fd(2, usage.as_bytes());
                                self.status = 2;
                                return;
                            }
                        }
                    };
                    match c {
                        b'o' => opts.push(v),
                        b'A' => match ACTION_LETTERS.iter().find(|(_, n)| n.as_bytes() == v) {
                            Some((l, _)) => letters.push(*l),
                            None => named_actions.push(v),
                        },
                        _ => values.push((c, v)),
                    }
                    continue;
                }
                match c {
                    b'p' => print = true,
                    b'r' => remove = true,
                    b'D' | b'E' | b'I' => {}
                    c if ACTION_LETTERS.iter().any(|(l, _)| *l == c) => letters.push(c),
                    _ => {
                        self.invalid_option("complete", c, usage.as_bytes());
                        return;
                    }
                }
            }
            i += 1;
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
