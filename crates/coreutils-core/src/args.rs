//! GNU-style command-line parsing (the `getopt_long` of the utilities):
//! the one option parser of every utility group.
//!
//! Short options bundle (`-abc`), take values attached or separate
//! (`-n5`, `-n 5`), long options take `--name=value` or `--name value` and
//! may be abbreviated to a unique prefix; `--` ends options; operands and
//! options may be mixed (GNU permutation) unless permutation is off (a
//! short spec starting with `+`, or [`Spec::permute`] false). Optional
//! values are taken only when attached (`-iSUF`, `--color=never`). Errors
//! come back as glibc's exact diagnostic text.
//!
//! Two ways to describe options, one engine:
//! - getopt style: a short spec string (`"an:o::"`) plus [`LongOpt`]s whose
//!   keys are chars ([`parse`], [`parse_or_usage`]; [`Getopt`] with
//!   [`getopt_items`] keeps the order and reports `-NUM` as [`DIGITS`]);
//! - table style: [`OptSpec`] rows keyed by any `Copy + PartialEq` type
//!   (a char, a `&'static str` id, a number) in a [`Spec`], which can also
//!   report `-NUM` words ([`Spec::digits`], grep's `-5`) and recognise
//!   `--help`/`--version` itself ([`Spec::std`]); [`parse_spec`] gives
//!   [`Parsed`], [`parse_items`] keeps options and operands interleaved, and
//!   [`Usage::parse`] prints diagnostics, help and version the GNU way.
//!
//! POSIXLY_CORRECT is not consulted: no utility here honours it.
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
//!
//! ```
//! use coreutils_core::args::{opt, parse_spec, HasArg, Spec};
//! use std::ffi::OsString;
//! const OPTS: &[coreutils_core::args::OptSpec<&str>] = &[
//!     opt("lines", Some('n'), Some("lines"), HasArg::Required),
//!     opt("rev", Some('r'), Some("reverse"), HasArg::No),
//! ];
//! let spec = Spec { digits: Some("ctx"), ..Spec::gnu(OPTS) };
//! let argv: Vec<OsString> = ["-r3", "f", "--lin=4"].iter().map(|s| s.into()).collect();
//! let p = parse_spec(&argv, &spec).unwrap();
//! assert!(p.has("rev"));
//! assert_eq!(p.last_str("ctx").as_deref(), Some("3"));
//! assert_eq!(p.last_str("lines").as_deref(), Some("4"));
//! assert_eq!(p.operands, vec![OsString::from("f")]);
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

/// Shorthand constructor for a [`LongOpt`] (usable in `const` tables).
pub const fn long(name: &'static str, arg: HasArg, key: char) -> LongOpt {
    LongOpt { name, arg, key }
}

/// Key reported for a `-NUM` word when [`Getopt::digits`] is set.
pub const DIGITS: char = '\u{e0fd}';

/// A getopt-style parser configuration for [`getopt_items`].
#[derive(Clone, Copy)]
pub struct Getopt<'a> {
    /// Short options in getopt syntax: `"nr:i::"` (letters report themselves).
    pub short: &'a str,
    /// Long options.
    pub long: &'a [LongOpt],
    /// GNU permutation (see [`Spec::permute`]).
    pub permute: bool,
    /// Report `-NUM` as [`DIGITS`] with the digits as value (grep's context).
    pub digits: bool,
}

/// One row of an option table: the key reported for it, its short and
/// long spellings, and whether it takes a value. Several rows may share a
/// key (aliases such as `--silent`/`--quiet`).
#[derive(Clone, Copy, Debug)]
pub struct OptSpec<K> {
    /// Key reported in [`Opt::key`] / [`Item::Opt`].
    pub key: K,
    /// Short letter, if any.
    pub short: Option<char>,
    /// Long name without `--`, if any.
    pub long: Option<&'static str>,
    /// Value requirement.
    pub arg: HasArg,
}

