//! One curl invocation: every URL in turn, each with its redirects,
//! retries, output and -w report.

use super::args::{self, Config, ContinueAt, Output};
use super::body;
use super::glob;
use super::progress::Meter;
use super::route::Routes;
use super::writeout::{self, Stats};
use super::VERSION;
use crate::cookies::Jar;
use crate::decode::{self, Decoder, ACCEPT_ENCODING};
use crate::multipart;
use crate::netrc;
use crate::transport::{NetError, Reason, Request, SpliceError, BODY_CHUNK, SPLICE_MAX};
use crate::url::{Url, UrlError};
use crate::Env;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::time::{Duration, Instant};

/// A failed transfer: curl's exit code and message.
#[derive(Debug)]
struct Fail {
    code: i32,
    msg: String,
}

fn fail(code: i32, msg: impl Into<String>) -> Fail {
    Fail {
        code,
        msg: msg.into(),
    }
}

const TRY: &str = "curl: try 'curl --help' or 'curl --manual' for more information\n";

/// Why --interface and --local-port cannot be honoured.
const NO_BIND: &str = "not available in the sandbox (the network gateway makes the connections)";

/// Everything the transfers share: the parsed command line, the request
/// body (read once: stdin cannot be read twice), the cookie jar.
struct Session {
    cfg: Config,
    data: Option<Vec<u8>>,
    form: Option<(Vec<u8>, String)>,
    jar: Option<Jar>,
    cookie_strings: Vec<String>,
    routes: Routes,
    /// -v's connection number: the next connection's (curl counts them).
    conn: u32,
    /// Hosts and ports looked up so far (-v: "found in DNS cache").
    looked_up: Vec<(String, u16)>,
    /// -v said how the last connection ended (a failure after the body says no more).
    ended_shown: bool,
}

pub fn main(argv: &[String], env: &mut Env) -> i32 {
    let parsed = {
        let stdin = &mut *env.stdin;
        let mut read_config =
            |f: &str| body::read_source(f, stdin).map(|v| String::from_utf8_lossy(&v).into_owned());
        args::parse_with(argv.get(1..).unwrap_or(&[]), &mut read_config)
    };
    let mut cfg = match parsed {
        Ok(c) => c,
        Err(e) => {
            let _ = write!(env.stderr, "curl: {}\n{}", e.0, TRY);
            return e.1;
        }
    };
    if !cfg.silent {
        for w in &cfg.warnings {
            let _ = writeln!(env.stderr, "Warning: {}", w);
        }
    }
    // `-H @FILE` (or `@-`): one header per line of the file.
    let mut headers = Vec::new();
    for h in &cfg.headers {
        match h.strip_prefix('@') {
            Some(f) => {
                let text = body::read_source(f, env.stdin).unwrap_or_default();
                headers.extend(
                    String::from_utf8_lossy(&text)
                        .lines()
                        .map(|l| l.trim_end_matches('\r'))
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_string),
                );
            }
            None => headers.push(h.clone()),
        }
    }
    cfg.headers = headers;
    if cfg.help {
        let _ = env.stdout.write_all(HELP.as_bytes());
        return 0;
    }
    if cfg.version {
        let _ = writeln!(
            env.stdout,
            "curl {} (wasm32-wasi) sandglass\nProtocols: http https\nFeatures: libz",
            VERSION
        );
        return 0;
    }
    if cfg.urls.is_empty() {
        // curl 7.88 says only the second line when it was given no argument at all.
        if argv.len() > 1 {
            let _ = env.stderr.write_all(b"curl: no URL specified!\n");
        }
        let _ = env.stderr.write_all(TRY.as_bytes());
        return 2;
    }
    let quiet = cfg.silent && !cfg.show_error;
    let warn = |env: &mut Env, cfg: &Config, w: &str| {
        if !cfg.silent {
            let _ = writeln!(env.stderr, "Warning: {}", w);
        }
    };

    // Request bodies.
    let data = if cfg.data.is_empty() {
        None
    } else {
        let (d, warnings) = body::join_data(&cfg.data, env.stdin);
        for w in warnings {
            warn(env, &cfg, &w);
        }
        Some(d)
    };
    let mut form = None;
    if !cfg.forms.is_empty() {
        let mut parts = Vec::new();
        for (arg, literal) in &cfg.forms {
            match multipart::parse(arg, *literal, env.stdin) {
                Ok(p) => parts.push(p),
                Err(multipart::FormError::Syntax) => {
                    let _ = write!(
                        env.stderr,
                        "Warning: Illegally formatted input field!\ncurl: option -F: is badly used here\n{}",
                        TRY
                    );
                    return 2;
                }
                Err(multipart::FormError::Read(_)) => {
                    if !quiet {
                        let _ = writeln!(
                            env.stderr,
                            "curl: (26) Failed to open/read local data from file/application"
                        );
                    }
                    return 26;
                }
            }
        }
        let b = multipart::boundary(crate::random_u64());
        form = Some((multipart::encode(&parts, &b), b));
    }
    if data.is_some() && form.is_some() {
        let _ = write!(
            env.stderr,
            "Warning: You can only select one HTTP request method! You asked for both POST \n\
             Warning: (-d, --data) and multipart formpost (-F, --form).\n{}",
            TRY
        );
        return 2;
    }

    // Cookies: `-b name=value` is sent as is, `-b FILE` loads a jar;
    // either a file or -c turns the cookie engine on.
    let mut jar = None;
    let mut cookie_strings = Vec::new();
    for c in &cfg.cookies {
        if c.contains('=') {
            cookie_strings.push(c.clone());
        } else {
            let j = jar.get_or_insert_with(Jar::default);
            let text = if c == "-" {
                let mut v = Vec::new();
                let _ = env.stdin.read_to_end(&mut v);
                String::from_utf8_lossy(&v).into_owned()
            } else {
                fs::read_to_string(c).unwrap_or_default()
            };
            j.load_netscape(&text);
        }
    }
    if cfg.cookie_jar.is_some() && jar.is_none() {
        jar = Some(Jar::default());
    }
    if cfg.junk_session_cookies {
        if let Some(j) = jar.as_mut() {
            j.drop_session_cookies();
        }
    }

    let routes = match Routes::parse(&cfg.resolve, &cfg.connect_to) {
        Ok(r) => r,
        Err(entry) => {
            if !quiet {
                let _ = writeln!(
                    env.stderr,
                    "curl: (49) Couldn't parse CURLOPT_RESOLVE entry '{}'",
                    entry
                );
            }
            return 49;
        }
    };
    let mut s = Session {
        cfg,
        data,
        form,
        jar,
        cookie_strings,
        routes,
        conn: 0,
        looked_up: Vec::new(),
        ended_shown: false,
    };
    let mut code = 0;
    let urls = s.cfg.urls.clone();
    'urls: for (i, u) in urls.iter().enumerate() {
        let out = s
            .cfg
            .outputs
            .get(i)
            .cloned()
            .unwrap_or(if s.cfg.remote_name_all {
                Output::RemoteName
            } else {
                Output::Stdout
            });
        let expanded = if s.cfg.globoff {
            Ok(vec![glob::Expanded {
                url: u.clone(),
                values: Vec::new(),
            }])
        } else {
            glob::expand(u)
        };
        let expanded = match expanded {
            Ok(e) => e,
            Err(e) => {
                // A bad pattern ends the whole command line.
                if !quiet {
                    let _ = writeln!(env.stderr, "curl: (3) {}", e.render(u));
                }
                code = 3;
                break 'urls;
            }
        };
        for one in expanded {
            let out = match &out {
                Output::File(t) => Output::File(glob::output_name(t, &one.values)),
                o => o.clone(),
            };
            let c = transfer_with_retry(&mut s, env, &one.url, i, &out);
            if c != 0 {
                code = c;
            }
        }
    }
    if let (Some(path), Some(j)) = (&s.cfg.cookie_jar, &s.jar) {
        let text = j.to_netscape();
        let ok = if path == "-" {
            env.stdout.write_all(text.as_bytes()).is_ok()
        } else {
            fs::write(path, text).is_ok()
        };
        if !ok && !s.cfg.silent {
            let _ = writeln!(env.stderr, "curl: (23) Failed to save cookies in {}", path);
        }
    }
    let _ = env.stdout.flush();
    code
}

