//! A small GNU `getopt_long` work-alike: bundled short options, attached or
//! separate arguments, long options with `=` or a separate argument, unique
//! prefixes of long options, `--`, and optional argument permutation.
//! Error texts are glibc's so diagnostics match GNU tools.

use std::ffi::{OsStr, OsString};

#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(target_os = "wasi")]
use std::os::wasi::ffi::OsStrExt;

/// Whether an option takes an argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HasArg {
    /// A flag.
    No,
    /// Needs a value (attached or the next word).
    Required,
    /// Value only when attached (`-iSUF`, `--color=never`).
    Optional,
}

/// A long option: name, argument kind, key reported for it.
pub type LongOpt = (&'static str, HasArg, u32);

/// Option table of one program.
pub struct Spec {
    /// Short options in getopt syntax: `"nr:i::"`.
    pub short: &'static str,
    /// Long options.
    pub long: &'static [LongOpt],
    /// Keep scanning for options after the first operand (GNU default).
    pub permute: bool,
    /// Treat `-NUM` as an option with key [`DIGITS`] (grep's context).
    pub digits: bool,
}

/// Key reported for `-NUM` when [`Spec::digits`] is set.
pub const DIGITS: u32 = 0x10_0000;

/// One parsed command-line element.
#[derive(Debug, Clone)]
pub enum Item {
    /// An option with its key and value, if any.
    Opt(u32, Option<OsString>),
    /// An operand.
    Operand(OsString),
}

fn short_kind(spec: &Spec, c: u8) -> Option<HasArg> {
    let s = spec.short.as_bytes();
    let mut i = 0;
    while i < s.len() {
        if s[i] == c && c != b':' {
            if i + 2 < s.len() + 1 && s.get(i + 1) == Some(&b':') {
                if s.get(i + 2) == Some(&b':') {
                    return Some(HasArg::Optional);
                }
                return Some(HasArg::Required);
            }
            return Some(HasArg::No);
        }
        i += 1;
    }
    None
}

/// Parse `args` (without argv[0]). Errors are glibc messages without the
/// program prefix.
pub fn parse(args: &[OsString], spec: &Spec) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let a = args[i].as_bytes();
        i += 1;
        if only_operands || a.len() < 2 || a[0] != b'-' {
            items.push(Item::Operand(args[i - 1].clone()));
            if !spec.permute && !only_operands {
                only_operands = true;
            }
            continue;
        }
        if a == b"--" {
            only_operands = true;
            continue;
        }
        if a.starts_with(b"--") {
            let body = &a[2..];
            let (name, val) = match body.iter().position(|&b| b == b'=') {
                Some(p) => (
                    &body[..p],
                    Some(OsStr::from_bytes(&body[p + 1..]).to_os_string()),
                ),
                None => (body, None),
            };
            let name_s = String::from_utf8_lossy(name).into_owned();
            let exact = spec.long.iter().find(|l| l.0 == name_s);
            let opt = match exact {
                Some(o) => *o,
                None => {
                    let cands: Vec<&LongOpt> = spec
                        .long
                        .iter()
                        .filter(|l| l.0.starts_with(&name_s))
                        .collect();
                    let first_key = cands.first().map(|c| c.2);
                    if cands.is_empty() {
                        return Err(format!(
                            "unrecognized option '--{}'",
                            String::from_utf8_lossy(body)
                        ));
                    }
                    if cands.len() > 1 && cands.iter().any(|c| Some(c.2) != first_key) {
                        let mut m = format!("option '--{}' is ambiguous; possibilities:", name_s);
                        for c in cands {
                            m.push_str(" '--");
                            m.push_str(c.0);
                            m.push('\'');
                        }
                        return Err(m);
                    }
                    *cands[0]
                }
            };
            match opt.1 {
                HasArg::No => {
                    if val.is_some() {
                        return Err(format!("option '--{}' doesn't allow an argument", opt.0));
                    }
                    items.push(Item::Opt(opt.2, None));
                }
                HasArg::Optional => items.push(Item::Opt(opt.2, val)),
                HasArg::Required => {
                    let v = match val {
                        Some(v) => v,
                        None => {
                            if i < args.len() {
                                i += 1;
                                args[i - 1].clone()
                            } else {
                                return Err(format!("option '--{}' requires an argument", opt.0));
                            }
                        }
                    };
                    items.push(Item::Opt(opt.2, Some(v)));
                }
            }
            continue;
        }
        // Bundled short options.
        let mut j = 1;
        while j < a.len() {
            let c = a[j];
            if spec.digits && c.is_ascii_digit() {
                let s = j;
                while j < a.len() && a[j].is_ascii_digit() {
                    j += 1;
                }
                items.push(Item::Opt(
                    DIGITS,
                    Some(OsStr::from_bytes(&a[s..j]).to_os_string()),
                ));
                continue;
            }
            j += 1;
            match short_kind(spec, c) {
                None => {
                    return Err(format!("invalid option -- '{}'", c as char));
                }
                Some(HasArg::No) => items.push(Item::Opt(c as u32, None)),
                Some(HasArg::Optional) => {
                    let v = if j < a.len() {
                        Some(OsStr::from_bytes(&a[j..]).to_os_string())
                    } else {
                        None
                    };
                    items.push(Item::Opt(c as u32, v));
                    break;
                }
                Some(HasArg::Required) => {
                    let v = if j < a.len() {
                        OsStr::from_bytes(&a[j..]).to_os_string()
                    } else if i < args.len() {
                        i += 1;
                        args[i - 1].clone()
                    } else {
                        return Err(format!("option requires an argument -- '{}'", c as char));
                    };
                    items.push(Item::Opt(c as u32, Some(v)));
                    break;
                }
            }
        }
    }
    Ok(items)
}

/// Bytes of an OS string.
pub fn bytes(s: &OsStr) -> &[u8] {
    s.as_bytes()
}

/// An OS string from bytes.
pub fn os(b: &[u8]) -> &OsStr {
    OsStr::from_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    const LONG: &[LongOpt] = &[
        ("count", HasArg::No, b'c' as u32),
        ("color", HasArg::Optional, 300),
        ("colour", HasArg::Optional, 300),
        ("context", HasArg::Required, b'C' as u32),
    ];
    fn spec() -> Spec {
        Spec {
            short: "cA:e:i::",
            long: LONG,
            permute: true,
            digits: true,
        }
    }
    fn run(v: &[&str]) -> Result<Vec<Item>, String> {
        let a: Vec<OsString> = v.iter().map(OsString::from).collect();
        parse(&a, &spec())
    }

    #[test]
    fn bundles_and_values() {
        let r = run(&["-cA3", "x", "-e", "p", "--col", "-5", "--", "-c"]).unwrap();
        let s = format!("{:?}", r);
        assert!(s.contains("Opt(99, None)"));
        assert!(s.contains("Opt(65, Some(\"3\"))"));
        assert!(s.contains("Opt(300, None)"));
        assert!(s.contains("Opt(1048576, Some(\"5\"))"));
        assert!(s.contains("Operand(\"-c\")"));
    }

    #[test]
    fn errors() {
        assert_eq!(run(&["-Q"]).unwrap_err(), "invalid option -- 'Q'");
        assert_eq!(
            run(&["-A"]).unwrap_err(),
            "option requires an argument -- 'A'"
        );
        assert_eq!(run(&["--foo"]).unwrap_err(), "unrecognized option '--foo'");
        assert!(run(&["--co"]).unwrap_err().contains("is ambiguous"));
        assert_eq!(
            run(&["--count=3"]).unwrap_err(),
            "option '--count' doesn't allow an argument"
        );
    }
}
