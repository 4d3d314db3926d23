//! `diff`: compare files line by line (normal, `-u`/`-U`, `-c`/`-C`,
//! `-q`, `-r`, `-N`, `-i -w -b -B`, `--label`), exit 0 same, 1 different,
//! 2 trouble, with GNU's hunk choices (see `analyze`).

pub mod analyze;
pub mod output;

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::bytes::{disp, os_bytes};
use crate::common::input::{err_text, read_all};
use analyze::{analyze, hunks, Hunk};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};
use output::Side;

const USAGE: Usage = Usage {
    prog_in_hint: true,
    ..Usage::new(
        "diff",
        "[OPTION]... FILES\nCompare FILES line by line.\n",
        2,
    )
};

const SPEC: &[OptSpec<&str>] = &[
    opt("q", Some('q'), Some("brief"), HasArg::No),
    opt("s", Some('s'), Some("report-identical-files"), HasArg::No),
    opt("c", Some('c'), None, HasArg::No),
    opt("C", Some('C'), Some("context"), HasArg::Required),
    opt("u", Some('u'), None, HasArg::No),
    opt("U", Some('U'), Some("unified"), HasArg::Required),
    opt("r", Some('r'), Some("recursive"), HasArg::No),
    opt("N", Some('N'), Some("new-file"), HasArg::No),
    opt("i", Some('i'), Some("ignore-case"), HasArg::No),
    opt("w", Some('w'), Some("ignore-all-space"), HasArg::No),
    opt("b", Some('b'), Some("ignore-space-change"), HasArg::No),
    opt("Z", Some('Z'), Some("ignore-trailing-space"), HasArg::No),
    opt("E", Some('E'), Some("ignore-tab-expansion"), HasArg::No),
    opt("B", Some('B'), Some("ignore-blank-lines"), HasArg::No),
    opt("a", Some('a'), Some("text"), HasArg::No),
    opt("label", None, Some("label"), HasArg::Required),
    opt("color", None, Some("color"), HasArg::Optional),
    opt("d", Some('d'), Some("minimal"), HasArg::No),
    opt(
        "strip-trailing-cr",
        None,
        Some("strip-trailing-cr"),
        HasArg::No,
    ),
    opt("x", Some('x'), Some("exclude"), HasArg::Required),
    opt("no-dereference", None, Some("no-dereference"), HasArg::No),
    opt("p", Some('p'), Some("show-c-function"), HasArg::No),
    opt("T", Some('T'), Some("initial-tab"), HasArg::No),
];

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Normal,
    Unified(usize),
    Context(usize),
    Brief,
}

struct Cfg {
    format: Format,
    report_same: bool,
    recursive: bool,
    new_file: bool,
    icase: bool,
    all_space: bool,
    space_change: bool,
    trailing: bool,
    blank: bool,
    text: bool,
    strip_cr: bool,
    labels: Vec<OsString>,
    excludes: Vec<String>,
    argv_opts: String,
}

fn canon(line: &[u8], c: &Cfg) -> Vec<u8> {
    let mut l: Vec<u8> = line.to_vec();
    if c.strip_cr && l.last() == Some(&b'\r') {
        l.pop();
    }
    if c.icase {
        l.make_ascii_lowercase();
    }
    if c.all_space {
        l.retain(|b| !b.is_ascii_whitespace() && *b != 11);
    } else if c.space_change {
        let mut o = Vec::with_capacity(l.len());
        let mut in_ws = false;
        for &b in &l {
            if b == b' ' || b == b'\t' || b == 11 || b == 12 || b == b'\r' {
                in_ws = true;
            } else {
                if in_ws {
                    o.push(b' ');
                }
                in_ws = false;
                o.push(b);
            }
        }
        l = o;
    } else if c.trailing {
        while l.last().map_or(false, |b| b.is_ascii_whitespace()) {
            l.pop();
        }
    }
    l
}