/// Shorthand constructor for an [`OptSpec`] (usable in `const` tables).
pub const fn opt<K>(
    key: K,
    short: Option<char>,
    long: Option<&'static str>,
    arg: HasArg,
) -> OptSpec<K> {
    OptSpec {
        key,
        short,
        long,
        arg,
    }
}

/// A table-style parser configuration.
pub struct Spec<'a, K> {
    /// The options.
    pub opts: &'a [OptSpec<K>],
    /// GNU permutation: keep looking for options after an operand. When
    /// false, the first operand ends the options (POSIX; `env`, `xargs`).
    pub permute: bool,
    /// Report a run of digits in a short cluster (`-5`, `-n5` is still
    /// `-n 5`) as this key with the digits as value (grep's `-NUM`).
    pub digits: Option<K>,
    /// Recognise `--help` and `--version` (and their unique prefixes) when
    /// the table does not name them: parsing stops there with
    /// [`Std::Help`] / [`Std::Version`], as GNU prints help at once.
    pub std: bool,
}

impl<'a, K> Spec<'a, K> {
    /// The usual GNU utility: permutation, no `-NUM`, `--help`/`--version`.
    pub const fn gnu(opts: &'a [OptSpec<K>]) -> Self {
        Spec {
            opts,
            permute: true,
            digits: None,
            std: true,
        }
    }
}

/// One command-line element, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<K> {
    /// An option with its value, if it has one.
    Opt(K, Option<OsString>),
    /// An operand.
    Operand(OsString),
}

/// `--help` or `--version` met with [`Spec::std`]: parsing stopped there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Std {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
}

/// One option occurrence, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opt<K = char> {
    /// The short letter or the long option's key.
    pub key: K,
    /// Its value, when it takes one and one was given.
    pub value: Option<OsString>,
}

