//! GNU-style command-line parsing (the `getopt_long` of the utilities).
//!
//! Short options bundle (`-abc`), take values attached or separate
//! (`-n5`, `-n 5`), long options take `--name=value` or `--name value` and
//! may be abbreviated to a unique prefix; `--` ends options; operands and
//! options may be mixed (GNU permutation) unless the short spec starts with
//! `+`. Errors come back as the exact GNU diagnostic text.
//!
//! ```
//! use coreutils_core::args::{parse, LongOpt, HasArg};
//! use std::ffi::OsString;
//! let argv: Vec<OsString> = ["x", "-vn5", "file", "--all"].iter().map(|s| s.into()).collect();
//! let longs = [LongOpt { name: "all", arg: HasArg::No, key: 'a' }];
//! let p = parse(&argv[1..], "avn:", &longs).unwrap();
//! assert_eq!(p.opts.len(), 3);
//! assert_eq!(p.opts[1].value.as_deref(), Some(std::ffi::OsStr::new("5")));
//! assert_eq!(p.operands, vec![OsString::from("file")]);
//! ```

use std::ffi::{OsStr, OsString};

use crate::bytes::{os_bytes, os_from_bytes};

/// Whether an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HasArg {
    /// A flag.
    No,
    /// Needs a value (`--x=v`, `--x v`, `-xv`, `-x v`).
    Required,
    /// Value only when attached (`--x=v`, `-xv`).
    Optional,
}

/// A long option: its name, whether it takes a value, and the key reported
/// for it (usually the matching short option's letter; long-only options use
/// private-use characters such as `'\u{e000}'`).
#[derive(Clone, Copy, Debug)]
pub struct LongOpt {
    /// Name without the leading `--`.
    pub name: &'static str,
    /// Value requirement.
    pub arg: HasArg,
    /// Key reported in [`Opt::key`].
    pub key: char,
}

/// One option occurrence, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opt {
    /// The short letter or the long option's key.
    pub key: char,
    /// Its value, when it takes one and one was given.
    pub value: Option<OsString>,
}

impl Opt {
    /// The value as lossy UTF-8 (empty when absent).
    pub fn val(&self) -> String {
        self.value
            .as_ref()
            .map(|v| v.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// Result of parsing.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Options in order.
    pub opts: Vec<Opt>,
    /// Operands in order.
    pub operands: Vec<OsString>,
}

impl Parsed {
    /// Whether option `key` occurred.
    pub fn has(&self, key: char) -> bool {
        self.opts.iter().any(|o| o.key == key)
    }
    /// Value of the last occurrence of `key`.
    pub fn last(&self, key: char) -> Option<&OsString> {
        self.opts
            .iter()
            .rev()
            .find(|o| o.key == key)
            .and_then(|o| o.value.as_ref())
    }
}

/// A parse failure; `message` is GNU's text (without `prog: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError {
    /// e.g. `invalid option -- 'Z'`.
    pub message: String,
}

fn short_spec(spec: &str, c: char) -> Option<HasArg> {
    let mut it = spec.chars().peekable();
    while let Some(x) = it.next() {
        let mut arg = HasArg::No;
        if it.peek() == Some(&':') {
            it.next();
            arg = HasArg::Required;
            if it.peek() == Some(&':') {
                it.next();
                arg = HasArg::Optional;
            }
        }
        if x == c && x != ':' && x != '+' {
            return Some(arg);
        }
    }
    None
}

fn find_long<'a>(longs: &'a [LongOpt], name: &str) -> Result<&'a LongOpt, ArgError> {
    if let Some(l) = longs.iter().find(|l| l.name == name) {
        return Ok(l);
    }
    let cands: Vec<&LongOpt> = longs.iter().filter(|l| l.name.starts_with(name)).collect();
    match cands.len() {
        0 => Err(ArgError {
            message: format!("unrecognized option '--{}'", name),
        }),
        1 => Ok(cands[0]),
        _ => {
            // Several names for the same key are not ambiguous.
            if cands
                .iter()
                .all(|c| c.key == cands[0].key && c.arg == cands[0].arg)
            {
                return Ok(cands[0]);
            }
            let list: Vec<String> = cands.iter().map(|c| format!("'--{}'", c.name)).collect();
            Err(ArgError {
                message: format!(
                    "option '--{}' is ambiguous; possibilities: {}",
                    name,
                    list.join(" ")
                ),
            })
        }
    }
}

/// Parse `args` (argv without argv[0]) against a getopt short spec
/// (`"an:o::"`; a leading `+` stops at the first operand) and long options.
pub fn parse(args: &[OsString], shorts: &str, longs: &[LongOpt]) -> Result<Parsed, ArgError> {
    let stop_at_operand = shorts.starts_with('+');
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
            let (name_b, val) = match body.iter().position(|&c| c == b'=') {
                Some(p) => (&body[..p], Some(os_from_bytes(&body[p + 1..]))),
                None => (body, None),
            };
            let name = String::from_utf8_lossy(name_b).into_owned();
            let l = find_long(longs, &name)?;
            let value = match (l.arg, val) {
                (HasArg::No, Some(_)) => {
                    return Err(ArgError {
                        message: format!("option '--{}' doesn't allow an argument", l.name),
                    })
                }
                (HasArg::No, None) => None,
                (HasArg::Optional, v) => v,
                (HasArg::Required, Some(v)) => Some(v),
                (HasArg::Required, None) => {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return Err(ArgError {
                            message: format!("option '--{}' requires an argument", l.name),
                        });
                    }
                }
            };
            out.opts.push(Opt { key: l.key, value });
            continue;
        }
        if a.len() >= 2 && a[0] == b'-' {
            let s = String::from_utf8_lossy(&a[1..]).into_owned();
            let chars: Vec<(usize, char)> = s.char_indices().collect();
            let mut k = 0;
            while k < chars.len() {
                let (pos, c) = chars[k];
                k += 1;
                let spec = match short_spec(shorts, c) {
                    Some(s) => s,
                    None => {
                        return Err(ArgError {
                            message: format!("invalid option -- '{}'", c),
                        })
                    }
                };
                if spec == HasArg::No {
                    out.opts.push(Opt {
                        key: c,
                        value: None,
                    });
                    continue;
                }
                let rest_start = 1 + pos + c.len_utf8();
                let value = if rest_start < a.len() {
                    Some(os_from_bytes(&a[rest_start..]))
                } else if spec == HasArg::Required {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return Err(ArgError {
                            message: format!("option requires an argument -- '{}'", c),
                        });
                    }
                } else {
                    None
                };
                out.opts.push(Opt { key: c, value });
                break;
            }
            continue;
        }
        out.operands.push(args[i - 1].clone());
        if stop_at_operand {
            out.operands.extend(args[i..].iter().cloned());
            break;
        }
    }
    Ok(out)
}

