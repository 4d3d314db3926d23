//! jq values: the JSON data model with jq's total order, a fast JSON
//! parser for input streams and the serializer (jq 1.6/1.7 number format).

use indexmap::IndexMap;
use std::cmp::Ordering;
use std::rc::Rc;

/// An object: keys in insertion order, as jq prints them.
pub type Map = IndexMap<Rc<str>, Value>;

/// A jq value. Containers are shared (`Rc`) and copied on write.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// Every number is a double, as in jq.
    Num(f64),
    /// A string (always valid UTF-8; invalid input bytes become U+FFFD).
    Str(Rc<str>),
    /// An array.
    Arr(Rc<Vec<Value>>),
    /// An object.
    Obj(Rc<Map>),
}

impl Value {
    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }
    /// An array value.
    pub fn arr(v: Vec<Value>) -> Value {
        Value::Arr(Rc::new(v))
    }
    /// An object value.
    pub fn obj(m: Map) -> Value {
        Value::Obj(Rc::new(m))
    }
    /// jq's type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Arr(_) => "array",
            Value::Obj(_) => "object",
        }
    }
    /// jq truthiness: everything but `null` and `false`.
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Null | Value::Bool(false))
    }
    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Bool(false) => 1,
            Value::Bool(true) => 2,
            Value::Num(_) => 3,
            Value::Str(_) => 4,
            Value::Arr(_) => 5,
            Value::Obj(_) => 6,
        }
    }
    /// The compact JSON text.
    pub fn to_json(&self) -> String {
        let mut s = Vec::new();
        write_value(&mut s, self, &Fmt::compact());
        String::from_utf8(s).unwrap_or_default()
    }
}