fn mtime_text(path: &Path, context: bool) -> String {
    // A missing file (with -N) shows the epoch, as GNU does.
    let (secs, nanos) = match coreutils_core::fs::metadata(path)
        .ok()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
    {
        Some(d) => (d.as_secs() as i64, d.subsec_nanos()),
        None => (0, 0),
    };
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil date from days since 1970-01-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    let (hh, mm, ss) = (rem / 3600, rem / 60 % 60, rem % 60);
    if context {
        const WD: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MON: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let wd = WD[(days + 4).rem_euclid(7) as usize];
        return format!(
            "{} {} {:>2} {:02}:{:02}:{:02} {}",
            wd,
            MON[(m - 1) as usize],
            d,
            hh,
            mm,
            ss,
            y
        );
    }
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} +0000",
        y, m, d, hh, mm, ss, nanos
    )
}

/// Result of one comparison: 0 same, 1 different, 2 trouble.
fn diff_files(cfg: &Cfg, pa: &Path, pb: &Path, out: &mut Vec<u8>, header: Option<&str>) -> i32 {
    let read = |p: &Path, other_exists: bool| -> Result<Vec<u8>, i32> {
        if p == Path::new("-") {
            return read_all(OsStr::new("-")).map_err(|_| 2);
        }
        match read_all(p.as_os_str()) {
            Ok(d) => Ok(d),
            Err(e) if cfg.new_file && e.kind() == std::io::ErrorKind::NotFound && other_exists => {
                Ok(Vec::new())
            }
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("diff"),
                    p.display(),
                    err_text(&e)
                );
                Err(2)
            }
        }
    };
    let ea = pa == Path::new("-") || pa.exists();
    let eb = pb == Path::new("-") || pb.exists();
    let da = match read(pa, eb) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let db = match read(pb, ea) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let name_a = cfg
        .labels
        .first()
        .map(|l| disp(l))
        .unwrap_or_else(|| pa.display().to_string());
    let name_b = cfg
        .labels
        .get(1)
        .map(|l| disp(l))
        .unwrap_or_else(|| pb.display().to_string());
    if da == db {
        if cfg.report_same {
            out.extend_from_slice(
                format!("Files {} and {} are identical\n", name_a, name_b).as_bytes(),
            );
        }
        return 0;
    }
    let binary = !cfg.text && (da.contains(&0) || db.contains(&0));
    if cfg.format == Format::Brief || binary {
        if let Some(h) = header {
            let _ = h;
        }
        if binary && cfg.format != Format::Brief {
            out.extend_from_slice(
                format!("Binary files {} and {} differ\n", name_a, name_b).as_bytes(),
            );
            return 1;
        }
    }
    let sa = Side::new(&da);
    let sb = Side::new(&db);
    // Equivalence classes of (canonicalised) lines. A last line without
    // newline differs from the same text with one.
    let mut classes: HashMap<(Vec<u8>, bool), usize> = HashMap::new();
    let mut ids = |s: &Side| -> Vec<usize> {
        s.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let last_nonl = s.missing_nl && i + 1 == s.lines.len();
                let key = (canon(l, cfg), last_nonl && !cfg.all_space);
                let n = classes.len();
                *classes.entry(key).or_insert(n)
            })
            .collect()
    };
    let ia = ids(&sa);
    let ib = ids(&sb);
    let n = classes.len();
    let horizon = match cfg.format {
        Format::Unified(c) | Format::Context(c) => c,
        _ => 0,
    };
    let ch = analyze(&ia, &ib, n, horizon);
    let mut hs: Vec<Hunk> = hunks(&ch);
    if cfg.blank {
        hs.retain(|h| {
            !(sa.lines[h.a0..h.a1]
                .iter()
                .all(|l| canon(l, cfg).iter().all(|b| b.is_ascii_whitespace()))
                && sb.lines[h.b0..h.b1]
                    .iter()
                    .all(|l| canon(l, cfg).iter().all(|b| b.is_ascii_whitespace())))
        });
    }
    if hs.is_empty() {
        if cfg.report_same {
            out.extend_from_slice(
                format!("Files {} and {} are identical\n", name_a, name_b).as_bytes(),
            );
        }
        return 0;
    }
    if let Some(h) = header {
        out.extend_from_slice(h.as_bytes());
    }
    match cfg.format {
        Format::Brief => {
            out.extend_from_slice(format!("Files {} and {} differ\n", name_a, name_b).as_bytes());
        }
        Format::Normal => output::normal(out, &sa, &sb, &hs),
        Format::Unified(c) => {
            let ta = if cfg.labels.is_empty() {
                format!("\t{}", mtime_text(pa, false))
            } else {
                String::new()
            };
            let tb = if cfg.labels.len() < 2 {
                format!("\t{}", mtime_text(pb, false))
            } else {
                String::new()
            };
            out.extend_from_slice(
                format!("--- {}{}\n+++ {}{}\n", name_a, ta, name_b, tb).as_bytes(),
            );
            output::unified(out, &sa, &sb, &hs, c);
        }
        Format::Context(c) => {
            let ta = if cfg.labels.is_empty() {
                format!("\t{}", mtime_text(pa, true))
            } else {
                String::new()
            };
            let tb = if cfg.labels.len() < 2 {
                format!("\t{}", mtime_text(pb, true))
            } else {
                String::new()
            };
            out.extend_from_slice(
                format!("*** {}{}\n--- {}{}\n", name_a, ta, name_b, tb).as_bytes(),
            );
            output::context(out, &sa, &sb, &hs, c);
        }
    }
    1
}

