//! `xxd`: hex dump (`-c -g -l -s -u -p -i -b -e -o`) and its reverse
//! (`-r`, `-r -p`), in vim's xxd format.

use coreutils_core::fs::OpenOptions;
use std::ffi::OsString;
use std::io::{Seek, SeekFrom, Write};

use crate::common::bytes::{disp, os_bytes};
use crate::common::input::{err_text, read_all};

fn usage_err(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("xxd"), msg);
    1
}

struct Opts {
    cols: Option<usize>,
    group: Option<usize>,
    len: Option<usize>,
    seek: Option<String>,
    upper: bool,
    plain: bool,
    include: bool,
    bits: bool,
    little: bool,
    reverse: bool,
    offset: i64,
    name: Option<String>,
}

fn parse_num(s: &str) -> Option<i64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut o = Opts {
        cols: None,
        group: None,
        len: None,
        seek: None,
        upper: false,
        plain: false,
        include: false,
        bits: false,
        little: false,
        reverse: false,
        offset: 0,
        name: None,
    };
    let mut files: Vec<OsString> = Vec::new();
    let mut i = 1;
    // xxd's own option syntax: `-c 8`, `-c8`, `-cols 8`, single dash longs.
    while i < args.len() {
        let a = args[i].to_string_lossy().into_owned();
        i += 1;
        if !a.starts_with('-') || a == "-" || !files.is_empty() {
            files.push(args[i - 1].clone());
            continue;
        }
        let body = a.trim_start_matches('-');
        let key = body.chars().next().unwrap_or(' ');
        let takes = matches!(key, 'c' | 'g' | 'l' | 's' | 'o' | 'n')
            && !body.starts_with("ps")
            && body != "postscript";
        let mut val = || -> Option<String> {
            let inline: String = body
                .chars()
                .skip_while(|c| c.is_ascii_alphabetic())
                .collect();
            if !inline.is_empty() {
                return Some(inline);
            }
            if i < args.len() {
                i += 1;
                return Some(args[i - 1].to_string_lossy().into_owned());
            }
            None
        };
        match key {
            'u' => o.upper = true,
            'p' => o.plain = true,
            'i' => o.include = true,
            'b' => o.bits = true,
            'e' => o.little = true,
            'r' => {
                o.reverse = true;
                if body.contains('p') {
                    o.plain = true;
                }
            }
            'v' => {
                println!("xxd 2022-01-14 by Juergen Weigert et al. (Sandglass coreutils)");
                return 0;
            }
            'h' => {
                println!("Usage:\n       xxd [options] [infile [outfile]]\n    or\n       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]");
                return 0;
            }
            'a' | 'E' | 'd' | 'C' => {}
            _ if takes => {
                let v = match val() {
                    Some(v) => v,
                    None => return usage_err(&format!("option -{} requires an argument", key)),
                };
                match key {
                    's' => o.seek = Some(v),
                    'n' => o.name = Some(v),
                    _ => {
                        let n = match parse_num(&v) {
                            Some(n) => n,
                            None => return usage_err(&format!("invalid number '{}'", v)),
                        };
                        match key {
                            'c' => o.cols = Some(n.max(0) as usize),
                            'g' => o.group = Some(n.max(0) as usize),
                            'l' => o.len = Some(n.max(0) as usize),
                            _ => o.offset = n,
                        }
                    }
                }
            }
            _ => {
                eprintln!("Usage:\n       xxd [options] [infile [outfile]]\n    or\n       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]");
                return 1;
            }
        }
    }
    if files.len() > 2 {
        eprintln!("Usage:\n       xxd [options] [infile [outfile]]");
        return 1;
    }
    let input = files
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("-"));
    let data = match read_all(&input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("xxd"),
                disp(&input),
                err_text(&e)
            );
            return 2;
        }
    };
    if o.reverse {
        return reverse(&o, &data, files.get(1));
    }
    let mut start = 0usize;
    if let Some(s) = &o.seek {
        let n = match parse_num(s) {
            Some(n) => n,
            None => return usage_err(&format!("invalid seek '{}'", s)),
        };
        start = if n < 0 || s.starts_with("+-") {
            data.len().saturating_sub(n.unsigned_abs() as usize)
        } else {
            (n as usize).min(data.len())
        };
    }
    let end = match o.len {
        Some(l) => (start + l).min(data.len()),
        None => data.len(),
    };
    let body = &data[start..end];
    let text = render(
        &o,
        body,
        start,
        if input == "-" {
            None
        } else {
            Some(disp(&input))
        },
    );
    let res = match files.get(1) {
        Some(out) => coreutils_core::fs::write(out, &text),
        None => {
            let mut so = std::io::stdout();
            so.write_all(&text).and_then(|_| so.flush())
        }
    };
    match res {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 141,
        Err(e) => {
            eprintln!("{}: {}", coreutils_core::prog("xxd"), err_text(&e));
            2
        }
    }
}

