//! `stat [-L] [-c FORMAT | --printf FORMAT] [-t] FILE...`: file status
//! in GNU's default layout or a custom format.

use crate::misc::datetime::{strftime, Time};
use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::error::strerror;
use coreutils_core::escapes::{expand, Style};
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::locale::utf8_locale;
use coreutils_core::meta::{self, Stat};
use coreutils_core::meta::{perm_string, type_char};
use coreutils_core::quote::quote_gnu;
use coreutils_core::users::NameCache;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const PRINTF: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    long("dereference", HasArg::No, 'L'),
    long("format", HasArg::Required, 'c'),
    long("printf", HasArg::Required, PRINTF),
    long("terse", HasArg::No, 't'),
    long("file-system", HasArg::No, 'f'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

struct Info {
    name: Vec<u8>,
    st: Stat,
    target: Option<Vec<u8>>,
}

fn t_of(ns: u64) -> Time {
    Time {
        secs: (ns / 1_000_000_000) as i64,
        nanos: (ns % 1_000_000_000) as u32,
    }
}

fn human_time(t: Time) -> String {
    strftime("%Y-%m-%d %H:%M:%S.%N %z", t)
}

fn type_name(i: &Info) -> &'static str {
    use coreutils_core::meta::*;
    match i.st.mode & S_IFMT {
        S_IFDIR => "directory",
        S_IFLNK => "symbolic link",
        S_IFCHR => "character special file",
        S_IFBLK => "block special file",
        S_IFIFO => "fifo",
        S_IFSOCK => "socket",
        _ => {
            if i.st.size == 0 {
                "regular empty file"
            } else {
                "regular file"
            }
        }
    }
}

fn directive(c: char, i: &Info, names: &mut NameCache, out: &mut Vec<u8>) -> bool {
    let s: String = match c {
        'n' => {
            out.extend_from_slice(&i.name);
            return true;
        }
        'N' => {
            let mut s = quote_gnu(&coreutils_core::bytes::os_from_bytes(&i.name));
            if let Some(t) = &i.target {
                s.push_str(" -> ");
                s.push_str(&quote_gnu(&coreutils_core::bytes::os_from_bytes(t)));
            }
            s
        }
        's' => i.st.size.to_string(),
        'b' => i.st.blocks.to_string(),
        'B' => "512".into(),
        'o' => "4096".into(),
        'f' => format!("{:x}", i.st.mode),
        'F' => type_name(i).into(),
        'a' => format!("{:o}", i.st.mode & 0o7777),
        'A' => format!("{}{}", type_char(i.st.mode), perm_string(i.st.mode)),
        'h' => i.st.nlink.to_string(),
        'i' => i.st.ino.to_string(),
        'd' => i.st.dev.to_string(),
        'D' => format!("{:x}", i.st.dev),
        'u' => i.st.uid.to_string(),
        'U' => names.user(i.st.uid),
        'g' => i.st.gid.to_string(),
        'G' => names.group(i.st.gid),
        't' => "0".into(),
        'T' => "0".into(),
        'x' => human_time(t_of(i.st.atime_ns)),
        'X' => t_of(i.st.atime_ns).secs.to_string(),
        'y' => human_time(t_of(i.st.mtime_ns)),
        'Y' => t_of(i.st.mtime_ns).secs.to_string(),
        'z' => human_time(t_of(i.st.ctime_ns)),
        'Z' => t_of(i.st.ctime_ns).secs.to_string(),
        'w' => "-".into(),
        'W' => "0".into(),
        'm' => "/".into(),
        _ => return false,
    };
    out.extend_from_slice(s.as_bytes());
    true
}