fn list_dir(p: &Path) -> std::io::Result<Vec<OsString>> {
    let mut v: Vec<OsString> = std::fs::read_dir(p)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    v.sort_by(|a, b| os_bytes(a).cmp(os_bytes(b)));
    Ok(v)
}

fn excluded(cfg: &Cfg, name: &OsStr) -> bool {
    let n = name.to_string_lossy();
    cfg.excludes
        .iter()
        .any(|pat| glob_match(pat.as_bytes(), n.as_bytes()))
}

fn glob_match(p: &[u8], s: &[u8]) -> bool {
    match (p.first(), s.first()) {
        (None, None) => true,
        (Some(b'*'), _) => glob_match(&p[1..], s) || (!s.is_empty() && glob_match(p, &s[1..])),
        (Some(b'?'), Some(_)) => glob_match(&p[1..], &s[1..]),
        (Some(a), Some(b)) if a == b => glob_match(&p[1..], &s[1..]),
        _ => false,
    }
}

fn diff_dirs(cfg: &Cfg, a: &Path, b: &Path, out: &mut Vec<u8>) -> i32 {
    let la = match list_dir(a) {
        Ok(v) => v,
        Err(e) if cfg.new_file && e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("diff"),
                a.display(),
                err_text(&e)
            );
            return 2;
        }
    };
    let lb = match list_dir(b) {
        Ok(v) => v,
        Err(e) if cfg.new_file && e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("diff"),
                b.display(),
                err_text(&e)
            );
            return 2;
        }
    };
    let mut names: Vec<OsString> = la.iter().chain(lb.iter()).cloned().collect();
    names.sort_by(|x, y| os_bytes(x).cmp(os_bytes(y)));
    names.dedup();
    let mut status = 0;
    for n in names {
        if excluded(cfg, &n) {
            continue;
        }
        let (pa, pb) = (a.join(&n), b.join(&n));
        let (ina, inb) = (la.contains(&n), lb.contains(&n));
        if (!ina || !inb) && !cfg.new_file {
            let (dir, _) = if ina { (a, &pa) } else { (b, &pb) };
            out.extend_from_slice(
                format!("Only in {}: {}\n", dir.display(), n.to_string_lossy()).as_bytes(),
            );
            status = status.max(1);
            continue;
        }
        let (da, dbb) = (pa.is_dir(), pb.is_dir());
        if (da || !ina) && (dbb || !inb) && (da || dbb) {
            if cfg.recursive {
                // With -N a directory missing on one side compares as empty.
                status = status.max(diff_dirs(cfg, &pa, &pb, out));
            } else {
                out.extend_from_slice(
                    format!(
                        "Common subdirectories: {} and {}\n",
                        pa.display(),
                        pb.display()
                    )
                    .as_bytes(),
                );
            }
            continue;
        }
        if da != dbb && ina && inb {
            let (d, f) = if da { (&pa, &pb) } else { (&pb, &pa) };
            let _ = f;
            out.extend_from_slice(
                format!(
                    "File {} is a {} while file {} is a {}\n",
                    pa.display(),
                    if da { "directory" } else { "regular file" },
                    pb.display(),
                    if dbb { "directory" } else { "regular file" }
                )
                .as_bytes(),
            );
            let _ = d;
            status = status.max(1);
            continue;
        }
        let header = if cfg.format == Format::Brief {
            None
        } else {
            Some(format!(
                "diff{} {} {}\n",
                cfg.argv_opts,
                pa.display(),
                pb.display()
            ))
        };
        status = status.max(diff_files(cfg, &pa, &pb, out, header.as_deref()));
    }
    status
}