fn render(o: &Opts, body: &[u8], start: usize, name: Option<String>) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() * 5);
    let hex = |b: u8| {
        if o.upper {
            format!("{:02X}", b)
        } else {
            format!("{:02x}", b)
        }
    };
    if o.plain {
        let cols = o.cols.filter(|&c| c > 0).unwrap_or(30);
        for ch in body.chunks(cols) {
            for &b in ch {
                out.extend_from_slice(hex(b).as_bytes());
            }
            out.push(b'\n');
        }
        return out;
    }
    if o.include {
        let cols = o.cols.filter(|&c| c > 0).unwrap_or(12);
        let var = o.name.clone().or_else(|| {
            name.map(|n| {
                let mut v: String = n
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                if v.starts_with(|c: char| c.is_ascii_digit()) {
                    v.insert_str(0, "__");
                }
                v
            })
        });
        if let Some(v) = &var {
            out.extend_from_slice(format!("unsigned char {}[] = {{\n", v).as_bytes());
        }
        let n = body.len();
        for (ci, ch) in body.chunks(cols).enumerate() {
            out.extend_from_slice(b" ");
            for (k, &b) in ch.iter().enumerate() {
                let last = ci * cols + k + 1 == n;
                out.extend_from_slice(
                    format!(" 0x{}{}", hex(b), if last { "" } else { "," }).as_bytes(),
                );
            }
            out.push(b'\n');
        }
        if let Some(v) = &var {
            out.extend_from_slice(format!("}};\nunsigned int {}_len = {};\n", v, n).as_bytes());
        }
        return out;
    }
    let cols = o
        .cols
        .filter(|&c| c > 0)
        .unwrap_or(if o.bits { 6 } else { 16 });
    let group = o.group.unwrap_or(if o.bits {
        1
    } else if o.little {
        4
    } else {
        2
    });
    let unit = if o.bits { 8 } else { 2 };
    let group = if group == 0 { cols } else { group };
    let hex_width = cols * unit + (cols + group - 1) / group;
    for (li, ch) in body.chunks(cols).enumerate() {
        let addr = (start + li * cols) as i64 + o.offset;
        let mut line = format!("{:08x}: ", addr);
        let mut h = String::new();
        for gi in 0..(ch.len() + group - 1) / group {
            let g = &ch[gi * group..((gi + 1) * group).min(ch.len())];
            let mut units: Vec<String> = g
                .iter()
                .map(|&b| if o.bits { format!("{:08b}", b) } else { hex(b) })
                .collect();
            if o.little {
                // Little-endian groups: bytes reversed, right-aligned.
                units.reverse();
                let pad = (group - g.len()) * unit;
                h.push_str(&" ".repeat(pad));
            }
            h.push_str(&units.concat());
            h.push(' ');
        }
        line.push_str(&h);
        line.push_str(&" ".repeat(hex_width.saturating_sub(h.len())));
        line.push(' ');
        for &b in ch {
            line.push(if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '.'
            });
        }
        line.push('\n');
        out.extend_from_slice(line.as_bytes());
    }
    out
}

fn hexval(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|v| v as u8)
}

fn reverse(o: &Opts, data: &[u8], outname: Option<&OsString>) -> i32 {
    let mut bytes: Vec<(usize, Vec<u8>)> = Vec::new();
    if o.plain {
        let mut v = Vec::new();
        let mut hi: Option<u8> = None;
        for &c in data {
            if let Some(d) = hexval(c) {
                match hi.take() {
                    Some(h) => v.push(h << 4 | d),
                    None => hi = Some(d),
                }
            }
        }
        bytes.push((0, v));
    } else {
        let cols = o.cols.filter(|&c| c > 0).unwrap_or(16);
        for line in data.split(|&c| c == b'\n') {
            let colon = match line.iter().position(|&c| c == b':') {
                Some(p) => p,
                None => continue,
            };
            let addr_txt: String = line[..colon].iter().map(|&c| c as char).collect();
            let addr = match usize::from_str_radix(addr_txt.trim(), 16) {
                Ok(a) => a,
                Err(_) => continue,
            };
            let mut v = Vec::new();
            let mut hi: Option<u8> = None;
            let mut spaces = 0;
            for &c in &line[colon + 1..] {
                if let Some(d) = hexval(c) {
                    spaces = 0;
                    match hi.take() {
                        Some(h) => v.push(h << 4 | d),
                        None => hi = Some(d),
                    }
                    if v.len() >= cols {
                        break;
                    }
                } else if c == b' ' {
                    spaces += 1;
                    // Two blanks end the hex area (the text column follows).
                    if spaces >= 2 && (!v.is_empty() || hi.is_some()) {
                        break;
                    }
                } else {
                    break;
                }
            }
            bytes.push((addr, v));
        }
    }
    let res = match outname {
        Some(n) => OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(n)
            .and_then(|mut f| {
                for (a, v) in &bytes {
                    f.seek(SeekFrom::Start(*a as u64))?;
                    f.write_all(v)?;
                }
                Ok(())
            }),
        None => {
            let mut buf: Vec<u8> = Vec::new();
            for (a, v) in &bytes {
                if buf.len() < *a {
                    buf.resize(*a, 0);
                }
                let end = a + v.len();
                if buf.len() < end {
                    buf.resize(end, 0);
                }
                buf[*a..end].copy_from_slice(v);
            }
            let mut so = std::io::stdout();
            so.write_all(&buf).and_then(|_| so.flush())
        }
    };
    let _ = os_bytes;
    match res {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{}: {}", coreutils_core::prog("xxd"), err_text(&e));
            2
        }
    }
}
