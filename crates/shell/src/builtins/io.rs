//! I/O builtins: echo, printf, read, mapfile/readarray.

use crate::ast::Bytes;
use crate::eval::{Ctl, Shell, R};
use coreutils_core::calendar;
use coreutils_core::escapes::{expand, Style};

/// Interpret backslash escapes (echo -e, %b, ${x@E}) by bash's rules. Returns
/// (bytes, stop) where stop is true after `\c`.
pub fn backslash_escapes(s: &[u8]) -> (Bytes, bool) {
    expand(s, Style::Bash, !crate::eval::expand::byte_chars())
}

/// echo -e's escapes: as backslash_escapes, but octal needs a leading 0
/// (`\0101`); `\101` stays as it is.
fn echo_escapes(s: &[u8]) -> (Bytes, bool) {
    if !s
        .windows(2)
        .any(|w| w[0] == b'\\' && (b'1'..=b'7').contains(&w[1]))
    {
        return backslash_escapes(s);
    }
    let mut t = Vec::with_capacity(s.len() + 4);
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            if (b'1'..=b'7').contains(&s[i + 1]) {
                t.push(b'\\');
            }
            t.extend_from_slice(&s[i..i + 2]);
            i += 2;
        } else {
            t.push(s[i]);
            i += 1;
        }
    }
    backslash_escapes(&t)
}

enum Arg<'a> {
    Args(&'a [Bytes], usize),
}

impl<'a> Arg<'a> {
    fn next(&mut self) -> Option<&'a [u8]> {
        let Arg::Args(a, i) = self;
        if *i < a.len() {
            *i += 1;
            Some(&a[*i - 1])
        } else {
            None
        }
    }
}

