//! multipart/form-data bodies, as curl's -F builds them.

use std::fs;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub data: Vec<u8>,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    /// Extra part headers (`;headers=`).
    pub headers: Vec<String>,
}

/// Why a -F argument could not be used: curl's exit code and message.
#[derive(Debug, PartialEq, Eq)]
pub enum FormError {
    /// No `=`: curl says "Illegally formatted input field" (exit 2).
    Syntax,
    /// A file that cannot be read (exit 26).
    Read(String),
}

/// curl's table of types guessed from a file name.
fn type_for(filename: &str) -> &'static str {
    let lower = filename.to_ascii_lowercase();
    const TABLE: [(&str, &str); 10] = [
        (".gif", "image/gif"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".png", "image/png"),
        (".svg", "image/svg+xml"),
        (".txt", "text/plain"),
        (".htm", "text/html"),
        (".html", "text/html"),
        (".pdf", "application/pdf"),
        (".xml", "application/xml"),
    ];
    TABLE
        .iter()
        .find(|(ext, _)| lower.ends_with(ext))
        .map(|(_, t)| *t)
        .unwrap_or("application/octet-stream")
}

/// Split `value;key=v;key=v` into the value and its parameters; a `;`
/// that opens no known parameter stays in the value.
fn split_params(s: &str) -> (String, Vec<(String, String)>) {
    let mut value = String::new();
    let mut params = Vec::new();
    let mut rest = s;
    let mut first = true;
    loop {
        let (piece, next) = match rest.find(';') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let key = piece
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let known = ["type", "filename", "headers"].contains(&key.as_str()) && piece.contains('=');
        if first {
            value.push_str(piece);
        } else if known {
            let v = &piece[piece.find('=').map(|i| i + 1).unwrap_or(piece.len())..];
            params.push((key, v.trim_matches('"').to_string()));
        } else {
            value.push(';');
            value.push_str(piece);
        }
        first = false;
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    (value, params)
}

/// One -F argument (`literal` for --form-string: no @, < or parameters).
pub fn parse(arg: &str, literal: bool, stdin: &mut dyn std::io::Read) -> Result<Part, FormError> {
    let eq = arg.find('=').ok_or(FormError::Syntax)?;
    let name = arg[..eq].to_string();
    let spec = &arg[eq + 1..];
    if literal {
        return Ok(Part {
            name,
            data: spec.as_bytes().to_vec(),
            filename: None,
            content_type: None,
            headers: Vec::new(),
        });
    }
    let (kind, body) = match spec.as_bytes().first() {
        Some(b'@') => ('@', &spec[1..]),
        Some(b'<') => ('<', &spec[1..]),
        _ => ('=', spec),
    };
    let (value, params) = split_params(body);
    let value = value.trim_matches('"').to_string();
    let read = |path: &str, stdin: &mut dyn std::io::Read| -> Result<Vec<u8>, FormError> {
        if path == "-" {
            let mut v = Vec::new();
            stdin
                .read_to_end(&mut v)
                .map_err(|_| FormError::Read(path.to_string()))?;
            Ok(v)
        } else {
            fs::read(path).map_err(|_| FormError::Read(path.to_string()))
        }
    };
    let from_stdin = kind == '@' && value == "-";
    let mut part = Part {
        name,
        data: Vec::new(),
        filename: None,
        content_type: None,
        headers: Vec::new(),
    };
    match kind {
        '@' => {
            part.data = read(&value, stdin)?;
            let base = value.rsplit('/').next().unwrap_or(&value).to_string();
            part.content_type = Some(type_for(&base).to_string());
            part.filename = Some(if value == "-" { String::new() } else { base });
        }
        '<' => part.data = read(&value, stdin)?,
        _ => part.data = value.into_bytes(),
    }
    let mut typed = false;
    for (k, v) in params {
        match k.as_str() {
            "type" => {
                typed = true;
                part.content_type = Some(v);
            }
            "filename" => {
                // Standard input has no name of its own: curl takes the type
                // from the one given.
                if from_stdin && !typed {
                    part.content_type = Some(type_for(&v).to_string());
                }
                part.filename = Some(v);
            }
            _ => part.headers.push(v),
        }
    }
    Ok(part)
}

/// A boundary as curl 7.88 makes them: 24 dashes and 16 hex digits.
pub fn boundary(random: u64) -> String {
    format!("------------------------{:016x}", random)
}

/// The whole body for these parts.
pub fn encode(parts: &[Part], boundary: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        out.extend_from_slice(format!("--{}\r\n", boundary).as_bytes());
        let mut cd = format!("Content-Disposition: form-data; name=\"{}\"", p.name);
        if let Some(f) = &p.filename {
            cd.push_str("; filename=\"");
            cd.push_str(f);
            cd.push('"');
        }
        out.extend_from_slice(cd.as_bytes());
        out.extend_from_slice(b"\r\n");
        if let Some(t) = &p.content_type {
            out.extend_from_slice(format!("Content-Type: {}\r\n", t).as_bytes());
        }
        for h in &p.headers {
            out.extend_from_slice(format!("{}\r\n", h).as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&p.data);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{}--\r\n", boundary).as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_text_and_files() {
        let dir = std::env::temp_dir().join(format!("nettools-mp-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        fs::write(&f, "hello").unwrap();
        let mut none: &[u8] = b"";
        let a = parse("x=1;y", false, &mut none).unwrap();
        assert_eq!(a.data, b"1;y");
        let b = parse(&format!("f=@{};type=text/x", f.display()), false, &mut none).unwrap();
        assert_eq!(b.filename.as_deref(), Some("a.txt"));
        assert_eq!(b.content_type.as_deref(), Some("text/x"));
        let c = parse(&format!("v=<{}", f.display()), false, &mut none).unwrap();
        assert_eq!(
            (c.data.as_slice(), c.filename.as_ref()),
            (&b"hello"[..], None)
        );
        assert_eq!(parse("nope", false, &mut none), Err(FormError::Syntax));
        assert!(matches!(
            parse("f=@/no/such", false, &mut none),
            Err(FormError::Read(_))
        ));
        let body = encode(&[a, b], "B");
        assert_eq!(
            String::from_utf8(body).unwrap(),
            "--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1;y\r\n\
             --B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\
             Content-Type: text/x\r\n\r\nhello\r\n--B--\r\n"
        );
        assert_eq!(boundary(0xabc).len(), 40);
        let _ = fs::remove_dir_all(dir);
    }
}
