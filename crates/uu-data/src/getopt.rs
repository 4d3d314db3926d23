//! GNU `getopt_long`-style argument parsing with GNU's diagnostics
//! (`invalid option -- 'x'`, `unrecognized option '--foo'`, ...), so every
//! utility reports usage errors the same way.

use crate::common::bytes;
use std::ffi::OsString;

/// Does an option take an argument?
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HasArg {
    /// Never.
    No,
    /// Always (next word if not attached).
    Yes,
    /// Only when attached (`-xARG`, `--x=ARG`).
    Optional,
}

/// A long option: name and argument kind; `key` is what `Opt::key` reports
/// (usually the equivalent short option letter).
pub struct Long {
    /// Name without `--`.
    pub name: &'static str,
    /// Argument kind.
    pub arg: HasArg,
    /// Identifier reported for it.
    pub key: char,
}

/// One parsed option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    /// Short letter or the long option's key.
    pub key: char,
    /// Its argument, if any.
    pub arg: Option<OsString>,
}

/// Parsed command line: options in order, then operands.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Options in the order given.
    pub opts: Vec<Opt>,
    /// Non-option words.
    pub operands: Vec<OsString>,
}

/// Parser settings. `short` is getopt's optstring (`"n:v"`).
pub struct Spec<'a> {
    /// Short options, `:` after a letter means it takes an argument,
    /// `::` an optional attached one.
    pub short: &'a str,
    /// Long options.
    pub long: &'a [Long],
    /// Stop at the first operand (POSIX `+` mode), as utilities that run
    /// a command need.
    pub stop_at_operand: bool,
}

fn short_kind(spec: &str, c: char) -> Option<HasArg> {
    let b: Vec<char> = spec.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == c && c != ':' {
            if b.get(i + 1) == Some(&':') {
                if b.get(i + 2) == Some(&':') {
                    return Some(HasArg::Optional);
                }
                return Some(HasArg::Yes);
            }
            return Some(HasArg::No);
        }
        i += 1;
    }
    None
}

/// Parse `args` (without argv[0]). The error is GNU's message text.
pub fn parse(args: &[OsString], spec: &Spec) -> Result<Parsed, String> {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let a = bytes(&args[i]);
        if a == b"--" {
            p.operands.extend(args[i + 1..].iter().cloned());
            return Ok(p);
        }
        if a.starts_with(b"--") {
            let body = String::from_utf8_lossy(&a[2..]).into_owned();
            let (name, val) = match body.find('=') {
                Some(k) => (body[..k].to_string(), Some(&a[2 + k + 1..])),
                None => (body.clone(), None),
            };
            let exact = spec.long.iter().find(|l| l.name == name);
            let cands: Vec<&Long> = match exact {
                Some(l) => vec![l],
                None => spec
                    .long
                    .iter()
                    .filter(|l| l.name.starts_with(name.as_str()))
                    .collect(),
            };
            let l = match cands.len() {
                0 => return Err(format!("unrecognized option '--{}'", body)),
                1 => cands[0],
                _ => {
                    let same = cands.iter().all(|c| c.key == cands[0].key);
                    if same {
                        cands[0]
                    } else {
                        let list: Vec<String> =
                            cands.iter().map(|c| format!("'--{}'", c.name)).collect();
                        return Err(format!(
                            "option '--{}' is ambiguous; possibilities: {}",
                            name,
                            list.join(" ")
                        ));
                    }
                }
            };
            let arg = match (l.arg, val) {
                (HasArg::No, Some(_)) => {
                    return Err(format!("option '--{}' doesn't allow an argument", l.name))
                }
                (HasArg::No, None) => None,
                (_, Some(v)) => Some(crate::common::os(v.to_vec())),
                (HasArg::Optional, None) => None,
                (HasArg::Yes, None) => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => return Err(format!("option '--{}' requires an argument", l.name)),
                    }
                }
            };
            p.opts.push(Opt { key: l.key, arg });
            i += 1;
            continue;
        }
        if a.len() > 1 && a[0] == b'-' {
            let mut j = 1;
            while j < a.len() {
                let c = a[j] as char;
                match short_kind(spec.short, c) {
                    None => {
                        return Err(format!("invalid option -- '{}'", c));
                    }
                    Some(HasArg::No) => {
                        p.opts.push(Opt { key: c, arg: None });
                        j += 1;
                    }
                    Some(kind) => {
                        if j + 1 < a.len() {
                            p.opts.push(Opt {
                                key: c,
                                arg: Some(crate::common::os(a[j + 1..].to_vec())),
                            });
                        } else if kind == HasArg::Optional {
                            p.opts.push(Opt { key: c, arg: None });
                        } else {
                            i += 1;
                            match args.get(i) {
                                Some(v) => p.opts.push(Opt {
                                    key: c,
                                    arg: Some(v.clone()),
                                }),
                                None => {
                                    return Err(format!("option requires an argument -- '{}'", c))
                                }
                            }
                        }
                        break;
                    }
                }
            }
            i += 1;
            continue;
        }
        if spec.stop_at_operand {
            p.operands.extend(args[i..].iter().cloned());
            return Ok(p);
        }
        p.operands.push(args[i].clone());
        i += 1;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    const LONG: &[Long] = &[
        Long {
            name: "signal",
            arg: HasArg::Yes,
            key: 's',
        },
        Long {
            name: "verbose",
            arg: HasArg::No,
            key: 'v',
        },
    ];

    #[test]
    fn parses_short_long_and_operands() {
        let spec = Spec {
            short: "s:v",
            long: LONG,
            stop_at_operand: false,
        };
        let p = parse(&v(&["-vsKILL", "x", "--sig=TERM", "--", "-y"]), &spec).unwrap();
        assert_eq!(p.opts.len(), 3);
        assert_eq!(p.opts[1].arg, Some("KILL".into()));
        assert_eq!(p.opts[2].arg, Some("TERM".into()));
        assert_eq!(p.operands, v(&["x", "-y"]));
    }

    #[test]
    fn reports_gnu_messages() {
        let spec = Spec {
            short: "s:v",
            long: LONG,
            stop_at_operand: true,
        };
        assert_eq!(
            parse(&v(&["-z"]), &spec).unwrap_err(),
            "invalid option -- 'z'"
        );
        assert_eq!(
            parse(&v(&["-s"]), &spec).unwrap_err(),
            "option requires an argument -- 's'"
        );
        assert_eq!(
            parse(&v(&["--bogus"]), &spec).unwrap_err(),
            "unrecognized option '--bogus'"
        );
        let p = parse(&v(&["cmd", "-z"]), &spec).unwrap();
        assert_eq!(p.operands.len(), 2);
    }
}