impl<K> Opt<K> {
    /// The value as lossy UTF-8 (empty when absent).
    pub fn val(&self) -> String {
        self.value
            .as_ref()
            .map(|v| v.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// Result of parsing.
#[derive(Clone, Debug)]
pub struct Parsed<K = char> {
    /// Options in order.
    pub opts: Vec<Opt<K>>,
    /// Operands in order.
    pub operands: Vec<OsString>,
    /// `--help` or `--version` was met ([`Spec::std`]).
    pub std: Option<Std>,
}

impl<K> Default for Parsed<K> {
    fn default() -> Self {
        Parsed {
            opts: Vec::new(),
            operands: Vec::new(),
            std: None,
        }
    }
}

impl<K: PartialEq> Parsed<K> {
    /// Whether option `key` occurred.
    pub fn has(&self, key: K) -> bool {
        self.opts.iter().any(|o| o.key == key)
    }
    /// Value of the last occurrence of `key`.
    pub fn last(&self, key: K) -> Option<&OsString> {
        self.opts
            .iter()
            .rev()
            .find(|o| o.key == key)
            .and_then(|o| o.value.as_ref())
    }
    /// Value of the last occurrence of `key`, as lossy text.
    pub fn last_str(&self, key: K) -> Option<String> {
        self.last(key).map(|v| v.to_string_lossy().into_owned())
    }
    /// Every value given to `key`, in order.
    pub fn all(&self, key: K) -> Vec<&OsString> {
        self.opts
            .iter()
            .filter(|o| o.key == key)
            .filter_map(|o| o.value.as_ref())
            .collect()
    }
    /// Which of `keys` occurred last (GNU's "last one wins" for exclusive
    /// options such as `-L`/`-P`).
    pub fn last_of(&self, keys: &[K]) -> Option<&K> {
        self.opts
            .iter()
            .rev()
            .map(|o| &o.key)
            .find(|k| keys.contains(k))
    }
}

impl<K> Parsed<K> {
    /// Splits ordered items into options and operands.
    pub fn from_items(items: Vec<Item<K>>, std: Option<Std>) -> Parsed<K> {
        let mut out = Parsed {
            std,
            ..Parsed::default()
        };
        for it in items {
            match it {
                Item::Opt(key, value) => out.opts.push(Opt { key, value }),
                Item::Operand(o) => out.operands.push(o),
            }
        }
        out
    }
}

/// A parse failure; `message` is GNU's text (without `prog: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError {
    /// e.g. `invalid option -- 'Z'`.
    pub message: String,
}

fn err<T>(message: String) -> Result<T, ArgError> {
    Err(ArgError { message })
}

/// What the engine needs to know about the options, however described.
struct Table<'a, K> {
    short: &'a dyn Fn(u8) -> Option<(K, HasArg)>,
    longs: Vec<(&'static str, HasArg, K)>,
    permute: bool,
    digits: Option<K>,
    std: bool,
}

enum Long<K> {
    Opt(&'static str, HasArg, K),
    Std(Std),
}

impl<K> Long<K> {
    fn name(&self) -> &'static str {
        match self {
            Long::Opt(n, _, _) => n,
            Long::Std(Std::Help) => "help",
            Long::Std(Std::Version) => "version",
        }
    }
}

fn find_long<K: Copy + PartialEq>(
    t: &Table<K>,
    name: &str,
    word: &[u8],
) -> Result<Long<K>, ArgError> {
    if let Some(l) = t.longs.iter().find(|l| l.0 == name) {
        return Ok(Long::Opt(l.0, l.1, l.2));
    }
    let mut cands: Vec<Long<K>> = t
        .longs
        .iter()
        .filter(|l| l.0.starts_with(name))
        .map(|l| Long::Opt(l.0, l.1, l.2))
        .collect();
    if t.std && !name.is_empty() {
        if "help".starts_with(name) {
            cands.push(Long::Std(Std::Help));
        }
        if "version".starts_with(name) {
            cands.push(Long::Std(Std::Version));
        }
    }
    match cands.len() {
        0 => err(format!(
            "unrecognized option '{}'",
            String::from_utf8_lossy(word)
        )),
        1 => Ok(cands.remove(0)),
        _ => {
            // Several names for one option are not an ambiguity (glibc
            // compares what the option does, not its name).
            let same = match &cands[0] {
                Long::Opt(_, a0, k0) => cands
                    .iter()
                    .all(|c| matches!(c, Long::Opt(_, a, k) if a == a0 && k == k0)),
                _ => false,
            };
            if same {
                return Ok(cands.remove(0));
            }
            let list: Vec<String> = cands.iter().map(|c| format!("'--{}'", c.name())).collect();
            err(format!(
                "option '--{}' is ambiguous; possibilities: {}",
                name,
                list.join(" ")
            ))
        }
    }
}

/// The option letter at the start of `b` as glibc names it in a message
/// (a whole UTF-8 character when one starts there).
fn letter(b: &[u8]) -> String {
    let n = match b.first() {
        Some(&c) if c < 0x80 => 1,
        Some(&c) if c >= 0xf0 => 4,
        Some(&c) if c >= 0xe0 => 3,
        _ => 2,
    };
    String::from_utf8_lossy(&b[..n.min(b.len())])
        .chars()
        .next()
        .map(String::from)
        .unwrap_or_default()
}

/// The engine: GNU getopt_long over `args` (argv without argv[0]). Stops
/// at `--help`/`--version` (with [`Spec::std`]) and reports which.
fn run<K: Copy + PartialEq>(
    args: &[OsString],
    t: &Table<K>,
) -> Result<(Vec<Item<K>>, Option<Std>), ArgError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = os_bytes(&args[i]);
        i += 1;
        if a == b"--" {
            out.extend(args[i..].iter().cloned().map(Item::Operand));
            break;
        }
        if a.len() >= 2 && a.starts_with(b"--") {
            let body = &a[2..];
            let (name_b, val) = match body.iter().position(|&c| c == b'=') {
                Some(p) => (&body[..p], Some(os_from_bytes(&body[p + 1..]))),
                None => (body, None),
            };
            let name = String::from_utf8_lossy(name_b).into_owned();
            let (lname, arg, key) = match find_long(t, &name, a)? {
                Long::Opt(n, arg, key) => (n, arg, key),
                Long::Std(std) => {
                    if val.is_some() {
                        let n = Long::<K>::Std(std).name();
                        return err(format!("option '--{}' doesn't allow an argument", n));
                    }
                    return Ok((out, Some(std)));
                }
            };
            let value = match (arg, val) {
                (HasArg::No, Some(_)) => {
                    return err(format!("option '--{}' doesn't allow an argument", lname))
                }
                (HasArg::No, None) => None,
                (HasArg::Optional, v) => v,
                (HasArg::Required, Some(v)) => Some(v),
                (HasArg::Required, None) => {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return err(format!("option '--{}' requires an argument", lname));
                    }
                }
            };
            out.push(Item::Opt(key, value));
            continue;
        }
        if a.len() >= 2 && a[0] == b'-' {
            // A cluster of short options; option letters are ASCII, so the
            // word is walked by bytes and values keep their bytes untouched.
            let mut j = 1;
            while j < a.len() {
                let c = a[j];
                if let (Some(dk), true) = (t.digits, c.is_ascii_digit()) {
                    let start = j;
                    while j < a.len() && a[j].is_ascii_digit() {
                        j += 1;
                    }
                    out.push(Item::Opt(dk, Some(os_from_bytes(&a[start..j]))));
                    continue;
                }
                let (key, spec) = match (t.short)(c) {
                    Some(x) => x,
                    None => return err(format!("invalid option -- '{}'", letter(&a[j..]))),
                };
                j += 1;
                if spec == HasArg::No {
                    out.push(Item::Opt(key, None));
                    continue;
                }
                let value = if j < a.len() {
                    Some(os_from_bytes(&a[j..]))
                } else if spec == HasArg::Required {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return err(format!("option requires an argument -- '{}'", c as char));
                    }
                } else {
                    None
                };
                out.push(Item::Opt(key, value));
                break;
            }
            continue;
        }
        out.push(Item::Operand(args[i - 1].clone()));
        if !t.permute {
            out.extend(args[i..].iter().cloned().map(Item::Operand));
            break;
        }
    }
    Ok((out, None))
}

