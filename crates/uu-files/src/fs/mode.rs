//! Parsing of file modes as `chmod`, `mkdir -m` and `install -m` take
//! them: octal (`755`) or symbolic (`u+x,go=r`, `a-w`, `+X`, `g=u`).

/// Apply mode string `spec` to `old` (permission bits and type bits).
/// `umask` masks symbolic changes that name no `ugoa` class, as POSIX
/// says; `is_dir` enables `X` on directories.
#[allow(clippy::result_unit_err)] // Callers print their own "invalid mode" message.
pub fn apply(spec: &str, old: u32, umask: u32, is_dir: bool) -> Result<u32, ()> {
    if spec.is_empty() {
        return Err(());
    }
    if spec.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
        if spec.len() > 4 {
            return Err(());
        }
        let v = u32::from_str_radix(spec, 8).map_err(|_| ())?;
        // GNU keeps a directory's setuid/setgid bits unless 5+ digits say otherwise.
        let keep = if is_dir && spec.len() < 5 {
            old & 0o6000
        } else {
            0
        };
        return Ok((old & !0o7777) | v | keep);
    }
    let mut mode = old;
    for clause in spec.split(',') {
        let b = clause.as_bytes();
        let mut i = 0;
        let mut who = 0u32;
        while i < b.len() && b"ugoa".contains(&b[i]) {
            who |= match b[i] {
                b'u' => 0o4700,
                b'g' => 0o2070,
                b'o' => 0o1007,
                _ => 0o7777,
            };
            i += 1;
        }
        let explicit = who != 0;
        if !explicit {
            who = 0o7777;
        }
        if i >= b.len() {
            return Err(());
        }
        while i < b.len() {
            let op = b[i];
            if !b"+-=".contains(&op) {
                return Err(());
            }
            i += 1;
            let mut perm = 0u32;
            if i < b.len() && b"ugo".contains(&b[i]) {
                let src = match b[i] {
                    b'u' => (mode >> 6) & 7,
                    b'g' => (mode >> 3) & 7,
                    _ => mode & 7,
                };
                perm = src | (src << 3) | (src << 6);
                i += 1;
            } else {
                while i < b.len() && b"rwxXst".contains(&b[i]) {
                    perm |= match b[i] {
                        b'r' => 0o444,
                        b'w' => 0o222,
                        b'x' => 0o111,
                        b'X' => {
                            if is_dir || mode & 0o111 != 0 {
                                0o111
                            } else {
                                0
                            }
                        }
                        b's' => 0o6000,
                        _ => 0o1000,
                    };
                    i += 1;
                }
            }
            let mut mask = who & perm;
            if !explicit {
                mask &= !umask | 0o7000;
            }
            match op {
                b'+' => mode |= mask,
                b'-' => mode &= !mask,
                _ => {
                    let clear = if explicit { who } else { 0o7777 & !umask }
                        & !(if is_dir { 0o6000 } else { 0 });
                    mode = (mode & !clear) | mask;
                }
            }
            if i < b.len() && !b"+-=".contains(&b[i]) {
                return Err(());
            }
        }
    }
    Ok(mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn modes() {
        assert_eq!(apply("755", 0o100644, 0o022, false), Ok(0o100755));
        assert_eq!(apply("u+x", 0o644, 0o022, false), Ok(0o744));
        assert_eq!(apply("go-r", 0o644, 0o022, false), Ok(0o600));
        assert_eq!(apply("a=r,u+w", 0o777, 0o022, false), Ok(0o644));
        assert_eq!(apply("+x", 0o644, 0o022, false), Ok(0o755));
        assert_eq!(apply("-w", 0o666, 0o022, false), Ok(0o444 | 0o022));
        assert_eq!(apply("g=u", 0o750, 0, false), Ok(0o770));
        assert_eq!(apply("+X", 0o644, 0, false), Ok(0o644));
        assert_eq!(apply("+X", 0o644, 0, true), Ok(0o755));
        assert!(apply("u+q", 0o644, 0, false).is_err());
        assert!(apply("8", 0o644, 0, false).is_err());
    }
}