impl Shell {
    pub fn b_echo(&mut self, args: &[Bytes]) {
        let mut newline = true;
        let mut escapes = self.shopt_state("xpg_echo") == Some(true);
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a.len() < 2
                || a[0] != b'-'
                || !a[1..].iter().all(|c| matches!(c, b'n' | b'e' | b'E'))
            {
                break;
            }
            for c in &a[1..] {
                match c {
                    b'n' => newline = false,
                    b'e' => escapes = true,
                    _ => escapes = false,
                }
            }
            i += 1;
        }
        let mut out = Vec::new();
        for (k, a) in args[i..].iter().enumerate() {
            if k > 0 {
                out.push(b' ');
            }
            if escapes {
                let (b, stop) = echo_escapes(a);
                out.extend_from_slice(&b);
                if stop {
                    self.status = if self.write_fd(1, &out) { 0 } else { 1 };
                    return;
                }
            } else {
                out.extend_from_slice(a);
            }
        }
        if newline {
            out.push(b'\n');
        }
        if !self.write_fd(1, &out) {
            self.berr("echo", b"write error: Bad file descriptor");
            self.status = 1;
        }
    }

    pub fn b_printf(&mut self, args: &[Bytes]) -> R<()> {
        let mut args = args;
        let mut var = None;
        if args.first().map(|a| a == b"-v").unwrap_or(false) {
            if args.len() < 2 {
                self.berr("printf", b"-v: option requires an argument");
                self.status = 2;
                return Ok(());
            }
            let v = &args[1];
            let base = v.split(|c| *c == b'[').next().unwrap_or(v);
            if !crate::parse::is_name(base) || (base.len() < v.len() && !v.ends_with(b"]")) {
                let mut m = b"`".to_vec();
                m.extend_from_slice(v);
                m.extend_from_slice(b"': not a valid identifier");
                self.berr("printf", &m);
                self.status = 2;
                return Ok(());
            }
            var = Some(v.clone());
            args = &args[2..];
        }
        if args.first().map(|a| a == b"--").unwrap_or(false) {
            args = &args[1..];
        }
        if args.is_empty() {
            self.write_fd(2, b"printf: usage: printf [-v var] format [arguments]\n");
            self.status = 2;
            return Ok(());
        }
        let fmt = args[0].clone();
        let rest = &args[1..];
        let mut out = Vec::new();
        let mut it = Arg::Args(rest, 0);
        let mut st = 0;
        if var.is_none() {
            // bash's stdout is line-buffered: a complaint comes after the
            // lines printed before it (printf_once releases them in order)
            self.held_errs = Some(Vec::new());
        }
        loop {
            let Arg::Args(_, before) = it;
            let mut conv_start = out.len();
            let stop = self.printf_once(&fmt, &mut it, &mut out, &mut st, &mut conv_start);
            // the pass's last conversion may have complained
            self.release_held(&mut out, conv_start);
            let Arg::Args(_, after) = it;
            if stop || after >= rest.len() || after == before {
                break;
            }
        }
        if let Some(errs) = self.held_errs.take() {
            self.write_fd(2, &errs);
        }
        match var {
            Some(v) => {
                // a value ends at a NUL byte, as in bash's C strings
                out.truncate(out.iter().position(|c| *c == 0).unwrap_or(out.len()));
                if let Err(e) = self.assign_ref(&v, out) {
                    // a readonly target: the message, status 1, and on
                    if let Ctl::Abort(_) = e {
                        self.status = 1;
                        return Ok(());
                    }
                    return Err(e);
                }
            }
            None => {
                if !self.write_fd(1, &out) {
                    self.berr("printf", b"write error: Bad file descriptor");
                    st = 1;
                }
            }
        }
        self.status = st;
        Ok(())
    }

    fn num_arg(&mut self, a: Option<&[u8]>, st: &mut i32) -> i64 {
        self.int_arg(a, st, false)
    }

    /// A printf integer argument; `unsigned` for %u %o %x %X (strtoumax).
    fn int_arg(&mut self, a: Option<&[u8]>, st: &mut i32, unsigned: bool) -> i64 {
        let a = match a {
            Some(a) => a,
            None => return 0,
        };
        if a.is_empty() {
            return 0;
        }
        if a[0] == b'\'' || a[0] == b'"' {
            // the character's code point; a byte in the C locale
            let bytes = crate::eval::expand::byte_chars();
            return a
                .get(1)
                .map(|c| {
                    let s = &a[1..];
                    std::str::from_utf8(s)
                        .ok()
                        .filter(|_| !bytes)
                        .and_then(|t| t.chars().next())
                        .map(|c| c as i64)
                        .unwrap_or(*c as i64)
                })
                .unwrap_or(0);
        }
        let t = String::from_utf8_lossy(a);
        let t = t.trim_start();
        let (neg, body) = if let Some(r) = t.strip_prefix('-') {
            (true, r)
        } else {
            (false, t.strip_prefix('+').unwrap_or(t))
        };
        // strtoimax/strtoumax with base 0
        let hex = body.starts_with("0x") || body.starts_with("0X");
        let (radix, digits) = if hex {
            (16, &body[2..])
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        };
        if !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)) {
            let clamp = |sh: &mut Self| {
                let mut m = b"warning: ".to_vec();
                m.extend_from_slice(a);
                m.extend_from_slice(b": Numerical result out of range");
                sh.berr("printf", &m);
            };
            return match u64::from_str_radix(digits, radix) {
                Ok(u) if unsigned => {
                    if neg {
                        (u as i64).wrapping_neg()
                    } else {
                        u as i64
                    }
                }
                Ok(u) if u <= i64::MAX as u64 => {
                    if neg {
                        -(u as i64)
                    } else {
                        u as i64
                    }
                }
                Ok(u) if neg && u == 1u64 << 63 => i64::MIN,
                _ => {
                    clamp(self);
                    match (unsigned, neg) {
                        (true, _) => -1,
                        (false, true) => i64::MIN,
                        (false, false) => i64::MAX,
                    }
                }
            };
        }
        // the longest valid prefix is used; the rest is an error
        let mut m = a.to_vec();
        m.extend_from_slice(match radix {
            16 => &b": invalid hex number"[..],
            8 => &b": invalid octal number"[..],
            _ => &b": invalid number"[..],
        });
        self.berr("printf", &m);
        *st = 1;
        let valid: String = digits.chars().take_while(|c| c.is_digit(radix)).collect();
        let n = u64::from_str_radix(&valid, radix).unwrap_or(0) as i64;
        if neg {
            n.wrapping_neg()
        } else {
            n
        }
    }

    /// Writes printf's held complaints, after the complete lines of `out`
    /// before `upto` (what bash's line-buffered stdout had written by then).
    fn release_held(&mut self, out: &mut Bytes, upto: usize) {
        let errs = match self.held_errs.as_mut() {
            Some(h) if !h.is_empty() => std::mem::take(h),
            _ => return,
        };
        if let Some(p) = out[..upto].iter().rposition(|c| *c == b'\n') {
            self.write_fd(1, &out[..=p]);
            out.drain(..=p);
        }
        self.write_fd(2, &errs);
    }

    /// One pass over the format. Returns true when output must stop (`\c`).
    /// `conv_start`: where the output of the conversion being done starts.
    fn printf_once(
        &mut self,
        fmt: &[u8],
        it: &mut Arg,
        out: &mut Bytes,
        st: &mut i32,
        conv_start: &mut usize,
    ) -> bool {
        let mut i = 0;
        while i < fmt.len() {
            self.release_held(out, *conv_start);
            *conv_start = out.len();
            let c = fmt[i];
            if c == b'\\' {
                // escapes in the format
                let mut j = i + 1;
                if j < fmt.len() && (b'0'..=b'7').contains(&fmt[j]) {
                    let mut n = 0;
                    let mut v = 0u32;
                    while n < 3 && j < fmt.len() && (b'0'..=b'7').contains(&fmt[j]) {
                        v = v * 8 + (fmt[j] - b'0') as u32;
                        j += 1;
                        n += 1;
                    }
                    out.push(v as u8);
                    i = j;
                    continue;
                }
                let end = (i + 2).min(fmt.len());
                let mut seg_end = end;
                if end <= fmt.len()
                    && matches!(fmt.get(i + 1), Some(b'x') | Some(b'u') | Some(b'U'))
                {
                    let max = match fmt[i + 1] {
                        b'x' => 2,
                        b'u' => 4,
                        _ => 8,
                    };
                    let mut k = i + 2;
                    while k < fmt.len() && k < i + 2 + max && fmt[k].is_ascii_hexdigit() {
                        k += 1;
                    }
                    seg_end = k;
                }
                match fmt.get(i + 1) {
                    // in the format, \c is text and quotes lose their backslash
                    Some(b'c') => {
                        out.extend_from_slice(b"\\c");
                        i += 2;
                        continue;
                    }
                    Some(q @ (b'"' | b'\'')) => {
                        out.push(*q);
                        i += 2;
                        continue;
                    }
                    _ => {}
                }
                let (b, _) = backslash_escapes(&fmt[i..seg_end]);
                out.extend_from_slice(&b);
                i = seg_end;
                continue;
            }
            if c != b'%' {
                out.push(c);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            if i >= fmt.len() {
                self.berr("printf", b"`%': missing format character");
                *st = 1;
                return true;
            }
            if fmt[i] == b'%' {
                out.push(b'%');
                i += 1;
                continue;
            }
            let mut flags = String::new();
            while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
                flags.push(fmt[i] as char);
                i += 1;
            }
            let mut width: Option<i64> = None;
            if i < fmt.len() && fmt[i] == b'*' {
                width = Some(self.num_arg(it.next(), st));
                i += 1;
            } else {
                let s = i;
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
                if i > s {
                    width = std::str::from_utf8(&fmt[s..i])
                        .ok()
                        .and_then(|t| t.parse().ok());
                }
            }
            let mut prec: Option<i64> = None;
            if i < fmt.len() && fmt[i] == b'.' {
                i += 1;
                if i < fmt.len() && fmt[i] == b'*' {
                    // a negative precision counts as none
                    prec = Some(self.num_arg(it.next(), st)).filter(|p| *p >= 0);
                    i += 1;
                } else {
                    let s = i;
                    while i < fmt.len() && fmt[i].is_ascii_digit() {
                        i += 1;
                    }
                    prec = Some(
                        std::str::from_utf8(&fmt[s..i])
                            .ok()
                            .and_then(|t| t.parse().ok())
                            .unwrap_or(0),
                    );
                }
            }
            if fmt.get(i) == Some(&b'(') {
                // %(strftime)T: the argument is seconds since the epoch; none
                // or -1 means now, -2 the shell's start
                if let Some(close) = fmt[i..].iter().position(|c| *c == b')') {
                    if fmt.get(i + close + 1) == Some(&b'T') {
                        let mut tf = fmt[i + 1..i + close].to_vec();
                        if tf.is_empty() {
                            // an empty format is the locale's time
                            tf = b"%X".to_vec();
                        }
                        i += close + 2;
                        let now = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map(|d| d.as_secs() as i64)
                            .unwrap_or(0);
                        let t = match it.next() {
                            None => now,
                            Some([]) => now,
                            Some(a) => {
                                let a = a.to_vec();
                                match self.num_arg(Some(&a), st) {
                                    -1 => now,
                                    -2 => self.start_secs as i64,
                                    n => n,
                                }
                            }
                        };
                        // glibc's strftime with GNU's flags, in UTC (the sandbox's zone).
                        let body =
                            calendar::strftime(&String::from_utf8_lossy(&tf), t, 0).into_bytes();
                        let body = match prec {
                            Some(p) => body[..(p.max(0) as usize).min(body.len())].to_vec(),
                            None => body,
                        };
                        let n = width.unwrap_or(0).unsigned_abs() as usize;
                        let pad = n.saturating_sub(body.len());
                        if flags.contains('-') || width.map_or(false, |w| w < 0) {
                            out.extend_from_slice(&body);
                            out.extend(std::iter::repeat(b' ').take(pad));
                        } else {
                            out.extend(std::iter::repeat(b' ').take(pad));
                            out.extend_from_slice(&body);
                        }
                        continue;
                    }
                }
            }
            while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) && fmt[i] != b'q' {
                i += 1;
            }
            if i >= fmt.len() {
                let mut m = b"`".to_vec();
                m.extend_from_slice(&fmt[start..]);
                m.extend_from_slice(b"': missing format character");
                self.berr("printf", &m);
                *st = 1;
                return true;
            }
            let conv = fmt[i];
            i += 1;
            let mut left = flags.contains('-');
            if let Some(w) = width {
                if w < 0 {
                    left = true;
                    width = Some(-w);
                }
            }
            let pad = |body: Bytes, zero_ok: bool| -> Bytes {
                // widths count bytes, as bash's printf does
                let w = width.unwrap_or(0) as usize;
                let len = body.len();
                if len >= w {
                    return body;
                }
                let n = w - len;
                if left {
                    let mut b = body;
                    b.extend(std::iter::repeat(b' ').take(n));
                    b
                } else if zero_ok && flags.contains('0') {
                    let (sign, digits) = if body
                        .first()
                        .map(|c| matches!(c, b'-' | b'+' | b' '))
                        .unwrap_or(false)
                    {
                        (body[..1].to_vec(), body[1..].to_vec())
                    } else {
                        (Vec::new(), body)
                    };
                    let mut b = sign;
                    b.extend(std::iter::repeat(b'0').take(n));
                    b.extend_from_slice(&digits);
                    b
                } else {
                    let mut b: Bytes = std::iter::repeat(b' ').take(n).collect();
                    b.extend_from_slice(&body);
                    b
                }
            };
            match conv {
                b'Q' => {
                    // %q of the argument cut to the precision
                    let mut a = it.next().unwrap_or(b"").to_vec();
                    if let Some(p) = prec {
                        a.truncate(p.max(0) as usize);
                    }
                    out.extend_from_slice(&pad(super::quote_printf(&a), false));
                }
                b's' | b'b' | b'q' => {
                    let a = it.next().unwrap_or(b"").to_vec();
                    let mut v = match conv {
                        b'b' => {
                            let (b, stop) = backslash_escapes(&a);
                            if stop {
                                out.extend_from_slice(&pad(b, false));
                                return true;
                            }
                            b
                        }
                        b'q' => super::quote_printf(&a),
                        _ => a,
                    };
                    if let Some(p) = prec {
                        v.truncate(p.max(0) as usize);
                    }
                    out.extend_from_slice(&pad(v, false));
                }
                b'c' => {
                    let a = it.next().unwrap_or(b"");
                    let v = if a.is_empty() {
                        // the C string's terminating NUL
                        vec![0]
                    } else {
                        a[..crate::eval::expand::utf8_len(a, 0)].to_vec()
                    };
                    out.extend_from_slice(&pad(v, false));
                }
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => {
                    let n = self.int_arg(it.next(), st, !matches!(conv, b'd' | b'i'));
                    let mut body = match conv {
                        b'o' => format!("{:o}", n),
                        b'x' => format!("{:x}", n),
                        b'X' => format!("{:X}", n),
                        b'u' => format!("{}", n as u64),
                        _ => format!("{}", n.unsigned_abs()),
                    };
                    if let Some(p) = prec {
                        while (body.len() as i64) < p {
                            body.insert(0, '0');
                        }
                    }
                    if flags.contains('#') && n != 0 {
                        match conv {
                            b'o' => body.insert(0, '0'),
                            b'x' => body.insert_str(0, "0x"),
                            b'X' => body.insert_str(0, "0X"),
                            _ => {}
                        }
                    }
                    if matches!(conv, b'd' | b'i') {
                        if n < 0 {
                            body.insert(0, '-');
                        } else if flags.contains('+') {
                            body.insert(0, '+');
                        } else if flags.contains(' ') {
                            body.insert(0, ' ');
                        }
                    }
                    out.extend_from_slice(&pad(body.into_bytes(), prec.is_none()));
                }
                b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
                    let a = it.next().unwrap_or(b"0");
                    let (v, ok) = super::printf_num::float_arg(a);
                    if !ok {
                        let mut m = a.to_vec();
                        m.extend_from_slice(b": invalid number");
                        self.berr("printf", &m);
                        *st = 1;
                    }
                    let upper = conv.is_ascii_uppercase();
                    let p = prec.unwrap_or(6).max(0) as usize;
                    let mut body = if !v.is_finite() && !matches!(conv, b'a' | b'A') {
                        let t = if v.is_nan() { "nan" } else { "inf" };
                        let t = if upper {
                            t.to_uppercase()
                        } else {
                            t.to_string()
                        };
                        if v.is_sign_negative() {
                            format!("-{}", t)
                        } else {
                            t
                        }
                    } else {
                        match conv {
                            b'f' | b'F' => super::printf_num::fixed(v, p),
                            b'e' | b'E' => c_exp(v, p, upper),
                            b'a' | b'A' => super::printf_num::hex_float(
                                v,
                                prec.map(|p| p.max(0) as usize),
                                upper,
                            ),
                            _ => {
                                c_general(v, if p == 0 { 1 } else { p }, upper, flags.contains('#'))
                            }
                        }
                    };
                    if !body.starts_with('-') && flags.contains('+') {
                        body.insert(0, '+');
                    } else if !body.starts_with('-') && flags.contains(' ') {
                        body.insert(0, ' ');
                    }
                    out.extend_from_slice(&pad(body.into_bytes(), v.is_finite()));
                }
                other => {
                    let m = format!("`{}': invalid format character", other as char);
                    self.berr("printf", m.as_bytes());
                    *st = 1;
                    return true;
                }
            }
        }
        false
    }

    /// Read up to a delimiter (or n chars). Returns (data, hit_eof).
    /// Wait for input on a pipe or terminal until `deadline` (`read -t`);
    /// false when it passed. A file is always ready.
    fn input_ready(
        &mut self,
        fd: i32,
        seekable: bool,
        deadline: Option<std::time::Instant>,
    ) -> Result<bool, i32> {
        let deadline = match deadline {
            Some(d) if !seekable => d,
            _ => return Ok(true),
        };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        self.sys.poll_read(fd, ms)
    }

    fn read_record(
        &mut self,
        fd: i32,
        delim: Option<u8>,
        nchars: Option<usize>,
        raw: bool,
        deadline: Option<std::time::Instant>,
    ) -> Result<(Bytes, RecordEnd), i32> {
        let mut out = Vec::new();
        // characters read: an escaped pair counts once toward -n/-N
        let mut count = 0;
        let seekable = self.sys.seekable(fd);
        let mut buf = vec![0u8; if seekable { 512 } else { 1 }];
        loop {
            if let Some(n) = nchars {
                if count >= n {
                    return Ok((out, RecordEnd::Done));
                }
            }
            if !self.input_ready(fd, seekable, deadline)? {
                return Ok((out, RecordEnd::TimedOut));
            }
            let got = match if seekable {
                self.sys.read_ahead(fd, &mut buf)
            } else {
                self.sys.read(fd, &mut buf)
            } {
                Ok(0) => return Ok((out, RecordEnd::Eof)),
                Ok(g) => g,
                Err(crate::sys::EINTR) => return Err(crate::sys::EINTR),
                Err(e) => return Err(e),
            };
            let mut k = 0;
            let mut done = false;
            while k < got {
                let c = buf[k];
                k += 1;
                if !raw && c == b'\\' {
                    // escaped char: needs the following byte
                    let next = if k < got {
                        k += 1;
                        Some(buf[k - 1])
                    } else {
                        if !self.input_ready(fd, seekable, deadline)? {
                            return Ok((out, RecordEnd::TimedOut));
                        }
                        let mut one = [0u8; 1];
                        let r = if seekable {
                            self.sys.read_ahead(fd, &mut one)
                        } else {
                            self.sys.read(fd, &mut one)
                        };
                        match r {
                            Ok(1) => Some(one[0]),
                            _ => None,
                        }
                    };
                    match next {
                        Some(b'\n') => {}
                        Some(n) => {
                            out.push(b'\\');
                            out.push(n);
                            count += 1;
                        }
                        None => {}
                    }
                    if nchars.map_or(false, |n| count >= n) {
                        done = true;
                        break;
                    }
                    continue;
                }
                if c == 0 && delim != Some(0) {
                    // bash's strings cannot hold NUL: read skips them.
                    continue;
                }
                if Some(c) == delim && nchars.map(|_| delim.is_some()).unwrap_or(true) {
                    done = true;
                    break;
                }
                out.push(c);
                count += 1;
                if let Some(n) = nchars {
                    if count >= n {
                        done = true;
                        break;
                    }
                }
            }
            if seekable && k < got {
                let _ = self.sys.unread(fd, got - k);
            }
            if done {
                return Ok((out, RecordEnd::Done));
            }
        }
    }

    pub fn b_read(&mut self, args: &[Bytes]) -> R<()> {
        let mut raw = false;
        let mut array: Option<Bytes> = None;
        let mut delim: Option<u8> = Some(b'\n');
        let mut nchars: Option<usize> = None;
        let mut exact = false;
        let mut prompt: Option<Bytes> = None;
        let mut fd = 0;
        let mut timeout: Option<f64> = None;
        let mut silent = false;
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a.len() < 2 || a[0] != b'-' {
                break;
            }
            if a == b"--" {
                i += 1;
                break;
            }
            let mut j = 1;
            while j < a.len() {
                let o = a[j];
                j += 1;
                let needs = matches!(o, b'a' | b'd' | b'n' | b'N' | b'p' | b't' | b'u' | b'i');
                let val = if needs {
                    if j < a.len() {
                        let v = a[j..].to_vec();
                        j = a.len();
                        Some(v)
                    } else {
                        i += 1;
                        match args.get(i) {
                            Some(v) => Some(v.clone()),
                            None => {
                                self.berr(
                                    "read",
                                    format!("-{}: option requires an argument", o as char)
                                        .as_bytes(),
                                );
                                self.write_fd(2, b"read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n");
                                self.status = 2;
                                return Ok(());
                            }
                        }
                    }
                } else {
                    None
                };
                match o {
                    b'r' => raw = true,
                    b's' => silent = true,
                    b'e' => {}
                    b'a' => array = val,
                    b'd' => delim = val.and_then(|v| v.first().copied()).or(Some(0)),
                    b'n' | b'N' => {
                        let v = val.unwrap_or_default();
                        match crate::bytes::parse_i64(&v) {
                            Some(n) if n >= 0 => nchars = Some(n as usize),
                            _ => {
                                let mut m = v.clone();
                                m.extend_from_slice(b": invalid number");
                                self.berr("read", &m);
                                self.status = 1;
                                return Ok(());
                            }
                        }
                        if o == b'N' {
                            exact = true;
                        }
                    }
                    b'p' => prompt = val,
                    b't' => {
                        let v = val.unwrap_or_default();
                        let t = String::from_utf8_lossy(&v);
                        match t.parse::<f64>() {
                            Ok(t) if t >= 0.0 && !v.starts_with(b"+") => timeout = Some(t),
                            _ => {
                                let mut m = v.clone();
                                m.extend_from_slice(b": invalid timeout specification");
                                self.berr("read", &m);
                                self.status = 1;
                                return Ok(());
                            }
                        }
                    }
                    b'u' => match self.fd_arg("read", val) {
                        Some(f) => fd = f,
                        None => return Ok(()),
                    },
                    b'i' => {}
                    _ => {
                        self.invalid_option("read", o, b"read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n");
                        return Ok(());
                    }
                }
            }
            i += 1;
        }
        let _ = silent;
        if let Some(arr) = &array {
            if self.not_indexed_array("read", arr) {
                return Ok(());
            }
        }
        let names: Vec<Bytes> = args[i..].to_vec();
        for n in &names {
            let base = n.split(|&c| c == b'[').next().unwrap_or(n);
            let elem = base.len() < n.len() && n.last() == Some(&b']');
            if !(crate::parse::is_name(n) || (elem && crate::parse::is_name(base))) {
                let mut m = b"`".to_vec();
                m.extend_from_slice(n);
                m.extend_from_slice(b"': not a valid identifier");
                self.berr("read", &m);
                self.status = 1;
                return Ok(());
            }
        }
        if let Some(p) = &prompt {
            if self.sys.isatty(0) {
                self.write_fd(2, p);
            }
        }
        if timeout == Some(0.0) {
            // -t 0: whether input is waiting, nothing read
            let seekable = self.sys.seekable(fd);
            let now = Some(std::time::Instant::now());
            self.status = match self.input_ready(fd, seekable, now) {
                Ok(true) => 0,
                _ => 1,
            };
            return Ok(());
        }
        if exact {
            delim = None;
        }
        let deadline = timeout
            .map(|t| std::time::Instant::now() + std::time::Duration::from_secs_f64(t.min(1e9)));
        let (data, end) = match self.read_record(fd, delim, nchars, raw, deadline) {
            Ok(r) => r,
            Err(crate::sys::EINTR) => {
                self.status = 130;
                return self.check_signals();
            }
            Err(e) => {
                let m = format!("read error: {}: {}", fd, crate::sys::strerror(e));
                self.berr("read", m.as_bytes());
                self.status = 1;
                return Ok(());
            }
        };
        // a timeout keeps what was read, with status 128 + SIGALRM
        let st = match end {
            RecordEnd::Done => 0,
            RecordEnd::Eof => 1,
            RecordEnd::TimedOut => 142,
        };
        let ifs = self.get_var(b"IFS").unwrap_or_else(|| {
            if self.var_is_set(b"IFS") {
                Vec::new()
            } else {
                b" \t\n".to_vec()
            }
        });
        let unesc = |s: &[u8]| -> Bytes {
            if raw {
                return s.to_vec();
            }
            let mut o = Vec::with_capacity(s.len());
            let mut k = 0;
            while k < s.len() {
                if s[k] == b'\\' && k + 1 < s.len() {
                    k += 1;
                }
                o.push(s[k]);
                k += 1;
            }
            o
        };
        // -N: what was read goes whole to the first name, unsplit
        let fields = |max: usize| -> Vec<Bytes> {
            if exact {
                vec![data.clone()]
            } else {
                split_read(&data, &ifs, max, raw)
            }
        };
        if let Some(arr) = array {
            let fields = fields(usize::MAX);
            let vals: Vec<Bytes> = fields.iter().map(|f| unesc(f)).collect();
            if self.is_readonly(&arr) {
                self.readonly_err(&arr);
                self.status = 1;
                return Ok(());
            }
            self.set_array(&arr, vals);
            self.status = st;
            return Ok(());
        }
        if names.is_empty() {
            let v = unesc(&data);
            self.assign_scalar(b"REPLY", None, v, false)?;
        } else {
            let fields = fields(names.len());
            for (k, n) in names.iter().enumerate() {
                let v = fields.get(k).map(|f| unesc(f)).unwrap_or_default();
                if let Err(e) = self.assign_ref(n, v) {
                    if let Ctl::Abort(_) = e {
                        self.status = 1;
                        return Ok(());
                    }
                    return Err(e);
                }
            }
        }
        self.status = st;
        Ok(())
    }

    pub fn b_mapfile(&mut self, args: &[Bytes]) -> R<()> {
        let mut strip = false;
        let mut delim = b'\n';
        let mut count: usize = 0;
        let mut origin: i64 = 0;
        let mut skip: usize = 0;
        let mut fd = 0;
        let mut name: Bytes = b"MAPFILE".to_vec();
        let mut i = 0;
        let mut keep_old = false;
        let mut callback: Option<Bytes> = None;
        let mut quantum: usize = 5000;
        while i < args.len() {
            let a = &args[i];
            if a.len() >= 2 && a[0] == b'-' {
                let o = a[1];
                let val = if a.len() > 2 {
                    Some(a[2..].to_vec())
                } else if matches!(o, b'd' | b'n' | b'O' | b's' | b'u' | b'C' | b'c') {
                    i += 1;
                    args.get(i).cloned()
                } else {
                    None
                };
                match o {
                    b't' => strip = true,
                    b'd' => delim = val.and_then(|v| v.first().copied()).unwrap_or(0),
                    b'n' => match val.as_deref().and_then(crate::bytes::parse_i64) {
                        Some(n) if n >= 0 => count = n as usize,
                        _ => {
                            let mut m = val.unwrap_or_default();
                            m.extend_from_slice(b": invalid line count");
                            self.berr("mapfile", &m);
                            self.status = 1;
                            return Ok(());
                        }
                    },
                    b'O' => {
                        origin = val.and_then(|v| crate::bytes::parse_i64(&v)).unwrap_or(0);
                        keep_old = true;
                    }
                    b's' => {
                        skip = val.and_then(|v| crate::bytes::parse_i64(&v)).unwrap_or(0) as usize
                    }
                    b'u' => match self.fd_arg("mapfile", val) {
                        Some(f) => fd = f,
                        None => return Ok(()),
                    },
                    b'C' => callback = val,
                    b'c' => match val.as_deref().and_then(crate::bytes::parse_i64) {
                        Some(n) if n > 0 => quantum = n as usize,
                        _ => {
                            let mut m = val.unwrap_or_default();
                            m.extend_from_slice(b": invalid callback quantum");
                            self.berr("mapfile", &m);
                            self.status = 1;
                            return Ok(());
                        }
                    },
                    _ => {
                        self.berr(
                            "mapfile",
                            format!("-{}: invalid option", o as char).as_bytes(),
                        );
                        self.status = 2;
                        return Ok(());
                    }
                }
            } else {
                name = a.clone();
            }
            i += 1;
        }
        if self.not_indexed_array("mapfile", &name) {
            return Ok(());
        }
        // read everything
        let mut data = Vec::new();
        let mut buf = vec![0u8; 65536];
        loop {
            match self.sys.read(fd, &mut buf) {
                Ok(0) => break,
                Ok(n) => data.extend_from_slice(&buf[..n]),
                Err(crate::sys::EINTR) => continue,
                Err(_) => break,
            }
        }
        let mut map = if keep_old {
            match self.vars.get(&name).and_then(|v| v.value.clone()) {
                Some(crate::state::Value::Arr(m)) => m,
                _ => Default::default(),
            }
        } else {
            std::collections::BTreeMap::new()
        };
        let mut idx = origin;
        let mut n = 0;
        let mut start = 0;
        let mut line_no = 0;
        while start < data.len() {
            let end = data[start..]
                .iter()
                .position(|c| *c == delim)
                .map(|p| start + p + 1)
                .unwrap_or(data.len());
            let mut line = data[start..end].to_vec();
            start = end;
            line_no += 1;
            if line_no <= skip {
                continue;
            }
            if strip && line.last() == Some(&delim) {
                line.pop();
            }
            // a value ends at a NUL byte (a NUL delimiter is never kept)
            line.truncate(line.iter().position(|c| *c == 0).unwrap_or(line.len()));
            if let Some(cb) = &callback {
                if (n + 1) % quantum == 0 {
                    // bash runs `callback index line` before storing the line
                    let mut code = cb.clone();
                    code.extend_from_slice(format!(" {} ", idx).as_bytes());
                    code.extend_from_slice(&super::quote_q(&line));
                    self.eval_string(&code, self.lineno)?;
                }
            }
            map.insert(idx, line);
            idx += 1;
            n += 1;
            if count > 0 && n >= count {
                break;
            }
        }
        if self.is_readonly(&name) {
            self.readonly_err(&name);
            self.status = 1;
            return Ok(());
        }
        let v = self.vars.entry(&name);
        v.value = Some(crate::state::Value::Arr(map));
        self.status = 0;
        Ok(())
    }
}

