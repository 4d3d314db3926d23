//! `basename NAME [SUFFIX]` and `basename -a [-s SUFFIX] [-z] NAME...`.

use coreutils_core::args::{
    extra_operand, long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::os_bytes;
use coreutils_core::io::{stdout, write_or_exit};
use std::ffi::OsString;
use std::io::Write;

const LONGS: &[LongOpt] = &[
    long("multiple", HasArg::No, 'a'),
    long("suffix", HasArg::Required, 's'),
    long("zero", HasArg::No, 'z'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// The last component of `name` without trailing slashes, minus `suffix`
/// unless that would leave nothing.
pub fn base(name: &[u8], suffix: &[u8]) -> Vec<u8> {
    let mut end = name.len();
    while end > 1 && name[end - 1] == b'/' {
        end -= 1;
    }
    let trimmed = &name[..end];
    if trimmed == b"/" {
        return b"/".to_vec();
    }
    let start = trimmed
        .iter()
        .rposition(|&c| c == b'/')
        .map_or(0, |i| i + 1);
    let b = &trimmed[start..];
    if !suffix.is_empty() && b.len() > suffix.len() && b.ends_with(suffix) {
        return b[..b.len() - suffix.len()].to_vec();
    }
    b.to_vec()
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("basename", &args, "as:z", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("basename", &p, "Usage: basename NAME [SUFFIX]\n  or:  basename OPTION... NAME...\nPrint NAME with any leading directory components removed.\n") {
        return c;
    }
    let suffix = p.last('s').map(|s| os_bytes(s).to_vec());
    let multiple = p.has('a') || suffix.is_some();
    let term = if p.has('z') { b'\0' } else { b'\n' };
    if p.operands.is_empty() {
        return missing_operand("basename", 1);
    }
    let mut out = stdout();
    if multiple {
        let s = suffix.unwrap_or_default();
        for n in &p.operands {
            let mut b = base(os_bytes(n), &s);
            b.push(term);
            write_or_exit(&mut out, &b);
        }
    } else {
        if p.operands.len() > 2 {
            return extra_operand("basename", &p.operands[2], 1);
        }
        let s = p
            .operands
            .get(1)
            .map(|s| os_bytes(s).to_vec())
            .unwrap_or_default();
        let mut b = base(os_bytes(&p.operands[0]), &s);
        b.push(term);
        write_or_exit(&mut out, &b);
    }
    let _ = out.flush();
    0
}

#[cfg(test)]
mod tests {
    use super::base;
    #[test]
    fn bases() {
        assert_eq!(base(b"/usr/lib/", b""), b"lib");
        assert_eq!(base(b"a.txt", b".txt"), b"a");
        assert_eq!(base(b".txt", b".txt"), b".txt");
        assert_eq!(base(b"///", b""), b"/");
        assert_eq!(base(b"", b""), b"");
    }
}
