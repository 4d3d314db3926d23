//! `ls` options: what the command line (and `LS_*`, `TIME_STYLE`,
//! `QUOTING_STYLE`, `COLUMNS`) asks for, parsed the GNU way.

use super::quoting::{self, Style};
use super::size::{parse_block_size, Scale};
use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

/// Output format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Long,
    OnePerLine,
    Columns,
    Across,
    Commas,
}

/// Sort order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sort {
    Name,
    Size,
    Time,
    None,
    Version,
    Extension,
    Width,
}

/// Which time `-l` shows and `-t` sorts by.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimeField {
    Mtime,
    Atime,
    Ctime,
}

/// What `-F`, `-p`, `--file-type` append.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Indicator {
    None,
    Slash,
    FileType,
    Classify,
}

/// Which symlinks are followed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Deref {
    /// Never (`-l`, `-d`, `-F` without `-H`/`-L`).
    None,
    /// Command-line symlinks to directories (the default otherwise).
    ArgDirs,
    /// Every command-line symlink (`-H`).
    Args,
    /// Every symlink (`-L`).
    All,
}

/// Which names a directory listing skips.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Hidden {
    /// Names starting with `.` (and `--hide` patterns).
    Dotfiles,
    /// Only `.` and `..` (`-A`).
    DotDirs,
    /// Nothing (`-a`).
    Nothing,
}

/// Everything the listing needs to know.
pub struct Options {
    pub hidden: Hidden,
    pub hide: Vec<Vec<u8>>,
    pub ignore: Vec<Vec<u8>>,
    pub recursive: bool,
    pub reverse: bool,
    pub dirs_as_files: bool,
    pub indicator: Indicator,
    pub inode: bool,
    pub numeric: bool,
    pub print_size: bool,
    pub author: bool,
    pub context: bool,
    pub format: Format,
    pub no_owner: bool,
    pub no_group: bool,
    pub deref: Deref,
    pub dirs_first: bool,
    pub sort: Sort,
    pub time: TimeField,
    /// Line width; 0 means no limit.
    pub width: usize,
    pub tabsize: usize,
    pub quoting: Style,
    pub qmark: bool,
    pub color: bool,
    /// Scale of `-l` sizes (None: bytes).
    pub file_scale: Option<Scale>,
    /// Scale of `-s` and `total`.
    pub block_scale: Scale,
    /// strftime formats for old and recent times.
    pub time_old: String,
    pub time_recent: String,
    pub eol: u8,
}

impl Options {
    /// Whether listing needs each entry's metadata; without it, names and
    /// readdir's file types are enough (GNU's `ls` and `ls -R` stat
    /// nothing either).
    pub fn needs_stat(&self) -> bool {
        self.format == Format::Long
            || self.print_size
            || self.inode
            || self.color
            || self.indicator == Indicator::Classify
            || self.deref == Deref::All
            || matches!(self.sort, Sort::Size | Sort::Time)
    }

    /// Whether symlink targets are read (names after `->`, `-F`, colours).
    pub fn wants_target(&self) -> bool {
        self.format == Format::Long || self.indicator != Indicator::None || self.color
    }
}

const COLOR: char = '\u{e001}';
const GDF: char = '\u{e002}';
const TIME_STYLE: char = '\u{e003}';
const FULL_TIME: char = '\u{e004}';
const SI: char = '\u{e005}';
const BLOCK_SIZE: char = '\u{e006}';
const INDICATOR: char = '\u{e007}';
const FILE_TYPE: char = '\u{e008}';
const FORMAT: char = '\u{e009}';
const SORT: char = '\u{e00a}';
const TIME: char = '\u{e00b}';
const HIDE: char = '\u{e00c}';
const QUOTING: char = '\u{e00d}';
const SHOW_CTRL: char = '\u{e00e}';
const AUTHOR: char = '\u{e00f}';
const ZERO: char = '\u{e010}';
const DEREF_DIRS: char = '\u{e011}';
const HYPERLINK: char = '\u{e012}';

