//! `patch`: apply unified diffs (`-p N`, `-R`, `-N`, `-i FILE`, stdin,
//! `--dry-run`, `-o`, `-b`, `-E`), creating and deleting files, with
//! offset/fuzz search and GNU's messages, rejects and `.orig` backups.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::common::bytes::{disp, os_bytes, os_from_vec};
use crate::common::input::{err_text, read_all};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "patch",
    "[OPTION]... [ORIGFILE [PATCHFILE]]\nApply a diff file to an original.\n",
    2,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("p", Some('p'), Some("strip"), HasArg::Required),
    opt("R", Some('R'), Some("reverse"), HasArg::No),
    opt("N", Some('N'), Some("forward"), HasArg::No),
    opt("i", Some('i'), Some("input"), HasArg::Required),
    opt("o", Some('o'), Some("output"), HasArg::Required),
    opt("d", Some('d'), Some("directory"), HasArg::Required),
    opt("b", Some('b'), Some("backup"), HasArg::No),
    opt("E", Some('E'), Some("remove-empty-files"), HasArg::No),
    opt("s", Some('s'), Some("silent"), HasArg::No),
    opt("s", None, Some("quiet"), HasArg::No),
    opt("f", Some('f'), Some("force"), HasArg::No),
    opt("t", Some('t'), Some("batch"), HasArg::No),
    opt("u", Some('u'), Some("unified"), HasArg::No),
    opt("F", Some('F'), Some("fuzz"), HasArg::Required),
    opt("r", Some('r'), Some("reject-file"), HasArg::Required),
    opt("dry", None, Some("dry-run"), HasArg::No),
    opt("nobackup", None, Some("no-backup-if-mismatch"), HasArg::No),
    opt(
        "backup-if-mismatch",
        None,
        Some("backup-if-mismatch"),
        HasArg::No,
    ),
    opt("l", Some('l'), Some("ignore-whitespace"), HasArg::No),
];

#[derive(Clone, Debug)]
struct Hunk {
    old_start: usize,
    new_start: usize,
    lines: Vec<(u8, Vec<u8>)>,
    old_nonl: bool,
    new_nonl: bool,
    text: Vec<u8>,
}

impl Hunk {
    fn reversed(&self) -> Hunk {
        Hunk {
            old_start: self.new_start,
            new_start: self.old_start,
            lines: self
                .lines
                .iter()
                .map(|(k, l)| {
                    (
                        match k {
                            b'-' => b'+',
                            b'+' => b'-',
                            o => *o,
                        },
                        l.clone(),
                    )
                })
                .collect(),
            old_nonl: self.new_nonl,
            new_nonl: self.old_nonl,
            text: self.text.clone(),
        }
    }
    fn old(&self) -> Vec<&[u8]> {
        self.lines
            .iter()
            .filter(|(k, _)| *k != b'+')
            .map(|(_, l)| &l[..])
            .collect()
    }
    fn new_side(&self) -> Vec<&[u8]> {
        self.lines
            .iter()
            .filter(|(k, _)| *k != b'-')
            .map(|(_, l)| &l[..])
            .collect()
    }
}

#[derive(Debug, Default)]
struct FilePatch {
    old: Option<Vec<u8>>,
    new: Option<Vec<u8>>,
    header: Vec<u8>,
    header_line: usize,
    hunks: Vec<Hunk>,
}

fn parse_name(line: &[u8]) -> Vec<u8> {
    let rest = &line[4..];
    let end = rest.iter().position(|&c| c == b'\t').unwrap_or(rest.len());
    let mut n = rest[..end].to_vec();
    while n.last() == Some(&b' ') || n.last() == Some(&b'\r') {
        n.pop();
    }
    if n.len() >= 2 && n[0] == b'"' && n[n.len() - 1] == b'"' {
        n = n[1..n.len() - 1].to_vec();
    }
    n
}

fn parse_range(s: &[u8]) -> Option<(usize, usize)> {
    let t = std::str::from_utf8(s).ok()?;
    match t.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => Some((t.parse().ok()?, 1)),
    }
}