fn ctx_num(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .map_err(|_| format!("invalid context length '{}'", s))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut format = Format::Normal;
    for o in &p.opts {
        let s = o.val();
        format = match o.key {
            "u" => Format::Unified(3),
            "c" => Format::Context(3),
            "U" => match ctx_num(&s) {
                Ok(n) => Format::Unified(n),
                Err(m) => return USAGE.fail(&m),
            },
            "C" => match ctx_num(&s) {
                Ok(n) => Format::Context(n),
                Err(m) => return USAGE.fail(&m),
            },
            "q" => Format::Brief,
            _ => continue,
        };
    }
    if p.has("q") {
        format = Format::Brief;
    }
    // Options as GNU echoes them in `diff -r` headers.
    let mut argv_opts = String::new();
    for a in args.iter().skip(1) {
        let s = a.to_string_lossy();
        if s.starts_with('-') && s != "-" {
            argv_opts.push(' ');
            argv_opts.push_str(&s);
        }
    }
    let cfg = Cfg {
        format,
        report_same: p.has("s"),
        recursive: p.has("r"),
        new_file: p.has("N"),
        icase: p.has("i"),
        all_space: p.has("w"),
        space_change: p.has("b"),
        trailing: p.has("Z"),
        blank: p.has("B"),
        text: p.has("a"),
        strip_cr: p.has("strip-trailing-cr"),
        labels: p.all("label").into_iter().cloned().collect(),
        excludes: p
            .all("x")
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect(),
        argv_opts,
    };
    let ops = &p.operands;
    if ops.is_empty() {
        eprintln!(
            "{}: missing operand after 'diff'",
            coreutils_core::prog("diff")
        );
        eprintln!(
            "{}: Try 'diff --help' for more information.",
            coreutils_core::prog("diff")
        );
        return 2;
    }
    if ops.len() == 1 {
        eprintln!(
            "{}: missing operand after '{}'",
            coreutils_core::prog("diff"),
            ops[0].to_string_lossy()
        );
        eprintln!(
            "{}: Try 'diff --help' for more information.",
            coreutils_core::prog("diff")
        );
        return 2;
    }
    if ops.len() > 2 {
        eprintln!(
            "{}: extra operand '{}'",
            coreutils_core::prog("diff"),
            ops[2].to_string_lossy()
        );
        eprintln!(
            "{}: Try 'diff --help' for more information.",
            coreutils_core::prog("diff")
        );
        return 2;
    }
    let (a, b) = (PathBuf::from(&ops[0]), PathBuf::from(&ops[1]));
    let mut out: Vec<u8> = Vec::new();
    let (ad, bd) = (a.is_dir(), b.is_dir());
    let status = if ad && bd {
        diff_dirs(&cfg, &a, &b, &mut out)
    } else if ad && ops[1] != "-" {
        let name = b.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        diff_files(&cfg, &a.join(name), &b, &mut out, None)
    } else if bd && ops[0] != "-" {
        let name = a.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        diff_files(&cfg, &a, &b.join(name), &mut out, None)
    } else {
        diff_files(&cfg, &a, &b, &mut out, None)
    };
    let so = std::io::stdout();
    let mut lock = so.lock();
    if let Err(e) = lock.write_all(&out).and_then(|_| lock.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return 141;
        }
        eprintln!("{}: {}", coreutils_core::prog("diff"), err_text(&e));
        return 2;
    }
    status
}
