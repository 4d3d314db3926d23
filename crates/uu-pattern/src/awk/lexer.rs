//! awk tokenizer. Whether `/` starts a regex or divides depends on the
//! previous token, so the lexer tracks it.

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Str(Vec<u8>),
    Regex(Vec<u8>),
    Name(String),
    /// A user function name directly followed by `(`.
    FuncName(String),
    Builtin(String),
    Kw(&'static str),
    Op(&'static str),
    Newline,
    Eof,
}

const KEYWORDS: &[&str] = &[
    "BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break", "continue",
    "next", "nextfile", "exit", "return", "delete", "in", "getline", "print", "printf",
];

const BUILTINS: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2",
    "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system", "close",
    "fflush", "gensub", "systime", "strftime",
];

const OPS: &[&str] = &[
    "**=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=",
    "!~", ">>", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!",
    ">", "<", "|", "?", ":", "~", "$", "=",
];

/// A token with the line it started on.
#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

/// Tokenize a whole program.
pub fn lex(src: &[u8]) -> Result<Vec<Token>, (usize, String)> {
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < src.len() {
        let c = src[i];
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if c == b'\\' && i + 1 < src.len() && src[i + 1] == b'\n' {
            i += 2;
            line += 1;
            continue;
        }
        if c == b'\\' && i + 2 < src.len() && src[i + 1] == b'\r' && src[i + 2] == b'\n' {
            i += 3;
            line += 1;
            continue;
        }
        if c == b'#' {
            while i < src.len() && src[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'\n' {
            out.push(Token {
                tok: Tok::Newline,
                line,
            });
            line += 1;
            i += 1;
            continue;
        }
        if c == b'"' {
            i += 1;
            let mut s = Vec::new();
            loop {
                if i >= src.len() || src[i] == b'\n' {
                    return Err((line, "unterminated string".into()));
                }
                let ch = src[i];
                i += 1;
                if ch == b'"' {
                    break;
                }
                if ch == b'\\' && i < src.len() {
                    let e = src[i];
                    i += 1;
                    match e {
                        b'n' => s.push(b'\n'),
                        b't' => s.push(b'\t'),
                        b'r' => s.push(b'\r'),
                        b'\\' => s.push(b'\\'),
                        b'"' => s.push(b'"'),
                        b'/' => s.push(b'/'),
                        b'a' => s.push(7),
                        b'b' => s.push(8),
                        b'f' => s.push(12),
                        b'v' => s.push(11),
                        b'\n' => line += 1,
                        b'0'..=b'7' => {
                            let mut v = (e - b'0') as u32;
                            let mut k = 1;
                            while k < 3 && i < src.len() && (b'0'..=b'7').contains(&src[i]) {
                                v = v * 8 + (src[i] - b'0') as u32;
                                i += 1;
                                k += 1;
                            }
                            s.push(v as u8);
                        }
                        _ => {
                            s.push(b'\\');
                            s.push(e);
                        }
                    }
                    continue;
                }
                s.push(ch);
            }
            out.push(Token {
                tok: Tok::Str(s),
                line,
            });
            continue;
        }
        if c == b'/' && regex_allowed(out.last().map(|t| &t.tok)) {
            i += 1;
            let mut s = Vec::new();
            let mut in_br = false;
            loop {
                if i >= src.len() || src[i] == b'\n' {
                    return Err((line, "unterminated regexp".into()));
                }
                let ch = src[i];
                i += 1;
                if ch == b'/' && !in_br {
                    break;
                }
                if ch == b'[' && !in_br {
                    in_br = true;
                    s.push(ch);
                    if i < src.len() && src[i] == b'^' {
                        s.push(b'^');
                        i += 1;
                    }
                    if i < src.len() && src[i] == b']' {
                        s.push(b']');
                        i += 1;
                    }
                    continue;
                }
                if ch == b']' && in_br {
                    in_br = false;
                }
                if ch == b'\\' && i < src.len() {
                    if src[i] == b'/' {
                        s.push(b'/');
                    } else {
                        s.push(b'\\');
                        s.push(src[i]);
                    }
                    i += 1;
                    continue;
                }
                s.push(ch);
            }
            out.push(Token {
                tok: Tok::Regex(s),
                line,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < src.len() && src[i + 1].is_ascii_digit()) {
            let s = i;
            if c == b'0' && i + 1 < src.len() && (src[i + 1] == b'x' || src[i + 1] == b'X') {
                let mut j = i + 2;
                while j < src.len() && src[j].is_ascii_hexdigit() {
                    j += 1;
                }
                if j > i + 2 {
                    let v =
                        u64::from_str_radix(std::str::from_utf8(&src[i + 2..j]).unwrap_or("0"), 16)
                            .unwrap_or(0);
                    out.push(Token {
                        tok: Tok::Num(v as f64),
                        line,
                    });
                    i = j;
                    continue;
                }
            }
            while i < src.len() && src[i].is_ascii_digit() {
                i += 1;
            }
            if i < src.len() && src[i] == b'.' {
                i += 1;
                while i < src.len() && src[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < src.len() && (src[i] == b'e' || src[i] == b'E') {
                let mut j = i + 1;
                if j < src.len() && (src[j] == b'+' || src[j] == b'-') {
                    j += 1;
                }
                if j < src.len() && src[j].is_ascii_digit() {
                    while j < src.len() && src[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            let text = std::str::from_utf8(&src[s..i]).unwrap_or("0");
            out.push(Token {
                tok: Tok::Num(text.parse().unwrap_or(0.0)),
                line,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < src.len() && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                i += 1;
            }
            let w = String::from_utf8_lossy(&src[s..i]).into_owned();
            let tok = if let Some(k) = KEYWORDS.iter().find(|k| **k == w) {
                Tok::Kw(if *k == "func" { "function" } else { k })
            } else if BUILTINS.contains(&w.as_str()) {
                Tok::Builtin(w)
            } else if i < src.len() && src[i] == b'(' {
                Tok::FuncName(w)
            } else {
                Tok::Name(w)
            };
            out.push(Token { tok, line });
            continue;
        }
        let rest = &src[i..];
        match OPS.iter().find(|o| rest.starts_with(o.as_bytes())) {
            Some(o) => {
                out.push(Token {
                    tok: Tok::Op(o),
                    line,
                });
                i += o.len();
            }
            None => {
                return Err((line, format!("invalid char '{}' in expression", c as char)));
            }
        }
    }
    out.push(Token {
        tok: Tok::Newline,
        line,
    });
    out.push(Token {
        tok: Tok::Eof,
        line,
    });
    Ok(out)
}

fn regex_allowed(prev: Option<&Tok>) -> bool {
    match prev {
        None => true,
        Some(Tok::Num(_)) | Some(Tok::Str(_)) | Some(Tok::Name(_)) | Some(Tok::Regex(_)) => false,
        Some(Tok::Builtin(_)) => false,
        Some(Tok::Op(o)) => !matches!(*o, ")" | "]" | "$" | "++" | "--"),
        Some(Tok::Kw(k)) => *k != "getline",
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn regex_vs_division() {
        let t = lex(b"a / 2 / 3; /x\\/y/").unwrap();
        let kinds: Vec<_> = t.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(kinds[1], Tok::Op("/"));
        assert!(kinds.contains(&Tok::Regex(b"x/y".to_vec())));
    }
    #[test]
    fn strings_and_numbers() {
        let t = lex(b"\"a\\tb\" 1.5e2 0x10 f(").unwrap();
        assert_eq!(t[0].tok, Tok::Str(b"a\tb".to_vec()));
        assert_eq!(t[1].tok, Tok::Num(150.0));
        assert_eq!(t[2].tok, Tok::Num(16.0));
        assert_eq!(t[3].tok, Tok::FuncName("f".into()));
    }
}