fn parse_patch(data: &[u8]) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
    let mut out: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    let mut pending_header: Vec<u8> = Vec::new();
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with(b"--- ") && i + 1 < lines.len() && lines[i + 1].starts_with(b"+++ ") {
            let mut fp = FilePatch {
                old: Some(parse_name(l)),
                new: Some(parse_name(lines[i + 1])),
                ..Default::default()
            };
            pending_header.extend_from_slice(l);
            pending_header.push(b'\n');
            pending_header.extend_from_slice(lines[i + 1]);
            pending_header.push(b'\n');
            fp.header = std::mem::take(&mut pending_header);
            fp.header_line = i + 3;
            i += 2;
            while i < lines.len() && lines[i].starts_with(b"@@ ") {
                let h = lines[i];
                let end = h[3..]
                    .windows(2)
                    .position(|w| w == b"@@")
                    .map(|p| p + 3)
                    .ok_or("malformed hunk header")?;
                let spec = &h[3..end];
                let parts: Vec<&[u8]> = spec
                    .split(|&c| c == b' ')
                    .filter(|p| !p.is_empty())
                    .collect();
                if parts.len() != 2 || parts[0][0] != b'-' || parts[1][0] != b'+' {
                    return Err(format!(
                        "malformed patch at line {}: {}",
                        i + 1,
                        String::from_utf8_lossy(h)
                    ));
                }
                let (os, ol) = parse_range(&parts[0][1..]).ok_or("bad range")?;
                let (ns, nl) = parse_range(&parts[1][1..]).ok_or("bad range")?;
                let mut hunk = Hunk {
                    old_start: os,
                    new_start: ns,
                    lines: Vec::new(),
                    old_nonl: false,
                    new_nonl: false,
                    text: Vec::new(),
                };
                hunk.text.extend_from_slice(h);
                hunk.text.push(b'\n');
                i += 1;
                let (mut seen_old, mut seen_new) = (0, 0);
                let mut last_kind = b' ';
                while i < lines.len()
                    && (seen_old < ol || seen_new < nl || lines[i].starts_with(b"\\"))
                {
                    let t = lines[i];
                    if t.starts_with(b"\\") {
                        match last_kind {
                            b'-' => hunk.old_nonl = true,
                            b'+' => hunk.new_nonl = true,
                            _ => {
                                hunk.old_nonl = true;
                                hunk.new_nonl = true;
                            }
                        }
                        hunk.text.extend_from_slice(t);
                        hunk.text.push(b'\n');
                        i += 1;
                        continue;
                    }
                    let (kind, body) = match t.first() {
                        Some(&k @ (b' ' | b'-' | b'+')) => (k, &t[1..]),
                        // An empty line inside a hunk is an empty context line.
                        None => (b' ', t),
                        Some(_) => {
                            return Err(format!(
                                "malformed patch at line {}: {}",
                                i + 1,
                                String::from_utf8_lossy(t)
                            ));
                        }
                    };
                    let body = body.strip_suffix(b"\r").filter(|_| false).unwrap_or(body);
                    match kind {
                        b'-' => seen_old += 1,
                        b'+' => seen_new += 1,
                        _ => {
                            seen_old += 1;
                            seen_new += 1;
                        }
                    }
                    last_kind = kind;
                    hunk.lines.push((kind, body.to_vec()));
                    hunk.text.extend_from_slice(t);
                    hunk.text.push(b'\n');
                    i += 1;
                }
                if seen_old != ol || seen_new != nl {
                    return Err(format!(
                        "malformed patch at line {}: unexpected end of hunk",
                        i + 1
                    ));
                }
                fp.hunks.push(hunk);
            }
            out.push(fp);
            continue;
        }
        pending_header.clear();
        i += 1;
    }
    Ok(out)
}

fn strip(name: &[u8], p: Option<usize>) -> Option<Vec<u8>> {
    match p {
        None => Some(name.rsplit(|&c| c == b'/').next().unwrap_or(name).to_vec()),
        Some(n) => {
            let mut rest = name;
            for _ in 0..n {
                match rest.iter().position(|&c| c == b'/') {
                    Some(k) => {
                        rest = &rest[k + 1..];
                        while rest.first() == Some(&b'/') {
                            rest = &rest[1..];
                        }
                    }
                    // Fewer components than -p strips: no usable name.
                    None => return None,
                }
            }
            Some(rest.to_vec())
        }
    }
}

