//! zip and unzip (Info-ZIP style) over the `zip` crate: `zip [-r] [-q]
//! ARCHIVE FILE...` and `unzip [-l] [-p] [-o|-n] [-q] [-d DIR] ARCHIVE
//! [MEMBER...]`, streaming member data in chunks.

use coreutils_core::bytes::{os_bytes, path_from_bytes};
use coreutils_core::error::strerror;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn copy_chunks<R: Read, W: Write>(r: &mut R, w: &mut W) -> io::Result<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut n = 0;
    loop {
        let k = r.read(&mut buf)?;
        if k == 0 {
            return Ok(n);
        }
        w.write_all(&buf[..k])?;
        n += k as u64;
    }
}

/// unzip entry point.
pub fn unzip_main(args: Vec<OsString>) -> i32 {
    let mut list = false;
    let mut pipe = false;
    let mut over: Option<bool> = None;
    let mut quiet = false;
    let mut dir: Option<PathBuf> = None;
    let mut ops: Vec<Vec<u8>> = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = os_bytes(&args[i]).to_vec();
        if a.len() > 1 && a[0] == b'-' && ops.is_empty() {
            let mut k = 1;
            while k < a.len() {
                match a[k] {
                    b'l' => list = true,
                    b'p' | b'c' => pipe = true,
                    b'o' => over = Some(true),
                    b'n' => over = Some(false),
                    b'q' => quiet = true,
                    b'd' => {
                        if k + 1 < a.len() {
                            dir = Some(path_from_bytes(&a[k + 1..]));
                        } else {
                            i += 1;
                            match args.get(i) {
                                Some(d) => dir = Some(PathBuf::from(d)),
                                None => {
                                    eprintln!("error:  must specify directory to which to extract with -d option");
                                    return 10;
                                }
                            }
                        }
                        k = a.len();
                        continue;
                    }
                    b'v' | b'j' | b'a' | b'X' | b'D' => {}
                    c => {
                        eprintln!(
                            "{}:  unknown option ({})",
                            coreutils_core::prog("unzip"),
                            c as char
                        );
                        return 10;
                    }
                }
                k += 1;
            }
        } else if a == b"-d" {
            i += 1;
            dir = args.get(i).map(PathBuf::from);
        } else {
            ops.push(a);
        }
        i += 1;
    }
    if ops.is_empty() {
        println!("UnZip (Sandglass coreutils)\nUsage: unzip [-lpoqn] [-d exdir] file[.zip] [list]");
        return 0;
    }
    let zname = ops.remove(0);
    let f = match coreutils_core::fs::open(path_from_bytes(&zname)) {
        Ok(f) => f,
        Err(_) => {
            eprintln!(
                "{0}:  cannot find or open {1}, {1}.zip or {1}.ZIP.",
                coreutils_core::prog("unzip"),
                s(&zname)
            );
            return 9;
        }
    };
    let mut out = coreutils_core::io::stdout();
    if !pipe && !quiet {
        coreutils_core::io::write_or_exit(
            &mut out,
            format!("Archive:  {}\n", s(&zname)).as_bytes(),
        );
    }
    let mut za = match zip::ZipArchive::new(f) {
        Ok(z) => z,
        Err(_) => {
            let _ = out.flush();
            eprintln!("  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.");
            eprintln!(
                "{0}:  cannot find zipfile directory in one of {1} or\n        {1}.zip, and cannot find {1}.ZIP, period.",
                coreutils_core::prog("unzip"),
                s(&zname)
            );
            return 9;
        }
    };
    let wanted = |n: &[u8]| ops.is_empty() || ops.iter().any(|p| crate::find::fnmatch_pub(p, n));
    let mut status = 0;
    let mut found = vec![false; ops.len()];
    if list {
        let mut text = String::from(
            "  Length      Date    Time    Name\n---------  ---------- -----   ----\n",
        );
        let (mut total, mut count) = (0u64, 0);
        for k in 0..za.len() {
            let e = match za.by_index_raw(k) {
                Ok(e) => e,
                Err(_) => continue,
            };
            let name = e.name_raw().to_vec();
            if !wanted(&name) {
                continue;
            }
            for (j, p) in ops.iter().enumerate() {
                if crate::find::fnmatch_pub(p, &name) {
                    found[j] = true;
                }
            }
            let t = e.last_modified();
            let _ = writeln!(
                text,
                "{:>9}  {}-{:02}-{:02} {:02}:{:02}   {}",
                e.size(),
                t.year(),
                t.month(),
                t.day(),
                t.hour(),
                t.minute(),
                s(&name)
            );
            total += e.size();
            count += 1;
        }
        let _ = writeln!(
            text,
            "---------                     -------\n{:>9}                     {} file{}",
            total,
            count,
            if count == 1 { "" } else { "s" }
        );
        coreutils_core::io::write_or_exit(&mut out, text.as_bytes());
        let _ = out.flush();
        return if found.iter().all(|f| *f) { 0 } else { 11 };
    }
    let base = dir.unwrap_or_else(|| PathBuf::from("."));
    if !pipe && base != Path::new(".") {
        let _ = coreutils_core::fs::create_dir_all(&base);
    }
    let stdin = io::stdin();
    let mut all: Option<bool> = over;
    for k in 0..za.len() {
        let mut e = match za.by_index(k) {
            Ok(e) => e,
            Err(err) => {
                let _ = out.flush();
                eprintln!(
                    "{}: bad zipfile entry: {}",
                    coreutils_core::prog("unzip"),
                    err
                );
                status = 2;
                continue;
            }
        };
        let name = e.name_raw().to_vec();
        if !wanted(&name) {
            continue;
        }
        for (j, p) in ops.iter().enumerate() {
            if crate::find::fnmatch_pub(p, &name) {
                found[j] = true;
            }
        }
        // Progress lines show the destination path.
        let shown = if base == Path::new(".") {
            name.clone()
        } else {
            let mut v = coreutils_core::bytes::path_bytes(&base).to_vec();
            if !v.ends_with(b"/") {
                v.push(b'/');
            }
            v.extend_from_slice(&name);
            v
        };
        if pipe {
            if !e.is_dir() {
                if let Err(err) = copy_chunks(&mut e, &mut out) {
                    coreutils_core::io::exit_on_write_error(err);
                }
            }
            continue;
        }
        let rel = match e.enclosed_name() {
            Some(p) => p.to_path_buf(),
            None => {
                let _ = out.flush();
                eprintln!(
                    "warning:  skipped \"../\" path component(s) in {}",
                    s(&name)
                );
                status = 1;
                continue;
            }
        };
        let dst = base.join(&rel);
        if e.is_dir() {
            if !quiet {
                coreutils_core::io::write_or_exit(
                    &mut out,
                    format!("   creating: {}\n", s(&shown)).as_bytes(),
                );
            }
            let _ = coreutils_core::fs::create_dir_all(&dst);
            continue;
        }
        if let Some(p) = dst.parent() {
            let _ = coreutils_core::fs::create_dir_all(p);
        }
        if coreutils_core::fs::symlink_metadata(&dst).is_ok() {
            let replace = match all {
                Some(v) => v,
                None => {
                    let _ = out.flush();
                    print!(
                        "replace {}? [y]es, [n]o, [A]ll, [N]one, [r]ename: ",
                        s(&name)
                    );
                    let _ = io::stdout().flush();
                    let mut line = String::new();
                    if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
                        println!("(EOF or read error, treating as \"[N]one\" ...)");
                        all = Some(false);
                        false
                    } else {
                        match line.trim() {
                            "A" => {
                                all = Some(true);
                                true
                            }
                            "N" => {
                                all = Some(false);
                                false
                            }
                            l => l.starts_with('y'),
                        }
                    }
                }
            };
            if !replace {
                continue;
            }
        }
        if !quiet {
            let verb = if e.compression() == zip::CompressionMethod::Stored {
                " extracting"
            } else {
                "  inflating"
            };
            coreutils_core::io::write_or_exit(
                &mut out,
                format!("{}: {:<23} \n", verb, s(&shown)).as_bytes(),
            );
        }
        let r = coreutils_core::fs::create(&dst).and_then(|mut f| {
            let n = copy_chunks(&mut e, &mut f)?;
            f.flush()?;
            Ok(n)
        });
        if let Err(err) = r {
            let _ = out.flush();
            eprintln!("{}:  write error ({})", s(&name), strerror(&err));
            let _ = coreutils_core::fs::remove_file(&dst);
            status = 50;
            break;
        }
        if let Some(m) = e.unix_mode() {
            let _ = coreutils_core::meta::chmod(&dst, m & 0o7777, true);
        }
    }
    let _ = out.flush();
    for (j, f) in found.iter().enumerate() {
        if !f {
            eprintln!("caution: filename not matched:  {}", s(&ops[j]));
            status = 11;
        }
    }
    status
}