/// jq's total order over values.
pub fn compare(a: &Value, b: &Value) -> Ordering {
    let (ra, rb) = (a.rank(), b.rank());
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.partial_cmp(y).unwrap_or_else(|| {
            // jq sorts nan below every number.
            if x.is_nan() && !y.is_nan() {
                Ordering::Less
            } else if !x.is_nan() && y.is_nan() {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }),
        (Value::Str(x), Value::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Arr(x), Value::Arr(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                let o = compare(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Obj(x), Value::Obj(y)) => {
            let mut kx: Vec<&Rc<str>> = x.keys().collect();
            let mut ky: Vec<&Rc<str>> = y.keys().collect();
            kx.sort();
            ky.sort();
            for (p, q) in kx.iter().zip(ky.iter()) {
                let o = p.as_bytes().cmp(q.as_bytes());
                if o != Ordering::Equal {
                    return o;
                }
            }
            let o = kx.len().cmp(&ky.len());
            if o != Ordering::Equal {
                return o;
            }
            for k in kx {
                let o = compare(&x[k], &y[k]);
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        }
        _ => Ordering::Equal,
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        compare(self, other) == Ordering::Equal
    }
}

/// Output settings.
#[derive(Clone)]
pub struct Fmt {
    /// Indentation unit; empty means compact.
    pub indent: Vec<u8>,
    /// Escape non-ASCII as `\uXXXX`.
    pub ascii: bool,
    /// Sort object keys.
    pub sort_keys: bool,
}

impl Fmt {
    /// Compact, unsorted, UTF-8.
    pub fn compact() -> Fmt {
        Fmt {
            indent: Vec::new(),
            ascii: false,
            sort_keys: false,
        }
    }
}

/// Format a number like jq 1.6: shortest round-trip digits, exponent form
/// when the decimal point is far from the digits, nan as null.
pub fn fmt_num(out: &mut Vec<u8>, n: f64) {
    if n.is_nan() {
        out.extend_from_slice(b"null");
        return;
    }
    let n = if n.is_infinite() {
        if n > 0.0 {
            f64::MAX
        } else {
            -f64::MAX
        }
    } else {
        n
    };
    if n == n.trunc() && n.abs() < 1e16 {
        if n == 0.0 && n.is_sign_negative() {
            out.extend_from_slice(b"-0");
        } else {
            out.extend_from_slice((n as i64).to_string().as_bytes());
        }
        return;
    }
    let e = format!("{:e}", n);
    let (mant, exp) = match e.split_once('e') {
        Some(p) => p,
        None => {
            out.extend_from_slice(e.as_bytes());
            return;
        }
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let nd = digits.len() as i32;
    let decpt = exp + 1;
    if neg {
        out.push(b'-');
    }
    if decpt <= -4 || decpt > nd + 15 {
        out.push(digits.as_bytes()[0]);
        if nd > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits.as_bytes()[1..]);
        }
        out.push(b'e');
        let x = decpt - 1;
        out.push(if x < 0 { b'-' } else { b'+' });
        let xs = format!("{:02}", x.abs());
        out.extend_from_slice(xs.as_bytes());
    } else if decpt <= 0 {
        out.extend_from_slice(b"0.");
        for _ in 0..(-decpt) {
            out.push(b'0');
        }
        out.extend_from_slice(digits.as_bytes());
    } else if decpt >= nd {
        out.extend_from_slice(digits.as_bytes());
        for _ in 0..(decpt - nd) {
            out.push(b'0');
        }
    } else {
        out.extend_from_slice(&digits.as_bytes()[..decpt as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits.as_bytes()[decpt as usize..]);
    }
}

/// Write a JSON string literal.
pub fn write_str(out: &mut Vec<u8>, s: &str, ascii: bool) {
    out.push(b'"');
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: Option<&[u8]> = match c {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\t' => Some(b"\\t"),
            b'\r' => Some(b"\\r"),
            8 => Some(b"\\b"),
            12 => Some(b"\\f"),
            _ => None,
        };
        if let Some(e) = esc {
            out.extend_from_slice(&b[start..i]);
            out.extend_from_slice(e);
            start = i + 1;
        } else if c < 0x20 || c == 0x7f {
            out.extend_from_slice(&b[start..i]);
            out.extend_from_slice(format!("\\u{:04x}", c).as_bytes());
            start = i + 1;
        } else if ascii && c >= 0x80 {
            out.extend_from_slice(&b[start..i]);
            start = i + 1;
            if c & 0xc0 == 0x80 {
                continue;
            }
            // Start of a multibyte char: decode it from the str.
            if let Some(ch) = s[i..].chars().next() {
                let mut buf = [0u16; 2];
                for u in ch.encode_utf16(&mut buf) {
                    out.extend_from_slice(format!("\\u{:04x}", u).as_bytes());
                }
            }
        }
    }
    if ascii {
        // Skip trailing continuation bytes already emitted as escapes.
        let tail = &b[start..];
        let skip = tail.iter().take_while(|&&c| c & 0xc0 == 0x80).count();
        out.extend_from_slice(&tail[skip..]);
    } else {
        out.extend_from_slice(&b[start..]);
    }
    out.push(b'"');
}

fn newline(out: &mut Vec<u8>, fmt: &Fmt, depth: usize) {
    out.push(b'\n');
    for _ in 0..depth {
        out.extend_from_slice(&fmt.indent);
    }
}

fn write_rec(out: &mut Vec<u8>, v: &Value, fmt: &Fmt, depth: usize) {
    let pretty = !fmt.indent.is_empty();
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Num(n) => fmt_num(out, *n),
        Value::Str(s) => write_str(out, s, fmt.ascii),
        Value::Arr(a) => {
            if a.is_empty() {
                out.extend_from_slice(b"[]");
                return;
            }
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if pretty {
                    newline(out, fmt, depth + 1);
                }
                write_rec(out, x, fmt, depth + 1);
            }
            if pretty {
                newline(out, fmt, depth);
            }
            out.push(b']');
        }
        Value::Obj(m) => {
            if m.is_empty() {
                out.extend_from_slice(b"{}");
                return;
            }
            out.push(b'{');
            let mut entries: Vec<(&Rc<str>, &Value)> = m.iter().collect();
            if fmt.sort_keys {
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            }
            for (i, (k, x)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if pretty {
                    newline(out, fmt, depth + 1);
                }
                write_str(out, k, fmt.ascii);
                out.push(b':');
                if pretty {
                    out.push(b' ');
                }
                write_rec(out, x, fmt, depth + 1);
            }
            if pretty {
                newline(out, fmt, depth);
            }
            out.push(b'}');
        }
    }
}

/// Serialize `v` with `fmt`.
pub fn write_value(out: &mut Vec<u8>, v: &Value, fmt: &Fmt) {
    write_rec(out, v, fmt, 0);
}

/// A JSON text parser over a byte buffer; parses a stream of values.
pub struct Parser<'a> {
    b: &'a [u8],
    /// Current offset.
    pub pos: usize,
    depth: usize,
    /// Recently parsed short strings (keys above all), shared instead of
    /// allocated again: a document of many like objects repeats them.
    short: Vec<Option<Rc<str>>>,
}

/// Strings up to this many bytes go through `Parser::short`.
const SHORT_MAX: usize = 24;
const SHORT_SLOTS: usize = 256;

/// A parse failure with jq's wording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Message, e.g. `Invalid numeric literal`.
    pub msg: String,
    /// Byte offset where it was detected.
    pub pos: usize,
}