fn matches_at(lines: &[Vec<u8>], pat: &[&[u8]], at: usize, ws: bool) -> bool {
    if at + pat.len() > lines.len() {
        return false;
    }
    pat.iter().enumerate().all(|(k, p)| {
        let l = &lines[at + k];
        if ws {
            let norm = |s: &[u8]| -> Vec<u8> {
                s.split(|c| c.is_ascii_whitespace())
                    .filter(|w| !w.is_empty())
                    .flat_map(|w| w.iter().copied().chain(std::iter::once(b' ')))
                    .collect()
            };
            norm(l) == norm(p)
        } else {
            l[..] == p[..]
        }
    })
}

/// Where `h` applies (line index, fuzz), searching outward from `expect`.
fn locate(
    lines: &[Vec<u8>],
    h: &Hunk,
    expect: usize,
    max_fuzz: usize,
    ws: bool,
) -> Option<(usize, usize, usize, usize)> {
    let old = h.old();
    let lead = h.lines.iter().take_while(|(k, _)| *k == b' ').count();
    let trail = h.lines.iter().rev().take_while(|(k, _)| *k == b' ').count();
    for fuzz in 0..=max_fuzz {
        let (cut_front, cut_back) = (fuzz.min(lead), fuzz.min(trail));
        if fuzz > 0 && cut_front + cut_back == 0 {
            break;
        }
        if cut_front + cut_back > old.len() {
            break;
        }
        let pat = &old[cut_front..old.len() - cut_back];
        // Fuzz on a hunk that anchors at the file start/end is not used
        // for the start/end side.
        let base = expect + cut_front;
        let maxpos = lines.len().saturating_sub(pat.len());
        let mut d = 0usize;
        loop {
            let mut tried = false;
            // Unequal context at fuzz 0 pins the hunk to the file's start
            // (less leading context) or end (less trailing), as GNU does.
            let anchored = |pos: usize| {
                fuzz > 0
                    || (lead >= trail || pos == 0)
                        && (trail >= lead || pos + pat.len() == lines.len())
            };
            if base + d <= maxpos {
                tried = true;
                if anchored(base + d) && matches_at(lines, pat, base + d, ws) {
                    return Some((base + d - cut_front, fuzz, cut_front, cut_back));
                }
            }
            if d > 0 && d <= base && base - d <= maxpos {
                tried = true;
                if anchored(base - d) && matches_at(lines, pat, base - d, ws) {
                    return Some((base - d - cut_front, fuzz, cut_front, cut_back));
                }
            }
            if !tried && d > base && base + d > maxpos {
                break;
            }
            d += 1;
            if d > lines.len() + pat.len() + 1 {
                break;
            }
        }
    }
    None
}

struct Opts {
    strip: Option<usize>,
    reverse: bool,
    forward: bool,
    dry: bool,
    backup: bool,
    backup_mismatch: bool,
    remove_empty: bool,
    silent: bool,
    force: bool,
    fuzz: usize,
    ws: bool,
    output: Option<OsString>,
    reject: Option<OsString>,
}

fn say(out: &mut Vec<u8>, o: &Opts, s: &str) {
    if !o.silent {
        out.extend_from_slice(s.as_bytes());
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let strip_n = match p.last_str("p") {
        Some(s) => match s.parse::<usize>() {
            Ok(n) => Some(n),
            Err(_) => return USAGE.die(2, &format!("**** strip count {} is not a number", s)),
        },
        None => None,
    };
    let o = Opts {
        strip: strip_n,
        reverse: p.has("R"),
        forward: p.has("N"),
        dry: p.has("dry"),
        backup: p.has("b"),
        backup_mismatch: !p.has("nobackup"),
        remove_empty: p.has("E"),
        silent: p.has("s"),
        force: p.has("f") || p.has("t"),
        fuzz: p.last_str("F").and_then(|s| s.parse().ok()).unwrap_or(2),
        ws: p.has("l"),
        output: p.last("o").cloned(),
        reject: p.last("r").cloned(),
    };
    if let Some(d) = p.last("d") {
        if let Err(e) = std::env::set_current_dir(d) {
            return USAGE.die(
                2,
                &format!(
                    "**** Can't change to directory {} : {}",
                    disp(d),
                    err_text(&e)
                ),
            );
        }
    }
    if p.operands.len() > 2 {
        return USAGE.fail(&format!("extra operand '{}'", disp(&p.operands[2])));
    }
    let patch_src: Option<OsString> = p.last("i").cloned().or_else(|| p.operands.get(1).cloned());
    let data = match &patch_src {
        Some(f) => match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                return USAGE.die(
                    2,
                    &format!("**** Can't open patch file {} : {}", disp(f), err_text(&e)),
                )
            }
        },
        None => {
            let mut v = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut v) {
                return USAGE.die(2, &format!("**** read error : {}", err_text(&e)));
            }
            v
        }
    };
    let patches = match parse_patch(&data) {
        Ok(p) => p,
        Err(m) => return USAGE.die(2, &format!("**** {}", m)),
    };
    let mut out: Vec<u8> = Vec::new();
    let mut status = 0;
    if patches.is_empty() {
        if !data.iter().all(|c| c.is_ascii_whitespace()) {
            eprintln!(
                "{}: **** Only garbage was found in the patch input.",
                coreutils_core::prog("patch")
            );
            return 2;
        }
        let _ = std::io::stdout().write_all(&out);
        return 0;
    }
    let target_override = p.operands.first().cloned();
    for fp in &patches {
        status = status.max(apply_file(&o, fp, target_override.as_ref(), &mut out));
    }
    let so = std::io::stdout();
    let mut lock = so.lock();
    let _ = lock.write_all(&out).and_then(|_| lock.flush());
    status
}