const LONGS: &[LongOpt] = &[
    long("all", HasArg::No, 'a'),
    long("almost-all", HasArg::No, 'A'),
    long("author", HasArg::No, AUTHOR),
    long("escape", HasArg::No, 'b'),
    long("block-size", HasArg::Required, BLOCK_SIZE),
    long("ignore-backups", HasArg::No, 'B'),
    long("color", HasArg::Optional, COLOR),
    long("context", HasArg::No, 'Z'),
    long("directory", HasArg::No, 'd'),
    long("dired", HasArg::No, 'D'),
    long("classify", HasArg::Optional, 'F'),
    long("file-type", HasArg::No, FILE_TYPE),
    long("format", HasArg::Required, FORMAT),
    long("full-time", HasArg::No, FULL_TIME),
    long("group-directories-first", HasArg::No, GDF),
    long("no-group", HasArg::No, 'G'),
    long("human-readable", HasArg::No, 'h'),
    long("si", HasArg::No, SI),
    long("dereference-command-line", HasArg::No, 'H'),
    long(
        "dereference-command-line-symlink-to-dir",
        HasArg::No,
        DEREF_DIRS,
    ),
    long("hide", HasArg::Required, HIDE),
    long("hyperlink", HasArg::Optional, HYPERLINK),
    long("indicator-style", HasArg::Required, INDICATOR),
    long("inode", HasArg::No, 'i'),
    long("ignore", HasArg::Required, 'I'),
    long("kibibytes", HasArg::No, 'k'),
    long("dereference", HasArg::No, 'L'),
    long("numeric-uid-gid", HasArg::No, 'n'),
    long("literal", HasArg::No, 'N'),
    long("hide-control-chars", HasArg::No, 'q'),
    long("show-control-chars", HasArg::No, SHOW_CTRL),
    long("quote-name", HasArg::No, 'Q'),
    long("quoting-style", HasArg::Required, QUOTING),
    long("reverse", HasArg::No, 'r'),
    long("recursive", HasArg::No, 'R'),
    long("size", HasArg::No, 's'),
    long("sort", HasArg::Required, SORT),
    long("time", HasArg::Required, TIME),
    long("time-style", HasArg::Required, TIME_STYLE),
    long("tabsize", HasArg::Required, 'T'),
    long("width", HasArg::Required, 'w'),
    long("zero", HasArg::No, ZERO),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

const USAGE: &str = "Usage: ls [OPTION]... [FILE]...\nList information about the FILEs (the current directory by default).\nSort entries alphabetically if none of -cftuvSUX nor --sort is specified.\n";

/// `ls: invalid argument 'v' for 'what'` with the valid list; status 1
/// (argmatch's), 2 for a bad time style.
fn bad_choice(v: &str, what: &str, valid: &str) -> i32 {
    eprintln!(
        "{}: invalid argument {} for {}",
        coreutils_core::prog("ls"),
        quote_gnu(&OsString::from(v)),
        what
    );
    eprintln!("{}", valid);
    eprintln!(
        "Try '{} --help' for more information.",
        coreutils_core::prog("ls")
    );
    1
}

fn choice<T: Copy>(v: &str, what: &str, table: &[(&str, T)], valid: &str) -> Result<T, i32> {
    // Unique prefixes are accepted, as argmatch does.
    if let Some((_, t)) = table.iter().find(|(k, _)| *k == v) {
        return Ok(*t);
    }
    let hits: Vec<&(&str, T)> = table.iter().filter(|(k, _)| k.starts_with(v)).collect();
    if !v.is_empty() && !hits.is_empty() {
        return Ok(hits[0].1);
    }
    Err(bad_choice(v, what, valid))
}

const WHEN: &[(&str, Option<bool>)] = &[
    ("always", Some(true)),
    ("yes", Some(true)),
    ("force", Some(true)),
    ("never", Some(false)),
    ("no", Some(false)),
    ("none", Some(false)),
    ("auto", None),
    ("tty", None),
    ("if-tty", None),
];
const WHEN_VALID: &str = "Valid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'";

fn time_style(spec: &str) -> Result<(String, String), i32> {
    if let Some(f) = spec.strip_prefix('+') {
        return Ok(match f.split_once('\n') {
            Some((old, recent)) => (old.to_string(), recent.to_string()),
            None => (f.to_string(), f.to_string()),
        });
    }
    // `posix-` styles apply only outside the POSIX locale: here they are `locale`.
    if spec.starts_with("posix-") {
        return time_style("locale");
    }
    let (old, recent) = match spec {
        "full-iso" => ("%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M:%S.%N %z"),
        "long-iso" => ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M"),
        "iso" => ("%Y-%m-%d ", "%m-%d %H:%M"),
        "locale" => ("%b %e  %Y", "%b %e %H:%M"),
        _ => {
            return Err(2 * bad_choice(spec, "'time style'", "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format"));
        }
    };
    Ok((old.to_string(), recent.to_string()))
}

fn bad_block_size(v: &str) -> i32 {
    eprintln!(
        "{}: invalid --block-size argument {}",
        coreutils_core::prog("ls"),
        quote_gnu(&OsString::from(v))
    );
    2
}

/// Parse argv; `Err` carries the exit status (help and version print here).
pub fn parse(args: &[OsString]) -> Result<(Options, Vec<OsString>), i32> {
    let p = parse_or_usage(
        "ls",
        args,
        "aAbBcdDfFgGhHiI:klLmnNopqQrRsStT:uUvw:xXZ1C",
        LONGS,
        2,
    )?;
    if let Some(c) = std_opts("ls", &p, USAGE) {
        return Err(c);
    }
    let tty = coreutils_core::tty::isatty(1);
    let env_quoting = std::env::var("QUOTING_STYLE")
        .ok()
        .and_then(|s| Style::parse(&s));
    let mut o = Options {
        hidden: Hidden::Dotfiles,
        hide: Vec::new(),
        ignore: Vec::new(),
        recursive: false,
        reverse: false,
        dirs_as_files: false,
        indicator: Indicator::None,
        inode: false,
        numeric: false,
        print_size: false,
        author: false,
        context: false,
        format: if tty {
            Format::Columns
        } else {
            Format::OnePerLine
        },
        no_owner: false,
        no_group: false,
        deref: Deref::ArgDirs,
        dirs_first: false,
        sort: Sort::Name,
        time: TimeField::Mtime,
        width: 80,
        tabsize: 8,
        quoting: env_quoting.unwrap_or(if tty {
            Style::ShellEscape
        } else {
            Style::Literal
        }),
        qmark: tty,
        color: false,
        file_scale: None,
        block_scale: Scale::Units(1024, String::new()),
        time_old: String::new(),
        time_recent: String::new(),
        eol: b'\n',
    };
    let mut deref: Option<Deref> = None;
    let mut sort: Option<Sort> = None;
    let mut style: Option<String> = None;
    let mut width: Option<String> = None;
    let mut scale: Option<Scale> = None;
    let mut kibi = false;
    let mut color_when: Option<bool> = Some(false);
    let mut no_size = false;
    for opt in &p.opts {
        let v = opt.val();
        match opt.key {
            'a' => o.hidden = Hidden::Nothing,
            'A' => o.hidden = Hidden::DotDirs,
            'b' => o.quoting = Style::Escape,
            'B' => {
                o.ignore.push(b"*~".to_vec());
                o.ignore.push(b".*~".to_vec());
            }
            'c' => o.time = TimeField::Ctime,
            'u' => o.time = TimeField::Atime,
            TIME => {
                o.time = choice(
                    &v,
                    "'--time'",
                    &[
                        ("atime", TimeField::Atime),
                        ("access", TimeField::Atime),
                        ("use", TimeField::Atime),
                        ("ctime", TimeField::Ctime),
                        ("status", TimeField::Ctime),
                        // No birth time here: the modification time stands in.
                        ("birth", TimeField::Mtime),
                        ("creation", TimeField::Mtime),
                    ],
                    "Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'ctime', 'status'\n  - 'birth', 'creation'",
                )?
            }
            'd' => o.dirs_as_files = true,
            'D' => {}
            'f' => {
                o.hidden = Hidden::Nothing;
                sort = Some(Sort::None);
                if o.format == Format::Long {
                    o.format = if tty {
                        Format::Columns
                    } else {
                        Format::OnePerLine
                    };
                }
                color_when = Some(false);
                no_size = true;
            }
            'F' => {
                let when = if v.is_empty() {
                    Some(true)
                } else {
                    choice(&v, "'--classify'", WHEN, WHEN_VALID)?
                };
                if when.unwrap_or(tty) {
                    o.indicator = Indicator::Classify;
                }
            }
            FILE_TYPE => o.indicator = Indicator::FileType,
            'p' => o.indicator = Indicator::Slash,
            INDICATOR => {
                o.indicator = choice(
                    &v,
                    "'--indicator-style'",
                    &[
                        ("none", Indicator::None),
                        ("slash", Indicator::Slash),
                        ("file-type", Indicator::FileType),
                        ("classify", Indicator::Classify),
                    ],
                    "Valid arguments are:\n  - 'none'\n  - 'slash'\n  - 'file-type'\n  - 'classify'",
                )?
            }
            'g' => {
                o.format = Format::Long;
                o.no_owner = true;
            }
            'o' => {
                o.format = Format::Long;
                o.no_group = true;
            }
            'G' => o.no_group = true,
            'n' => {
                o.numeric = true;
                o.format = Format::Long;
            }
            'l' => o.format = Format::Long,
            '1' => o.format = Format::OnePerLine,
            'C' => o.format = Format::Columns,
            'x' => o.format = Format::Across,
            'm' => o.format = Format::Commas,
            FORMAT => {
                o.format = choice(
                    &v,
                    "'--format'",
                    &[
                        ("verbose", Format::Long),
                        ("long", Format::Long),
                        ("commas", Format::Commas),
                        ("horizontal", Format::Across),
                        ("across", Format::Across),
                        ("vertical", Format::Columns),
                        ("single-column", Format::OnePerLine),
                    ],
                    "Valid arguments are:\n  - 'verbose', 'long'\n  - 'commas'\n  - 'horizontal', 'across'\n  - 'vertical'\n  - 'single-column'",
                )?
            }
            FULL_TIME => {
                o.format = Format::Long;
                style = Some("full-iso".into());
            }
            TIME_STYLE => style = Some(v),
            'h' => scale = Some(Scale::Human(1024)),
            SI => scale = Some(Scale::Human(1000)),
            BLOCK_SIZE => match parse_block_size(&v) {
                Some(s) => scale = Some(s),
                None => return Err(bad_block_size(&v)),
            },
            'k' => kibi = true,
            's' => o.print_size = true,
            'H' => deref = Some(Deref::Args),
            DEREF_DIRS => deref = Some(Deref::ArgDirs),
            'L' => deref = Some(Deref::All),
            HIDE => o.hide.push(v.into_bytes()),
            'I' => o
                .ignore
                .push(coreutils_core::bytes::os_bytes(opt.value.as_deref().unwrap_or_default()).to_vec()),
            'i' => o.inode = true,
            'N' => o.quoting = Style::Literal,
            'Q' => o.quoting = Style::C,
            QUOTING => match Style::parse(&v) {
                Some(s) => o.quoting = s,
                None => {
                    return Err(bad_choice(&v, "'--quoting-style'", quoting::VALID));
                }
            },
            'q' => o.qmark = true,
            SHOW_CTRL => o.qmark = false,
            'r' => o.reverse = true,
            'R' => o.recursive = true,
            'S' => sort = Some(Sort::Size),
            't' => sort = Some(Sort::Time),
            'U' => sort = Some(Sort::None),
            'v' => sort = Some(Sort::Version),
            'X' => sort = Some(Sort::Extension),
            SORT => {
                sort = Some(choice(
                    &v,
                    "'--sort'",
                    &[
                        ("none", Sort::None),
                        ("time", Sort::Time),
                        ("size", Sort::Size),
                        ("extension", Sort::Extension),
                        ("version", Sort::Version),
                        ("width", Sort::Width),
                    ],
                    "Valid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'",
                )?)
            }
            'T' => match v.parse::<usize>() {
                Ok(n) => o.tabsize = n,
                Err(_) => {
                    eprintln!("{}: invalid tab size: {}", coreutils_core::prog("ls"), quote_gnu(&OsString::from(&v)));
                    return Err(2);
                }
            },
            'w' => width = Some(v),
            'Z' => o.context = true,
            AUTHOR => o.author = true,
            ZERO => o.eol = 0,
            HYPERLINK => {}
            GDF => o.dirs_first = true,
            COLOR => {
                color_when = if v.is_empty() {
                    Some(true)
                } else {
                    choice(&v, "'--color'", WHEN, WHEN_VALID)?
                }
            }
            _ => {}
        }
    }
    o.color = color_when.unwrap_or(tty) && super::color::usable();
    if no_size {
        o.print_size = false;
    }
    // -c/-u without -l sort by that time, unless a sort was asked for.
    o.sort = sort.unwrap_or(if o.time != TimeField::Mtime && o.format != Format::Long {
        Sort::Time
    } else {
        Sort::Name
    });
    o.deref = deref.unwrap_or(
        if o.dirs_as_files || o.indicator == Indicator::Classify || o.format == Format::Long {
            Deref::None
        } else {
            Deref::ArgDirs
        },
    );
    match scale {
        Some(s) => {
            o.file_scale = Some(s.clone());
            o.block_scale = s;
        }
        None => {
            let env = std::env::var("LS_BLOCK_SIZE")
                .ok()
                .or_else(|| std::env::var("BLOCK_SIZE").ok());
            if let Some(s) = env.as_deref().and_then(parse_block_size) {
                o.file_scale = Some(s.clone());
                o.block_scale = s;
            }
            if kibi {
                o.block_scale = Scale::Units(1024, String::new());
            }
        }
    }
    let style = style.or_else(|| std::env::var("TIME_STYLE").ok());
    let (old, recent) = time_style(style.as_deref().unwrap_or("locale"))?;
    o.time_old = old;
    o.time_recent = recent;
    let width = width.or_else(|| {
        std::env::var("COLUMNS")
            .ok()
            .filter(|c| c.parse::<usize>().map_or(false, |n| n > 0))
    });
    match width {
        Some(w) => match w.parse::<usize>() {
            Ok(n) => o.width = n,
            Err(_) => {
                eprintln!(
                    "{}: invalid line width: {}",
                    coreutils_core::prog("ls"),
                    quote_gnu(&OsString::from(&w))
                );
                return Err(2);
            }
        },
        None => o.width = coreutils_core::tty::columns(),
    }
    Ok((o, p.operands))
}