fn short_spec(spec: &str, c: u8) -> Option<HasArg> {
    let s = spec.as_bytes();
    let at = s.iter().position(|&x| x == c && x != b':' && x != b'+')?;
    Some(match (s.get(at + 1), s.get(at + 2)) {
        (Some(b':'), Some(b':')) => HasArg::Optional,
        (Some(b':'), _) => HasArg::Required,
        _ => HasArg::No,
    })
}

/// Parse `args` (argv without argv[0]) getopt style, keeping options and
/// operands in command-line order.
pub fn getopt_items(args: &[OsString], g: &Getopt) -> Result<Vec<Item<char>>, ArgError> {
    let short = |c: u8| short_spec(g.short, c).map(|a| (c as char, a));
    let t = Table {
        short: &short,
        longs: g.long.iter().map(|l| (l.name, l.arg, l.key)).collect(),
        permute: g.permute,
        digits: if g.digits { Some(DIGITS) } else { None },
        std: false,
    };
    run(args, &t).map(|(items, _)| items)
}

/// Parse `args` (argv without argv[0]) against a getopt short spec
/// (`"an:o::"`; a leading `+` stops at the first operand) and long options.
pub fn parse(args: &[OsString], shorts: &str, longs: &[LongOpt]) -> Result<Parsed, ArgError> {
    let g = Getopt {
        short: shorts,
        long: longs,
        permute: !shorts.starts_with('+'),
        digits: false,
    };
    getopt_items(args, &g).map(|items| Parsed::from_items(items, None))
}

