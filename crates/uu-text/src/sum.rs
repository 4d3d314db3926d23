//! `sum [-r|-s] [FILE]...`: the BSD (default) or System V 16-bit checksum
//! and the size in blocks (1024 bytes for BSD, 512 for System V).

use std::ffi::OsString;
use std::io::Read;

use crate::common::bytes::qf;
use crate::common::input::{err_text, finish, open, put, stdout};
use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};

const LONGS: &[LongOpt] = &[
    long("sysv", HasArg::No, 's'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

const USAGE: &str = "Usage: sum [OPTION]... [FILE]...\nPrint or check BSD (16-bit) checksums.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -r              use BSD sum algorithm (the default), use 1K blocks\n  -s, --sysv      use System V sum algorithm, use 512 bytes blocks\n      --help        display this help and exit\n      --version     output version information and exit\n";

/// Running state of either algorithm over a stream of bytes.
struct Sum {
    sysv: bool,
    bsd: u16,
    total: u64,
    bytes: u64,
}

impl Sum {
    fn update(&mut self, data: &[u8]) {
        self.bytes += data.len() as u64;
        if self.sysv {
            self.total = data
                .iter()
                .fold(self.total, |s, &b| s.wrapping_add(u64::from(b)));
        } else {
            self.bsd = data.iter().fold(self.bsd, |c, &b| {
                c.rotate_right(1).wrapping_add(u16::from(b))
            });
        }
    }

    fn line(&self) -> String {
        if self.sysv {
            let r = (self.total & 0xffff) + ((self.total & 0xffff_ffff) >> 16);
            let check = (r & 0xffff) + (r >> 16);
            format!("{} {}", check, (self.bytes + 511) / 512)
        } else {
            format!("{:05} {:5}", self.bsd, (self.bytes + 1023) / 1024)
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("sum", &args, "rs", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("sum", &p, USAGE) {
        return c;
    }
    // The last of -r and -s wins.
    let sysv = p.opts.iter().rev().find_map(|o| match o.key {
        's' => Some(true),
        'r' => Some(false),
        _ => None,
    }) == Some(true);
    let named = !p.operands.is_empty();
    let files = if named {
        p.operands
    } else {
        vec![OsString::from("-")]
    };
    let mut out = stdout();
    let mut status = 0;
    let mut buf = vec![0u8; 64 * 1024];
    for f in &files {
        let mut s = Sum {
            sysv,
            bsd: 0,
            total: 0,
            bytes: 0,
        };
        let r = open(f).and_then(|mut r| loop {
            match r.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => s.update(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        });
        if let Err(e) = r {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("sum"),
                qf(f),
                err_text(&e)
            );
            status = 1;
            continue;
        }
        let mut line = s.line().into_bytes();
        if named {
            line.push(b' ');
            line.extend_from_slice(coreutils_core::bytes::os_bytes(f));
        }
        line.push(b'\n');
        put(&mut out, &line);
    }
    finish(&mut out, "sum", status)
}

#[cfg(test)]
mod tests {
    use super::Sum;

    fn sum(sysv: bool, data: &[u8]) -> String {
        let mut s = Sum {
            sysv,
            bsd: 0,
            total: 0,
            bytes: 0,
        };
        s.update(data);
        s.line()
    }

    #[test]
    fn matches_gnu() {
        // Values from GNU sum 9.1 on "hello world\n".
        assert_eq!(sum(false, b"hello world\n"), "03762     1");
        assert_eq!(sum(true, b"hello world\n"), "1126 1");
        assert_eq!(sum(true, &[0u8; 5000]), "0 10");
    }
}