/// zip entry point: `zip [-r] [-q] [-j] ARCHIVE FILE...`.
pub fn zip_main(args: Vec<OsString>) -> i32 {
    let mut recurse = false;
    let mut quiet = false;
    let mut junk = false;
    let mut ops: Vec<Vec<u8>> = Vec::new();
    for a in args.iter().skip(1) {
        let a = os_bytes(a).to_vec();
        if a.len() > 1 && a[0] == b'-' {
            for &c in &a[1..] {
                match c {
                    b'r' => recurse = true,
                    b'q' => quiet = true,
                    b'j' => junk = true,
                    b'0'..=b'9' | b'v' | b'X' | b'y' => {}
                    _ => {
                        eprintln!(
                            "{} error: Invalid command arguments (no such option: {})",
                            coreutils_core::prog("zip"),
                            c as char
                        );
                        return 16;
                    }
                }
            }
        } else {
            ops.push(a);
        }
    }
    if ops.len() < 2 {
        // Info-ZIP reports these on standard output.
        println!(
            "\n{} error: Nothing to do! ({})",
            coreutils_core::prog("zip"),
            ops.first().map(|o| s(o)).unwrap_or_default()
        );
        return 12;
    }
    let zname = ops.remove(0);
    let mut files: Vec<(PathBuf, Vec<u8>, bool)> = Vec::new();
    let mut missing = 0;
    for o in &ops {
        let p = path_from_bytes(o);
        match coreutils_core::fs::metadata(&p) {
            Ok(m) if m.is_dir() => {
                files.push((p.clone(), dir_name(o), true));
                if recurse {
                    walk(&p, o, &mut files);
                }
            }
            Ok(_) => files.push((p, o.clone(), false)),
            Err(_) => {
                if !quiet {
                    println!("\tzip warning: name not matched: {}", s(o));
                }
                missing += 1;
            }
        }
    }
    if files.is_empty() {
        println!(
            "\n{} error: Nothing to do! ({})",
            coreutils_core::prog("zip"),
            s(&zname)
        );
        return 12;
    }
    let f = match coreutils_core::fs::create(path_from_bytes(&zname)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "{} error: Could not create output file ({}: {})",
                coreutils_core::prog("zip"),
                s(&zname),
                strerror(&e)
            );
            return 15;
        }
    };
    let mut w = zip::ZipWriter::new(f);
    let mut out = coreutils_core::io::stdout();
    for (p, name, is_dir) in files {
        let name = if junk {
            name.rsplit(|&c| c == b'/')
                .find(|c| !c.is_empty())
                .unwrap_or(&name)
                .to_vec()
        } else {
            name
        };
        if junk && is_dir {
            continue;
        }
        // Info-ZIP stores names relative: drop leading slashes.
        let name: Vec<u8> = name.iter().skip_while(|&&c| c == b'/').copied().collect();
        let mode = coreutils_core::meta::stat_ext(&p, true)
            .map(|m| m.mode & 0o7777)
            .unwrap_or(0o644);
        let mut opts = zip::write::FileOptions::default().unix_permissions(mode);
        if let Some(t) = mtime(&p) {
            opts = opts.last_modified_time(t);
        }
        let r = if is_dir {
            w.add_directory(s(&name), opts)
        } else {
            w.start_file(
                s(&name),
                opts.compression_method(zip::CompressionMethod::Deflated),
            )
        };
        if let Err(e) = r {
            eprintln!("{} error: {}: {}", coreutils_core::prog("zip"), s(&name), e);
            return 15;
        }
        if !is_dir {
            let r = coreutils_core::fs::open(&p).and_then(|mut fh| copy_chunks(&mut fh, &mut w));
            if let Err(e) = r {
                eprintln!(
                    "{} error: {}: {}",
                    coreutils_core::prog("zip"),
                    s(&name),
                    strerror(&e)
                );
                return 15;
            }
        }
        if !quiet {
            coreutils_core::io::write_or_exit(
                &mut out,
                format!("  adding: {}\n", s(&name)).as_bytes(),
            );
        }
    }
    if let Err(e) = w.finish() {
        eprintln!("{} error: {}", coreutils_core::prog("zip"), e);
        return 15;
    }
    let _ = out.flush();
    if missing > 0 {
        18
    } else {
        0
    }
}