/// Retryable per curl's rules: timeouts and 408/429/500/502/503/504, a
/// refused connection with --retry-connrefused, anything with
/// --retry-all-errors. Returns the label curl prints.
fn retry_kind(cfg: &Config, code: i32, http: u16) -> Option<&'static str> {
    if code == 28 {
        Some(": timeout")
    } else if code == 7 && cfg.retry_connrefused {
        Some(": connection refused")
    } else if [408, 429, 500, 502, 503, 504].contains(&http) {
        Some(": HTTP error")
    } else if cfg.retry_all_errors && code != 0 {
        Some("(retrying all errors)")
    } else {
        None
    }
}

fn transfer_with_retry(
    s: &mut Session,
    env: &mut Env,
    url: &str,
    index: usize,
    out: &Output,
) -> i32 {
    let start = Instant::now();
    let mut left = s.cfg.retry;
    let mut delay = Duration::from_secs(1);
    loop {
        let (failure, stats, output) = transfer(s, env, url, index, out);
        let code = stats.exitcode;
        if left > 0 {
            if let Some(kind) = retry_kind(&s.cfg, code, stats.http_code) {
                let wait = s.cfg.retry_delay.map(Duration::from_secs).unwrap_or(delay);
                let over = s.cfg.retry_max_time.map_or(false, |m| {
                    m > 0 && start.elapsed() + wait > Duration::from_secs(m)
                });
                if !over {
                    if let Some(f) = &failure {
                        say_failure(s, env, f);
                    }
                    if !s.cfg.silent {
                        let _ = writeln!(
                            env.stderr,
                            "Warning: Problem {}. Will retry in {} seconds. {} retries left.",
                            kind,
                            wait.as_secs(),
                            left
                        );
                    }
                    // A file output starts over where it began (stdout
                    // cannot); curl gives up when that file cannot be
                    // truncated (/dev/null, a pipe), before any -w.
                    if let Some(w) = output.filter(|w| w.bytes > 0) {
                        if !s.cfg.silent {
                            let _ = writeln!(env.stderr, "Throwing away {} bytes", w.bytes);
                        }
                        let cut = OpenOptions::new()
                            .write(true)
                            .open(&w.path)
                            .and_then(|f| f.set_len(w.init));
                        if cut.is_err() {
                            if !s.cfg.silent {
                                let _ = writeln!(env.stderr, "curl: (23) Failed to truncate file");
                            }
                            return 23;
                        }
                    }
                    (env.sleep)(wait);
                    delay = (delay * 2).min(Duration::from_secs(600));
                    left -= 1;
                    continue;
                }
            }
        }
        report(s, env, failure, stats);
        return code;
    }
}

/// The output file one attempt wrote: what a retry throws away.
struct Written {
    path: String,
    bytes: u64,
    /// Its length when opened (a resumed file keeps that much).
    init: u64,
}

/// Where the body goes, opened when the first byte arrives (or at the end,
/// for an empty body) so a failed transfer leaves no file behind.
struct Sink {
    path: Option<String>,
    file: Option<File>,
    append: bool,
    init: u64,
    create_dirs: bool,
    /// -N: standard output is flushed after every write.
    unbuffered: bool,
    bytes: u64,
}

impl Sink {
    fn write(&mut self, env: &mut Env, data: &[u8]) -> Result<(), Fail> {
        self.bytes += data.len() as u64;
        let failed = write_failure(self.bytes);
        let path = match &self.path {
            None => {
                env.stdout.write_all(data).map_err(|_| failed)?;
                if self.unbuffered {
                    env.stdout.flush().map_err(|_| write_failure(self.bytes))?;
                }
                return Ok(());
            }
            Some(p) => p.clone(),
        };
        if self.file.is_none() {
            self.open(env, &path)?;
        }
        match self.file.as_mut() {
            Some(f) => f.write_all(data).map_err(|_| failed),
            None => Err(failed),
        }
    }

    fn open(&mut self, _env: &mut Env, path: &str) -> Result<(), Fail> {
        if self.create_dirs {
            if let Some(parent) = std::path::Path::new(path).parent() {
                let _ = fs::create_dir_all(parent);
            }
        }
        let f = if self.append {
            OpenOptions::new().create(true).append(true).open(path)
        } else {
            File::create(path)
        };
        match f {
            Ok(f) => {
                if self.append {
                    self.init = f.metadata().map(|m| m.len()).unwrap_or(0);
                }
                self.file = Some(f);
                Ok(())
            }
            Err(e) => Err(fail(
                23,
                format!(
                    "\u{0}Failed to open the file {}: {}",
                    path,
                    os_error_text(&e)
                ),
            )),
        }
    }