impl<'a> Parser<'a> {
    /// A parser over `b`.
    pub fn new(b: &'a [u8]) -> Parser<'a> {
        Parser {
            b,
            pos: 0,
            depth: 0,
            short: Vec::new(),
        }
    }

    /// The string for escape-free bytes `raw`, shared with an earlier equal one when cached.
    fn plain_string(&mut self, raw: &[u8]) -> Rc<str> {
        if raw.len() > SHORT_MAX {
            return Rc::from(String::from_utf8_lossy(raw).as_ref());
        }
        // FNV-1a picks the slot.
        let mut h: u32 = 0x811c_9dc5;
        for &c in raw {
            h = (h ^ u32::from(c)).wrapping_mul(0x0100_0193);
        }
        if self.short.is_empty() {
            self.short.resize(SHORT_SLOTS, None);
        }
        let slot = &mut self.short[h as usize % SHORT_SLOTS];
        if let Some(s) = slot {
            // Only valid UTF-8 can hit: a lossy string's bytes differ from its input.
            if s.as_bytes() == raw {
                return s.clone();
            }
        }
        let s: Rc<str> = Rc::from(String::from_utf8_lossy(raw).as_ref());
        *slot = Some(s.clone());
        s
    }

    fn ws(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\n' | b'\t' | b'\r') {
            self.pos += 1;
        }
    }

    /// jq's text for a parse error of this input: the message with the
    /// line and column (and `at EOF` when the input ran out).
    pub fn describe(&self, e: &ParseError) -> String {
        let at_eof = e.pos >= self.b.len();
        let (l, c) = self.line_col(if at_eof { self.b.len() } else { e.pos + 1 });
        if at_eof {
            format!("{} at EOF at line {}, column {}", e.msg, l, c)
        } else {
            format!("{} at line {}, column {}", e.msg, l, c)
        }
    }

    /// Line and column (jq style) of a byte offset.
    pub fn line_col(&self, pos: usize) -> (usize, usize) {
        let upto = &self.b[..pos.min(self.b.len())];
        let line = upto.iter().filter(|&&c| c == b'\n').count() + 1;
        let col = match upto.iter().rposition(|&c| c == b'\n') {
            Some(i) => upto.len() - i - 1,
            None => upto.len(),
        };
        (line, col)
    }

    fn err<T>(&self, msg: &str) -> Result<T, ParseError> {
        Err(ParseError {
            msg: msg.to_string(),
            pos: self.pos,
        })
    }

    /// The next value of the stream, or `None` at the end.
    pub fn next_value(&mut self) -> Result<Option<Value>, ParseError> {
        self.ws();
        if self.pos >= self.b.len() {
            return Ok(None);
        }
        let v = self.value()?;
        Ok(Some(v))
    }

