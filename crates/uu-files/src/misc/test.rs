//! `test EXPR` and `[ EXPR ]`: POSIX's argument-count rules for up to
//! four arguments, then `!`, `-a`, `-o` and parentheses with the usual
//! precedence; GNU's diagnostics and status 2 for errors.

use coreutils_core::bytes::os_bytes;
use coreutils_core::meta;
use coreutils_core::quote::quote_bytes;
use std::ffi::OsString;
use std::path::Path;

/// A syntax or value error: the message after `test: `.
type TResult<T> = Result<T, String>;

struct Parser<'a> {
    args: &'a [&'a [u8]],
    pos: usize,
}

fn q(s: &[u8]) -> String {
    quote_bytes(s, true)
}

fn is_binop(s: &[u8]) -> bool {
    matches!(
        s,
        b"=" | b"=="
            | b"!="
            | b"-eq"
            | b"-ne"
            | b"-lt"
            | b"-le"
            | b"-gt"
            | b"-ge"
            | b"-nt"
            | b"-ot"
            | b"-ef"
    )
}

fn is_unop(s: &[u8]) -> bool {
    s.len() == 2 && s[0] == b'-' && b"bcdefgGhkLnNOprsStuwxz".contains(&s[1])
}

fn int(s: &[u8]) -> TResult<i128> {
    let t = String::from_utf8_lossy(s);
    let t = t.trim_start_matches([' ', '\t']);
    let t2 = t.trim_end_matches([' ', '\t']);
    let body = t2.strip_prefix('+').unwrap_or(t2);
    let digits = body.strip_prefix('-').unwrap_or(body);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("invalid integer {}", q(s)));
    }
    body.parse::<i128>()
        .map_err(|_| format!("invalid integer {}", q(s)))
}

fn mtime(p: &[u8]) -> Option<std::time::SystemTime> {
    coreutils_core::fs::metadata(Path::new(&coreutils_core::bytes::os_from_bytes(p)))
        .and_then(|m| m.modified())
        .ok()
}

fn binary(a: &[u8], op: &[u8], b: &[u8]) -> TResult<bool> {
    Ok(match op {
        b"=" | b"==" => a == b,
        b"!=" => a != b,
        b"-eq" => int(a)? == int(b)?,
        b"-ne" => int(a)? != int(b)?,
        b"-lt" => int(a)? < int(b)?,
        b"-le" => int(a)? <= int(b)?,
        b"-gt" => int(a)? > int(b)?,
        b"-ge" => int(a)? >= int(b)?,
        b"-nt" => match (mtime(a), mtime(b)) {
            (Some(x), Some(y)) => x > y,
            (Some(_), None) => true,
            _ => false,
        },
        b"-ot" => match (mtime(a), mtime(b)) {
            (Some(x), Some(y)) => x < y,
            (None, Some(_)) => true,
            _ => false,
        },
        _ => {
            let pa = Path::new(std::ffi::OsStr::new(&coreutils_core::bytes::os_from_bytes(
                a,
            )))
            .to_path_buf();
            let pb = Path::new(std::ffi::OsStr::new(&coreutils_core::bytes::os_from_bytes(
                b,
            )))
            .to_path_buf();
            meta::same_file(&pa, &pb)
        }
    })
}

