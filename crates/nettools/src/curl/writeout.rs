//! `-w/--write-out`: curl's %{variable} and %header{name} format.

use crate::transport::Head;
use std::fmt::Write as _;

/// What a transfer leaves for -w.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub url: String,
    pub url_effective: String,
    pub http_code: u16,
    pub size_download: u64,
    pub size_upload: u64,
    pub size_header: u64,
    pub size_request: u64,
    pub content_type: String,
    pub redirect_url: String,
    pub num_redirects: u32,
    pub num_connects: u32,
    pub time_pretransfer: f64,
    pub time_starttransfer: f64,
    pub time_total: f64,
    pub time_redirect: f64,
    pub exitcode: i32,
    pub errormsg: String,
    pub method: String,
    pub scheme: String,
    pub filename_effective: String,
    pub remote_ip: String,
    pub remote_port: String,
    pub local_ip: String,
    pub local_port: u32,
    pub last_head: Option<Head>,
    pub urlnum: usize,
    /// The Referer sent with the last request.
    pub referer: String,
}

/// The rendered text for stdout and for stderr (`%{stderr}` switches),
/// and warnings for unknown variables, in order.
pub struct Rendered {
    pub pieces: Vec<(bool, Vec<u8>)>,
    pub warnings: Vec<String>,
}

fn secs(t: f64) -> String {
    format!("{:.6}", t)
}

fn var(s: &Stats, name: &str) -> Option<String> {
    let speed = |bytes: u64| {
        if s.time_total > 0.0 {
            format!("{}", (bytes as f64 / s.time_total) as u64)
        } else {
            "0".to_string()
        }
    };
    Some(match name {
        "http_code" | "response_code" => format!("{:03}", s.http_code),
        "http_connect" => "000".to_string(),
        // curl names HTTP/1.0 "1".
        "http_version" => match s.last_head.as_ref().map(|h| h.version.as_str()) {
            None => "0",
            Some("1.0") => "1",
            Some(v) => v,
        }
        .to_string(),
        "referer" => s.referer.clone(),
        "size_download" => s.size_download.to_string(),
        "size_upload" => s.size_upload.to_string(),
        "size_header" => s.size_header.to_string(),
        "size_request" => s.size_request.to_string(),
        "speed_download" => speed(s.size_download),
        "speed_upload" => speed(s.size_upload),
        "url" => s.url.clone(),
        "url_effective" => s.url_effective.clone(),
        "urlnum" => s.urlnum.to_string(),
        "content_type" => s.content_type.clone(),
        "redirect_url" => s.redirect_url.clone(),
        "num_redirects" => s.num_redirects.to_string(),
        "num_connects" => s.num_connects.to_string(),
        "num_headers" => s
            .last_head
            .as_ref()
            .map(|h| h.headers.len())
            .unwrap_or(0)
            .to_string(),
        // Lookup and connect happen in the gateway after it took the
        // request: all we can see is when it took it.
        "time_namelookup" | "time_connect" | "time_pretransfer" => secs(s.time_pretransfer),
        "time_appconnect" => secs(if s.scheme == "https" {
            s.time_pretransfer
        } else {
            0.0
        }),
        "time_starttransfer" => secs(s.time_starttransfer),
        "time_total" => secs(s.time_total),
        "time_redirect" => secs(s.time_redirect),
        "exitcode" => s.exitcode.to_string(),
        "errormsg" => s.errormsg.clone(),
        "method" => s.method.clone(),
        "scheme" => s.scheme.to_ascii_uppercase(),
        "filename_effective" => s.filename_effective.clone(),
        "remote_ip" => s.remote_ip.clone(),
        "remote_port" => s.remote_port.clone(),
        "local_ip" => s.local_ip.clone(),
        "local_port" => s.local_port.to_string(),
        "ssl_verify_result" | "proxy_ssl_verify_result" => "0".to_string(),
        _ => return None,
    })
}

