//! `-w/--write-out`: curl's %{variable} and %header{name} format.

use crate::transport::Head;

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
    pub last_head: Option<Head>,
    pub urlnum: usize,
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
        "http_version" => if s.http_code == 0 { "0" } else { "1.1" }.to_string(),
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
        "local_ip" | "local_port" => String::new(),
        "ssl_verify_result" | "proxy_ssl_verify_result" => "0".to_string(),
        _ => return None,
    })
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
                        "stdout" => out.pieces.push((false, Vec::new())),
                        "stderr" => out.pieces.push((true, Vec::new())),
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
                b'\\' => push(&mut out, b"\\"),
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
    }
}