fn dir_name(o: &[u8]) -> Vec<u8> {
    let mut v = o.to_vec();
    if !v.ends_with(b"/") {
        v.push(b'/');
    }
    v
}

fn walk(p: &Path, name: &[u8], files: &mut Vec<(PathBuf, Vec<u8>, bool)>) {
    if let Ok(rd) = std::fs::read_dir(p) {
        for de in rd.flatten() {
            let fname = de.file_name();
            let mut child = name.to_vec();
            if !child.ends_with(b"/") {
                child.push(b'/');
            }
            child.extend_from_slice(os_bytes(&fname));
            let cp = p.join(&fname);
            let is_dir = coreutils_core::fs::metadata(&cp)
                .map(|m| m.is_dir())
                .unwrap_or(false);
            if is_dir {
                files.push((cp.clone(), dir_name(&child), true));
                walk(&cp, &child, files);
            } else {
                files.push((cp, child, false));
            }
        }
    }
}

/// The file's mtime as a zip (DOS, UTC here) timestamp.
fn mtime(p: &Path) -> Option<zip::DateTime> {
    let secs = coreutils_core::fs::metadata(p)
        .ok()?
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs() as i64;
    let t = coreutils_core::calendar::Tm::from_secs(secs);
    zip::DateTime::from_date_and_time(
        t.year as u16,
        t.mon as u8,
        t.mday as u8,
        t.hour as u8,
        t.min as u8,
        t.sec as u8,
    )
    .ok()
}