    /// Where the kernel can write body bytes for us: the open output file,
    /// or standard output once what was buffered for it is flushed (so the
    /// bytes stay in order). None before the file is open.
    fn splice_fd(&mut self, env: &mut Env) -> Option<u32> {
        match (&self.path, &self.file) {
            (None, _) => {
                env.stdout.flush().ok()?;
                env.stdout_fd
            }
            (Some(_), Some(f)) => crate::file_fd(f),
            _ => None,
        }
    }

    /// Make sure the file exists (an empty body still creates it).
    fn finish(&mut self, env: &mut Env) -> Result<(), Fail> {
        if let (Some(p), None) = (self.path.clone(), &self.file) {
            self.open(env, &p)?;
        }
        if self.path.is_none() {
            env.stdout.flush().map_err(|_| write_failure(self.bytes))?;
        }
        if let Some(f) = self.file.as_mut() {
            f.flush()
                .map_err(|_| fail(23, "Failure writing output to destination"))?;
        }
        Ok(())
    }
}

/// curl's words for a failed write of body bytes: its stdio buffer (4 KiB)
/// holds a small body until the transfer ends, and a failure found then is
/// "Failed writing body"; past that, the write fails during the transfer.
fn write_failure(bytes_so_far: u64) -> Fail {
    if bytes_so_far <= 4096 {
        fail(23, "Failed writing body")
    } else {
        fail(23, "Failure writing output to destination")
    }
}

