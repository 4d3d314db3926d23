//! GNU `getopt_long`-style option parsing: clustered short options,
//! attached or separate arguments, `--long[=arg]` with unambiguous prefixes,
//! operands anywhere (permutation) until `--`, and GNU's diagnostics.

use std::ffi::OsString;

use super::bytes::{bytes_os, os_bytes};

/// Whether an option takes an argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arg {
    /// A flag.
    No,
    /// A required argument (attached or the next word).
    Yes,
    /// An optional argument (attached only: `-iSUF`, `--opt=VAL`).
    Maybe,
}

/// One accepted option; `id` is how the utility recognises it.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// Identifier returned in [`Parsed::opts`].
    pub id: &'static str,
    /// Short form, if any.
    pub short: Option<char>,
    /// Long form without the dashes, if any.
    pub long: Option<&'static str>,
    /// Argument kind.
    pub arg: Arg,
}

/// Shorthand constructor for an [`Opt`].
pub const fn opt(
    id: &'static str,
    short: Option<char>,
    long: Option<&'static str>,
    arg: Arg,
) -> Opt {
    Opt {
        id,
        short,
        long,
        arg,
    }
}

/// Result of parsing: options in command-line order and the operands.
#[derive(Debug, Default)]
pub struct Parsed {
    /// `(id, argument)` pairs in order.
    pub opts: Vec<(&'static str, Option<OsString>)>,
    /// Non-option words.
    pub operands: Vec<OsString>,
}

impl Parsed {
    /// Whether option `id` was given.
    pub fn has(&self, id: &str) -> bool {
        self.opts.iter().any(|(i, _)| *i == id)
    }
    /// The last argument given to option `id`.
    pub fn last(&self, id: &str) -> Option<&OsString> {
        self.opts
            .iter()
            .rev()
            .find(|(i, _)| *i == id)
            .and_then(|(_, v)| v.as_ref())
    }
    /// Every argument given to option `id`, in order.
    pub fn all(&self, id: &str) -> Vec<&OsString> {
        self.opts
            .iter()
            .filter(|(i, _)| *i == id)
            .filter_map(|(_, v)| v.as_ref())
            .collect()
    }
    /// The last argument given to option `id`, as lossy text.
    pub fn last_str(&self, id: &str) -> Option<String> {
        self.last(id).map(|s| s.to_string_lossy().into_owned())
    }
}

/// What a utility says in `--help` and how it exits on usage errors.
pub struct Usage {
    /// Program name printed in messages.
    pub prog: &'static str,
    /// Body of `--help` (after the `Usage:` line's program name).
    pub help: &'static str,
    /// Exit status for usage errors (1 for most, 2 for sort/diff/cmp/...).
    pub code: i32,
}

/// Outcome when parsing cannot continue: the exit status to return.
pub type Exit = i32;

impl Usage {
    /// Print `prog: msg` plus the `Try` hint and return the usage status.
    pub fn fail(&self, msg: &str) -> Exit {
        eprintln!("{}: {}", self.prog, msg);
        // diffutils put the program name before the hint too.
        let pre = if matches!(self.prog, "diff" | "cmp") {
            format!("{}: ", self.prog)
        } else {
            String::new()
        };
        eprintln!("{}Try '{} --help' for more information.", pre, self.prog);
        self.code
    }
    /// Like [`Usage::fail`] with another status (GNU's argmatch errors exit 1
    /// even in utilities whose usage status is 2).
    pub fn fail_with(&self, code: i32, msg: &str) -> Exit {
        self.fail(msg);
        code
    }
    /// Print `prog: msg` (no hint) and return `code`.
    pub fn die(&self, code: i32, msg: &str) -> Exit {
        eprintln!("{}: {}", self.prog, msg);
        code
    }
}

/// Parse `args` (argv[0] excluded). `--help` and `--version` are handled
/// here (printed, then `Err(0)`).
pub fn parse(usage: &Usage, spec: &[Opt], args: &[OsString]) -> Result<Parsed, Exit> {
    let mut out = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let a = os_bytes(&args[i]);
        i += 1;
        if a == b"--" {
            out.operands.extend(args[i..].iter().cloned());
            break;
        }
        if a.len() >= 2 && a.starts_with(b"--") {
            let body = &a[2..];
            let (name, val) = match body.iter().position(|&c| c == b'=') {
                Some(p) => (&body[..p], Some(&body[p + 1..])),
                None => (body, None),
            };
            let name_s = String::from_utf8_lossy(name).into_owned();
            if name_s == "help" || name_s == "version" {
                if name_s == "help" {
                    print!("Usage: {} {}", usage.prog, usage.help);
                } else {
                    println!(
                        "{} (Sandglass coreutils) {}",
                        usage.prog,
                        env!("CARGO_PKG_VERSION")
                    );
                }
                return Err(0);
            }
            let exact: Vec<&Opt> = spec
                .iter()
                .filter(|o| o.long == Some(name_s.as_str()))
                .collect();
            let cands: Vec<&Opt> = if !exact.is_empty() {
                exact
            } else {
                let mut c: Vec<&Opt> = spec
                    .iter()
                    .filter(|o| o.long.map_or(false, |l| l.starts_with(name_s.as_str())))
                    .collect();
                // Several long names for one id are not an ambiguity.
                c.dedup_by(|x, y| x.id == y.id);
                c
            };
            let o = match cands.len() {
                0 => {
                    if "help".starts_with(&name_s) && !name_s.is_empty() {
                        print!("Usage: {} {}", usage.prog, usage.help);
                        return Err(0);
                    }
                    let shown = String::from_utf8_lossy(a);
                    let shown = shown.split('=').next().unwrap_or("");
                    return Err(usage.fail(&format!("unrecognized option '{}'", shown)));
                }
                1 => cands[0],
                _ => {
                    let list: Vec<String> = cands
                        .iter()
                        .map(|o| format!("'--{}'", o.long.unwrap_or("")))
                        .collect();
                    return Err(usage.fail(&format!(
                        "option '--{}' is ambiguous; possibilities: {}",
                        name_s,
                        list.join(" ")
                    )));
                }
            };
            let long = o.long.unwrap_or("");
            match (o.arg, val) {
                (Arg::No, Some(_)) => {
                    return Err(
                        usage.fail(&format!("option '--{}' doesn't allow an argument", long))
                    )
                }
                (Arg::No, None) | (Arg::Maybe, None) => out.opts.push((o.id, None)),
                (_, Some(v)) => out.opts.push((o.id, Some(bytes_os(v.to_vec())))),
                (Arg::Yes, None) => {
                    if i < args.len() {
                        out.opts.push((o.id, Some(args[i].clone())));
                        i += 1;
                    } else {
                        return Err(
                            usage.fail(&format!("option '--{}' requires an argument", long))
                        );
                    }
                }
            }
            continue;
        }
        if a.len() >= 2 && a[0] == b'-' {
            let mut j = 1;
            while j < a.len() {
                let c = a[j] as char;
                j += 1;
                let o = match spec.iter().find(|o| o.short == Some(c)) {
                    Some(o) => o,
                    None => {
                        let shown = if a[j - 1].is_ascii() {
                            c.to_string()
                        } else {
                            String::from_utf8_lossy(&a[j - 1..j]).into_owned()
                        };
                        return Err(usage.fail(&format!("invalid option -- '{}'", shown)));
                    }
                };
                match o.arg {
                    Arg::No => out.opts.push((o.id, None)),
                    Arg::Maybe => {
                        let rest = &a[j..];
                        out.opts.push((
                            o.id,
                            if rest.is_empty() {
                                None
                            } else {
                                Some(bytes_os(rest.to_vec()))
                            },
                        ));
                        break;
                    }
                    Arg::Yes => {
                        let rest = &a[j..];
                        if !rest.is_empty() {
                            out.opts.push((o.id, Some(bytes_os(rest.to_vec()))));
                        } else if i < args.len() {
                            out.opts.push((o.id, Some(args[i].clone())));
                            i += 1;
                        } else {
                            return Err(
                                usage.fail(&format!("option requires an argument -- '{}'", c))
                            );
                        }
                        break;
                    }
                }
            }
            continue;
        }
        out.operands.push(args[i - 1].clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &[Opt] = &[
        opt("n", Some('n'), Some("lines"), Arg::Yes),
        opt("r", Some('r'), Some("reverse"), Arg::No),
        opt("s", Some('s'), Some("stable"), Arg::No),
        opt("S", None, Some("sort"), Arg::Yes),
    ];
    const U: Usage = Usage {
        prog: "t",
        help: "",
        code: 2,
    };

    fn v(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn clusters_attached_and_permutation() {
        let p = parse(
            &U,
            SPEC,
            &v(&[
                "-rn5", "file", "--lines", "7", "-n", "8", "--rev", "--", "-r",
            ]),
        )
        .unwrap();
        let ids: Vec<_> = p.opts.iter().map(|(i, _)| *i).collect();
        assert_eq!(ids, vec!["r", "n", "n", "n", "r"]);
        assert_eq!(p.last_str("n").as_deref(), Some("8"));
        assert_eq!(p.operands, v(&["file", "-r"]));
    }

    #[test]
    fn errors_have_usage_status() {
        assert_eq!(parse(&U, SPEC, &v(&["-Z"])).unwrap_err(), 2);
        assert_eq!(parse(&U, SPEC, &v(&["-n"])).unwrap_err(), 2);
        assert_eq!(parse(&U, SPEC, &v(&["--s"])).unwrap_err(), 2);
        assert_eq!(parse(&U, SPEC, &v(&["--reverse=1"])).unwrap_err(), 2);
    }

    #[test]
    fn dash_is_operand() {
        let p = parse(&U, SPEC, &v(&["-", "--sort=x"])).unwrap();
        assert_eq!(p.operands, v(&["-"]));
        assert_eq!(p.last_str("S").as_deref(), Some("x"));
    }
}
