//! `grep`, `egrep`, `fgrep`: command line, file walking and exit status.
//! The searching itself is in [`search`].

mod search;

use crate::common::fnmatch::fnmatch;
use crate::rx::{self, Config, Regex, Syntax};
use coreutils_core::args::{getopt_items, long, Getopt, HasArg, Item, LongOpt, DIGITS};
use coreutils_core::bytes::{os_bytes, os_str};
use coreutils_core::error::strerror;
use std::ffi::OsString;
use std::io::Write;

use search::{Searcher, Source};

/// How binary files are treated (`--binary-files`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BinaryMode {
    /// Report "binary file matches" instead of lines.
    Binary,
    /// Treat as text (-a).
    Text,
    /// Treat as non-matching (-I).
    WithoutMatch,
}

/// Everything the searcher needs to know.
pub struct Opts {
    pub matchers: Vec<Regex>,
    /// Matching is done with `shortest_match_at` over whole buffers.
    pub fast: bool,
    pub invert: bool,
    pub word: bool,
    pub count: bool,
    pub files_with: bool,
    pub files_without: bool,
    pub max_count: Option<u64>,
    pub only: bool,
    pub quiet: bool,
    pub byte_offset: bool,
    pub line_number: bool,
    pub initial_tab: bool,
    pub null: bool,
    pub eol: u8,
    pub after: usize,
    pub before: usize,
    /// Whether a context option was given (even `-A 0`): groups of
    /// output are then separated by `group_sep` (None: not at all).
    pub context: bool,
    pub group_sep: Option<Vec<u8>>,
    pub binary: BinaryMode,
    pub label: Vec<u8>,
}

const PROG_USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...";

const O_COLOR: char = '\u{e000}';
const O_INCLUDE: char = '\u{e001}';
const O_EXCLUDE: char = '\u{e002}';
const O_EXCLUDE_DIR: char = '\u{e003}';
const O_LABEL: char = '\u{e004}';
const O_BINARY_FILES: char = '\u{e005}';
const O_HELP: char = '\u{e006}';
const O_LINE_BUFFERED: char = '\u{e007}';
const O_NO_IGNORE: char = '\u{e008}';
const O_GROUP_SEP: char = '\u{e00a}';
const O_NO_GROUP_SEP: char = '\u{e00b}';
const O_EXCLUDE_FROM: char = '\u{e009}';

const LONG: &[LongOpt] = &[
    long("extended-regexp", HasArg::No, 'E'),
    long("fixed-strings", HasArg::No, 'F'),
    long("basic-regexp", HasArg::No, 'G'),
    long("perl-regexp", HasArg::No, 'P'),
    long("regexp", HasArg::Required, 'e'),
    long("file", HasArg::Required, 'f'),
    long("ignore-case", HasArg::No, 'i'),
    long("no-ignore-case", HasArg::No, O_NO_IGNORE),
    long("word-regexp", HasArg::No, 'w'),
    long("line-regexp", HasArg::No, 'x'),
    long("null-data", HasArg::No, 'z'),
    long("no-messages", HasArg::No, 's'),
    long("invert-match", HasArg::No, 'v'),
    long("version", HasArg::No, 'V'),
    long("help", HasArg::No, O_HELP),
    long("max-count", HasArg::Required, 'm'),
    long("byte-offset", HasArg::No, 'b'),
    long("line-number", HasArg::No, 'n'),
    long("line-buffered", HasArg::No, O_LINE_BUFFERED),
    long("with-filename", HasArg::No, 'H'),
    long("no-filename", HasArg::No, 'h'),
    long("label", HasArg::Required, O_LABEL),
    long("only-matching", HasArg::No, 'o'),
    long("quiet", HasArg::No, 'q'),
    long("silent", HasArg::No, 'q'),
    long("binary-files", HasArg::Required, O_BINARY_FILES),
    long("text", HasArg::No, 'a'),
    long("directories", HasArg::Required, 'd'),
    long("devices", HasArg::Required, 'D'),
    long("recursive", HasArg::No, 'r'),
    long("dereference-recursive", HasArg::No, 'R'),
    long("include", HasArg::Required, O_INCLUDE),
    long("exclude", HasArg::Required, O_EXCLUDE),
    long("exclude-from", HasArg::Required, O_EXCLUDE_FROM),
    long("exclude-dir", HasArg::Required, O_EXCLUDE_DIR),
    long("files-without-match", HasArg::No, 'L'),
    long("files-with-matches", HasArg::No, 'l'),
    long("count", HasArg::No, 'c'),
    long("initial-tab", HasArg::No, 'T'),
    long("null", HasArg::No, 'Z'),
    long("before-context", HasArg::Required, 'B'),
    long("after-context", HasArg::Required, 'A'),
    long("context", HasArg::Required, 'C'),
    long("group-separator", HasArg::Required, O_GROUP_SEP),
    long("no-group-separator", HasArg::No, O_NO_GROUP_SEP),
    long("color", HasArg::Optional, O_COLOR),
    long("colour", HasArg::Optional, O_COLOR),
    long("binary", HasArg::No, 'U'),
];