/// The OS's wording without Rust's " (os error N)".
fn os_error_text(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// An ftp:// or ftps:// URL: the host's curl connects to the FTP server;
/// the gateway speaks only HTTP and HTTPS, so ours fails where that
/// connection would (exit 7), saying why.
fn ftp_unavailable(url: Result<Url, UrlError>) -> Fail {
    match url {
        Ok(u) => fail(
            7,
            format!(
                "Failed to connect to {} port {} after 0 ms: FTP is not available in the sandbox (the network gateway speaks HTTP and HTTPS only)",
                u.host_bare(),
                u.port_or_default()
            ),
        ),
        Err(e) => url_fail(e),
    }
}

fn url_fail(e: UrlError) -> Fail {
    match e {
        UrlError::Malformed => fail(3, "URL using bad/illegal format or missing URL"),
        UrlError::Unsupported(s) => fail(
            1,
            format!("Protocol \"{}\" not supported or disabled in libcurl", s),
        ),
    }
}

/// curl's password prompt for `-u USER`: on stderr, the answer one line
/// of standard input (there is no echo to turn off here).
fn ask_password(env: &mut Env, user: &str) -> String {
    let _ = write!(env.stderr, "Enter host password for user '{}':", user);
    let _ = env.stderr.flush();
    let mut line = Vec::new();
    let mut b = [0u8; 1];
    while let Ok(1) = env.stdin.read(&mut b) {
        if b[0] == b'\n' {
            break;
        }
        line.push(b[0]);
    }
    let _ = writeln!(env.stderr);
    String::from_utf8_lossy(&line)
        .trim_end_matches('\r')
        .to_string()
}

/// A gateway error as curl reports the same failure of its own.
fn net_fail(e: &NetError, place: &(String, u16), elapsed_ms: u128, received: u64) -> Fail {
    let (host, port) = place;
    match e.reason {
        // curl's own words; the gateway's reason is in %{errormsg} neither.
        Reason::BadUrl => fail(3, "URL using bad/illegal format or missing URL"),
        Reason::BadHeader | Reason::BadMethod => fail(43, e.message.clone()),
        // The policy's and people's denials read as curl's failed connect.
        r if r.is_denial() => fail(
            7,
            format!("Failed to connect to {} port {}: {}", host, port, e.message),
        ),
        Reason::ResolveFailed => fail(6, format!("Could not resolve host: {}", host)),
        Reason::ConnectFailed => fail(
            7,
            format!(
                "Failed to connect to {} port {} after {} ms: Couldn't connect to server",
                host, port, elapsed_ms
            ),
        ),
        Reason::TlsFailed => fail(60, format!("SSL certificate problem: {}", e.message)),
        Reason::Timeout => fail(
            28,
            format!(
                "Operation timed out after {} milliseconds with {} bytes received",
                elapsed_ms, received
            ),
        ),
        Reason::ByteLimit => fail(63, "Maximum file size exceeded"),
        Reason::TooManyRedirects => fail(47, e.message.clone()),
        Reason::RedirectBody => fail(65, "necessary data rewind wasn't possible"),
        Reason::Cancelled | Reason::Interrupted => {
            fail(42, "Operation was aborted by an application callback")
        }
        // The gateway words these as curl does.
        Reason::PartialBody | Reason::BadResponse => fail(e.reason.curl_exit(), e.message.clone()),
        Reason::EmptyReply => fail(52, "Empty reply from server"),
        Reason::NotHttp => fail(1, "Received HTTP/0.9 when not allowed"),
        _ => fail(
            56,
            format!("Failure when receiving data from the peer: {}", e.message),
        ),
    }
}

/// curl -v's last line for a connection: closed when the server said so.
fn connection_end(s: &mut Session, head: &crate::transport::Head, host: &str) -> String {
    let closes = head
        .header("connection")
        .map_or(false, |v| v.eq_ignore_ascii_case("close"))
        || head.version == "1.0";
    let n = s.conn;
    s.ended_shown = true;
    if closes {
        s.conn += 1;
        format!("* Closing connection {}\n", n)
    } else {
        format!("* Connection #{} to host {} left intact\n", n, host)
    }
}

/// `%0A` → `%0a`: only the two hex digits after each `%`.
fn lower_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut left = 0;
    for c in s.chars() {
        if c == '%' {
            left = 2;
            out.push(c);
        } else if left > 0 {
            left -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn base64(s: &str) -> String {
    base64::encode(s.as_bytes())
}

/// Output file name for -O: the URL's last segment (none is an error).
fn remote_name(url: &Url, dir: &Option<String>) -> Option<String> {
    let name = url.file_name();
    if name.is_empty() {
        return None;
    }
    Some(match dir {
        Some(d) => format!("{}/{}", d.trim_end_matches('/'), name),
        None => name,
    })
}

/// The request as curl would build it: method, headers in curl's order,
/// body. Returns also the Host value for -v.
struct Built {
    method: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    host_line: Option<String>,
    /// Sent with chunked framing (the gateway's), not a Content-Length.
    chunked: bool,
}

fn header_name(h: &str) -> &str {
    h.split(|c| c == ':' || c == ';')
        .next()
        .unwrap_or("")
        .trim()
}

fn build(
    s: &Session,
    url: &Url,
    method: &str,
    body: Option<(&[u8], Option<String>)>,
    range: Option<String>,
    referer: &Option<String>,
    auth: &Option<String>,
) -> Built {
    let cfg = &s.cfg;
    let custom = |name: &str| {
        cfg.headers
            .iter()
            .any(|h| header_name(h).eq_ignore_ascii_case(name))
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    let host_line = if custom("host") {
        None
    } else {
        Some(url.host_header())
    };
    if let Some(a) = auth {
        if !custom("authorization") {
            headers.push(("Authorization".into(), format!("Basic {}", base64(a))));
        }
    }
    if let Some(r) = range {
        if !custom("range") {
            headers.push(("Range".into(), format!("bytes={}", r)));
        }
    }
    match &cfg.user_agent {
        Some(ua) if ua.is_empty() => {}
        Some(ua) => {
            if !custom("user-agent") {
                headers.push(("User-Agent".into(), ua.clone()));
            }
        }
        None => {
            if !custom("user-agent") {
                headers.push(("User-Agent".into(), format!("curl/{}", VERSION)));
            }
        }
    }
    let json = cfg.data.iter().any(|d| matches!(d, args::Data::Json(_)));
    if !custom("accept") && !json {
        headers.push(("Accept".into(), "*/*".into()));
    }
    if cfg.compressed && !custom("accept-encoding") {
        headers.push(("Accept-Encoding".into(), ACCEPT_ENCODING.into()));
    }
    if let Some(r) = referer {
        if !custom("referer") {
            headers.push(("Referer".into(), r.clone()));
        }
    }
    if !custom("cookie") {
        let mut parts = Vec::new();
        if let Some(c) = s.jar.as_ref().and_then(|j| j.header_for(url)) {
            parts.push(c);
        }
        // The tool joins -b strings with a bare `;`; libcurl puts `; `
        // between its jar's cookies and them.
        if !s.cookie_strings.is_empty() {
            parts.push(s.cookie_strings.join(";"));
        }
        if !parts.is_empty() {
            headers.push(("Cookie".into(), parts.join("; ")));
        }
    }
    // -H: `Name: value` adds or replaces, `Name:` removes, `Name;` sends empty.
    for h in &cfg.headers {
        if let Some(i) = h.find(':') {
            let (n, v) = (h[..i].trim(), h[i + 1..].trim());
            if !v.is_empty() && !n.is_empty() {
                headers.push((n.to_string(), v.to_string()));
            }
        } else if let Some(n) = h.strip_suffix(';') {
            headers.push((n.trim().to_string(), String::new()));
        }
    }
    if json {
        if !custom("content-type") {
            headers.push(("Content-Type".into(), "application/json".into()));
        }
        if !custom("accept") {
            headers.push(("Accept".into(), "application/json".into()));
        }
    }
    let mut body_bytes = Vec::new();
    // `-T -` has no size before it is read: curl sends it chunked.
    let chunked = body.is_some()
        && cfg.upload_file.as_deref() == Some("-")
        && s.data.is_none()
        && s.form.is_none();
    if let Some((b, ctype)) = body {
        if !custom("content-length") && !chunked {
            headers.push(("Content-Length".into(), b.len().to_string()));
        }
        if let Some(t) = ctype {
            if !custom("content-type") {
                headers.push(("Content-Type".into(), t));
            }
        }
        body_bytes = b.to_vec();
    }
    Built {
        method: method.to_string(),
        headers,
        body: body_bytes,
        host_line,
        chunked,
    }
}

fn request_text(b: &Built, url: &Url) -> String {
    use std::fmt::Write as _;
    let mut t = format!("{} {} HTTP/1.1\r\n", b.method, url.request_target());
    if let Some(h) = &b.host_line {
        let _ = write!(t, "Host: {}\r\n", h);
    }
    for (n, v) in &b.headers {
        let _ = write!(t, "{}: {}\r\n", n, v);
    }
    if b.chunked {
        // The gateway frames the body; curl -v shows what curl would send.
        t.push_str("Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n");
    }
    t.push_str("\r\n");
    t
}

/// What curl -v shows of a chunked upload (`-T -`): the server's go-ahead
/// for its `Expect: 100-continue` (the gateway sends the body at once; the
/// servers we speak to answer 100 before reading it), each chunk as framed
/// (curl reads its upload buffer less the chunk's framing), and the end.
fn upload_lines(err: &mut dyn Write, body: &[u8]) {
    /// Data per chunk: curl's 64 KiB upload buffer less `HEX\r\n` and `\r\n`.
    const CHUNK_DATA: usize = 65_524;
    let _ = err.write_all(b"< HTTP/1.1 100 Continue\r\n");
    for piece in body.chunks(CHUNK_DATA) {
        let framed = piece.len() + format!("{:x}", piece.len()).len() + 4;
        let _ = writeln!(err, "}} [{} bytes data]", framed);
    }
    let _ = writeln!(
        err,
        "* Signaling end of chunked upload via terminating chunk.\n}} [5 bytes data]"
    );
}

fn prefix_lines(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        out.push_str(prefix);
        out.push_str(line);
    }
    out
}

/// One attempt at one URL: returns the failure if any, the -w stats, and
/// the output file written (for a retry to truncate).
fn transfer(
    s: &mut Session,
    env: &mut Env,
    url_text: &str,
    index: usize,
    out: &Output,
) -> (Option<Fail>, Stats, Option<Written>) {
    let start = Instant::now();
    let mut stats = Stats {
        url: url_text.to_string(),
        // What a URL that does not parse is called too.
        url_effective: url_text.to_string(),
        urlnum: index,
        ..Stats::default()
    };
    let mut sink = Sink {
        path: None,
        file: None,
        append: false,
        init: 0,
        create_dirs: s.cfg.create_dirs,
        unbuffered: s.cfg.no_buffer,
        bytes: 0,
    };
    let result = run_one(s, env, url_text, out, &mut stats, &mut sink, start);
    stats.time_total = start.elapsed().as_secs_f64();
    let code = match &result {
        Ok(()) => 0,
        Err(f) => f.code,
    };
    stats.exitcode = code;
    let written = match (sink.path, &sink.file) {
        (Some(path), Some(_)) => Some(Written {
            path,
            bytes: sink.bytes,
            init: sink.init,
        }),
        _ => None,
    };
    (result.err(), stats, written)
}

/// A failed attempt's error line (every attempt's, retried or not; a file
/// that would not open is warned about first). Returns the message, for
/// `%{errormsg}`.
fn say_failure(s: &mut Session, env: &mut Env, f: &Fail) -> String {
    let quiet = s.cfg.silent && !s.cfg.show_error;
    let msg = match f.msg.strip_prefix('\u{0}') {
        Some(w) => {
            if !s.cfg.silent {
                let _ = writeln!(env.stderr, "Warning: {}", w);
            }
            "Failure writing output to destination".to_string()
        }
        None => f.msg.clone(),
    };
    if s.cfg.verbose && !std::mem::replace(&mut s.ended_shown, false) {
        // -v says the error too; a refused connection first says which.
        if let Some(rest) = msg.strip_prefix("Failed to connect to ") {
            if let (Some((place, _)), true) = (
                rest.split_once(" after "),
                msg.ends_with("Couldn't connect to server"),
            ) {
                let _ = writeln!(
                    env.stderr,
                    "* connect to {} failed: Connection refused",
                    place
                );
            }
        }
        let _ = writeln!(env.stderr, "* {}", msg);
        let _ = writeln!(env.stderr, "* Closing connection {}", s.conn);
        s.conn += 1;
    }
    if !quiet {
        let _ = env.stdout.flush();
        let _ = writeln!(env.stderr, "curl: ({}) {}", f.code, msg);
    }
    msg
}

/// After the last attempt: the error line and the -w report.
fn report(s: &mut Session, env: &mut Env, failure: Option<Fail>, mut stats: Stats) {
    if let Some(f) = &failure {
        stats.errormsg = say_failure(s, env, f);
    }
    if let Some(w) = &s.cfg.write_out {
        let fmt = match w.strip_prefix('@') {
            Some(f) => body::read_source(f, env.stdin)
                .map(|v| String::from_utf8_lossy(&v).into_owned())
                .unwrap_or_default(),
            None => w.clone(),
        };
        let r = writeout::render(&fmt, &stats);
        for w in r.warnings {
            let _ = writeln!(env.stderr, "curl: {}", w);
        }
        for (to_err, bytes) in r.pieces {
            if to_err {
                let _ = env.stderr.write_all(&bytes);
            } else {
                let _ = env.stdout.write_all(&bytes);
            }
        }
    }
    let _ = env.stdout.flush();
}

#[allow(clippy::too_many_arguments)]
fn run_one(
    s: &mut Session,
    env: &mut Env,
    url_text: &str,
    out: &Output,
    stats: &mut Stats,
    sink: &mut Sink,
    start: Instant,
) -> Result<(), Fail> {
    if let Some(ftp) = Url::parse_ftp(url_text) {
        return Err(ftp_unavailable(ftp));
    }
    let mut url = Url::parse(url_text, true).map_err(url_fail)?;
    let cfg = s.cfg.clone();
    if let Some(allowed) = &cfg.protocols {
        if !allowed.contains(&url.scheme) {
            return Err(url_fail(UrlError::Unsupported(url.scheme.clone())));
        }
    }
    // Credentials: -u wins over the URL's; both become a Basic header
    // (the gateway takes no credentials in URLs).
    let mut auth = cfg.user.clone().or_else(|| url.userinfo.clone());
    // .netrc: a login and password for the host when neither -u nor the
    // URL gave both (a URL's user takes the entry's password, as curl 7.88).
    if cfg.netrc && auth.as_deref().map_or(true, |a| !a.contains(':')) {
        let file = cfg
            .netrc_file
            .clone()
            .or_else(|| std::env::var("HOME").ok().map(|h| format!("{}/.netrc", h)));
        let text = file
            .and_then(|f| fs::read_to_string(f).ok())
            .unwrap_or_default();
        if let Some(e) = netrc::lookup(&text, url.host_bare()) {
            auth = Some(match auth.take() {
                Some(user) => format!("{}:{}", user, e.password),
                None => format!("{}:{}", e.login, e.password),
            });
        }
    }
    if let Some(a) = &auth {
        if !a.contains(':') {
            // -u USER without a password: curl asks for one.
            let password = if cfg.user.is_some() {
                ask_password(env, a)
            } else {
                String::new()
            };
            auth = Some(format!("{}:{}", a, password));
        }
    }
    url.userinfo = None;

    // Upload: -T FILE is a PUT; a URL ending in / gets the file's name.
    let mut upload = None;
    if let Some(f) = &cfg.upload_file {
        let data = match body::read_source(f, env.stdin) {
            Some(d) => d,
            None => {
                // Said even with -s, before the transfer's own error.
                let _ = write!(env.stderr, "curl: Can't open '{}'!\n{}", f, TRY);
                return Err(fail(
                    26,
                    "Failed to open/read local data from file/application",
                ));
            }
        };
        if url.path.ends_with('/') && f != "-" {
            url.path.push_str(f.rsplit('/').next().unwrap_or(f));
        }
        upload = Some(data);
    }
    let mut method;
    let mut payload: Option<(Vec<u8>, Option<String>)> = None;
    if cfg.get {
        if let Some(d) = &s.data {
            // Through curl 7.88's URL API, whose escapes come out lower case.
            let q = lower_escapes(&String::from_utf8_lossy(d));
            url.query = Some(match url.query.take() {
                Some(old) if !old.is_empty() => format!("{}&{}", old, q),
                _ => q,
            });
        }
        method = if cfg.head { "HEAD" } else { "GET" }.to_string();
    } else if let Some(d) = &s.data {
        method = "POST".to_string();
        let ct = if cfg.data.iter().all(|d| matches!(d, args::Data::Json(_))) {
            None
        } else {
            Some("application/x-www-form-urlencoded".to_string())
        };
        payload = Some((d.clone(), ct));
    } else if let Some((b, boundary)) = &s.form {
        method = "POST".to_string();
        payload = Some((
            b.clone(),
            Some(format!("multipart/form-data; boundary={}", boundary)),
        ));
    } else if let Some(u) = upload {
        method = "PUT".to_string();
        payload = Some((u, None));
    } else if cfg.head {
        method = "HEAD".to_string();
    } else {
        method = "GET".to_string();
    }
    if let Some(m) = &cfg.method {
        // curl's words about -X, once per transfer, before it starts.
        if *m == method {
            if cfg.verbose {
                let _ = writeln!(
                    env.stderr,
                    "Note: Unnecessary use of -X or --request, {} is already inferred.",
                    m
                );
            }
        } else if m.eq_ignore_ascii_case("HEAD") && !cfg.silent {
            let _ = write!(
                env.stderr,
                "Warning: Setting custom HTTP method to HEAD with -X/--request may not work the \nWarning: way you want. Consider using -I/--head instead.\n"
            );
        }
        method = m.clone();
    }
    // --url-query, as --data-urlencode but into the query (`+`: as is);
    // curl 7.88 drops them when -G builds the query from data.
    if !cfg.url_queries.is_empty() && (!cfg.get || s.data.is_none()) {
        // Encoded pieces reach the URL with lower-case escapes (`%0a`),
        // as curl 7.88's URL API leaves them.
        let pieces: Vec<String> = cfg
            .url_queries
            .iter()
            .map(|q| match q.strip_prefix('+') {
                Some(raw) => raw.to_string(),
                None => {
                    let (b, _) = body::join_data(&[args::Data::UrlEncode(q.clone())], env.stdin);
                    lower_escapes(&String::from_utf8_lossy(&b))
                }
            })
            .collect();
        let q = pieces.join("&");
        url.query = Some(match url.query.take() {
            Some(old) if !old.is_empty() => format!("{}&{}", old, q),
            _ => q,
        });
    }

    // Output.
    match out {
        Output::Stdout => {}
        Output::File(f) => {
            sink.path = Some(match &cfg.output_dir {
                Some(d) if f != "-" && !f.starts_with('/') => {
                    format!("{}/{}", d.trim_end_matches('/'), f)
                }
                _ => f.clone(),
            })
        }
        Output::RemoteName => {
            sink.path = Some(
                remote_name(&url, &cfg.output_dir)
                    .ok_or_else(|| fail(23, "Failed writing received data to disk/application"))?,
            )
        }
    }
    if sink.path.as_deref() == Some("-") {
        sink.path = None;
    }
    stats.filename_effective = sink.path.clone().unwrap_or_default();
    let mut resume_from = 0u64;
    match &cfg.continue_at {
        Some(ContinueAt::Auto) => {
            if let Some(p) = &sink.path {
                resume_from = fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            }
        }
        Some(ContinueAt::Offset(n)) => resume_from = *n,
        None => {}
    }
    if resume_from > 0 {
        sink.append = true;
    }
    let range = if resume_from > 0 {
        Some(format!("{}-", resume_from))
    } else {
        cfg.range.clone()
    };

    let mut referer = cfg
        .referer
        .as_ref()
        .map(|r| r.trim_end_matches(";auto").to_string())
        .filter(|r| !r.is_empty());
    let auto_referer = cfg.referer.as_ref().map_or(false, |r| r.ends_with(";auto"));
    let max_redirs = cfg.max_redirs.unwrap_or(50);
    let meter_on = env.stderr_tty
        && !cfg.silent
        && !cfg.no_progress_meter
        && (sink.path.is_some() || !env.stdout_tty);
    let mut meter = if meter_on { Some(Meter::new()) } else { None };
    let mut received = 0u64;
    let mut redirect_start: Option<Instant> = None;

    loop {
        stats.url_effective = url.to_string();
        // The fragment is never sent, but curl keeps it in the name.
        if stats.num_redirects == 0 {
            if let Some((_, f)) = url_text.split_once('#') {
                stats.url_effective = format!("{}#{}", stats.url_effective, f);
            }
        }
        stats.scheme = url.scheme.clone();
        stats.method = method.clone();
        let built = build(
            s,
            &url,
            &method,
            payload.as_ref().map(|(b, t)| (b.as_slice(), t.clone())),
            range.clone(),
            &referer,
            &auth,
        );
        let req_text = request_text(&built, &url);
        stats.referer = built
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("referer"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let mut headers = built.headers.clone();
        // Host is the gateway's; a custom one goes through for it to check.
        if built.host_line.is_none() {
            if let Some(h) = cfg
                .headers
                .iter()
                .find(|h| header_name(h).eq_ignore_ascii_case("host"))
            {
                if let Some(i) = h.find(':') {
                    headers.insert(0, ("Host".into(), h[i + 1..].trim().to_string()));
                }
            }
        }
        let remaining = cfg.max_time.map(|t| {
            ((t * 1000.0) as u128)
                .saturating_sub(start.elapsed().as_millis())
                .max(1) as u32
        });
        s.ended_shown = false;
        let place = s.routes.place(url.host_bare(), url.port_or_default());
        let mut req = Request {
            method: method.clone(),
            url: url.to_string(),
            headers,
            body: built.body.clone(),
            head_only: method == "HEAD" || cfg.head,
            decode_brotli: cfg.compressed,
            chunked: built.chunked,
            timeout_ms: remaining.unwrap_or(0),
            connect_timeout_ms: cfg
                .connect_timeout
                .map(|t| (t * 1000.0).max(1.0) as u32)
                .unwrap_or(0),
            max_response_bytes: cfg.max_filesize.unwrap_or(0),
            connect_to: place.as_ref().map(|p| (p.host.clone(), p.port)),
        };
        // Errors name the URL's host, or the place --connect-to chose.
        let shown = match &place {
            Some(p) if p.moved => (p.host.clone(), p.port),
            _ => (url.host_bare().to_string(), url.port_or_default()),
        };
        let (conn_host, conn_port) = place.as_ref().map_or_else(
            || (url.host_bare().to_string(), url.port_or_default()),
            |p| (p.host.clone(), p.port),
        );
        if cfg.verbose {
            if let Some(p) = &place {
                if p.moved {
                    let _ = write!(
                        env.stderr,
                        "* Connecting to hostname: {}\n* Connecting to port: {}\n",
                        p.host, p.port
                    );
                } else {
                    let _ = writeln!(
                        env.stderr,
                        "* Hostname {} was found in DNS cache",
                        url.host_bare()
                    );
                }
            } else if s.looked_up.contains(&(conn_host.clone(), conn_port)) {
                let _ = writeln!(
                    env.stderr,
                    "* Hostname {} was found in DNS cache",
                    conn_host
                );
            }
            let _ = writeln!(env.stderr, "*   Trying {}:{}...", conn_host, conn_port);
        }
        if let Some(i) = &cfg.interface {
            return Err(fail(45, format!("Couldn't bind to '{}': {}", i, NO_BIND)));
        }
        if let Some(p) = &cfg.local_port {
            return Err(fail(
                45,
                format!("Couldn't bind to local port {}: {}", p, NO_BIND),
            ));
        }
        let elapsed_ms = |start: Instant| start.elapsed().as_millis();
        // --resolve with several addresses: curl tries them in order, and
        // a place that refuses (here: or that the policy denies) passes the
        // turn to the next one.
        let mut conn_host = conn_host;
        let mut next_addresses = place
            .as_ref()
            .map(|p| p.others.clone())
            .unwrap_or_default()
            .into_iter();
        let (mut ex, head) = loop {
            let started = env.transport.start(&req);
            let answered = match started {
                Ok(mut x) => {
                    stats.time_pretransfer = start.elapsed().as_secs_f64();
                    x.response().map(|h| (x, h)).map_err(|e| (e, true))
                }
                Err(e) => Err((e, false)),
            };
            let (e, sent) = match answered {
                Ok(v) => break v,
                Err(v) => v,
            };
            let refused = e.reason == Reason::ConnectFailed || e.reason.is_denial();
            if refused {
                if let Some(next) = next_addresses.next() {
                    if cfg.verbose {
                        let why = if e.reason == Reason::ConnectFailed {
                            "Connection refused"
                        } else {
                            e.message.as_str()
                        };
                        let _ = writeln!(
                            env.stderr,
                            "* connect to {} port {} failed: {}\n*   Trying {}:{}...",
                            conn_host, conn_port, why, next, conn_port
                        );
                    }
                    req.connect_to = Some((next.clone(), conn_port));
                    conn_host = next;
                    continue;
                }
            }
            // The connection was made and the request sent before these:
            // -v shows both, as curl does.
            let connected = sent
                && (matches!(
                    e.reason,
                    Reason::EmptyReply
                        | Reason::NotHttp
                        | Reason::BadResponse
                        | Reason::PartialBody
                ) || (e.reason == Reason::Timeout && !e.message.starts_with("connection")));
            if cfg.verbose && connected {
                let _ = writeln!(
                    env.stderr,
                    "* Connected to {} ({}) port {} (#{})",
                    url.host_bare(),
                    conn_host,
                    conn_port,
                    s.conn
                );
                let _ = env
                    .stderr
                    .write_all(prefix_lines(&req_text, "> ").as_bytes());
            }
            return Err(net_fail(&e, &shown, elapsed_ms(start), received));
        };
        stats.time_starttransfer = start.elapsed().as_secs_f64();
        stats.num_connects += 1;
        stats.http_code = head.status;
        stats.remote_ip = if head.address.is_empty() {
            url.host_bare().to_string()
        } else {
            head.address.clone()
        };
        stats.remote_port = conn_port.to_string();
        stats.local_ip = head.local_address.clone();
        stats.local_port = head.local_port;
        stats.size_request += (req_text.len() + built.body.len()) as u64;
        stats.size_upload += built.body.len() as u64;
        if cfg.verbose {
            let _ = writeln!(
                env.stderr,
                "* Connected to {} ({}) port {} (#{})",
                url.host_bare(),
                stats.remote_ip,
                conn_port,
                s.conn
            );
            let _ = env
                .stderr
                .write_all(prefix_lines(&req_text, "> ").as_bytes());
            if built.chunked {
                upload_lines(env.stderr, &built.body);
            } else if !built.body.is_empty() {
                let _ = writeln!(env.stderr, "}} [{} bytes data]", built.body.len());
            }
        }
        if !s.looked_up.contains(&(conn_host.clone(), conn_port)) {
            s.looked_up.push((conn_host.clone(), conn_port));
        }
        let head_text = head.to_text();
        stats.size_header += head_text.len() as u64;
        stats.content_type = head.header("content-type").unwrap_or("").to_string();
        stats.last_head = Some(head.clone());
        if cfg.verbose {
            if head.version == "1.0" {
                let _ = writeln!(env.stderr, "* HTTP 1.0, assume close after body");
            }
            // -f stops at the status: curl shows no end-of-headers line then.
            let stops = (cfg.fail && !cfg.fail_with_body) && head.status >= 400;
            let shown_head = if stops {
                head_text.strip_suffix("\r\n").unwrap_or(&head_text)
            } else {
                &head_text
            };
            let _ = env
                .stderr
                .write_all(prefix_lines(shown_head, "< ").as_bytes());
        }
        if let Some(j) = s.jar.as_mut() {
            for c in head.headers_named("set-cookie") {
                j.set_cookie(&url, c);
            }
        }
        if let Some(d) = &cfg.dump_header {
            if d == "-" {
                let _ = env.stdout.write_all(head_text.as_bytes());
            } else {
                let first = stats.num_connects == 1;
                let f = if first {
                    File::create(d)
                } else {
                    OpenOptions::new().append(true).create(true).open(d)
                };
                if let Ok(mut f) = f {
                    let _ = f.write_all(head_text.as_bytes());
                }
            }
        }
        let location = head.header("location").map(|l| l.to_string());
        let is_redirect = matches!(head.status, 301 | 302 | 303 | 307 | 308);
        let resume_416 = resume_from > 0 && head.status == 416;
        let failing = (cfg.fail || cfg.fail_with_body) && head.status >= 400 && !resume_416;
        // -J: the name the server gives, in --output-dir, for the final answer.
        if cfg.remote_header_name && *out == Output::RemoteName && !(is_redirect && cfg.location) {
            if let Some(name) = head.disposition_name() {
                let path = match &cfg.output_dir {
                    Some(d) => format!("{}/{}", d.trim_end_matches('/'), name),
                    None => name,
                };
                stats.filename_effective = path.clone();
                sink.path = Some(path);
            }
        }
        if cfg.include || cfg.head {
            sink.write(env, head_text.as_bytes())?;
        }
        if is_redirect && cfg.location {
            if let Some(loc) = location {
                if max_redirs >= 0 && i64::from(stats.num_redirects) >= max_redirs {
                    return Err(fail(
                        47,
                        format!("Maximum ({}) redirects followed", max_redirs),
                    ));
                }
                let next = url.join(&loc).map_err(url_fail)?;
                drop(ex);
                redirect_start.get_or_insert(start);
                if cfg.verbose {
                    let _ = env
                        .stderr
                        .write_all(connection_end(s, &head, url.host_bare()).as_bytes());
                    let _ = writeln!(
                        env.stderr,
                        "* Issue another request to this URL: '{}'",
                        next
                    );
                }
                stats.num_redirects += 1;
                let post = method == "POST" && cfg.method.is_none();
                let to_get = match head.status {
                    303 => !cfg.post303 && method != "HEAD",
                    301 => post && !cfg.post301,
                    302 => post && !cfg.post302,
                    _ => false,
                };
                if to_get {
                    if cfg.method.is_none() {
                        method = "GET".to_string();
                    }
                    payload = None;
                }
                let same_origin = next.host == url.host
                    && next.port_or_default() == url.port_or_default()
                    && next.scheme == url.scheme;
                if !same_origin && !cfg.location_trusted {
                    auth = None;
                }
                if auto_referer {
                    referer = Some(url.to_string());
                }
                url = next;
                stats.time_redirect = start.elapsed().as_secs_f64();
                continue;
            }
        }
        if is_redirect {
            if let Some(loc) = &location {
                if let Ok(u) = url.join(loc) {
                    stats.redirect_url = u.to_string();
                }
            }
        }
        if failing && !cfg.fail_with_body {
            return Err(fail(
                22,
                format!("The requested URL returned error: {}", head.status),
            ));
        }
        if resume_from > 0 && head.status == 200 && cfg.continue_at.is_some() {
            return Err(fail(
                33,
                "HTTP server doesn't seem to support byte ranges. Cannot resume.",
            ));
        }
        if let Some(max) = cfg.max_filesize {
            let declared = head
                .header("content-length")
                .and_then(|v| v.trim().parse::<u64>().ok());
            if declared.map_or(false, |n| n > max) {
                return Err(fail(63, "Maximum file size exceeded"));
            }
        }
        // `-X HEAD` without -I: curl waits for the body the head announces,
        // which never comes; the server closing is error 18.
        if method == "HEAD" && !cfg.head {
            let declared = head
                .header("content-length")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(0);
            if declared > 0 {
                return Err(fail(
                    18,
                    format!("transfer closed with {} bytes remaining to read", declared),
                ));
            }
        }
        // Body.
        let expect_body =
            !(req.head_only || resume_416 || head.status == 204 || head.status == 304);
        if let Some(m) = meter.as_mut() {
            m.total = head
                .header("content-length")
                .and_then(|v| v.trim().parse::<u64>().ok());
            m.upload_total = built.body.len() as u64;
            m.uploaded = built.body.len() as u64;
        }
        if expect_body {
            let mut dec = if cfg.compressed {
                Decoder::for_encoding(head.header("content-encoding"))
            } else {
                Decoder::Identity
            };
            let mut buf = vec![0u8; BODY_CHUNK];
            // Undecoded bodies go straight from the gateway to the output
            // once it is open (the first bytes open it, as before): the
            // kernel writes them, no copy passes through this program.
            let mut splice = matches!(dec, Decoder::Identity);
            loop {
                let fd = if splice && sink.bytes > 0 {
                    sink.splice_fd(env)
                } else {
                    None
                };
                let spliced = fd.and_then(|fd| ex.splice_body(fd, SPLICE_MAX));
                let n = match spliced {
                    Some(r) => {
                        let n = r.map_err(|e| match e {
                            SpliceError::Net(e) => {
                                net_fail(&e, &shown, elapsed_ms(start), received)
                            }
                            SpliceError::Write(_) => {
                                fail(23, "Failure writing output to destination")
                            }
                        })?;
                        sink.bytes += n as u64;
                        n
                    }
                    None => {
                        splice = splice && fd.is_none();
                        let n = ex
                            .read_body(&mut buf)
                            .map_err(|e| net_fail(&e, &shown, elapsed_ms(start), received))?;
                        if n > 0 {
                            let piece = dec.feed(&buf[..n]).map_err(|_| {
                                fail(
                                    61,
                                    "Error while processing content unencoding: invalid data",
                                )
                            })?;
                            sink.write(env, &piece)?;
                        }
                        n
                    }
                };
                if n == 0 {
                    break;
                }
                received += n as u64;
                stats.size_download += n as u64;
                if cfg.verbose && !env.stdout_tty {
                    let _ = writeln!(env.stderr, "{{ [{} bytes data]", n);
                }
                if let Some(m) = meter.as_mut() {
                    m.downloaded = received;
                    m.tick(env.stderr);
                }
            }
            // A br body came decoded from the gateway: curl counts the
            // bytes as sent, which the head declares (when it does).
            if cfg.compressed && decode::is_brotli(head.header("content-encoding")) {
                if let Some(n) = head
                    .header("content-length")
                    .and_then(|v| v.trim().parse().ok())
                {
                    stats.size_download = n;
                }
            }
            let rest = dec.finish().map_err(|_| {
                fail(
                    61,
                    "Error while processing content unencoding: invalid data",
                )
            })?;
            sink.write(env, &rest)?;
        }
        drop(ex);
        if let Some(m) = meter.as_mut() {
            m.finish(env.stderr);
        }
        if cfg.verbose {
            let _ = env
                .stderr
                .write_all(connection_end(s, &head, url.host_bare()).as_bytes());
        }
        if failing {
            return Err(fail(
                22,
                format!("The requested URL returned error: {}", head.status),
            ));
        }
        sink.finish(env)?;
        return Ok(());
    }
}

const HELP: &str = "Usage: curl [options...] <url>
 -d, --data <data>          HTTP POST data
     --data-binary <data>   HTTP POST binary data
     --data-raw <data>      HTTP POST data, '@' allowed
     --data-urlencode <data> HTTP POST data url encoded
 -F, --form <name=content>  Specify multipart MIME data
 -G, --get                  Put the post data in the URL and use GET
     --json <data>          HTTP POST JSON
 -f, --fail                 Fail fast with no output on HTTP errors
     --fail-with-body       Fail on HTTP errors but save the body
 -H, --header <header/@file> Pass custom header(s) to server
 -I, --head                 Show document info only
 -i, --include              Include protocol response headers in the output
 -L, --location             Follow redirects
     --max-redirs <num>     Maximum number of redirects allowed
 -o, --output <file>        Write to file instead of stdout
 -O, --remote-name          Write output to a file named as the remote file
     --output-dir <dir>     Directory to save files in
 -D, --dump-header <filename> Write the received headers to <filename>
 -b, --cookie <data|filename> Send cookies from string/file
 -c, --cookie-jar <filename> Write cookies to <filename> after operation
 -u, --user <user:password> Server user and password
 -A, --user-agent <name>    Send User-Agent <name> to server
 -e, --referer <URL>        Referrer URL
 -X, --request <method>     Specify request method to use
 -T, --upload-file <file>   Transfer local FILE to destination
 -C, --continue-at <offset> Resumed transfer offset
 -m, --max-time <seconds>   Maximum time allowed for transfer
     --connect-timeout <seconds> Maximum time allowed for connection
     --retry <num>          Retry request if transient problems occur
     --compressed           Request compressed response
 -s, --silent               Silent mode
 -S, --show-error           Show error even when -s is used
 -v, --verbose              Make the operation more talkative
 -w, --write-out <format>   Use output FORMAT after completion
 -h, --help                 Get help for commands
 -V, --version              Show version number and quit

Connections, TLS and certificate checks are the sandbox's network gateway's;
its policy decides which hosts can be reached.
";
