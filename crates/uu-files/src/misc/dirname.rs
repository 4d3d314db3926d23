//! `dirname [-z] NAME...`: strip the last component.

use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::os_bytes;
use coreutils_core::io::{stdout, write_or_exit};
use std::ffi::OsString;
use std::io::Write;

const LONGS: &[LongOpt] = &[
    long("zero", HasArg::No, 'z'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// The directory part of `name` (`.` when there is none).
pub fn dir(name: &[u8]) -> Vec<u8> {
    let mut end = name.len();
    while end > 1 && name[end - 1] == b'/' {
        end -= 1;
    }
    let t = &name[..end];
    match t.iter().rposition(|&c| c == b'/') {
        None => b".".to_vec(),
        Some(i) => {
            let mut j = i;
            while j > 0 && t[j - 1] == b'/' {
                j -= 1;
            }
            if j == 0 {
                let _ = i;
                b"/".to_vec()
            } else {
                t[..j].to_vec()
            }
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("dirname", &args, "z", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("dirname", &p, "Usage: dirname [OPTION] NAME...\nOutput each NAME with its last non-slash component and trailing slashes\nremoved; if NAME contains no /'s, output '.' (meaning the current directory).\n") {
        return c;
    }
    if p.operands.is_empty() {
        return missing_operand("dirname", 1);
    }
    let term = if p.has('z') { b'\0' } else { b'\n' };
    let mut out = stdout();
    for n in &p.operands {
        let mut d = dir(os_bytes(n));
        d.push(term);
        write_or_exit(&mut out, &d);
    }
    let _ = out.flush();
    0
}

#[cfg(test)]
mod tests {
    use super::dir;
    #[test]
    fn dirs() {
        assert_eq!(dir(b"/usr/lib/"), b"/usr");
        assert_eq!(dir(b"a"), b".");
        assert_eq!(dir(b"/a"), b"/");
        assert_eq!(dir(b"a//b"), b"a");
        assert_eq!(dir(b"/"), b"/");
    }
}