/// Parse `args` (argv without argv[0]) against an option table, keeping
/// options and operands in command-line order, and whether parsing stopped
/// at `--help`/`--version`.
pub fn parse_items<K: Copy + PartialEq>(
    args: &[OsString],
    spec: &Spec<K>,
) -> Result<(Vec<Item<K>>, Option<Std>), ArgError> {
    let short = |c: u8| {
        spec.opts
            .iter()
            .find(|o| o.short == Some(c as char))
            .map(|o| (o.key, o.arg))
    };
    let t = Table {
        short: &short,
        longs: spec
            .opts
            .iter()
            .filter_map(|o| o.long.map(|l| (l, o.arg, o.key)))
            .collect(),
        permute: spec.permute,
        digits: spec.digits,
        std: spec.std,
    };
    run(args, &t)
}

/// Parse `args` (argv without argv[0]) against an option table.
pub fn parse_spec<K: Copy + PartialEq>(
    args: &[OsString],
    spec: &Spec<K>,
) -> Result<Parsed<K>, ArgError> {
    parse_items(args, spec).map(|(items, std)| Parsed::from_items(items, std))
}

/// How a utility reports usage errors, help and version.
pub struct Usage {
    /// Program name printed in messages.
    pub prog: &'static str,
    /// The `--help` text after `Usage: PROG ` (its first line is the
    /// synopsis).
    pub help: &'static str,
    /// Exit status for usage errors (1 for most, 2 for sort/diff/cmp/grep...).
    pub code: i32,
    /// Also put `prog: ` before the `Try` hint (diffutils do).
    pub prog_in_hint: bool,
}

impl Usage {
    /// A utility named `prog` with help text `help` (after `Usage: PROG `)
    /// whose usage errors exit with `code`.
    pub const fn new(prog: &'static str, help: &'static str, code: i32) -> Usage {
        Usage {
            prog,
            help,
            code,
            prog_in_hint: false,
        }
    }

    /// Print `prog: msg` plus the `Try` hint and return the usage status.
    pub fn fail(&self, msg: &str) -> i32 {
        let prog = crate::prog(self.prog);
        eprintln!("{}: {}", prog, msg);
        let pre = if self.prog_in_hint {
            format!("{}: ", prog)
        } else {
            String::new()
        };
        eprintln!("{}Try '{} --help' for more information.", pre, prog);
        self.code
    }
    /// Like [`Usage::fail`] with another status (GNU's argmatch errors exit 1
    /// even in utilities whose usage status is 2).
    pub fn fail_with(&self, code: i32, msg: &str) -> i32 {
        self.fail(msg);
        code
    }
    /// Print `prog: msg` (no hint) and return `code`.
    pub fn die(&self, code: i32, msg: &str) -> i32 {
        eprintln!("{}: {}", crate::prog(self.prog), msg);
        code
    }
    /// Parse `args` (argv[0] excluded) with `--help`/`--version` handled:
    /// `Err(status)` after printing a diagnostic (usage status), the help
    /// text or the version line (status 0).
    pub fn parse<K: Copy + PartialEq>(
        &self,
        spec: &Spec<K>,
        args: &[OsString],
    ) -> Result<Parsed<K>, i32> {
        let p = parse_spec(args, spec).map_err(|e| self.fail(&e.message))?;
        match p.std {
            Some(Std::Help) => {
                print!("Usage: {} {}", crate::prog(self.prog), self.help);
                Err(0)
            }
            Some(Std::Version) => {
                print_version(self.prog);
                Err(0)
            }
            None => Ok(p),
        }
    }
}

fn print_version(prog: &str) {
    println!(
        "{} (Sandglass coreutils) {}",
        prog,
        env!("CARGO_PKG_VERSION")
    );
}