fn apply_file(
    o: &Opts,
    fp: &FilePatch,
    target_override: Option<&OsString>,
    out: &mut Vec<u8>,
) -> i32 {
    let dev_null = |n: &Option<Vec<u8>>| n.as_deref() == Some(b"/dev/null");
    let (mut creating, mut deleting) = (dev_null(&fp.old), dev_null(&fp.new));
    if o.reverse {
        std::mem::swap(&mut creating, &mut deleting);
    }
    let old_name = fp
        .old
        .as_ref()
        .filter(|_| !dev_null(&fp.old))
        .and_then(|n| strip(n, o.strip));
    let new_name = fp
        .new
        .as_ref()
        .filter(|_| !dev_null(&fp.new))
        .and_then(|n| strip(n, o.strip));
    let target: Option<PathBuf> = if let Some(t) = target_override {
        Some(PathBuf::from(t))
    } else {
        let cands: Vec<&Vec<u8>> = [&old_name, &new_name]
            .iter()
            .filter_map(|x| x.as_ref())
            .collect();
        cands
            .iter()
            .find(|n| Path::new(&os_from_vec((**n).clone())).exists())
            .or_else(|| {
                if creating || fp.hunks.iter().all(|h| h.old().is_empty()) {
                    cands.last()
                } else {
                    None
                }
            })
            .map(|n| PathBuf::from(os_from_vec((**n).clone())))
    };
    let nh = fp.hunks.len();
    let plural = |n: usize| if n == 1 { "hunk" } else { "hunks" };
    let target = match target {
        Some(t) => t,
        None => {
            out.extend_from_slice(
                format!(
                    "can't find file to patch at input line {}\n",
                    fp.header_line
                )
                .as_bytes(),
            );
            out.extend_from_slice(if o.strip.is_some() {
                &b"Perhaps you used the wrong -p or --strip option?\n"[..]
            } else {
                &b"Perhaps you should have used the -p or --strip option?\n"[..]
            });
            out.extend_from_slice(
                b"The text leading up to this was:\n--------------------------\n",
            );
            for l in fp.header.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
                out.push(b'|');
                out.extend_from_slice(l);
                out.push(b'\n');
            }
            out.extend_from_slice(b"--------------------------\n");
            // No terminal to ask on: GNU's prompts fall through to "skip".
            out.extend_from_slice(b"File to patch: \nSkip this patch? [y] \nSkipping patch.\n");
            out.extend_from_slice(
                format!("{} out of {} {} ignored\n", nh, nh, plural(nh)).as_bytes(),
            );
            return 1;
        }
    };
    let shown = target.display().to_string();
    say(
        out,
        o,
        &format!(
            "{} file {}\n",
            if o.dry { "checking" } else { "patching" },
            match &o.output {
                Some(out_name) => format!("{} (read from {})", disp(out_name), shown),
                None => target.display().to_string(),
            }
        ),
    );
    let original = if coreutils_core::fs::exists(&target) {
        match read_all(target.as_os_str()) {
            Ok(d) => Some(d),
            Err(e) => {
                out.extend_from_slice(
                    format!("patch: **** Can't open file {} : {}\n", shown, err_text(&e))
                        .as_bytes(),
                );
                return 2;
            }
        }
    } else {
        None
    };
    let orig_bytes = original.clone().unwrap_or_default();
    let mut lines: Vec<Vec<u8>> = orig_bytes
        .split(|&c| c == b'\n')
        .map(|l| l.to_vec())
        .collect();
    let mut missing_nl = !orig_bytes.is_empty() && orig_bytes.last() != Some(&b'\n');
    if !missing_nl {
        lines.pop();
    }
    let hunks: Vec<Hunk> = fp
        .hunks
        .iter()
        .map(|h| if o.reverse { h.reversed() } else { h.clone() })
        .collect();
    let mut offset: isize = 0;
    let mut failed: Vec<&Hunk> = Vec::new();
    let mut mismatch = false;
    let mut assume_applied = false;
    for (k, h) in hunks.iter().enumerate() {
        let old_len = h.old().len();
        let expect = if old_len == 0 {
            h.old_start as isize
        } else {
            h.old_start as isize - 1
        } + offset;
        let expect = expect.max(0) as usize;
        let found = locate(&lines, h, expect, o.fuzz, o.ws);
        let found = match found {
            Some(f) => f,
            None => {
                // A reversed hunk that applies means the patch is already in.
                let rev = h.reversed();
                if k == 0
                    && !o.force
                    && locate(&lines, &rev, expect, 0, o.ws).is_some()
                    && !rev.old().is_empty()
                {
                    if o.forward {
                        say(
                            out,
                            o,
                            "Reversed (or previously applied) patch detected!  Skipping patch.\n",
                        );
                    } else {
                        say(out, o, "Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n");
                    }
                    assume_applied = true;
                    failed = hunks.iter().collect();
                    break;
                }
                say(
                    out,
                    o,
                    &format!("Hunk #{} FAILED at {}.\n", k + 1, h.old_start),
                );
                failed.push(h);
                continue;
            }
        };
        let (at, fuzz, cut_front, cut_back) = found;
        let new_all = h.new_side();
        // Context lines dropped by fuzz stay as they are in the file.
        let new_lines: Vec<Vec<u8>> = new_all[cut_front.min(new_all.len())
            ..new_all
                .len()
                .saturating_sub(cut_back)
                .max(cut_front.min(new_all.len()))]
            .iter()
            .map(|l| l.to_vec())
            .collect();
        let delta = at as isize - expect as isize;
        let line_no = at + 1 + usize::from(old_len == 0);
        let off_total = at as isize
            - (if old_len == 0 {
                h.old_start as isize
            } else {
                h.old_start as isize - 1
            });
        if fuzz > 0 || off_total != offset || delta != 0 {
            mismatch = true;
        }
        let shown_off = at as isize
            - (if old_len == 0 {
                h.old_start as isize
            } else {
                h.old_start as isize - 1
            });
        let mut msg = String::new();
        if fuzz > 0 || shown_off != 0 {
            {
                let _ = write!(msg, "Hunk #{} succeeded at {}", k + 1, line_no);
            }
            if fuzz > 0 {
                {
                    let _ = write!(msg, " with fuzz {}", fuzz);
                }
            }
            if shown_off != 0 {
                {
                    let _ = write!(
                        msg,
                        " (offset {} line{})",
                        shown_off,
                        if shown_off.abs() == 1 { "" } else { "s" }
                    );
                }
            }
            msg.push_str(".\n");
            say(out, o, &msg);
        }
        let at_cut = at + cut_front;
        let end = at + old_len - cut_back;
        if h.old_nonl && end == lines.len() {
            missing_nl = false;
        }
        if end == lines.len() {
            missing_nl = h.new_nonl;
        }
        offset += new_lines.len() as isize - (end - at_cut) as isize;
        offset = offset + at as isize - expect as isize;
        lines.splice(at_cut..end, new_lines);
        if lines.is_empty() {
            missing_nl = false;
        }
    }
    let mut result: Vec<u8> = Vec::with_capacity(orig_bytes.len() + 64);
    for (i, l) in lines.iter().enumerate() {
        result.extend_from_slice(l);
        if i + 1 < lines.len() || !missing_nl {
            result.push(b'\n');
        }
    }
    if o.dry {
        if !failed.is_empty() {
            out.extend_from_slice(
                format!(
                    "{} out of {} {} {}\n",
                    failed.len(),
                    nh,
                    plural(nh),
                    if assume_applied { "ignored" } else { "FAILED" }
                )
                .as_bytes(),
            );
            return 1;
        }
        return 0;
    }
    let mut status = 0;
    if !failed.is_empty() {
        let rej = o.reject.clone().map(PathBuf::from).unwrap_or_else(|| {
            let mut s = target.as_os_str().to_os_string();
            s.push(".rej");
            PathBuf::from(s)
        });
        let mut r = fp.header.clone();
        for h in &failed {
            r.extend_from_slice(&h.text);
        }
        let _ = coreutils_core::fs::write(&rej, &r);
        out.extend_from_slice(
            format!(
                "{} out of {} {} {} -- saving rejects to file {}\n",
                failed.len(),
                nh,
                plural(nh),
                if assume_applied { "ignored" } else { "FAILED" },
                rej.display()
            )
            .as_bytes(),
        );
        status = 1;
        if assume_applied {
            return 1;
        }
        mismatch = true;
    }
    let dest = o
        .output
        .clone()
        .map(PathBuf::from)
        .unwrap_or_else(|| target.clone());
    if (o.backup || (mismatch && o.backup_mismatch)) && o.output.is_none() {
        if let Some(orig) = &original {
            let mut b = target.as_os_str().to_os_string();
            b.push(".orig");
            let _ = coreutils_core::fs::write(PathBuf::from(b), orig);
        } else if o.backup {
            let mut b = target.as_os_str().to_os_string();
            b.push(".orig");
            let _ = coreutils_core::fs::write(PathBuf::from(b), b"");
        }
    }
    if (deleting || o.remove_empty) && result.is_empty() && o.output.is_none() {
        if let Err(e) = coreutils_core::fs::remove_file(&dest) {
            out.extend_from_slice(
                format!(
                    "patch: **** Can't remove file {} : {}\n",
                    dest.display(),
                    err_text(&e)
                )
                .as_bytes(),
            );
            return 2;
        }
        return status;
    }
    if let Some(parent) = dest.parent() {
        if !parent.as_os_str().is_empty() && !coreutils_core::fs::exists(&parent) {
            let _ = coreutils_core::fs::create_dir_all(parent);
        }
    }
    let fresh_output = o.output.is_some() && !coreutils_core::fs::exists(&dest);
    if let Err(e) = coreutils_core::fs::write(&dest, &result) {
        out.extend_from_slice(
            format!(
                "patch: **** Can't create file {} : {}\n",
                dest.display(),
                err_text(&e)
            )
            .as_bytes(),
        );
        return 2;
    }
    if fresh_output {
        // GNU creates an -o file privately (mode 0600); coreutils-core's
        // chmod reaches the sandbox's modes, which plain WASI cannot.
        let _ = coreutils_core::meta::chmod(&dest, 0o600, true);
    }
    let _ = os_bytes;
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_unified_and_strips() {
        let p = parse_patch(b"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n").unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].hunks[0].old(), vec![&b"a"[..], b"b"]);
        assert_eq!(p[0].hunks[0].new_side(), vec![&b"a"[..], b"c"]);
        assert_eq!(strip(b"a/b/c", Some(1)).as_deref(), Some(&b"b/c"[..]));
        assert_eq!(strip(b"a.txt", Some(1)), None);
        assert_eq!(strip(b"a/b/c", None).as_deref(), Some(&b"c"[..]));
    }

    #[test]
    fn locates_with_offset_and_fuzz() {
        let lines: Vec<Vec<u8>> = ["z", "a", "b", "c"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        let h =
            &parse_patch(b"--- x\n+++ x\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n").unwrap()[0].hunks[0];
        assert_eq!(
            locate(&lines, h, 0, 2, false).map(|f| (f.0, f.1)),
            Some((1, 0))
        );
        let h2 =
            &parse_patch(b"--- x\n+++ x\n@@ -1,3 +1,3 @@\n Q\n-b\n+B\n c\n").unwrap()[0].hunks[0];
        assert_eq!(
            locate(&lines, h2, 1, 2, false).map(|f| (f.0, f.1)),
            Some((1, 1))
        );
    }
}