fn usage_error(msg: Option<&str>) -> i32 {
    if let Some(m) = msg {
        eprintln!("{}: {}", coreutils_core::prog("grep"), m);
    }
    eprintln!("{}", PROG_USAGE);
    eprintln!(
        "Try '{} --help' for more information.",
        coreutils_core::prog("grep")
    );
    2
}

fn fatal(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("grep"), msg);
    2
}

fn help() -> i32 {
    let mut o = coreutils_core::io::stdout();
    let _ = write!(
        o,
        "{}\nSearch for PATTERNS in each FILE.\n\
Example: grep -i 'hello world' menu.h main.c\n\
PATTERNS can contain multiple patterns separated by newlines.\n\n\
Pattern selection and interpretation:\n\
  -E, --extended-regexp     PATTERNS are extended regular expressions\n\
  -F, --fixed-strings       PATTERNS are strings\n\
  -G, --basic-regexp        PATTERNS are basic regular expressions\n\
  -P, --perl-regexp         PATTERNS are Perl regular expressions\n\
  -e, --regexp=PATTERNS     use PATTERNS for matching\n\
  -f, --file=FILE           take PATTERNS from FILE\n\
  -i, --ignore-case         ignore case distinctions in patterns and data\n\
  -w, --word-regexp         match only whole words\n\
  -x, --line-regexp         match only whole lines\n\
  -z, --null-data           a data line ends in 0 byte, not newline\n\n\
Output control:\n\
  -m, --max-count=NUM       stop after NUM selected lines\n\
  -b, --byte-offset         print the byte offset with output lines\n\
  -n, --line-number         print line number with output lines\n\
  -H, --with-filename       print file name with output lines\n\
  -h, --no-filename         suppress the file name prefix on output\n\
      --label=LABEL         use LABEL as the standard input file name prefix\n\
  -o, --only-matching       show only nonempty parts of lines that match\n\
  -q, --quiet, --silent     suppress all normal output\n\
  -a, --text                equivalent to --binary-files=text\n\
  -I                        equivalent to --binary-files=without-match\n\
  -r, --recursive           like --directories=recurse\n\
  -R, --dereference-recursive  likewise, but follow all symlinks\n\
      --include=GLOB        search only files that match GLOB\n\
      --exclude=GLOB        skip files that match GLOB\n\
      --exclude-dir=GLOB    skip directories that match GLOB\n\
  -L, --files-without-match  print only names of FILEs with no selected lines\n\
  -l, --files-with-matches  print only names of FILEs with selected lines\n\
  -c, --count               print only a count of selected lines per FILE\n\
  -Z, --null                print 0 byte after FILE name\n\n\
Context control:\n\
  -B, --before-context=NUM  print NUM lines of leading context\n\
  -A, --after-context=NUM   print NUM lines of trailing context\n\
  -C, --context=NUM         print NUM lines of output context\n\
  -NUM                      same as --context=NUM\n\
      --group-separator=SEP  print SEP on line between matches with context\n\
      --no-group-separator  do not print separator for matches with context\n\n\
When FILE is '-', read standard input.  With no FILE, read '.' if\n\
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.\n\
Exit status is 0 if any line is selected, 1 otherwise;\n\
if any error occurs and -q is not given, the exit status is 2.\n",
        PROG_USAGE
    );
    let _ = o.flush();
    0
}

