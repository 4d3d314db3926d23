//! `grep`, `egrep`, `fgrep`: command line, file walking and exit status.
//! The searching itself is in [`search`].

mod search;

use crate::common::fnmatch::fnmatch;
use crate::common::getopt::{self, bytes, HasArg, Item, LongOpt, Spec};
use crate::rx::{self, Config, Regex, Syntax};
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
    pub context: bool,
    pub binary: BinaryMode,
    pub label: Vec<u8>,
}

const PROG_USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...";

const O_COLOR: u32 = 300;
const O_INCLUDE: u32 = 301;
const O_EXCLUDE: u32 = 302;
const O_EXCLUDE_DIR: u32 = 303;
const O_LABEL: u32 = 304;
const O_BINARY_FILES: u32 = 305;
const O_HELP: u32 = 306;
const O_LINE_BUFFERED: u32 = 307;
const O_NO_IGNORE: u32 = 308;
const O_EXCLUDE_FROM: u32 = 309;

const LONG: &[LongOpt] = &[
    ("extended-regexp", HasArg::No, b'E' as u32),
    ("fixed-strings", HasArg::No, b'F' as u32),
    ("basic-regexp", HasArg::No, b'G' as u32),
    ("perl-regexp", HasArg::No, b'P' as u32),
    ("regexp", HasArg::Required, b'e' as u32),
    ("file", HasArg::Required, b'f' as u32),
    ("ignore-case", HasArg::No, b'i' as u32),
    ("no-ignore-case", HasArg::No, O_NO_IGNORE),
    ("word-regexp", HasArg::No, b'w' as u32),
    ("line-regexp", HasArg::No, b'x' as u32),
    ("null-data", HasArg::No, b'z' as u32),
    ("no-messages", HasArg::No, b's' as u32),
    ("invert-match", HasArg::No, b'v' as u32),
    ("version", HasArg::No, b'V' as u32),
    ("help", HasArg::No, O_HELP),
    ("max-count", HasArg::Required, b'm' as u32),
    ("byte-offset", HasArg::No, b'b' as u32),
    ("line-number", HasArg::No, b'n' as u32),
    ("line-buffered", HasArg::No, O_LINE_BUFFERED),
    ("with-filename", HasArg::No, b'H' as u32),
    ("no-filename", HasArg::No, b'h' as u32),
    ("label", HasArg::Required, O_LABEL),
    ("only-matching", HasArg::No, b'o' as u32),
    ("quiet", HasArg::No, b'q' as u32),
    ("silent", HasArg::No, b'q' as u32),
    ("binary-files", HasArg::Required, O_BINARY_FILES),
    ("text", HasArg::No, b'a' as u32),
    ("directories", HasArg::Required, b'd' as u32),
    ("devices", HasArg::Required, b'D' as u32),
    ("recursive", HasArg::No, b'r' as u32),
    ("dereference-recursive", HasArg::No, b'R' as u32),
    ("include", HasArg::Required, O_INCLUDE),
    ("exclude", HasArg::Required, O_EXCLUDE),
    ("exclude-from", HasArg::Required, O_EXCLUDE_FROM),
    ("exclude-dir", HasArg::Required, O_EXCLUDE_DIR),
    ("files-without-match", HasArg::No, b'L' as u32),
    ("files-with-matches", HasArg::No, b'l' as u32),
    ("count", HasArg::No, b'c' as u32),
    ("initial-tab", HasArg::No, b'T' as u32),
    ("null", HasArg::No, b'Z' as u32),
    ("before-context", HasArg::Required, b'B' as u32),
    ("after-context", HasArg::Required, b'A' as u32),
    ("context", HasArg::Required, b'C' as u32),
    ("color", HasArg::Optional, O_COLOR),
    ("colour", HasArg::Optional, O_COLOR),
    ("binary", HasArg::No, b'U' as u32),
];

fn usage_error(msg: Option<&str>) -> i32 {
    if let Some(m) = msg {
        eprintln!("grep: {}", m);
    }
    eprintln!("{}", PROG_USAGE);
    eprintln!("Try 'grep --help' for more information.");
    2
}