fn unary(op: u8, arg: &[u8]) -> TResult<bool> {
    use coreutils_core::meta::*;
    let path = coreutils_core::bytes::path_from_bytes(arg);
    let st = |follow: bool| meta::stat_ext(&path, follow).ok();
    Ok(match op {
        b'n' => !arg.is_empty(),
        b'z' => arg.is_empty(),
        b'e' => coreutils_core::fs::metadata(&path).is_ok(),
        b'f' => coreutils_core::fs::metadata(&path)
            .map(|m| m.is_file())
            .unwrap_or(false),
        b'd' => coreutils_core::fs::metadata(&path)
            .map(|m| m.is_dir())
            .unwrap_or(false),
        b'h' | b'L' => coreutils_core::fs::symlink_metadata(&path)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false),
        b's' => coreutils_core::fs::metadata(&path)
            .map(|m| m.len() > 0)
            .unwrap_or(false),
        b'r' => meta::access(&path, R_OK).is_ok(),
        b'w' => meta::access(&path, W_OK).is_ok(),
        b'x' => meta::access(&path, X_OK).is_ok(),
        b'b' => st(true).map_or(false, |s| s.mode & S_IFMT == S_IFBLK),
        b'c' => st(true).map_or(false, |s| s.mode & S_IFMT == S_IFCHR),
        b'p' => st(true).map_or(false, |s| s.mode & S_IFMT == S_IFIFO),
        b'S' => st(true).map_or(false, |s| s.mode & S_IFMT == S_IFSOCK),
        b'u' => st(true).map_or(false, |s| s.mode & 0o4000 != 0),
        b'g' => st(true).map_or(false, |s| s.mode & 0o2000 != 0),
        b'k' => st(true).map_or(false, |s| s.mode & 0o1000 != 0),
        b'O' => st(true).map_or(false, |s| meta::ids().map_or(false, |i| i.euid == s.uid)),
        b'G' => st(true).map_or(false, |s| meta::ids().map_or(false, |i| i.egid == s.gid)),
        b'N' => coreutils_core::fs::metadata(&path).map_or(false, |m| {
            match (m.modified(), m.accessed()) {
                (Ok(a), Ok(b)) => a > b,
                _ => false,
            }
        }),
        b't' => {
            let fd = int(arg)?;
            (0..=2).contains(&fd) && coreutils_core::tty::isatty(fd as u32)
        }
        _ => false,
    })
}

impl<'a> Parser<'a> {
    fn beyond(&self) -> String {
        format!(
            "missing argument after {}",
            q(self.args[self.args.len() - 1])
        )
    }

    fn posix(&mut self, n: usize) -> TResult<bool> {
        let a = &self.args[self.pos..self.pos + n];
        match n {
            0 => Ok(false),
            1 => {
                self.pos += 1;
                Ok(!a[0].is_empty())
            }
            2 => {
                if a[0] == b"!" {
                    self.pos += 2;
                    return Ok(a[1].is_empty());
                }
                if is_unop(a[0]) {
                    self.pos += 2;
                    return unary(a[0][1], a[1]);
                }
                Err(self.beyond())
            }
            3 => {
                if is_binop(a[1]) {
                    self.pos += 3;
                    return binary(a[0], a[1], a[2]);
                }
                if a[1] == b"-a" || a[1] == b"-o" {
                    self.pos += 3;
                    let (x, y) = (!a[0].is_empty(), !a[2].is_empty());
                    return Ok(if a[1] == b"-a" { x && y } else { x || y });
                }
                if a[0] == b"!" {
                    self.pos += 1;
                    return Ok(!self.posix(2)?);
                }
                if a[0] == b"(" && a[2] == b")" {
                    self.pos += 3;
                    return Ok(!a[1].is_empty());
                }
                Err(format!("{}: binary operator expected", q(a[1])))
            }
            _ => {
                if a[0] == b"!" {
                    self.pos += 1;
                    return Ok(!self.posix(3)?);
                }
                if a[0] == b"(" && a[3] == b")" {
                    self.pos += 1;
                    let v = self.posix(2)?;
                    self.pos += 1;
                    return Ok(v);
                }
                self.expr()
            }
        }
    }

    fn expr(&mut self) -> TResult<bool> {
        let mut v = self.and()?;
        while self.pos < self.args.len() && self.args[self.pos] == b"-o" {
            self.pos += 1;
            let r = self.and()?;
            v = v || r;
        }
        Ok(v)
    }

    fn and(&mut self) -> TResult<bool> {
        let mut v = self.term()?;
        while self.pos < self.args.len() && self.args[self.pos] == b"-a" {
            self.pos += 1;
            let r = self.term()?;
            v = v && r;
        }
        Ok(v)
    }

