//! `mktemp [-d] [-u] [-q] [-p DIR] [--tmpdir[=DIR]] [--suffix=S] [TEMPLATE]`.

use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::{os_bytes, os_from_vec};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::PathBuf;

const TMPDIR: char = '\u{e001}';
const SUFFIX: char = '\u{e002}';
const LONGS: &[LongOpt] = &[
    long("directory", HasArg::No, 'd'),
    long("dry-run", HasArg::No, 'u'),
    long("quiet", HasArg::No, 'q'),
    long("tmpdir", HasArg::Optional, TMPDIR),
    long("suffix", HasArg::Required, SUFFIX),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// Random bytes from std's randomly keyed hasher (seeded by the OS/WASI
/// `random_get`), mixed with the time and a counter.
fn random_u64(counter: u64) -> u64 {
    let mut h = RandomState::new().build_hasher();
    counter.hash(&mut h);
    std::time::SystemTime::now().hash(&mut h);
    h.finish()
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("mktemp", &args, "duqp:t", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("mktemp", &p, "Usage: mktemp [OPTION]... [TEMPLATE]\nCreate a temporary file or directory, safely, and print its name.\n") {
        return c;
    }
    let quiet = p.has('q');
    let fail = |msg: String| {
        if !quiet {
            eprintln!("{}: {}", coreutils_core::prog("mktemp"), msg);
        }
        1
    };
    if p.operands.len() > 1 {
        return usage_error("mktemp", "too many templates", 1);
    }
    let given = p.operands.first().cloned();
    let template: Vec<u8> = given
        .as_ref()
        .map(|t| os_bytes(t).to_vec())
        .unwrap_or_else(|| b"tmp.XXXXXXXXXX".to_vec());
    let suffix: Vec<u8> = p
        .last(SUFFIX)
        .map(|s| os_bytes(s).to_vec())
        .unwrap_or_default();
    if !suffix.is_empty() && given.is_some() && !template.ends_with(b"X") {
        return fail(format!(
            "with --suffix, template {} must end in X",
            quote_gnu(given.as_deref().unwrap_or_default())
        ));
    }
    // Suffix after the last X run, if the template has one.
    let last_x = template.iter().rposition(|&c| c == b'X');
    let (base, tail) = match last_x {
        Some(i) => (template[..=i].to_vec(), template[i + 1..].to_vec()),
        None => (template.clone(), Vec::new()),
    };
    let nx = base.iter().rev().take_while(|&&c| c == b'X').count();
    if nx < 3 {
        // -q hides only creation failures, not template errors.
        eprintln!(
            "{}: too few X's in template {}",
            coreutils_core::prog("mktemp"),
            quote_gnu(&os_from_vec(template))
        );
        return 1;
    }
    let mut full_suffix = tail;
    full_suffix.extend_from_slice(&suffix);
    let use_tmpdir = p.has(TMPDIR) || p.has('p') || p.has('t') || given.is_none();
    let dir: Option<PathBuf> = if use_tmpdir {
        let explicit = p
            .opts
            .iter()
            .rev()
            .find(|o| o.key == 'p' || o.key == TMPDIR)
            .and_then(|o| o.value.clone())
            .filter(|v| !v.is_empty());
        let d = explicit
            .or_else(|| std::env::var_os("TMPDIR").filter(|v| !v.is_empty()))
            .unwrap_or_else(|| OsString::from("/tmp"));
        if base.contains(&b'/') && (p.has(TMPDIR) || p.has('t')) {
            return fail(format!(
                "invalid template, {}, contains directory separator",
                quote_gnu(&os_from_vec(template))
            ));
        }
        Some(PathBuf::from(d))
    } else {
        None
    };
    let prefix = &base[..base.len() - nx];
    for attempt in 0..100u64 {
        let mut name = prefix.to_vec();
        let mut r = random_u64(attempt);
        for i in 0..nx {
            if i % 10 == 0 && i > 0 {
                r = random_u64(attempt * 131 + i as u64);
            }
            name.push(CHARS[(r % CHARS.len() as u64) as usize]);
            r /= CHARS.len() as u64;
        }
        name.extend_from_slice(&full_suffix);
        let path = match &dir {
            Some(d) => d.join(os_from_vec(name)),
            None => PathBuf::from(os_from_vec(name)),
        };
        if p.has('u') {
            if coreutils_core::fs::symlink_metadata(&path).is_ok() {
                continue;
            }
            println!("{}", path.to_string_lossy());
            return 0;
        }
        let r = if p.has('d') {
            coreutils_core::fs::create_dir(&path).map(|_| {
                let _ = coreutils_core::meta::chmod(&path, 0o700, true);
            })
        } else {
            coreutils_core::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map(|_| {
                    let _ = coreutils_core::meta::chmod(&path, 0o600, true);
                })
        };
        match r {
            Ok(()) => {
                let mut out = coreutils_core::bytes::path_bytes(&path).to_vec();
                out.push(b'\n');
                use std::io::Write;
                let _ = std::io::stdout().write_all(&out);
                return 0;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                let what = if p.has('d') { "directory" } else { "file" };
                let tpl = match &dir {
                    Some(d) => d.join(os_from_vec(template)),
                    None => PathBuf::from(os_from_vec(template)),
                };
                return fail(format!(
                    "failed to create {} via template {}: {}",
                    what,
                    quote_gnu(tpl.as_os_str()),
                    strerror(&e)
                ));
            }
        }
    }
    fail("too many attempts to create a unique name".into())
}