fn fatal(msg: &str) -> i32 {
    eprintln!("grep: {}", msg);
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
  -NUM                      same as --context=NUM\n\n\
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
    let spec = Spec {
        short: "EFGPe:f:iywxzsvVm:bnHhoqaIrRLlcTZUB:A:C:d:D:",
        long: LONG,
        permute: true,
        digits: true,
    };
    let items = match getopt::parse(&args[1..], &spec) {
        Ok(i) => i,
        Err(m) => return usage_error(Some(&m)),
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
        binary: BinaryMode::Binary,
        label: b"(standard input)".to_vec(),
    };
    for it in items {
        match it {
            Item::Operand(a) => operands.push(a),
            Item::Opt(k, v) => {
                let val = v.as_deref().map(bytes).unwrap_or(b"").to_vec();
                match k {
                    k if k == b'E' as u32 => syntax = 'E',
                    k if k == b'F' as u32 => syntax = 'F',
                    k if k == b'G' as u32 => syntax = 'G',
                    k if k == b'P' as u32 => syntax = 'P',
                    k if k == b'e' as u32 => {
                        have_patterns = true;
                        patterns.extend(val.split(|&b| b == b'\n').map(|s| s.to_vec()));
                    }
                    k if k == b'f' as u32 => {
                        have_patterns = true;
                        let data = if val == b"-" {
                            let mut d = Vec::new();
                            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut d);
                            Ok(d)
                        } else {
                            std::fs::read(getopt::os(&val))
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
                    k if k == b'i' as u32 || k == b'y' as u32 => icase = true,
                    O_NO_IGNORE => icase = false,
                    k if k == b'w' as u32 => o.word = true,
                    k if k == b'x' as u32 => line_re = true,
                    k if k == b'z' as u32 => o.eol = 0,
                    k if k == b's' as u32 => no_messages = true,
                    k if k == b'v' as u32 => o.invert = true,
                    k if k == b'V' as u32 => {
                        println!("grep (GNU grep) 3.8\nSandglass coreutils implementation.");
                        return 0;
                    }
                    O_HELP => return help(),
                    k if k == b'm' as u32 => match parse_num(&val) {
                        Some(n) => o.max_count = Some(n),
                        None => return fatal("invalid max count"),
                    },
                    k if k == b'b' as u32 => o.byte_offset = true,
                    k if k == b'n' as u32 => o.line_number = true,
                    k if k == b'H' as u32 => with_filename = Some(true),
                    k if k == b'h' as u32 => with_filename = Some(false),
                    O_LABEL => o.label = val,
                    k if k == b'o' as u32 => o.only = true,
                    k if k == b'q' as u32 => o.quiet = true,
                    O_BINARY_FILES => {
                        o.binary = match val.as_slice() {
                            b"binary" => BinaryMode::Binary,
                            b"text" => BinaryMode::Text,
                            b"without-match" => BinaryMode::WithoutMatch,
                            _ => return fatal("unknown binary-files type"),
                        }
                    }
                    k if k == b'a' as u32 => o.binary = BinaryMode::Text,
                    k if k == b'I' as u32 => o.binary = BinaryMode::WithoutMatch,
                    k if k == b'd' as u32 => match val.as_slice() {
                        b"read" => dirs_skip = false,
                        b"skip" => dirs_skip = true,
                        b"recurse" => recursive = recursive.max(1),
                        _ => return fatal("invalid argument for --directories"),
                    },
                    k if k == b'D' as u32 => {}
                    k if k == b'r' as u32 => recursive = recursive.max(1),
                    k if k == b'R' as u32 => recursive = 2,
                    O_INCLUDE => includes.push(val),
                    O_EXCLUDE => excludes.push(val),
                    O_EXCLUDE_FROM => match std::fs::read(getopt::os(&val)) {
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
                    k if k == b'L' as u32 => {
                        o.files_without = true;
                        o.files_with = false;
                    }
                    k if k == b'l' as u32 => {
                        o.files_with = true;
                        o.files_without = false;
                    }
                    k if k == b'c' as u32 => o.count = true,
                    k if k == b'T' as u32 => o.initial_tab = true,
                    k if k == b'Z' as u32 => o.null = true,
                    k if k == b'U' as u32 => {}
                    O_LINE_BUFFERED => {}
                    O_COLOR => match val.as_slice() {
                        b"" | b"never" | b"no" | b"none" | b"auto" | b"tty" | b"if-tty"
                        | b"always" | b"yes" | b"force" => {}
                        _ => {
                            eprintln!(
                                "grep: invalid argument '{}' for '--color'",
                                String::from_utf8_lossy(&val)
                            );
                            eprintln!("Valid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'");
                            return usage_error(None);
                        }
                    },
                    k if k == b'B' as u32 => match context_num(&val) {
                        Ok(n) => before = Some(n),
                        Err(c) => return c,
                    },
                    k if k == b'A' as u32 => match context_num(&val) {
                        Ok(n) => after = Some(n),
                        Err(c) => return c,
                    },
                    k if k == b'C' as u32 || k == getopt::DIGITS => match context_num(&val) {
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
        patterns.extend(bytes(&p).split(|&b| b == b'\n').map(|s| s.to_vec()));
    }
    o.after = after.or(ctx).unwrap_or(0);
    o.before = before.or(ctx).unwrap_or(0);
    o.context = o.after > 0 || o.before > 0;

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
            eprintln!("grep: exceeded PCRE's backtracking limit");
        } else {
            eprintln!("grep: regex backtracking limit exceeded (back-references too costly for this input)");
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
            eprintln!("grep: {}: {}", String::from_utf8_lossy(name), strerror(e));
        }
    }

    /// Search one operand; returns true to stop everything (-q matched).
    fn operand(&self, s: &mut Searcher, op: &OsString, status: &mut bool) -> bool {
        let name = bytes(op).to_vec();
        if name == b"-" {
            let show = self.with_filename.unwrap_or(self.multi);
            let label = s.opts().label.clone();
            let src = Source::Stdin;
            return s.search(src, &label, show, status);
        }
        // Command-line operands are followed even with -r.
        let meta = std::fs::metadata(getopt::os(&name));
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
                    eprintln!("grep: {}: Is a directory", String::from_utf8_lossy(&name));
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
                match std::fs::File::open(getopt::os(&name)) {
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
        let rd = match std::fs::read_dir(getopt::os(dir)) {
            Ok(r) => r,
            Err(e) => {
                self.err(dir, &e, status);
                return false;
            }
        };
        let mut names: Vec<Vec<u8>> = rd
            .filter_map(|e| e.ok())
            .map(|e| bytes(&e.file_name()).to_vec())
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
            let lm = match std::fs::symlink_metadata(getopt::os(&path)) {
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
                match std::fs::metadata(getopt::os(&path)) {
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
                let stop = match std::fs::File::open(getopt::os(&path)) {
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