impl Shell {
    /// The array `read -a` / `mapfile` fills must be a valid name, not an
    /// associative array; true (after the error, status 1) when it is not.
    fn not_indexed_array(&mut self, cmd: &str, name: &[u8]) -> bool {
        let mut m = Vec::new();
        if !crate::parse::is_name(name) {
            m.push(b'`');
            m.extend_from_slice(name);
            m.extend_from_slice(b"': not a valid identifier");
        } else if self
            .vars
            .get(name)
            .map_or(false, |v| v.attrs & crate::state::A_ASSOC != 0)
        {
            m.extend_from_slice(name);
            m.extend_from_slice(b": not an indexed array");
        } else {
            return false;
        }
        self.berr(cmd, &m);
        self.status = 1;
        true
    }

    /// The fd of `read -u` / `mapfile -u`: None (after the error) unless it
    /// is a number naming an open descriptor.
    fn fd_arg(&mut self, name: &str, val: Option<Bytes>) -> Option<i32> {
        let v = val.unwrap_or_default();
        match crate::bytes::parse_i64(&v).filter(|n| *n >= 0 && *n < i32::MAX as i64) {
            Some(fd) if self.open_fds.contains(&(fd as i32)) => Some(fd as i32),
            Some(_) => {
                let mut m = v;
                m.extend_from_slice(b": invalid file descriptor: Bad file descriptor");
                self.berr(name, &m);
                self.status = 1;
                None
            }
            None => {
                let mut m = v;
                m.extend_from_slice(b": invalid file descriptor specification");
                self.berr(name, &m);
                self.status = 1;
                None
            }
        }
    }
}