    fn term(&mut self) -> TResult<bool> {
        let n = self.args.len();
        if self.pos >= n {
            return Err(self.beyond());
        }
        let a = self.args[self.pos];
        if a == b"!" {
            self.pos += 1;
            return Ok(!self.term()?);
        }
        if a == b"(" {
            self.pos += 1;
            if self.pos >= n {
                return Err(self.beyond());
            }
            let v = self.expr()?;
            if self.pos >= n {
                return Err("')' expected".to_string());
            }
            if self.args[self.pos] != b")" {
                return Err(format!("')' expected, found {}", q(self.args[self.pos])));
            }
            self.pos += 1;
            return Ok(v);
        }
        if self.pos + 2 < n && is_binop(self.args[self.pos + 1]) {
            let r = binary(a, self.args[self.pos + 1], self.args[self.pos + 2]);
            self.pos += 3;
            return r;
        }
        if is_unop(a) {
            if self.pos + 1 >= n {
                return Err(self.beyond());
            }
            let r = unary(a[1], self.args[self.pos + 1]);
            self.pos += 2;
            return r;
        }
        self.pos += 1;
        Ok(!a.is_empty())
    }
}

/// Evaluate a test expression.
pub fn evaluate(args: &[&[u8]]) -> TResult<bool> {
    let mut p = Parser { args, pos: 0 };
    let v = if args.len() <= 4 {
        p.posix(args.len())?
    } else {
        p.expr()?
    };
    if p.pos < args.len() {
        return Err(format!("extra argument {}", q(args[p.pos])));
    }
    Ok(v)
}

fn run(prog: &str, args: &[&[u8]]) -> i32 {
    match evaluate(args) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(m) => {
            eprintln!("{}: {}", coreutils_core::prog(prog), m);
            2
        }
    }
}

/// `test`.
pub fn main_test(args: Vec<OsString>) -> i32 {
    let a: Vec<&[u8]> = args.iter().skip(1).map(|s| os_bytes(s)).collect();
    run("test", &a)
}

/// `[`: like `test` but the last argument must be `]`.
pub fn main_bracket(args: Vec<OsString>) -> i32 {
    let a: Vec<&[u8]> = args.iter().skip(1).map(|s| os_bytes(s)).collect();
    if a.len() == 1 && a[0] == b"--help" {
        println!("Usage: test EXPRESSION\n  or:  [ EXPRESSION ]\nExit with the status determined by EXPRESSION.");
        return 0;
    }
    if a.len() == 1 && a[0] == b"--version" {
        println!("[ (Sandglass coreutils) {}", env!("CARGO_PKG_VERSION"));
        return 0;
    }
    match a.last() {
        Some(&l) if l == b"]" => run("[", &a[..a.len() - 1]),
        _ => {
            eprintln!("{}: missing ']'", coreutils_core::prog("["));
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::evaluate;
    fn t(s: &str) -> Result<bool, String> {
        let v: Vec<&[u8]> = s
            .split(' ')
            .filter(|x| !x.is_empty())
            .map(|x| x.as_bytes())
            .collect();
        evaluate(&v)
    }
    #[test]
    fn posix_rules() {
        assert_eq!(t(""), Ok(false));
        assert_eq!(t("-n"), Ok(true));
        assert_eq!(t("! -n"), Ok(false));
        assert_eq!(t("1 -lt 2"), Ok(true));
        assert_eq!(t("a = a -a b != b"), Ok(false));
        assert_eq!(t("a = a -o b != b"), Ok(true));
        assert_eq!(t("! ( a = b ) -a x"), Ok(true));
        assert_eq!(t("x -eq 1"), Err("invalid integer 'x'".into()));
        assert_eq!(t("a b c"), Err("'b': binary operator expected".into()));
        assert_eq!(t("a = b c"), Err("extra argument 'c'".into()));
    }
}