/// A JSON string literal (curl escapes quotes, backslashes and controls).
fn json_string(v: &str) -> String {
    let mut o = String::with_capacity(v.len() + 2);
    o.push('"');
    for c in v.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{8}' => o.push_str("\\b"),
            '\u{c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// How `%{json}` writes each variable, in curl 7.88's order.
enum J {
    /// A string; `null` when empty.
    NullableText,
    Text,
    Number,
    /// Seconds with six decimals, unquoted.
    Time,
}

const JSON_VARS: &[(&str, J)] = &[
    ("certs", J::Text),
    ("content_type", J::NullableText),
    ("errormsg", J::NullableText),
    ("exitcode", J::Number),
    ("filename_effective", J::NullableText),
    ("ftp_entry_path", J::NullableText),
    ("http_code", J::Number),
    ("http_connect", J::Number),
    ("http_version", J::Text),
    ("local_ip", J::Text),
    ("local_port", J::Number),
    ("method", J::Text),
    ("num_certs", J::Number),
    ("num_connects", J::Number),
    ("num_headers", J::Number),
    ("num_redirects", J::Number),
    ("proxy_ssl_verify_result", J::Number),
    ("redirect_url", J::NullableText),
    ("referer", J::NullableText),
    ("remote_ip", J::Text),
    ("remote_port", J::Number),
    ("response_code", J::Number),
    ("scheme", J::NullableText),
    ("size_download", J::Number),
    ("size_header", J::Number),
    ("size_request", J::Number),
    ("size_upload", J::Number),
    ("speed_download", J::Number),
    ("speed_upload", J::Number),
    ("ssl_verify_result", J::Number),
    ("time_appconnect", J::Time),
    ("time_connect", J::Time),
    ("time_namelookup", J::Time),
    ("time_pretransfer", J::Time),
    ("time_redirect", J::Time),
    ("time_starttransfer", J::Time),
    ("time_total", J::Time),
    ("url", J::Text),
    ("url_effective", J::Text),
    ("urlnum", J::Number),
];

/// `%{json}`: every variable as one JSON object.
fn json(s: &Stats) -> String {
    let mut o = String::from("{");
    for (name, kind) in JSON_VARS {
        let v = match *name {
            "certs" | "ftp_entry_path" => String::new(),
            "num_certs" => "0".to_string(),
            _ => var(s, name).unwrap_or_default(),
        };
        let v = match kind {
            J::NullableText if v.is_empty() => "null".to_string(),
            J::NullableText | J::Text => json_string(&v),
            // Numbers as curl prints them: without leading zeros.
            J::Number => v.parse::<u64>().map(|n| n.to_string()).unwrap_or(v),
            J::Time => v,
        };
        o.push_str(&json_string(name));
        o.push(':');
        o.push_str(&v);
        o.push(',');
    }
    let _ = write!(
        o,
        "\"curl_version\":{}}}",
        json_string(&format!("libcurl/{}", super::VERSION))
    );
    o
}

/// `%{header_json}`: the last response's headers, names in lower case,
/// each with the list of its values, one name per line.
fn header_json(s: &Stats) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut values: Vec<Vec<&str>> = Vec::new();
    if let Some(h) = &s.last_head {
        for (n, v) in &h.headers {
            let n = n.to_ascii_lowercase();
            match names.iter().position(|x| *x == n) {
                Some(i) => values[i].push(v),
                None => {
                    names.push(n);
                    values.push(vec![v]);
                }
            }
        }
    }
    let lines: Vec<String> = names
        .iter()
        .zip(&values)
        .map(|(n, vs)| {
            let list: Vec<String> = vs.iter().map(|v| json_string(v)).collect();
            format!("{}:[{}]", json_string(n), list.join(","))
        })
        .collect();
    format!("{{{}\n}}", lines.join(",\n"))
}