/// Print `prog: message` and GNU's `Try 'prog --help'` hint; return `code`.
pub fn usage_error(prog: &str, message: &str, code: i32) -> i32 {
    eprintln!("{}: {}", prog, message);
    eprintln!("Try '{} --help' for more information.", prog);
    code
}

/// Print `prog: missing operand` and the hint; return `code`.
pub fn missing_operand(prog: &str, code: i32) -> i32 {
    usage_error(prog, "missing operand", code)
}

/// Print `prog: extra operand 'X'` and the hint; return `code`.
pub fn extra_operand(prog: &str, op: &OsStr, code: i32) -> i32 {
    usage_error(
        prog,
        &format!("extra operand {}", crate::quote::quote_gnu(op)),
        code,
    )
}

/// Parse with the usual handling: on error print the usage diagnostic and
/// return `Err(code)` for the caller to return.
pub fn parse_or_usage(
    prog: &str,
    args: &[OsString],
    shorts: &str,
    longs: &[LongOpt],
    code: i32,
) -> Result<Parsed, i32> {
    let rest = if args.is_empty() { args } else { &args[1..] };
    parse(rest, shorts, longs).map_err(|e| usage_error(prog, &e.message, code))
}

/// Key for `--help` in long option tables.
pub const HELP: char = '\u{e0ff}';
/// Key for `--version` in long option tables.
pub const VERSION: char = '\u{e0fe}';

/// The `--help` and `--version` entries.
pub const STD_LONGS: [LongOpt; 2] = [
    LongOpt {
        name: "help",
        arg: HasArg::No,
        key: HELP,
    },
    LongOpt {
        name: "version",
        arg: HasArg::No,
        key: VERSION,
    },
];

/// Handle `--help`/`--version` if present: print `usage` (a complete help
/// text) or the version line and return `Some(0)`.
pub fn std_opts(prog: &str, p: &Parsed, usage: &str) -> Option<i32> {
    for o in &p.opts {
        if o.key == HELP {
            print!("{}", usage);
            return Some(0);
        }
        if o.key == VERSION {
            println!(
                "{} (Sandglass coreutils) {}",
                prog,
                env!("CARGO_PKG_VERSION")
            );
            return Some(0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    fn v(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }
    const L: [LongOpt; 3] = [
        LongOpt {
            name: "format",
            arg: HasArg::Required,
            key: 'c',
        },
        LongOpt {
            name: "force",
            arg: HasArg::No,
            key: 'f',
        },
        LongOpt {
            name: "color",
            arg: HasArg::Optional,
            key: '\u{e000}',
        },
    ];

    #[test]
    fn bundles_and_values() {
        let p = parse(&v(&["-fc", "%s", "a", "-c%n", "--", "-f"]), "fc:", &L).unwrap();
        assert_eq!(p.opts.len(), 3);
        assert_eq!(p.opts[1].val(), "%s");
        assert_eq!(p.opts[2].val(), "%n");
        assert_eq!(p.operands, v(&["a", "-f"]));
    }

    #[test]
    fn long_forms_and_abbrev() {
        let p = parse(&v(&["--form=x", "--fo"]), "fc:", &L);
        assert_eq!(
            p.unwrap_err().message,
            "option '--fo' is ambiguous; possibilities: '--format' '--force'"
        );
        let p = parse(&v(&["--form", "x", "--col", "--color=never"]), "fc:", &L).unwrap();
        assert_eq!(p.opts[0].val(), "x");
        assert_eq!(p.opts[1].value, None);
        assert_eq!(p.opts[2].val(), "never");
        assert_eq!(
            parse(&v(&["--force=1"]), "f", &L).unwrap_err().message,
            "option '--force' doesn't allow an argument"
        );
    }

    #[test]
    fn errors_like_gnu() {
        assert_eq!(
            parse(&v(&["-Z"]), "a", &[]).unwrap_err().message,
            "invalid option -- 'Z'"
        );
        assert_eq!(
            parse(&v(&["-n"]), "n:", &[]).unwrap_err().message,
            "option requires an argument -- 'n'"
        );
        assert_eq!(
            parse(&v(&["--nope"]), "n:", &[]).unwrap_err().message,
            "unrecognized option '--nope'"
        );
    }

    #[test]
    fn plus_stops_at_operand_and_dash_is_operand() {
        let p = parse(&v(&["-a", "x", "-b"]), "+ab", &[]).unwrap();
        assert_eq!(p.operands, v(&["x", "-b"]));
        let p = parse(&v(&["-", "-a"]), "a", &[]).unwrap();
        assert_eq!(p.operands, v(&["-"]));
    }
}