fn parse_num(v: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(v).ok()?;
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.parse::<u64>().unwrap_or(u64::MAX))
}

fn context_num(v: &[u8]) -> Result<usize, i32> {
    match parse_num(v) {
        Some(n) => Ok(n.min(usize::MAX as u64 / 2) as usize),
        None => Err(fatal(&format!(
            "{}: invalid context length argument",
            String::from_utf8_lossy(v)
        ))),
    }
}

/// Entry point for grep, egrep and fgrep.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let prog = args
        .first()
        .map(|a| {
            let s = a.to_string_lossy();
            s.rsplit('/').next().unwrap_or("grep").to_string()
        })
        .unwrap_or_else(|| "grep".into());
    let mut syntax = match prog.as_str() {
        "egrep" => 'E',
        "fgrep" => 'F',
        _ => 'G',
    };
    let spec = Getopt {
        short: "EFGPe:f:iywxzsvVm:bnHhoqaIrRLlcTZUB:A:C:d:D:",
        long: LONG,
        permute: true,
        digits: true,
    };
    let items = match getopt_items(&args[1..], &spec) {
        Ok(i) => i,
        Err(e) => return usage_error(Some(&e.message)),
    };
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    let mut have_patterns = false;
    let mut operands: Vec<OsString> = Vec::new();
    let mut icase = false;
    let mut line_re = false;
    let mut no_messages = false;
    let mut with_filename: Option<bool> = None;
    let mut recursive = 0u8; // 1 = -r, 2 = -R
    let mut includes: Vec<Vec<u8>> = Vec::new();
    let mut excludes: Vec<Vec<u8>> = Vec::new();
    let mut exclude_dirs: Vec<Vec<u8>> = Vec::new();
    let mut after: Option<usize> = None;
    let mut before: Option<usize> = None;
    let mut ctx: Option<usize> = None;
    let mut dirs_skip = false;
    let mut o = Opts {
        matchers: Vec::new(),
        fast: false,
        invert: false,
        word: false,
        count: false,
        files_with: false,
        files_without: false,
        max_count: None,
        only: false,
        quiet: false,
        byte_offset: false,
        line_number: false,
        initial_tab: false,
        null: false,
        eol: b'\n',
        after: 0,
        before: 0,
        context: false,
        group_sep: Some(b"--".to_vec()),
        binary: BinaryMode::Binary,
        label: b"(standard input)".to_vec(),
    };
    for it in items {
        match it {
            Item::Operand(a) => operands.push(a),
            Item::Opt(k, v) => {
                let val = v.as_deref().map(os_bytes).unwrap_or(b"").to_vec();
                match k {
                    'E' => syntax = 'E',
                    'F' => syntax = 'F',
                    'G' => syntax = 'G',
                    'P' => syntax = 'P',
                    'e' => {
                        have_patterns = true;
                        patterns.extend(val.split(|&b| b == b'\n').map(|s| s.to_vec()));
                    }
                    'f' => {
                        have_patterns = true;
                        let data = if val == b"-" {
                            let mut d = Vec::new();
                            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut d);
                            Ok(d)
                        } else {
                            coreutils_core::fs::read(os_str(&val))
                        };
                        match data {
                            Ok(mut d) => {
                                if d.last() == Some(&b'\n') {
                                    d.pop();
                                }
                                if !d.is_empty() || !val.is_empty() {
                                    if d.is_empty() {
                                        continue;
                                    }
                                    patterns.extend(d.split(|&b| b == b'\n').map(|s| s.to_vec()));
                                }
                            }
                            Err(e) => {
                                return fatal(&format!(
                                    "{}: {}",
                                    String::from_utf8_lossy(&val),
                                    strerror(&e)
                                ))
                            }
                        }
                    }
                    'i' | 'y' => icase = true,
                    O_NO_IGNORE => icase = false,
                    'w' => o.word = true,
                    'x' => line_re = true,
                    'z' => o.eol = 0,
                    's' => no_messages = true,
                    'v' => o.invert = true,
                    'V' => {
                        println!("grep (GNU grep) 3.8\nSandglass coreutils implementation.");
                        return 0;
                    }
                    O_HELP => return help(),
                    'm' => match parse_num(&val) {
                        Some(n) => o.max_count = Some(n),
                        None => return fatal("invalid max count"),
                    },
                    'b' => o.byte_offset = true,
                    'n' => o.line_number = true,
                    'H' => with_filename = Some(true),
                    'h' => with_filename = Some(false),
                    O_LABEL => o.label = val,
                    'o' => o.only = true,
                    'q' => o.quiet = true,
                    O_BINARY_FILES => {
                        o.binary = match val.as_slice() {
                            b"binary" => BinaryMode::Binary,
                            b"text" => BinaryMode::Text,
                            b"without-match" => BinaryMode::WithoutMatch,
                            _ => return fatal("unknown binary-files type"),
                        }
                    }
                    'a' => o.binary = BinaryMode::Text,
                    'I' => o.binary = BinaryMode::WithoutMatch,
                    'd' => match val.as_slice() {
                        b"read" => dirs_skip = false,
                        b"skip" => dirs_skip = true,
                        b"recurse" => recursive = recursive.max(1),
                        _ => return fatal("invalid argument for --directories"),
                    },
                    'D' => {}
                    'r' => recursive = recursive.max(1),
                    'R' => recursive = 2,
                    O_INCLUDE => includes.push(val),
                    O_EXCLUDE => excludes.push(val),
                    O_EXCLUDE_FROM => match coreutils_core::fs::read(os_str(&val)) {
                        Ok(d) => excludes.extend(
                            d.split(|&b| b == b'\n')
                                .filter(|l| !l.is_empty())
                                .map(|l| l.to_vec()),
                        ),
                        Err(e) => {
                            return fatal(&format!(
                                "{}: {}",
                                String::from_utf8_lossy(&val),
                                strerror(&e)
                            ))
                        }
                    },
                    O_EXCLUDE_DIR => exclude_dirs.push(val),
                    'L' => {
                        o.files_without = true;
                        o.files_with = false;
                    }
                    'l' => {
                        o.files_with = true;
                        o.files_without = false;
                    }
                    'c' => o.count = true,
                    'T' => o.initial_tab = true,
                    'Z' => o.null = true,
                    'U' => {}
                    O_LINE_BUFFERED => {}
                    O_GROUP_SEP => o.group_sep = Some(val.to_vec()),
                    O_NO_GROUP_SEP => o.group_sep = None,
                    O_COLOR => match val.as_slice() {
                        b"" | b"never" | b"no" | b"none" | b"auto" | b"tty" | b"if-tty"
                        | b"always" | b"yes" | b"force" => {}
                        _ => {
                            eprintln!(
                                "{}: invalid argument '{}' for '--color'",
                                coreutils_core::prog("grep"),
                                String::from_utf8_lossy(&val)
                            );
                            eprintln!("Valid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'");
                            return usage_error(None);
                        }
                    },
                    'B' => match context_num(&val) {
                        Ok(n) => before = Some(n),
                        Err(c) => return c,
                    },
                    'A' => match context_num(&val) {
                        Ok(n) => after = Some(n),
                        Err(c) => return c,
                    },
                    'C' | DIGITS => match context_num(&val) {
                        Ok(n) => ctx = Some(n),
                        Err(c) => return c,
                    },
                    _ => {}
                }
            }
        }
    }
    if !have_patterns {
        if operands.is_empty() {
            return usage_error(None);
        }
        let p = operands.remove(0);
        patterns.extend(os_bytes(&p).split(|&b| b == b'\n').map(|s| s.to_vec()));
    }
    o.after = after.or(ctx).unwrap_or(0);
    o.before = before.or(ctx).unwrap_or(0);
    o.context = after.is_some() || before.is_some() || ctx.is_some();

    // Compile.
    rx::set_warning_prog("grep");
    let mut cfg = Config::new(match syntax {
        'E' => Syntax::Extended,
        _ => Syntax::Basic,
    });
    cfg.icase = icase;
    cfg.whole_line = line_re;
    cfg.perl = syntax == 'P';
    let per_line = o.eol != b'\n' || o.word;
    cfg.multiline = !per_line;
    cfg.no_newline = !per_line;
    let pats: Vec<Vec<u8>> = if syntax == 'F' {
        cfg.syntax = Syntax::Extended;
        patterns.iter().map(|p| escape_fixed(p)).collect()
    } else {
        patterns.clone()
    };
    if syntax == 'P' && pats.len() > 1 {
        return fatal("the -P option only supports a single pattern");
    }
    if !pats.is_empty() {
        let (plain, with_refs): (Vec<&Vec<u8>>, Vec<&Vec<u8>>) = pats
            .iter()
            .partition(|p| syntax == 'P' || syntax == 'F' || !rx::has_backref(p));
        if !plain.is_empty() {
            let refs: Vec<&[u8]> = plain.iter().map(|p| p.as_slice()).collect();
            match Regex::new_multi(&refs, &cfg) {
                Ok(r) => o.matchers.push(r),
                Err(e) => return fatal(&e),
            }
        }
        for p in with_refs {
            match Regex::new(p, &cfg) {
                Ok(r) => o.matchers.push(r),
                Err(e) => return fatal(&e),
            }
        }
    }
    o.fast = !per_line && o.matchers.len() == 1 && o.matchers[0].is_fast();

    let no_operands = operands.is_empty();
    if no_operands {
        operands.push(OsString::from(if recursive > 0 { "." } else { "-" }));
    }
    let multi = operands.len() > 1;
    let mut s = Searcher::new(o);
    let mut status_error = false;
    let walker = Walker {
        recursive,
        includes,
        excludes,
        exclude_dirs,
        dirs_skip,
        no_messages,
        with_filename,
        multi,
        omit_dot: no_operands,
    };
    for op in &operands {
        if walker.operand(&mut s, op, &mut status_error) {
            break;
        }
    }
    s.finish();
    if rx::limit_hit() {
        // GNU's -P message; the other dialects only backtrack for
        // back-references, which GNU runs unbounded.
        if syntax == 'P' {
            eprintln!(
                "{}: exceeded PCRE's backtracking limit",
                coreutils_core::prog("grep")
            );
        } else {
            eprintln!(
                "{}: regex backtracking limit exceeded (back-references too costly for this input)",
                coreutils_core::prog("grep")
            );
        }
        status_error = true;
    }
    if s.quiet_matched() {
        return 0;
    }
    if status_error {
        2
    } else if s.any_success() {
        0
    } else {
        1
    }
}

