//! `awk`: POSIX awk with gawk's common extensions. The program is lexed
//! ([`lexer`]), parsed to a tree ([`parser`], [`ast`]) and run by the
//! interpreter ([`interp`]) over [`value`]s.

pub mod ast;
pub mod interp;
pub mod lexer;
pub mod parser;
pub mod value;

use coreutils_core::bytes::os_bytes;
use std::ffi::OsString;

const USAGE: &str = "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
";

fn usage() -> i32 {
    eprint!("{}", USAGE);
    2
}

/// Entry point of awk.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let argv: Vec<Vec<u8>> = args.iter().map(|a| os_bytes(a).to_vec()).collect();
    let mut i = 1;
    let mut progfiles: Vec<Vec<u8>> = Vec::new();
    let mut fs: Option<Vec<u8>> = None;
    let mut assigns: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    while i < argv.len() {
        let a = &argv[i];
        if a == b"--" {
            i += 1;
            break;
        }
        if a.len() < 2 || a[0] != b'-' {
            break;
        }
        let take = |i: &mut usize, inline: &[u8], name: &str| -> Result<Vec<u8>, i32> {
            if !inline.is_empty() {
                return Ok(inline.to_vec());
            }
            *i += 1;
            match argv.get(*i) {
                Some(v) => Ok(v.clone()),
                None => {
                    eprintln!(
                        "{}: option requires an argument -- '{}'",
                        coreutils_core::prog("awk"),
                        name
                    );
                    Err(usage())
                }
            }
        };
        if a.starts_with(b"--") {
            let (name, val) = match a.iter().position(|&c| c == b'=') {
                Some(p) => (&a[2..p], Some(a[p + 1..].to_vec())),
                None => (&a[2..], None),
            };
            let get = |i: &mut usize| -> Option<Vec<u8>> {
                if let Some(v) = &val {
                    return Some(v.clone());
                }
                *i += 1;
                argv.get(*i).cloned()
            };
            match name {
                b"file" => match get(&mut i) {
                    Some(v) => progfiles.push(v),
                    None => return usage(),
                },
                b"field-separator" => fs = get(&mut i),
                b"assign" => match get(&mut i).and_then(|v| split_assign(&v)) {
                    Some(p) => assigns.push(p),
                    None => return usage(),
                },
                b"version" => {
                    println!("GNU Awk 5.2.1 (Sandglass coreutils implementation)");
                    return 0;
                }
                b"help" => {
                    print!("{}", USAGE);
                    return 0;
                }
                _ => {
                    eprintln!(
                        "{}: unrecognized option '{}'",
                        coreutils_core::prog("awk"),
                        String::from_utf8_lossy(a)
                    );
                    return usage();
                }
            }
            i += 1;
            continue;
        }
        let opt = a[1];
        let inline = &a[2..];
        match opt {
            b'f' => match take(&mut i, inline, "f") {
                Ok(v) => progfiles.push(v),
                Err(c) => return c,
            },
            b'F' => match take(&mut i, inline, "F") {
                Ok(v) => fs = Some(v),
                Err(c) => return c,
            },
            b'v' => match take(&mut i, inline, "v") {
                Ok(v) => match split_assign(&v) {
                    Some(p) => assigns.push(p),
                    None => {
                        eprintln!(
                            "{}: fatal: `{}' is not a legal variable name",
                            coreutils_core::prog("awk"),
                            String::from_utf8_lossy(&v)
                        );
                        return 2;
                    }
                },
                Err(c) => return c,
            },
            _ => {
                eprintln!(
                    "{}: invalid option -- '{}'",
                    coreutils_core::prog("awk"),
                    opt as char
                );
                return usage();
            }
        }
        i += 1;
    }
    let (src, rest_start) = if progfiles.is_empty() {
        match argv.get(i) {
            Some(p) => (p.clone(), i + 1),
            None => return usage(),
        }
    } else {
        let mut s = Vec::new();
        for f in &progfiles {
            let data = if f == b"-" {
                let mut d = Vec::new();
                let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut d);
                Ok(d)
            } else {
                coreutils_core::fs::read(coreutils_core::bytes::os_str(f))
            };
            match data {
                Ok(d) => {
                    s.extend_from_slice(&d);
                    s.push(b'\n');
                }
                Err(e) => {
                    eprintln!(
                        "{}: fatal: cannot open source file `{}' for reading: {}",
                        coreutils_core::prog("awk"),
                        String::from_utf8_lossy(f),
                        coreutils_core::error::strerror(&e)
                    );
                    return 2;
                }
            }
        }
        (s, i)
    };
    let tokens = match lexer::lex(&src) {
        Ok(t) => t,
        Err((line, m)) => {
            eprintln!("{}: cmd. line:{}: {}", coreutils_core::prog("awk"), line, m);
            return 1;
        }
    };
    let prog = match parser::parse(tokens) {
        Ok(p) => p,
        Err((line, m)) => {
            eprintln!("{}: cmd. line:{}: {}", coreutils_core::prog("awk"), line, m);
            return 1;
        }
    };
    let mut args_v = vec![b"awk".to_vec()];
    args_v.extend(argv[rest_start.min(argv.len())..].iter().cloned());
    if let Some(f) = fs {
        assigns.insert(0, (b"FS".to_vec(), f));
    }
    let mut it = match interp::Interp::new(prog, args_v, assigns) {
        Ok(i) => i,
        Err(m) => {
            eprintln!("{}: fatal: {}", coreutils_core::prog("awk"), m);
            return 2;
        }
    };
    it.run()
}

fn split_assign(v: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let p = v.iter().position(|&c| c == b'=')?;
    let name = &v[..p];
    if name.is_empty()
        || !(name[0].is_ascii_alphabetic() || name[0] == b'_')
        || !name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        return None;
    }
    Some((name.to_vec(), v[p + 1..].to_vec()))
}
