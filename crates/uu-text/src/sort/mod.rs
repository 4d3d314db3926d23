//! `sort`: GNU sort in the C locale. All input is read into memory and
//! sorted as slices (no per-comparison allocation); keys, `-c/-C`, `-u`,
//! `-m`, `-o` and `-z` behave as GNU's.

mod compare;
pub mod key;

use std::cmp::Ordering;
use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;

use crate::common::bytes::{disp, memchr, q, records};
use crate::common::input::{err_text, read_all};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};
use key::{begfield, limfield, parse_key, KeyDef, KeyOpts};

const USAGE: Usage = Usage::new(
    "sort",
    "[OPTION]... [FILE]...\nWrite sorted concatenation of all FILE(s) to standard output.\n",
    2,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("ignore-leading-blanks"), HasArg::No),
    opt("d", Some('d'), Some("dictionary-order"), HasArg::No),
    opt("f", Some('f'), Some("ignore-case"), HasArg::No),
    opt("g", Some('g'), Some("general-numeric-sort"), HasArg::No),
    opt("i", Some('i'), Some("ignore-nonprinting"), HasArg::No),
    opt("M", Some('M'), Some("month-sort"), HasArg::No),
    opt("h", Some('h'), Some("human-numeric-sort"), HasArg::No),
    opt("n", Some('n'), Some("numeric-sort"), HasArg::No),
    opt("R", Some('R'), Some("random-sort"), HasArg::No),
    opt(
        "random-source",
        None,
        Some("random-source"),
        HasArg::Required,
    ),
    opt("r", Some('r'), Some("reverse"), HasArg::No),
    opt("sort", None, Some("sort"), HasArg::Required),
    opt("V", Some('V'), Some("version-sort"), HasArg::No),
    opt("batch-size", None, Some("batch-size"), HasArg::Required),
    opt("c", Some('c'), None, HasArg::No),
    opt("check", None, Some("check"), HasArg::Optional),
    opt("C", Some('C'), None, HasArg::No),
    opt(
        "compress-program",
        None,
        Some("compress-program"),
        HasArg::Required,
    ),
    opt("debug", None, Some("debug"), HasArg::No),
    opt("files0-from", None, Some("files0-from"), HasArg::Required),
    opt("k", Some('k'), Some("key"), HasArg::Required),
    opt("m", Some('m'), Some("merge"), HasArg::No),
    opt("o", Some('o'), Some("output"), HasArg::Required),
    opt("s", Some('s'), Some("stable"), HasArg::No),
    opt("S", Some('S'), Some("buffer-size"), HasArg::Required),
    opt("t", Some('t'), Some("field-separator"), HasArg::Required),
    opt(
        "T",
        Some('T'),
        Some("temporary-directory"),
        HasArg::Required,
    ),
    opt("parallel", None, Some("parallel"), HasArg::Required),
    opt("u", Some('u'), Some("unique"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

struct Config {
    keys: Vec<KeyDef>,
    tab: Option<u8>,
    reverse: bool,
    stable: bool,
    unique: bool,
    seed: RandomState,
}

fn key_compare(a: &[u8], b: &[u8], k: &KeyDef, cfg: &Config) -> Ordering {
    let (ab, bb) = (begfield(a, k, cfg.tab), begfield(b, k, cfg.tab));
    let ae = limfield(a, k, cfg.tab).max(ab);
    let be = limfield(b, k, cfg.tab).max(bb);
    let (ka, kb) = (&a[ab..ae], &b[bb..be]);
    let o = &k.opts;
    let d = if o.numeric {
        compare::numeric(ka, kb)
    } else if o.general {
        compare::general(ka, kb)
    } else if o.human {
        compare::human(ka, kb)
    } else if o.month {
        compare::month(ka, kb)
    } else if o.version {
        compare::version(ka, kb)
    } else if o.random {
        let h = |s: &[u8]| {
            let mut hs = cfg.seed.build_hasher();
            if o.fold {
                for &c in s {
                    hs.write_u8(c.to_ascii_uppercase());
                }
            } else {
                hs.write(s);
            }
            hs.finish()
        };
        h(ka)
            .cmp(&h(kb))
            .then_with(|| compare::text(ka, kb, o.dictionary, o.printable, o.fold))
    } else {
        compare::text(ka, kb, o.dictionary, o.printable, o.fold)
    };
    if o.reverse {
        d.reverse()
    } else {
        d
    }
}

fn compare_keys(a: &[u8], b: &[u8], cfg: &Config) -> Ordering {
    for k in &cfg.keys {
        let d = key_compare(a, b, k, cfg);
        if d != Ordering::Equal {
            return d;
        }
    }
    Ordering::Equal
}

fn compare(a: &[u8], b: &[u8], cfg: &Config) -> Ordering {
    if !cfg.keys.is_empty() {
        let d = compare_keys(a, b, cfg);
        if d != Ordering::Equal || cfg.unique || cfg.stable {
            return d;
        }
    }
    let d = a.cmp(b);
    if cfg.reverse {
        d.reverse()
    } else {
        d
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut g = KeyOpts::default();
    let mut keys = Vec::new();
    let mut tab: Option<u8> = None;
    let mut check: Option<bool> = None; // Some(quiet)
    for o in &p.opts {
        let (id, v, s) = (&o.key, &o.value, o.val());
        match o.key {
            "b" => {
                g.skip_sblanks = true;
                g.skip_eblanks = true;
            }
            "d" | "f" | "g" | "i" | "M" | "h" | "n" | "R" | "r" | "V" => {
                g.set(id.as_bytes()[0], true);
            }
            "sort" => {
                let c = match s.as_str() {
                    "general-numeric" => b'g',
                    "human-numeric" => b'h',
                    "month" => b'M',
                    "numeric" => b'n',
                    "random" => b'R',
                    "version" => b'V',
                    _ => {
                        return USAGE.fail_with(1, &format!(
                            "invalid argument '{}' for '--sort'\nValid arguments are:\n  - 'general-numeric'\n  - 'human-numeric'\n  - 'month'\n  - 'numeric'\n  - 'random'\n  - 'version'",
                            s
                        ))
                    }
                };
                g.set(c, true);
            }
            "c" => check = Some(false),
            "C" => check = Some(true),
            "check" => {
                check = Some(match s.as_str() {
                    "" | "diagnose-first" => false,
                    "quiet" | "silent" => true,
                    _ => {
                        return USAGE.fail_with(1, &format!(
                            "invalid argument '{}' for '--check'\nValid arguments are:\n  - 'diagnose-first'\n  - 'quiet', 'silent'",
                            s
                        ))
                    }
                })
            }
            "k" => match parse_key(&s) {
                Ok(k) => keys.push(k),
                Err(m) => return USAGE.die(2, &m),
            },
            "t" => {
                let b = crate::common::bytes::os_bytes(v.as_ref().map(|x| x.as_os_str()).unwrap_or_default());
                let t = match b {
                    [] => return USAGE.die(2, "empty tab"),
                    [c] => *c,
                    b"\\0" => 0,
                    _ => return USAGE.die(2, &format!("multi-character tab '{}'", s)),
                };
                if tab.map_or(false, |old| old != t) {
                    return USAGE.die(2, "incompatible tabs");
                }
                tab = Some(t);
            }
            "S" => {
                let body = s.trim_end_matches(|c: char| "%bKMGTPEZYkB".contains(c));
                if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
                    return USAGE.die(2, &format!("invalid suffix in -S argument '{}'", s));
                }
            }
            "parallel" | "batch-size" if s.parse::<u64>().map_or(true, |n| n == 0) => {
                let what = if *id == "parallel" { "--parallel" } else { "--batch-size" };
                return USAGE.die(2, &format!("invalid number after '{}': '{}'", what, s));
            }
            _ => {}
        }
    }
    let reverse = g.reverse;
    // Keys with no ordering options of their own inherit the global ones.
    for k in keys.iter_mut() {
        if k.opts.is_default() && !k.opts.reverse {
            k.opts = g;
        }
        if k.opts.incompatible() {
            return USAGE.die(
                2,
                &format!("options '-{}' are incompatible", k.opts.letters()),
            );
        }
    }
    if keys.is_empty() && g.incompatible() {
        return USAGE.die(2, &format!("options '-{}' are incompatible", g.letters()));
    }
    if keys.is_empty() && !g.is_default() {
        keys.push(KeyDef {
            sword: 0,
            schar: 0,
            eword: None,
            echar: 0,
            opts: g,
        });
    }
    let seed = match p.last("random-source") {
        Some(src) => match read_all(src) {
            Ok(_) => RandomState::new(),
            Err(e) => return USAGE.die(2, &format!("{}: {}", disp(src), err_text(&e))),
        },
        None => RandomState::new(),
    };
    let cfg = Config {
        keys,
        tab,
        reverse,
        stable: p.has("s"),
        unique: p.has("u"),
        seed,
    };
    let delim = if p.has("z") { 0 } else { b'\n' };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };

    if let Some(quiet) = check {
        if files.len() > 1 {
            return USAGE.die(
                2,
                &format!(
                    "extra operand {} not allowed with -{}",
                    q(&files[1]),
                    if quiet { 'C' } else { 'c' }
                ),
            );
        }
        return check_sorted(&files[0], &cfg, delim, quiet);
    }

    let mut bufs = Vec::with_capacity(files.len());
    for f in &files {
        match read_all(f) {
            Ok(b) => bufs.push(b),
            Err(e) => {
                if e.kind() == std::io::ErrorKind::OutOfMemory {
                    return USAGE.die(2, "memory exhausted");
                }
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.kind() == std::io::ErrorKind::PermissionDenied
                {
                    return USAGE.die(2, &format!("cannot read: {}: {}", disp(f), err_text(&e)));
                }
                return USAGE.die(2, &format!("read failed: {}: {}", disp(f), err_text(&e)));
            }
        }
    }
    let total: usize = bufs.iter().map(|b| b.len() / 32 + 1).sum();
    let mut lines: Vec<&[u8]> = Vec::new();
    if lines.try_reserve(total).is_err() {
        return USAGE.die(2, "memory exhausted");
    }
    for b in &bufs {
        for r in records(b, delim) {
            if lines.len() == lines.capacity() && lines.try_reserve(lines.len() / 2 + 1).is_err() {
                return USAGE.die(2, "memory exhausted");
            }
            lines.push(r);
        }
    }
    if cfg.keys.is_empty() {
        // Equal lines are identical bytes, so an unstable sort is safe.
        sort_bytes(&mut lines);
        if cfg.reverse {
            lines.reverse();
        }
    } else {
        let k0 = cfg.keys[0];
        if cfg.keys.len() == 1
            && k0.opts.numeric
            && k0.sword == 0
            && k0.schar == 0
            && k0.eword.is_none()
        {
            // `sort -n`: parse each number once, not per comparison.
            let mut dec: Vec<(compare::Num, &[u8])> =
                lines.iter().map(|l| (compare::split_num(l), *l)).collect();
            let (rev_key, unique_or_stable, rev_all) =
                (k0.opts.reverse, cfg.unique || cfg.stable, cfg.reverse);
            dec.sort_by(|a, b| {
                let d = compare::cmp_nums(&a.0, &b.0);
                let d = if rev_key { d.reverse() } else { d };
                if d != Ordering::Equal || unique_or_stable {
                    return d;
                }
                let d = a.1.cmp(b.1);
                if rev_all {
                    d.reverse()
                } else {
                    d
                }
            });
            lines = dec.into_iter().map(|(_, l)| l).collect();
        } else {
            lines.sort_by(|a, b| compare(a, b, &cfg));
        }
    }
    if cfg.unique {
        lines.dedup_by(|b, a| compare(a, b, &cfg) == Ordering::Equal);
    }
    write_lines(&lines, p.last("o"), delim)
}

fn write_lines(lines: &[&[u8]], output: Option<&OsString>, delim: u8) -> i32 {
    let res = match output {
        Some(path) => {
            let f = match coreutils_core::fs::create(path) {
                Ok(f) => f,
                Err(e) => {
                    return USAGE.die(2, &format!("open failed: {}: {}", disp(path), err_text(&e)))
                }
            };
            let mut w = std::io::BufWriter::with_capacity(64 * 1024, f);
            emit(&mut w, lines, delim).and_then(|_| w.flush())
        }
        None => {
            let mut w = crate::common::input::stdout();
            emit(&mut w, lines, delim).and_then(|_| w.flush())
        }
    };
    match res {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 141,
        Err(e) => USAGE.die(2, &format!("write failed: {}", err_text(&e))),
    }
}

fn emit<W: Write>(w: &mut W, lines: &[&[u8]], delim: u8) -> std::io::Result<()> {
    for l in lines {
        w.write_all(l)?;
        w.write_all(&[delim])?;
    }
    Ok(())
}

fn check_sorted(f: &OsString, cfg: &Config, delim: u8, quiet: bool) -> i32 {
    let data = match read_all(f) {
        Ok(b) => b,
        Err(e) => return USAGE.die(2, &format!("cannot read: {}: {}", disp(f), err_text(&e))),
    };
    let mut prev: Option<&[u8]> = None;
    for (n, line) in records(&data, delim).enumerate() {
        if let Some(pl) = prev {
            let d = compare(pl, line, cfg);
            if d == Ordering::Greater || (cfg.unique && d == Ordering::Equal) {
                if !quiet {
                    let mut e = std::io::stderr();
                    let mut msg = format!("sort: {}:{}: disorder: ", disp(f), n + 1).into_bytes();
                    msg.extend_from_slice(line);
                    msg.push(b'\n');
                    let _ = e.write_all(&msg);
                }
                return 1;
            }
        }
        prev = Some(line);
    }
    let _ = memchr;
    0
}

/// The first 8 bytes of `l`, big-endian, zero-padded: when two prefixes
/// differ they order the lines as a byte comparison would.
fn prefix8(l: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = l.len().min(8);
    b[..n].copy_from_slice(&l[..n]);
    u64::from_be_bytes(b)
}

/// Sort lines bytewise. Most comparisons are settled by a cached 8-byte
/// prefix, which avoids a `memcmp` call per comparison (slow in wasm).
fn sort_bytes(lines: &mut [&[u8]]) {
    let mut keyed: Vec<(u64, &[u8])> = Vec::new();
    if keyed.try_reserve_exact(lines.len()).is_err() {
        // No room for the keys: sort without them.
        lines.sort_unstable();
        return;
    }
    keyed.extend(lines.iter().map(|l| (prefix8(l), *l)));
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    for (dst, k) in lines.iter_mut().zip(keyed) {
        *dst = k.1;
    }
}

#[cfg(test)]
mod tests {
    use super::sort_bytes;

    #[test]
    fn prefix_sort_matches_a_plain_byte_sort() {
        let mut owned: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"a".to_vec(),
            b"a\0".to_vec(),
            b"a\0\0".to_vec(),
            b"abcdefgh".to_vec(),
            b"abcdefgh\0".to_vec(),
            b"abcdefghi".to_vec(),
            b"abcdefgg\xff".to_vec(),
            b"\xff\xfe".to_vec(),
            b"Z".to_vec(),
        ];
        // A deterministic spread of longer lines sharing long prefixes.
        let mut x: u32 = 7;
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let mut l = b"status=ok ".to_vec();
            l.truncate((x % 11) as usize);
            l.extend_from_slice(format!("{}", x % 997).as_bytes());
            owned.push(l);
        }
        let mut got: Vec<&[u8]> = owned.iter().map(|v| v.as_slice()).collect();
        let mut want = got.clone();
        want.sort();
        sort_bytes(&mut got);
        assert_eq!(got, want);
    }
}