/// Render a -w format.
pub fn render(format: &str, s: &Stats) -> Rendered {
    let mut out = Rendered {
        pieces: vec![(false, Vec::new())],
        warnings: Vec::new(),
    };
    let b = format.as_bytes();
    let mut i = 0;
    let push = |out: &mut Rendered, bytes: &[u8]| {
        if let Some(last) = out.pieces.last_mut() {
            last.1.extend_from_slice(bytes);
        }
    };
    while i < b.len() {
        let c = b[i];
        if c == b'%' && b.get(i + 1) == Some(&b'%') {
            push(&mut out, b"%");
            i += 2;
        } else if c == b'%' && format[i..].starts_with("%{") {
            match format[i + 2..].find('}') {
                Some(end) => {
                    let name = &format[i + 2..i + 2 + end];
                    i += 3 + end;
                    match name {
                        // The rest is said only when the transfer failed.
                        "onerror" if s.exitcode == 0 => break,
                        "onerror" => {}
                        "stdout" => out.pieces.push((false, Vec::new())),
                        "stderr" => out.pieces.push((true, Vec::new())),
                        "json" => push(&mut out, json(s).as_bytes()),
                        "header_json" => push(&mut out, header_json(s).as_bytes()),
                        _ => match var(s, name) {
                            Some(v) => push(&mut out, v.as_bytes()),
                            None => out
                                .warnings
                                .push(format!("unknown --write-out variable: '{}'", name)),
                        },
                    }
                }
                None => {
                    push(&mut out, b"%{");
                    i += 2;
                }
            }
        } else if c == b'%' && format[i..].starts_with("%header{") {
            match format[i + 8..].find('}') {
                Some(end) => {
                    let name = &format[i + 8..i + 8 + end];
                    i += 9 + end;
                    if let Some(v) = s.last_head.as_ref().and_then(|h| h.header(name)) {
                        push(&mut out, v.as_bytes());
                    }
                }
                None => {
                    push(&mut out, b"%header{");
                    i += 8;
                }
            }
        } else if c == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'n' => push(&mut out, b"\n"),
                b'r' => push(&mut out, b"\r"),
                b't' => push(&mut out, b"\t"),
                // curl knows no other escape, `\\` included: both bytes stay.
                other => push(&mut out, &[b'\\', other]),
            }
            i += 2;
        } else {
            push(&mut out, &[c]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_variables_and_escapes() {
        let s = Stats {
            http_code: 200,
            size_download: 6,
            url_effective: "http://h/".into(),
            scheme: "http".into(),
            ..Stats::default()
        };
        let r = render(
            "%{http_code} %{size_download} %{url_effective}\\n%%%{bogus}%{scheme}%{stderr}e\\q",
            &s,
        );
        assert_eq!(r.pieces[0], (false, b"200 6 http://h/\n%HTTP".to_vec()));
        assert_eq!(r.pieces[1], (true, b"e\\q".to_vec()));
        assert_eq!(r.warnings, ["unknown --write-out variable: 'bogus'"]);
        let r = render("%{http_code}%{", &Stats::default());
        assert_eq!(r.pieces[0].1, b"000%{");
        let failed = Stats {
            exitcode: 22,
            ..Stats::default()
        };
        assert_eq!(render("a%{onerror}b", &s).pieces[0].1, b"a");
        assert_eq!(render("a%{onerror}b", &failed).pieces[0].1, b"ab");
    }

    #[test]
    fn backslash_escapes_are_only_n_r_t() {
        let r = render("a\\\\b\\q", &Stats::default());
        assert_eq!(r.pieces[0].1, b"a\\\\b\\q");
    }

    #[test]
    fn json_and_header_json() {
        let mut head = crate::fake::head(
            200,
            "OK",
            &[("Set-Cookie", "a=1"), ("set-cookie", "b=\"2\"")],
        );
        head.version = "1.0".into();
        let s = Stats {
            http_code: 200,
            scheme: "http".into(),
            last_head: Some(head),
            ..Stats::default()
        };
        assert_eq!(
            render("%{header_json}", &s).pieces[0].1,
            b"{\"set-cookie\":[\"a=1\",\"b=\\\"2\\\"\"]\n}".to_vec()
        );
        let j = String::from_utf8(render("%{json}", &s).pieces[0].1.clone()).unwrap();
        assert!(j.starts_with(
            "{\"certs\":\"\",\"content_type\":null,\"errormsg\":null,\"exitcode\":0,"
        ));
        assert!(j.contains(",\"http_code\":200,") && j.contains(",\"http_version\":\"1\","));
        assert!(
            j.contains(",\"scheme\":\"HTTP\",")
                && j.ends_with("\"curl_version\":\"libcurl/7.88.1\"}")
        );
    }
}