    /// Parse exactly one value with nothing but whitespace after it.
    pub fn single(b: &[u8]) -> Result<Value, ParseError> {
        let mut p = Parser::new(b);
        let v = match p.next_value()? {
            Some(v) => v,
            None => return p.err("Expected JSON value"),
        };
        p.ws();
        if p.pos < p.b.len() {
            return p.err("Unexpected extra JSON values");
        }
        Ok(v)
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        self.ws();
        let c = match self.b.get(self.pos) {
            Some(&c) => c,
            None => return self.err("Unfinished JSON term"),
        };
        match c {
            b'{' => {
                self.depth += 1;
                if self.depth > 10000 {
                    return self.err("Exceeds depth limit for parsing");
                }
                self.pos += 1;
                let mut m = Map::new();
                self.ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(Value::obj(m));
                }
                loop {
                    self.ws();
                    if self.b.get(self.pos) == Some(&b',') {
                        // jq's tokenizer sees a separator with no value before it.
                        return self.err("Expected value before ','");
                    }
                    if self.b.get(self.pos) != Some(&b'"') {
                        return self.err("Object keys must be strings");
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.pos) != Some(&b':') {
                        return self.err("Objects must consist of key:value pairs");
                    }
                    self.pos += 1;
                    let v = self.value()?;
                    m.insert(k, v);
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        None => return self.err("Unfinished JSON term"),
                        _ => return self.err("Expected separator between values"),
                    }
                }
                self.depth -= 1;
                Ok(Value::obj(m))
            }
            b'[' => {
                self.depth += 1;
                if self.depth > 10000 {
                    return self.err("Exceeds depth limit for parsing");
                }
                self.pos += 1;
                let mut v = Vec::new();
                self.ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(Value::arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        None => return self.err("Unfinished JSON term"),
                        _ => return self.err("Expected separator between values"),
                    }
                }
                self.depth -= 1;
                Ok(Value::arr(v))
            }
            b'"' => Ok(Value::Str(self.string()?)),
            b'-' | b'0'..=b'9' => self.number(),
            _ => {
                let start = self.pos;
                while self.pos < self.b.len() && self.b[self.pos].is_ascii_alphanumeric() {
                    self.pos += 1;
                }
                match &self.b[start..self.pos] {
                    b"null" => Ok(Value::Null),
                    b"true" => Ok(Value::Bool(true)),
                    b"false" => Ok(Value::Bool(false)),
                    b"nan" | b"NaN" => Ok(Value::Num(f64::NAN)),
                    b"" => {
                        self.pos += 1;
                        self.err("Invalid numeric literal")
                    }
                    _ => self.err("Invalid numeric literal"),
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        while self.pos < self.b.len()
            && matches!(
                self.b[self.pos],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.pos += 1;
        }
        let s = std::str::from_utf8(&self.b[start..self.pos]).unwrap_or("");
        match s.parse::<f64>() {
            Ok(n) => Ok(Value::Num(n)),
            Err(_) => self.err("Invalid numeric literal"),
        }
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        if self.pos + 4 > self.b.len() {
            return self.err("Invalid escape");
        }
        let h = std::str::from_utf8(&self.b[self.pos..self.pos + 4]).unwrap_or("x");
        let v = u32::from_str_radix(h, 16).or_else(|_| self.err("Invalid escape"))?;
        self.pos += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<Rc<str>, ParseError> {
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escapes.
        while self.pos < self.b.len() {
            let c = self.b[self.pos];
            if c == b'"' {
                let s = self.plain_string(&self.b[start..self.pos]);
                self.pos += 1;
                return Ok(s);
            }
            if c == b'\\' {
                break;
            }
            self.pos += 1;
        }
        let mut buf: Vec<u8> = self.b[start..self.pos].to_vec();
        loop {
            let c = match self.b.get(self.pos) {
                Some(&c) => c,
                None => return self.err("Unfinished string"),
            };
            self.pos += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = match self.b.get(self.pos) {
                        Some(&e) => e,
                        None => return self.err("Unfinished string"),
                    };
                    self.pos += 1;
                    match e {
                        b'n' => buf.push(b'\n'),
                        b't' => buf.push(b'\t'),
                        b'r' => buf.push(b'\r'),
                        b'b' => buf.push(8),
                        b'f' => buf.push(12),
                        b'/' => buf.push(b'/'),
                        b'\\' => buf.push(b'\\'),
                        b'"' => buf.push(b'"'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xd800..0xdc00).contains(&cp)
                                && self.b.get(self.pos) == Some(&b'\\')
                                && self.b.get(self.pos + 1) == Some(&b'u')
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                } else {
                                    self.pos = save;
                                }
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            let mut tmp = [0u8; 4];
                            buf.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                        }
                        _ => return self.err("Invalid escape"),
                    }
                }
                _ => buf.push(c),
            }
        }
        Ok(Rc::from(String::from_utf8_lossy(&buf).as_ref()))
    }
}

#[cfg(test)]
mod short_string_tests {
    use super::*;

    #[test]
    fn repeated_short_strings_are_shared_and_exact() {
        let mut p = Parser::new(b"");
        let a = p.plain_string(b"score");
        let b = p.plain_string(b"score");
        assert!(Rc::ptr_eq(&a, &b));
        assert_eq!(&*p.plain_string(b"scorf"), "scorf");
        let bad = p.plain_string(b"a\xffb");
        assert_eq!(&*bad, "a\u{fffd}b");
        assert_eq!(&*p.plain_string(b"a\xffb"), "a\u{fffd}b");
        let long = [b'x'; 40];
        assert_eq!(p.plain_string(&long).len(), 40);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: f64) -> String {
        let mut v = Vec::new();
        fmt_num(&mut v, n);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn numbers_format_like_jq() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(num(1e17), "1e+17");
        assert_eq!(num(1e-5), "1e-05");
        assert_eq!(num(0.0001), "0.0001");
        assert_eq!(num(f64::INFINITY), "1.7976931348623157e+308");
        assert_eq!(num(123456789012345678.0), "123456789012345680");
        assert_eq!(num(1e15 + 0.5), "1000000000000000.5");
        assert_eq!(num(-2.5), "-2.5");
    }

    #[test]
    fn parses_and_prints() {
        let v = Parser::single(br#"{"b":[1,2.5,"x\u00e9\n"],"a":null}"#).unwrap();
        assert_eq!(v.to_json(), r#"{"b":[1,2.5,"xé\n"],"a":null}"#);
        assert!(Parser::single(b"{a:1}").is_err());
        assert!(Parser::single(b"[1,]").is_err());
    }

    #[test]
    fn orders_like_jq() {
        let a = Parser::single(b"[null,false,true,0,\"a\",[],{}]").unwrap();
        if let Value::Arr(a) = a {
            for w in a.windows(2) {
                assert_eq!(compare(&w[0], &w[1]), Ordering::Less);
            }
        }
    }
}