/// Print `prog: message` and GNU's `Try 'prog --help'` hint; return `code`.
pub fn usage_error(prog: &str, message: &str, code: i32) -> i32 {
    let prog = crate::prog(prog);
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
            print_version(prog);
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

    #[test]
    fn unrecognized_shows_the_whole_word() {
        assert_eq!(
            parse(&v(&["--nope=3"]), "", &L).unwrap_err().message,
            "unrecognized option '--nope=3'"
        );
    }

    const T: &[OptSpec<&str>] = &[
        opt("count", Some('c'), Some("count"), HasArg::No),
        opt("color", None, Some("color"), HasArg::Optional),
        opt("color", None, Some("colour"), HasArg::Optional),
        opt("context", Some('C'), Some("context"), HasArg::Required),
        opt("regexp", Some('e'), Some("regexp"), HasArg::Required),
        opt("in-place", Some('i'), None, HasArg::Optional),
    ];
    fn spec(permute: bool) -> Spec<'static, &'static str> {
        Spec {
            opts: T,
            permute,
            digits: Some("num"),
            std: true,
        }
    }

    #[test]
    fn table_items_keep_order_and_digits() {
        let items = parse_items(
            &v(&["-cC3", "x", "-e", "p", "--col", "-5n", "-iSUF", "--", "-c"]),
            &Spec {
                opts: T,
                permute: true,
                digits: Some("num"),
                std: false,
            },
        );
        // `n` is no option: the digits are reported, then the error.
        assert_eq!(items.unwrap_err().message, "invalid option -- 'n'");
        let (items, std) = parse_items(
            &v(&["-cC3", "x", "-e", "p", "--colo", "-5", "-iSUF", "--", "-c"]),
            &spec(true),
        )
        .unwrap();
        assert_eq!(std, None);
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(
            items,
            vec![
                Item::Opt("count", None),
                Item::Opt("context", os("3")),
                Item::Operand(OsString::from("x")),
                Item::Opt("regexp", os("p")),
                Item::Opt("color", None),
                Item::Opt("num", os("5")),
                Item::Opt("in-place", os("SUF")),
                Item::Operand(OsString::from("-c")),
            ]
        );
    }

    #[test]
    fn table_permutation_off_stops_at_first_operand() {
        let p = parse_spec(&v(&["-c", "cmd", "-c"]), &spec(false)).unwrap();
        assert_eq!(p.opts.len(), 1);
        assert_eq!(p.operands, v(&["cmd", "-c"]));
        let p = parse_spec(&v(&["-c", "cmd", "-c"]), &spec(true)).unwrap();
        assert_eq!(p.opts.len(), 2);
    }

    #[test]
    fn table_errors_and_ambiguity() {
        let e = |a: &[&str]| parse_spec(&v(a), &spec(true)).unwrap_err().message;
        assert_eq!(e(&["-Q"]), "invalid option -- 'Q'");
        assert_eq!(e(&["-C"]), "option requires an argument -- 'C'");
        assert_eq!(e(&["--context"]), "option '--context' requires an argument");
        assert_eq!(
            e(&["--count=1"]),
            "option '--count' doesn't allow an argument"
        );
        assert_eq!(
            e(&["--co"]),
            "option '--co' is ambiguous; possibilities: '--count' '--color' '--colour' '--context'"
        );
        // --color and --colour are one option: their common prefix is fine.
        assert!(parse_spec(&v(&["--colo=never"]), &spec(true)).is_ok());
        assert_eq!(
            e(&["--help=x"]),
            "option '--help' doesn't allow an argument"
        );
    }

    #[test]
    fn help_and_version_stop_parsing() {
        let p = parse_spec(&v(&["-c", "--he", "--bogus"]), &spec(true)).unwrap();
        assert_eq!(p.std, Some(Std::Help));
        assert!(p.has("count"));
        let p = parse_spec(&v(&["--vers"]), &spec(true)).unwrap();
        assert_eq!(p.std, Some(Std::Version));
        // Without `std` they are unknown options.
        let no_std = Spec {
            opts: T,
            permute: true,
            digits: None,
            std: false,
        };
        assert_eq!(
            parse_spec(&v(&["--help"]), &no_std).unwrap_err().message,
            "unrecognized option '--help'"
        );
        let u = Usage {
            prog: "t",
            help: "",
            code: 2,
            prog_in_hint: false,
        };
        assert_eq!(u.parse(&spec(true), &v(&["--bogus"])).unwrap_err(), 2);
        assert_eq!(u.parse(&spec(true), &v(&["--help"])).unwrap_err(), 0);
        assert_eq!(
            u.parse(&spec(true), &v(&["a"])).unwrap().operands,
            v(&["a"])
        );
    }

    #[test]
    fn last_of_and_all() {
        let p = parse(&v(&["-fc", "a", "-c", "b", "-f"]), "fc:", &L).unwrap();
        assert_eq!(p.last_of(&['c', 'f']), Some(&'f'));
        assert_eq!(p.all('c'), vec![&OsString::from("a"), &OsString::from("b")]);
    }

    #[test]
    fn getopt_items_keep_order_digits_and_shared_keys() {
        const LONG: &[LongOpt] = &[
            long("count", HasArg::No, 'c'),
            long("color", HasArg::Optional, '\u{e000}'),
            long("colour", HasArg::Optional, '\u{e000}'),
            long("context", HasArg::Required, 'C'),
        ];
        let g = Getopt {
            short: "cA:e:i::",
            long: LONG,
            permute: true,
            digits: true,
        };
        let items =
            getopt_items(&v(&["-cA3", "x", "-e", "p", "--col", "-5", "--", "-c"]), &g).unwrap();
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(
            items,
            vec![
                Item::Opt('c', None),
                Item::Opt('A', os("3")),
                Item::Operand(OsString::from("x")),
                Item::Opt('e', os("p")),
                Item::Opt('\u{e000}', None),
                Item::Opt(DIGITS, os("5")),
                Item::Operand(OsString::from("-c")),
            ]
        );
        let e = |a: &[&str]| getopt_items(&v(a), &g).unwrap_err().message;
        assert_eq!(e(&["-Q"]), "invalid option -- 'Q'");
        assert_eq!(e(&["-A"]), "option requires an argument -- 'A'");
        assert_eq!(
            e(&["--co"]),
            "option '--co' is ambiguous; possibilities: '--count' '--color' '--colour' '--context'"
        );
        // Without permutation the first operand ends the options.
        let g = Getopt {
            permute: false,
            ..g
        };
        assert_eq!(getopt_items(&v(&["x", "-c"]), &g).unwrap().len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn values_keep_their_bytes() {
        use std::os::unix::ffi::OsStringExt;
        // `sort -t` with a byte that is not UTF-8, attached and separate.
        let args = vec![
            OsString::from_vec(b"-t\xff".to_vec()),
            OsString::from("-e"),
            OsString::from_vec(vec![b'a', 0xfe]),
        ];
        let p = parse(&args, "t:e:", &[]).unwrap();
        assert_eq!(p.opts[0].value, Some(OsString::from_vec(vec![0xff])));
        assert_eq!(p.opts[1].value, Some(OsString::from_vec(vec![b'a', 0xfe])));
        assert_eq!(
            parse(&v(&["-é"]), "a", &[]).unwrap_err().message,
            "invalid option -- 'é'"
        );
    }

    #[test]
    fn gnu_spec_help_text_and_ambiguity_with_help() {
        const T: &[OptSpec<&str>] = &[
            opt("h", Some('h'), Some("human-numeric-sort"), HasArg::No),
            opt("V", Some('V'), Some("version-sort"), HasArg::No),
        ];
        let e = |a: &[&str]| parse_spec(&v(a), &Spec::gnu(T)).unwrap_err().message;
        // glibc: every long option counts, --help and --version included.
        assert_eq!(
            e(&["--h"]),
            "option '--h' is ambiguous; possibilities: '--human-numeric-sort' '--help'"
        );
        assert_eq!(
            e(&["--vers"]),
            "option '--vers' is ambiguous; possibilities: '--version-sort' '--version'"
        );
        assert_eq!(e(&["--nope=3"]), "unrecognized option '--nope=3'");
        assert_eq!(
            parse_spec(&v(&["--he"]), &Spec::gnu(T)).unwrap().std,
            Some(Std::Help)
        );
    }
}