fn escape_fixed(p: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(p.len() * 2);
    for &b in p {
        if b.is_ascii_alphanumeric() || b >= 0x80 || b == b' ' {
            out.push(b);
        } else {
            out.push(b'\\');
            out.push(b);
        }
    }
    out
}

struct Walker {
    recursive: u8,
    includes: Vec<Vec<u8>>,
    excludes: Vec<Vec<u8>>,
    exclude_dirs: Vec<Vec<u8>>,
    dirs_skip: bool,
    no_messages: bool,
    with_filename: Option<bool>,
    multi: bool,
    omit_dot: bool,
}

fn base_name(p: &[u8]) -> &[u8] {
    let t = if p.len() > 1 && p.ends_with(b"/") {
        &p[..p.len() - 1]
    } else {
        p
    };
    match t.iter().rposition(|&b| b == b'/') {
        Some(i) => &t[i + 1..],
        None => t,
    }
}

impl Walker {
    fn file_wanted(&self, name: &[u8], command_line: bool) -> bool {
        let b = base_name(name);
        if self
            .excludes
            .iter()
            .any(|g| fnmatch(g, b) || (command_line && fnmatch(g, name)))
        {
            return false;
        }
        if !self.includes.is_empty() && !self.includes.iter().any(|g| fnmatch(g, b)) {
            return false;
        }
        true
    }