fn render(fmt: &[u8], i: &Info, names: &mut NameCache) -> Vec<u8> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < fmt.len() {
        if fmt[k] != b'%' {
            out.push(fmt[k]);
            k += 1;
            continue;
        }
        let start = k;
        k += 1;
        // Flags, width and precision apply to the directive's text.
        let mut left = false;
        let mut zero = false;
        while k < fmt.len() && b"-0+ #'".contains(&fmt[k]) {
            left |= fmt[k] == b'-';
            zero |= fmt[k] == b'0';
            k += 1;
        }
        let mut width = 0usize;
        while k < fmt.len() && fmt[k].is_ascii_digit() {
            width = width
                .saturating_mul(10)
                .saturating_add((fmt[k] - b'0') as usize);
            k += 1;
        }
        if k < fmt.len() && fmt[k] == b'.' {
            k += 1;
            while k < fmt.len() && fmt[k].is_ascii_digit() {
                k += 1;
            }
        }
        if k >= fmt.len() {
            out.extend_from_slice(&fmt[start..]);
            break;
        }
        let c = fmt[k] as char;
        k += 1;
        if c == '%' {
            out.push(b'%');
            continue;
        }
        let mut piece = Vec::new();
        if !directive(c, i, names, &mut piece) {
            // GNU prints '?' for an unknown directive.
            out.push(b'?');
            continue;
        }
        if piece.len() < width {
            let fill = width - piece.len();
            if left {
                out.extend_from_slice(&piece);
                out.extend(std::iter::repeat(b' ').take(fill));
            } else {
                let numeric = piece.iter().all(|b| b.is_ascii_digit());
                out.extend(std::iter::repeat(if zero && numeric { b'0' } else { b' ' }).take(fill));
                out.extend_from_slice(&piece);
            }
        } else {
            out.extend_from_slice(&piece);
        }
    }
    out
}

fn default_format(i: &Info, names: &mut NameCache) -> Vec<u8> {
    let mut s = Vec::new();
    s.extend_from_slice(b"  File: ");
    s.extend_from_slice(&render(b"%N", i, names));
    s.push(b'\n');
    let f = format!(
        "  Size: %-10s\tBlocks: %-10b IO Block: %-6o {}\nDevice: %Dh/%dd\tInode: %-11i Links: %h\nAccess: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n",
        type_name(i)
    );
    s.extend_from_slice(&render(f.as_bytes(), i, names));
    s
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("stat", &args, "Lc:tf", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "stat",
        &p,
        "Usage: stat [OPTION]... FILE...\nDisplay file or file system status.\n",
    ) {
        return c;
    }
    if p.operands.is_empty() {
        return missing_operand("stat", 1);
    }
    let follow = p.has('L');
    let mut fmt: Option<(Vec<u8>, bool)> = None;
    for o in &p.opts {
        match o.key {
            'c' => {
                fmt = Some((
                    os_bytes(o.value.as_deref().unwrap_or_default()).to_vec(),
                    true,
                ))
            }
            PRINTF => {
                fmt = Some((
                    expand(
                        os_bytes(o.value.as_deref().unwrap_or_default()),
                        Style::Format,
                        utf8_locale(),
                    )
                    .0,
                    false,
                ))
            }
            't' => {
                fmt = Some((
                    b"%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o".to_vec(),
                    true,
                ))
            }
            _ => {}
        }
    }
    let mut names = NameCache::default();
    let mut out = stdout();
    let mut status = 0;
    for f in &p.operands {
        let path = Path::new(f);
        let st = match meta::stat(path, follow) {
            Ok(st) => st,
            Err(e) => {
                let _ = out.flush();
                eprintln!(
                    "{}: cannot statx {}: {}",
                    coreutils_core::prog("stat"),
                    quote_gnu(f),
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        };
        let info = Info {
            name: os_bytes(f).to_vec(),
            target: if st.is_symlink() {
                coreutils_core::fs::read_link(path)
                    .ok()
                    .map(|t| path_bytes(&t).to_vec())
            } else {
                None
            },
            st,
        };
        let bytes = match &fmt {
            Some((f, nl)) => {
                let mut b = render(f, &info, &mut names);
                if *nl {
                    b.push(b'\n');
                }
                b
            }
            None => default_format(&info, &mut names),
        };
        if let Err(e) = out.write_all(&bytes) {
            exit_on_write_error(e);
        }
    }
    if let Err(e) = out.flush() {
        exit_on_write_error(e);
    }
    status
}