/// Split `read` input by IFS into at most `n` fields (the last takes the rest).
fn split_read(s: &[u8], ifs: &[u8], n: usize, raw: bool) -> Vec<Bytes> {
    let is_ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n') && ifs.contains(&c);
    let is_ifs = |c: u8| ifs.contains(&c);
    let mut fields = Vec::new();
    let mut i = 0;
    // leading IFS whitespace
    while i < s.len() && is_ws(s[i]) {
        i += 1;
    }
    if ifs.is_empty() {
        return if s.is_empty() {
            vec![]
        } else {
            vec![s.to_vec()]
        };
    }
    while i < s.len() {
        if fields.len() + 1 == n {
            // the last name (bash's read.def): one more word whose delimiter
            // ends the line is taken alone; else the rest of the line,
            // trailing IFS whitespace removed
            let mut j = i;
            while j < s.len() && !is_ifs(s[j]) {
                if !raw && s[j] == b'\\' && j + 1 < s.len() {
                    j += 1;
                }
                j += 1;
            }
            let word_end = j;
            while j < s.len() && is_ws(s[j]) {
                j += 1;
            }
            if j < s.len() && is_ifs(s[j]) && !is_ws(s[j]) {
                j += 1;
                while j < s.len() && is_ws(s[j]) {
                    j += 1;
                }
            }
            if j >= s.len() {
                fields.push(s[i..word_end].to_vec());
                return fields;
            }
            let mut end = s.len();
            while end > i && is_ws(s[end - 1]) {
                end -= 1;
            }
            fields.push(s[i..end].to_vec());
            return fields;
        }
        let st = i;
        while i < s.len() && !is_ifs(s[i]) {
            if !raw && s[i] == b'\\' && i + 1 < s.len() {
                i += 1;
            }
            i += 1;
        }
        fields.push(s[st..i].to_vec());
        // delimiter: ws* [nonws] ws*
        while i < s.len() && is_ws(s[i]) {
            i += 1;
        }
        if i < s.len() && is_ifs(s[i]) && !is_ws(s[i]) {
            i += 1;
            while i < s.len() && is_ws(s[i]) {
                i += 1;
            }
        }
    }
    fields
}