    fn err(&self, name: &[u8], e: &std::io::Error, status: &mut bool) {
        *status = true;
        if !self.no_messages {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("grep"),
                String::from_utf8_lossy(name),
                strerror(e)
            );
        }
    }

    /// Search one operand; returns true to stop everything (-q matched).
    fn operand(&self, s: &mut Searcher, op: &OsString, status: &mut bool) -> bool {
        let name = os_bytes(op).to_vec();
        if name == b"-" {
            let show = self.with_filename.unwrap_or(self.multi);
            let label = s.opts().label.clone();
            let src = Source::Stdin;
            return s.search(src, &label, show, status);
        }
        // Command-line operands are followed even with -r.
        let meta = coreutils_core::fs::metadata(os_str(&name));
        match meta {
            Ok(m) if m.is_dir() => {
                if self.recursive > 0 {
                    if !self.exclude_dirs.is_empty()
                        && !self.omit_dot
                        && self
                            .exclude_dirs
                            .iter()
                            .any(|g| fnmatch(g, base_name(&name)) && name != b".")
                    {
                        return false;
                    }
                    let show = self.with_filename.unwrap_or(true);
                    return self.walk_dir(s, &name, show, status);
                }
                if self.dirs_skip {
                    return false;
                }
                *status = true;
                if !self.no_messages {
                    eprintln!(
                        "{}: {}: Is a directory",
                        coreutils_core::prog("grep"),
                        String::from_utf8_lossy(&name)
                    );
                }
                false
            }
            Ok(_) => {
                if (!self.includes.is_empty() || !self.excludes.is_empty())
                    && !self.file_wanted(&name, true)
                {
                    return false;
                }
                let show = self.with_filename.unwrap_or(self.multi);
                match coreutils_core::fs::open(os_str(&name)) {
                    Ok(f) => s.search(Source::File(f), &name, show, status),
                    Err(e) => {
                        self.err(&name, &e, status);
                        false
                    }
                }
            }
            Err(e) => {
                self.err(&name, &e, status);
                false
            }
        }
    }

    fn walk_dir(&self, s: &mut Searcher, dir: &[u8], show: bool, status: &mut bool) -> bool {
        let rd = match std::fs::read_dir(os_str(dir)) {
            Ok(r) => r,
            Err(e) => {
                self.err(dir, &e, status);
                return false;
            }
        };
        let mut names: Vec<Vec<u8>> = rd
            .filter_map(|e| e.ok())
            .map(|e| os_bytes(&e.file_name()).to_vec())
            .collect();
        names.sort();
        for n in names {
            let path = if self.omit_dot && dir == b"." {
                n.clone()
            } else if dir.ends_with(b"/") {
                [dir, &n[..]].concat()
            } else {
                [dir, b"/", &n[..]].concat()
            };
            let lm = match coreutils_core::fs::symlink_metadata(os_str(&path)) {
                Ok(m) => m,
                Err(e) => {
                    self.err(&path, &e, status);
                    continue;
                }
            };
            let meta = if lm.file_type().is_symlink() {
                if self.recursive < 2 {
                    continue;
                }
                match coreutils_core::fs::metadata(os_str(&path)) {
                    Ok(m) => m,
                    Err(e) => {
                        self.err(&path, &e, status);
                        continue;
                    }
                }
            } else {
                lm
            };
            if meta.is_dir() {
                if self.exclude_dirs.iter().any(|g| fnmatch(g, &n)) {
                    continue;
                }
                if self.walk_dir(s, &path, show, status) {
                    return true;
                }
            } else if meta.is_file() {
                if !self.file_wanted(&path, false) {
                    continue;
                }
                let stop = match coreutils_core::fs::open(os_str(&path)) {
                    Ok(f) => s.search(Source::File(f), &path, show, status),
                    Err(e) => {
                        self.err(&path, &e, status);
                        false
                    }
                };
                if stop {
                    return true;
                }
            }
        }
        false
    }
}