fn c_exp(v: f64, p: usize, upper: bool) -> String {
    let s = format!("{:.*e}", p, v);
    // Rust gives 1.5e2; C wants 1.5e+02
    let (m, e) = match s.split_once('e') {
        Some(x) => x,
        None => return s,
    };
    let en: i32 = e.parse().unwrap_or(0);
    let r = format!("{}e{}{:02}", m, if en < 0 { '-' } else { '+' }, en.abs());
    if upper {
        r.to_uppercase()
    } else {
        r
    }
}

fn c_general(v: f64, p: usize, upper: bool, alt: bool) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let exp = v.abs().log10().floor() as i32;
    let s = if exp < -4 || exp >= p as i32 {
        let s = c_exp(v, p - 1, upper);
        if alt {
            s
        } else {
            let (m, e) = s
                .split_once(if upper { 'E' } else { 'e' })
                .unwrap_or((&s, ""));
            let m = if m.contains('.') {
                m.trim_end_matches('0').trim_end_matches('.')
            } else {
                m
            };
            format!("{}{}{}", m, if upper { 'E' } else { 'e' }, e)
        }
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{:.*}", decimals, v);
        if alt || !s.contains('.') {
            s
        } else {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_octal_needs_zero() {
        assert_eq!(echo_escapes(b"\\101|\\0101|\\\\1").0, b"\\101|A|\\1");
    }

    #[test]
    fn escapes() {
        assert_eq!(backslash_escapes(b"a\\tb\\n").0, b"a\tb\n");
        assert!(backslash_escapes(b"x\\cy").1);
        assert_eq!(backslash_escapes(b"\\0101").0, b"A");
    }

    #[test]
    fn read_split() {
        let f = split_read(b"  a b  c d ", b" \t\n", 2, true);
        assert_eq!(f, vec![b"a".to_vec(), b"b  c d".to_vec()]);
        let f = split_read(b"a:b:c", b":", 3, true);
        assert_eq!(f.len(), 3);
    }

    #[test]
    fn float_formats() {
        assert_eq!(c_exp(150.0, 2, false), "1.50e+02");
        assert_eq!(c_general(0.0001, 6, false, false), "0.0001");
        assert_eq!(c_general(1234567.0, 6, false, false), "1.23457e+06");
    }
}

/// How `read` stopped taking input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RecordEnd {
    /// The delimiter, or as many characters as asked for.
    Done,
    Eof,
    /// `-t` ran out.
    TimedOut,
}
