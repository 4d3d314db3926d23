//! One wget invocation: each URL with its redirects and retries, the log
//! lines wget writes, file naming and the exit status.

use super::args::{self, Opts};
use super::log::{human, rate, Dots, Log, Sink};
use super::VERSION;
use crate::cookies::Jar;
use crate::decode::Decoder;
use crate::time::{format_http_date, format_stamp, parse_http_date};
use crate::transport::{Head, NetError, Reason, Request, SpliceError, BODY_CHUNK, SPLICE_MAX};
use crate::url::{escape_unsafe, percent_decode, Url, UrlError};
use crate::Env;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

const USAGE: &str = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n";

/// wget's exit codes.
pub(super) const GENERIC: i32 = 1;
const FILE_IO: i32 = 3;
const NETWORK: i32 = 4;
const TLS: i32 = 5;
const AUTH: i32 = 6;
const SERVER: i32 = 8;

/// With several failures, the lowest code above 1 wins (wget's rule).
pub(super) fn worse(a: i32, b: i32) -> i32 {
    match (a, b) {
        (0, x) | (x, 0) => x,
        (1, x) | (x, 1) => x,
        (x, y) => x.min(y),
    }
}

/// -O's one file for all URLs (or stdout).
enum Document {
    None,
    Stdout,
    File(String, Option<File>),
}

pub(super) struct Run<'o> {
    pub(super) opts: &'o Opts,
    jar: Option<Jar>,
    document: Document,
    downloaded_files: u32,
    downloaded_bytes: u64,
    download_secs: f64,
    /// What the last retrieval left on disk, for the recursion to read.
    pub(super) saved: Option<Saved>,
    /// Fetching robots.txt: never time-stamped (-N, -m).
    robots_fetch: bool,
}

/// A file a retrieval saved (or found up to date), and what it holds.
pub(super) struct Saved {
    pub path: String,
    /// The URL it came from, after redirects.
    pub url: Url,
    pub kind: Kind,
}

/// What links a saved file may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Html,
    Css,
    Other,
}

impl Kind {
    /// From the Content-Type (as wget decides whether to parse a file).
    fn of(content_type: Option<&str>) -> Kind {
        let t = content_type
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match t.as_str() {
            "text/html" | "application/xhtml+xml" => Kind::Html,
            "text/css" => Kind::Css,
            _ => Kind::Other,
        }
    }

    /// From the name, for a file wget did not fetch again (-N, -nc).
    fn by_name(path: &str) -> Kind {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".html") || lower.ends_with(".htm") {
            Kind::Html
        } else if lower.ends_with(".css") {
            Kind::Css
        } else {
            Kind::Other
        }
    }
}

pub fn main(argv: &[String], env: &mut Env) -> i32 {
    let opts = match args::parse(argv.get(1..).unwrap_or(&[])) {
        Ok(o) => o,
        Err(e) => {
            let usage = if e.1 { USAGE } else { "" };
            let _ = write!(env.stderr, "wget: {}\n{}", e.0, usage);
            return 2;
        }
    };
    if opts.help {
        let _ = env.stdout.write_all(HELP.as_bytes());
        return 0;
    }
    if opts.version {
        let _ = writeln!(
            env.stdout,
            "GNU Wget {} built on wasm32-wasi (sandglass).\n\n+http +https +cookies\n",
            VERSION
        );
        return 0;
    }
    let mut urls = opts.urls.clone();
    if let Some(f) = &opts.input_file {
        let text = if f == "-" {
            let mut v = Vec::new();
            let _ = env.stdin.read_to_end(&mut v);
            Some(v)
        } else {
            fs::read(f).ok()
        };
        match text {
            Some(t) => urls.extend(
                String::from_utf8_lossy(&t)
                    .lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty() && !l.starts_with('#')),
            ),
            None => {
                let _ = writeln!(env.stderr, "{}: No such file or directory", f);
                if urls.is_empty() {
                    // wget 1.21 calls this a success.
                    let _ = writeln!(env.stderr, "No URLs found in {}.", f);
                    return 0;
                }
            }
        }
    }
    if urls.is_empty() {
        let _ = write!(env.stderr, "wget: missing URL\n{}", USAGE);
        return GENERIC;
    }

    // The log goes to stderr unless -o/-a names a file.
    let log_file = match &opts.output_file {
        Some((path, append)) => {
            let f = if *append {
                OpenOptions::new().create(true).append(true).open(path)
            } else {
                File::create(path)
            };
            match f {
                Ok(f) => Some(f),
                Err(e) => {
                    let _ = writeln!(env.stderr, "wget: {}: {}", path, io_text(&e));
                    return FILE_IO;
                }
            }
        }
        None => None,
    };
    let mut sink = Sink {
        file: log_file,
        buf: Vec::new(),
        quiet: opts.quiet,
        brief: opts.no_verbose,
    };

    let mut jar = if opts.no_cookies {
        None
    } else {
        Some(Jar::default())
    };
    if let (Some(j), Some(f)) = (jar.as_mut(), &opts.load_cookies) {
        if let Ok(t) = fs::read_to_string(f) {
            j.load_netscape(&t);
        }
    }
    let document = match opts.output_document.as_deref() {
        None => Document::None,
        Some("-") => Document::Stdout,
        Some(p) => Document::File(p.to_string(), None),
    };
    let mut run = Run {
        opts: &opts,
        jar,
        document,
        downloaded_files: 0,
        downloaded_bytes: 0,
        download_secs: 0.0,
        saved: None,
        robots_fetch: false,
    };
    let start = Instant::now();
    let mut status = 0;
    for u in &urls {
        let code = if opts.recursive {
            super::recursive::retrieve_tree(&mut run, env, &mut sink, u)
        } else {
            run.fetch_logged(env, &mut sink, u)
        };
        status = worse(status, code);
    }
    // The summary: after several URLs, a recursion or an input file, when
    // they brought bytes (wget says nothing after none, or empty files).
    if (urls.len() > 1 || opts.recursive || opts.input_file.is_some()) && run.downloaded_bytes > 0 {
        let total = start.elapsed().as_secs_f64();
        sink.brief = false;
        sink.log().brief(&format!(
            "FINISHED --{}--\nTotal wall clock time: {}\nDownloaded: {} files, {} in {} ({})\n",
            format_stamp((env.now)()),
            secs_text(total),
            run.downloaded_files,
            human(run.downloaded_bytes),
            secs_text(run.download_secs),
            rate(run.downloaded_bytes, run.download_secs)
        ));
        sink.flush(env.stderr);
    }
    if let (Some(j), Some(f)) = (run.jar.as_mut(), &opts.save_cookies) {
        if !opts.keep_session_cookies {
            j.drop_session_cookies();
        }
        let _ = fs::write(f, j.to_wget_file(&format_stamp((env.now)())));
    }
    let _ = env.stdout.flush();
    status
}

fn secs_text(s: f64) -> String {
    if s < 10.0 {
        format!("{:.2}s", s)
    } else {
        format!("{:.0}s", s)
    }
}

fn io_text(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Where wget saves a URL without -O: under -P, the directories -x asks
/// for (`HOST[:PORT]`, less with -nH; the URL's decoded directories, less
/// --cut-dirs ones), then the file name (`default_page` for a directory).
pub(super) fn local_path(opts: &Opts, url: &Url, default_page: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(p) = &opts.prefix {
        parts.push(p.trim_end_matches('/').to_string());
    }
    if opts.dirs() {
        if opts.protocol_dirs {
            parts.push(url.scheme.clone());
        }
        if !opts.no_host_dirs {
            parts.push(match url.port {
                Some(p) if p != url.default_port() => format!("{}:{}", url.host_bare(), p),
                _ => url.host_bare().to_string(),
            });
        }
        let dirs: Vec<&str> = url.path.split('/').filter(|d| !d.is_empty()).collect();
        let dirs = &dirs[..dirs
            .len()
            .saturating_sub(if url.path.ends_with('/') { 0 } else { 1 })];
        parts.extend(
            dirs.iter()
                .skip(opts.cut_dirs as usize)
                .map(|d| percent_decode(d)),
        );
    }
    parts.push(url_file_name(url, default_page));
    parts.join("/")
}

/// The file name wget picks: the last path segment (decoded) with the
/// query, or the default page (index.html).
fn url_file_name(url: &Url, default_page: &str) -> String {
    let seg = percent_decode(&url.file_name());
    let mut name = if seg.is_empty() {
        default_page.to_string()
    } else {
        seg
    };
    if let Some(q) = &url.query {
        name.push('?');
        name.push_str(q);
    }
    name.replace('/', "%2F")
}

/// `name`, or `name.1`, `name.2` ... whichever does not exist yet.
fn unique(path: &str) -> String {
    if !Path::new(path).exists() {
        return path.to_string();
    }
    let mut n = 1;
    loop {
        let p = format!("{}.{}", path, n);
        if !Path::new(&p).exists() {
            return p;
        }
        n += 1;
    }
}

/// What one attempt ended in.
enum Outcome {
    Done(i32),
    /// A network failure worth another try (wget's "Retrying.").
    Retry(i32),
}

impl Run<'_> {
    /// One URL with its log, written out when it is done.
    pub(super) fn fetch_logged(&mut self, env: &mut Env, sink: &mut Sink, text: &str) -> i32 {
        let code = self.fetch(env, &mut sink.log(), text);
        sink.flush(env.stderr);
        code
    }

    /// A host's robots.txt, fetched as wget does: without -N.
    pub(super) fn fetch_robots(&mut self, env: &mut Env, sink: &mut Sink, text: &str) -> i32 {
        self.robots_fetch = true;
        let code = self.fetch_logged(env, sink, text);
        self.robots_fetch = false;
        code
    }

    /// Whether -N applies to this retrieval.
    fn timestamping(&self) -> bool {
        self.opts.timestamping && !self.robots_fetch
    }

    fn fetch(&mut self, env: &mut Env, log: &mut Log, text: &str) -> i32 {
        if let Some(ftp) = Url::parse_ftp(&escape_unsafe(text)) {
            return self.ftp_unavailable(env, log, text, ftp);
        }
        let url = match Url::parse(&escape_unsafe(text), true) {
            Ok(u) => u,
            Err(UrlError::Unsupported(s)) => {
                log.brief(&format!("{}: Unsupported scheme '{}'.\n", text, s));
                return GENERIC;
            }
            Err(UrlError::Malformed) => {
                let why = if text.contains('[') && !text.contains(']') {
                    "Unterminated IPv6 numeric address"
                } else {
                    "Invalid URL"
                };
                log.brief(&format!("{}: {}.\n", text, why));
                return GENERIC;
            }
        };
        if self.opts.spider {
            log.verbose("Spider mode enabled. Check if remote file exists.\n");
        }
        let tries = if self.opts.tries == 0 {
            u32::MAX
        } else {
            self.opts.tries
        };
        let mut attempt = 1;
        loop {
            match self.attempt(env, log, &url, attempt) {
                Outcome::Done(c) => return c,
                Outcome::Retry(c) => {
                    if attempt >= tries {
                        log.verbose("Giving up.\n\n");
                        return c;
                    }
                    log.verbose("Retrying.\n\n");
                    let wait = (attempt as f64).min(self.opts.waitretry.unwrap_or(10.0));
                    (env.sleep)(Duration::from_secs_f64(wait));
                    attempt += 1;
                }
            }
        }
    }

    /// An ftp:// or ftps:// URL. The real wget connects to the FTP server;
    /// the gateway speaks only HTTP and HTTPS, so ours fails where that
    /// connection would, with wget's lines and its network status (4).
    fn ftp_unavailable(
        &mut self,
        env: &mut Env,
        log: &mut Log,
        text: &str,
        url: Result<Url, UrlError>,
    ) -> i32 {
        let mut url = match url {
            Ok(u) => u,
            Err(_) => {
                log.brief(&format!("{}: Invalid URL.\n", text));
                return GENERIC;
            }
        };
        // FTP has no query: wget lists the directory a name-less URL is.
        url.query = None;
        let name = match &self.document {
            Document::Stdout => "-".to_string(),
            Document::File(p, _) => p.clone(),
            Document::None => local_path(self.opts, &url, ".listing"),
        };
        // -O FILE is opened (emptied) before the connection, as wget does.
        if let Document::File(p, f @ None) = &mut self.document {
            match File::create(p.as_str()) {
                Ok(file) => *f = Some(file),
                Err(e) => {
                    let _ = writeln!(env.stderr, "{}: {}", p, io_text(&e));
                    return GENERIC;
                }
            }
        }
        log.verbose(&format!("--{}--  {}\n", format_stamp((env.now)()), url));
        log.verbose(&format!("           => '{}'\n", name));
        log.verbose(&format!(
            "Connecting to {}:{}... ",
            url.host_bare(),
            url.port_or_default()
        ));
        log.brief(
            "failed: FTP is not available in the sandbox (the network gateway speaks HTTP and HTTPS only).\n",
        );
        NETWORK
    }

    fn attempt(&mut self, env: &mut Env, log: &mut Log, original: &Url, attempt: u32) -> Outcome {
        let opts = self.opts;
        let mut attempt = attempt;
        let mut url = original.clone();
        let mut method = opts.method.clone().unwrap_or_else(|| {
            if opts.post_data.is_some() || opts.post_file.is_some() {
                "POST".to_string()
            } else if opts.spider {
                "HEAD".to_string()
            } else {
                "GET".to_string()
            }
        });
        // --body-file is --post-file for the method --method names.
        let body_file = opts.post_file.as_ref().or(opts.body_file.as_ref());
        let mut body: Option<Vec<u8>> = match (&opts.post_data, body_file, &opts.body_data) {
            (Some(d), _, _) => Some(d.as_bytes().to_vec()),
            (None, Some(f), _) => match fs::read(f) {
                Ok(b) => Some(b),
                Err(e) => {
                    log.brief(&format!("{}: {}\n", f, io_text(&e)));
                    return Outcome::Done(FILE_IO);
                }
            },
            (None, None, Some(d)) => Some(d.as_bytes().to_vec()),
            _ => None,
        };
        // Where the body goes, decided before the request as wget does
        // (Content-Disposition may rename it once the head is in).
        let page = opts.default_page.as_deref().unwrap_or("index.html");
        // -nc: an existing file is not fetched again.
        if opts.no_clobber {
            let existing = match &self.document {
                Document::None => Some(local_path(opts, original, page)),
                Document::File(p, None) => Some(p.clone()),
                _ => None,
            };
            if let Some(n) = existing.filter(|n| Path::new(n).exists()) {
                let msg = format!("File '{}' already there; not retrieving.\n", n);
                if matches!(self.document, Document::None) {
                    log.verbose(&format!("{}\n", msg));
                    self.keep_existing(&n, original);
                    return Outcome::Done(0);
                }
                log.brief(&msg);
                return Outcome::Done(GENERIC);
            }
        }
        // -O FILE is opened (and emptied, unless -c resumes it) before
        // anything is fetched; failing that is said even with -q.
        let mut document_resume = 0u64;
        if let Document::File(p, f @ None) = &mut self.document {
            let opened = if opts.continue_ {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p.as_str())
            } else {
                File::create(p.as_str())
            };
            match opened {
                Ok(file) => {
                    if opts.continue_ {
                        document_resume = file.metadata().map(|m| m.len()).unwrap_or(0);
                    }
                    *f = Some(file)
                }
                Err(e) => {
                    let _ = writeln!(env.stderr, "{}: {}", p, io_text(&e));
                    return Outcome::Done(GENERIC);
                }
            }
        }
        let mut redirects = 0u32;
        // The connection a next hop may reuse: host, port, and whether the
        // server kept it open (wget reconnects after `Connection: close`).
        let mut previous: Option<(String, u16)> = None;
        let started = Instant::now();
        loop {
            let stamp = format_stamp((env.now)());
            if attempt > 1 && redirects == 0 {
                log.verbose(&format!("--{}--  (try:{:2})  {}\n", stamp, attempt, url));
            } else {
                log.verbose(&format!("--{}--  {}\n", stamp, url));
            }
            let local_name = match &self.document {
                Document::None => Some(local_path(opts, original, page)),
                _ => None,
            };
            let mut resume = document_resume;
            if opts.continue_ {
                if let Some(n) = &local_name {
                    resume = fs::metadata(n).map(|m| m.len()).unwrap_or(0);
                }
            }
            let mut headers: Vec<(String, String)> = Vec::new();
            let custom = |n: &str| {
                opts.headers.iter().any(|h| {
                    h.split(':')
                        .next()
                        .unwrap_or("")
                        .trim()
                        .eq_ignore_ascii_case(n)
                })
            };
            if resume > 0 && !custom("range") {
                headers.push(("Range".into(), format!("bytes={}-", resume)));
            }
            if let Some(r) = &opts.referer {
                headers.push(("Referer".into(), r.clone()));
            }
            // -N: the local file's time, for the server to answer 304.
            let local_mtime = if self.timestamping() {
                local_name.as_ref().and_then(|n| mtime_secs(n))
            } else {
                None
            };
            if let Some(t) = local_mtime {
                if !custom("if-modified-since") {
                    headers.push(("If-Modified-Since".into(), format_http_date(t)));
                }
            }
            // `-U ''` sends none.
            match &opts.user_agent {
                Some(ua) if ua.is_empty() => {}
                ua => headers.push((
                    "User-Agent".into(),
                    ua.clone().unwrap_or_else(|| format!("Wget/{}", VERSION)),
                )),
            }
            headers.push(("Accept".into(), "*/*".into()));
            headers.push((
                "Accept-Encoding".into(),
                if opts.gzip { "gzip" } else { "identity" }.into(),
            ));
            // --user, else ~/.netrc's entry for the host (as wget reads it).
            let netrc = || {
                let home = std::env::var("HOME").ok()?;
                let text = fs::read_to_string(format!("{}/.netrc", home)).ok()?;
                crate::netrc::lookup(&text, url.host_bare())
            };
            // Credentials in the URL come first, as in wget.
            let from_url = url.userinfo.as_ref().map(|ui| {
                let (u, p) = ui.split_once(':').unwrap_or((ui, ""));
                (u.to_string(), p.to_string())
            });
            let login = match (&opts.user, from_url) {
                (_, Some(l)) => Some(l),
                (Some(u), None) => Some((u.clone(), opts.password.clone().unwrap_or_default())),
                (None, None) => netrc().map(|e| (e.login, e.password)),
            };
            if let Some((user, password)) = login {
                let cred = format!("{}:{}", user, password);
                headers.push((
                    "Authorization".into(),
                    format!("Basic {}", base64::encode(cred)),
                ));
            }
            if let Some(c) = self.jar.as_ref().and_then(|j| j.header_for(&url)) {
                if !custom("cookie") {
                    headers.push(("Cookie".into(), c));
                }
            }
            // --header replaces wget's own header of that name in place,
            // or comes after them.
            for h in &opts.headers {
                if let Some(i) = h.find(':') {
                    let (n, v) = (h[..i].trim(), h[i + 1..].trim());
                    if n.is_empty() {
                        continue;
                    }
                    match headers.iter_mut().find(|(o, _)| o.eq_ignore_ascii_case(n)) {
                        Some(slot) => slot.1 = v.to_string(),
                        None => headers.push((n.to_string(), v.to_string())),
                    }
                }
            }
            if let Some(b) = &body {
                if !custom("content-type") {
                    headers.push((
                        "Content-Type".into(),
                        "application/x-www-form-urlencoded".into(),
                    ));
                }
                headers.push(("Content-Length".into(), b.len().to_string()));
            }
            let req = Request {
                method: method.clone(),
                url: url.to_string(),
                headers,
                body: body.clone().unwrap_or_default(),
                head_only: method == "HEAD",
                decode_brotli: false,
                chunked: false,
                timeout_ms: opts
                    .timeout
                    .map(|t| (t * 1000.0).max(1.0) as u32)
                    .unwrap_or(0),
                connect_timeout_ms: opts
                    .timeout
                    .map(|t| (t * 1000.0).max(1.0) as u32)
                    .unwrap_or(0),
                max_response_bytes: 0,
                connect_to: None,
            };
            let here = (url.host_bare().to_string(), url.port_or_default());
            let literal = url.host_bare().parse::<std::net::IpAddr>().is_ok();
            let reusing = previous.as_ref() == Some(&here);
            let mut ex = match env.transport.start(&req) {
                Ok(x) => x,
                Err(e) => return self.connect_failed(log, &url, literal, &e),
            };
            let head = match ex.response() {
                Ok(h) => h,
                Err(e) if e.reason == Reason::Timeout => {
                    if !reusing {
                        self.connecting(log, &url, literal, "");
                        log.verbose("connected.\n");
                    }
                    log.verbose("HTTP request sent, awaiting response... Read error (Connection timed out) in headers.\n");
                    return Outcome::Retry(NETWORK);
                }
                Err(e) => return self.connect_failed(log, &url, literal, &e),
            };
            if reusing {
                log.verbose(&format!(
                    "Reusing existing connection to {}:{}.\n",
                    url.host_bare(),
                    url.port_or_default()
                ));
            } else {
                self.connecting(log, &url, literal, &head.address);
                log.verbose("connected.\n");
            }
            let closes = head
                .header("connection")
                .map_or(false, |v| v.eq_ignore_ascii_case("close"));
            previous = if closes { None } else { Some(here) };
            log.verbose("HTTP request sent, awaiting response... ");
            if opts.server_response {
                log.verbose("\n");
                let text = head.to_text();
                let mut lines = String::new();
                for l in text.split("\r\n").filter(|l| !l.is_empty()) {
                    lines.push_str("  ");
                    lines.push_str(l);
                    lines.push('\n');
                }
                // -S shows the headers even with -nv, and with -q.
                log.always(&lines);
            } else {
                log.verbose(&format!("{} {}\n", head.status, head.status_text));
            }
            if let Some(j) = self.jar.as_mut() {
                for c in head.headers_named("set-cookie") {
                    j.set_cookie(&url, c);
                }
            }
            let location = head.header("location").map(|s| s.to_string());
            if matches!(head.status, 301 | 302 | 303 | 307 | 308) {
                if let Some(loc) = location {
                    log.verbose(&format!("Location: {} [following]\n", loc));
                    if redirects >= opts.max_redirect {
                        log.brief(&format!("{} redirections exceeded.\n", opts.max_redirect));
                        return Outcome::Done(SERVER);
                    }
                    let next = match url.join(&loc) {
                        Ok(n) => n,
                        Err(_) => {
                            log.brief(&format!("{}: Invalid URL.\n", loc));
                            return Outcome::Done(GENERIC);
                        }
                    };
                    redirects += 1;
                    if head.status != 307 && head.status != 308 && method == "POST" {
                        method = "GET".to_string();
                        body = None;
                    }
                    url = next;
                    if opts.spider {
                        log.verbose("Spider mode enabled. Check if remote file exists.\n");
                    }
                    continue;
                }
            }
            let length = head
                .header("content-length")
                .and_then(|v| v.trim().parse::<u64>().ok());
            if let (Some(local), Some(n)) = (local_mtime, &local_name) {
                if head.status == 304 {
                    log.verbose(&format!(
                        "File '{}' not modified on server. Omitting download.\n\n",
                        n
                    ));
                    self.keep_existing(n, &url);
                    return Outcome::Done(0);
                }
                // A server that ignores If-Modified-Since: wget compares.
                let remote = head.header("last-modified").and_then(parse_http_date);
                let local_len = fs::metadata(n).map(|m| m.len()).ok();
                if head.status == 200 && remote.map_or(false, |r| r <= local) {
                    if length.is_some() && length == local_len {
                        log.verbose(&format!(
                            "Server file no newer than local file '{}' -- not retrieving.\n\n",
                            n
                        ));
                        self.keep_existing(n, &url);
                        return Outcome::Done(0);
                    }
                    log.verbose(&format!(
                        "The sizes do not match (local {}) -- retrieving.\n\n",
                        local_len.unwrap_or(0)
                    ));
                }
            }
            // A server that ignores the range sends all of it: done when the
            // local file is as long, else the file starts over.
            let complete =
                resume > 0 && head.status == 200 && length.map_or(false, |n| resume >= n);
            if (head.status == 416 && resume > 0) || complete {
                log.verbose("\n    The file is already fully retrieved; nothing to do.\n\n");
                return Outcome::Done(0);
            }
            if head.status == 200 && resume > 0 {
                if let Document::File(_, Some(f)) = &mut self.document {
                    let _ = f.set_len(0);
                }
                resume = 0;
            }
            if head.status == 401 {
                log.verbose("\n");
                log.brief("Username/Password Authentication Failed.\n");
                return Outcome::Done(AUTH);
            }
            if opts.spider {
                // A server may not do HEAD (500, 501): wget tries a GET,
                // as its next try.
                if matches!(head.status, 500 | 501) && method == "HEAD" && opts.method.is_none() {
                    if opts.no_verbose {
                        log.brief(&format!("{}:\n", url));
                    }
                    method = "GET".to_string();
                    attempt += 1;
                    continue;
                }
                return self.spider_verdict(env, log, &head, &url);
            }
            if head.status >= 400 && opts.content_on_error {
                return self.save(env, log, &head, ex, &url, local_name, resume, started);
            }
            if head.status >= 400 {
                if opts.no_verbose {
                    log.brief(&format!("{}:\n", original));
                }
                return server_error(env, log, &head);
            }
            return self.save(env, log, &head, ex, &url, local_name, resume, started);
        }
    }

    /// A local file kept as it is (-N, -nc): the recursion reads its links.
    fn keep_existing(&mut self, path: &str, url: &Url) {
        self.saved = Some(Saved {
            path: path.to_string(),
            url: url.clone(),
            kind: Kind::by_name(path),
        });
    }

    /// --spider: whether the file is there, nothing saved.
    fn spider_verdict(&self, env: &mut Env, log: &mut Log, head: &Head, url: &Url) -> Outcome {
        if head.status >= 400 {
            if self.opts.no_verbose {
                log.brief(&format!("{}:\n", url));
            }
            log.brief("Remote file does not exist -- broken link!!!\n");
            log.verbose("\n");
            return Outcome::Done(SERVER);
        }
        log_length(log, head, 0);
        log.verbose("Remote file exists.\n\n");
        if self.opts.no_verbose {
            log.brief(&format!(
                "{} URL: {} {} {}\n",
                format_stamp((env.now)()),
                url,
                head.status,
                head.status_text
            ));
        }
        Outcome::Done(0)
    }

    /// The "Resolving ... / Connecting to ..." lines up to the verdict.
    fn connecting(&self, log: &mut Log, url: &Url, literal: bool, address: &str) {
        let host = url.host_bare();
        let port = url.port_or_default();
        // A name shows its lookup only when the gateway made one (and said
        // which address it connected to); a denial may come before any.
        if literal || address.is_empty() {
            log.verbose(&format!("Connecting to {}:{}... ", host, port));
        } else {
            let addr = address;
            log.verbose(&format!("Resolving {} ({})... {}\n", host, host, addr));
            log.verbose(&format!(
                "Connecting to {} ({})|{}|:{}... ",
                host, host, addr, port
            ));
        }
    }

    fn connect_failed(&self, log: &mut Log, url: &Url, literal: bool, e: &NetError) -> Outcome {
        let host = url.host_bare();
        match e.reason {
            Reason::ResolveFailed => {
                log.verbose(&format!(
                    "Resolving {} ({})... failed: Name or service not known.\n",
                    host, host
                ));
                log.brief(&format!(
                    "wget: unable to resolve host address '{}'\n",
                    host
                ));
                Outcome::Done(NETWORK)
            }
            Reason::ConnectFailed => {
                self.connecting(log, url, literal, "");
                log.brief("failed: Connection refused.\n");
                if self.opts.retry_connrefused {
                    Outcome::Retry(NETWORK)
                } else {
                    Outcome::Done(NETWORK)
                }
            }
            Reason::Timeout => {
                self.connecting(log, url, literal, "");
                log.brief("failed: Connection timed out.\n");
                Outcome::Retry(NETWORK)
            }
            Reason::EmptyReply => {
                self.connecting(log, url, literal, "");
                log.verbose("connected.\nHTTP request sent, awaiting response... ");
                log.brief("No data received.\n");
                Outcome::Retry(NETWORK)
            }
            Reason::TlsFailed => {
                self.connecting(log, url, literal, "");
                log.brief(&format!("failed: {}.\n", e.message));
                Outcome::Done(TLS)
            }
            Reason::BadUrl | Reason::BadHeader | Reason::BadMethod => {
                log.brief(&format!("{}: {}.\n", url, e.message));
                Outcome::Done(GENERIC)
            }
            r if r.is_denial() => {
                self.connecting(log, url, literal, "");
                log.brief(&format!("failed: {}.\n", e.message));
                Outcome::Done(NETWORK)
            }
            _ => {
                self.connecting(log, url, literal, "");
                log.brief(&format!("failed: {}.\n", e.message));
                Outcome::Retry(NETWORK)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn save(
        &mut self,
        env: &mut Env,
        log: &mut Log,
        head: &Head,
        mut ex: Box<dyn crate::transport::Exchange>,
        url: &Url,
        local_name: Option<String>,
        resume: u64,
        started: Instant,
    ) -> Outcome {
        let opts = self.opts;
        let length = head
            .header("content-length")
            .and_then(|v| v.trim().parse::<u64>().ok());
        let partial = head.status == 206 && resume > 0;
        let failed = head.status >= 400;
        // 204: wget says it saved nothing, and creates no file.
        if head.status == 204 {
            drop(ex);
            let stamp = format_stamp((env.now)());
            let shown = match (&local_name, &self.document) {
                (Some(n), _) => n.clone(),
                (None, Document::File(p, _)) => p.clone(),
                _ => "-".to_string(),
            };
            log.verbose(&format!(
                "{} ({}) - '{}' saved [0]\n\n",
                stamp,
                rate(0, 0.0),
                shown
            ));
            if opts.no_verbose && !opts.quiet {
                log.brief(&format!("{} URL:{} [0] -> \"{}\" [1]\n", stamp, url, shown));
            }
            self.downloaded_files += 1;
            return Outcome::Done(0);
        }
        if !failed {
            log_length(log, head, if partial { resume } else { 0 });
        }
        // The local name: -O, else the URL's (or Content-Disposition's),
        // with .1, .2 ... when it exists (unless resuming).
        let mut name = local_name;
        if let (Some(n), true) = (&name, opts.content_disposition) {
            if let Some(d) = head.disposition_name() {
                let dir = Path::new(n)
                    .parent()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                name = Some(if dir.is_empty() {
                    d
                } else {
                    format!("{}/{}", dir, d)
                });
            }
        }
        let mut file: Option<File> = None;
        let shown;
        match (&name, &mut self.document) {
            (Some(n), _) => {
                // -c and -N write over the file, and so does -r into
                // directories; otherwise .1, .2 ...
                let mut path = if partial
                    || opts.continue_
                    || self.timestamping()
                    || (opts.recursive && opts.dirs())
                {
                    n.clone()
                } else {
                    unique(n)
                };
                // A file -A/-R reject is fetched only for its links (or the
                // robots rules), as NAME.tmp, and removed after.
                if opts.recursive && !super::accept::acceptable(opts, &path) {
                    path.push_str(".tmp");
                }
                if let Some(dir) = Path::new(&path).parent() {
                    if !dir.as_os_str().is_empty() {
                        let _ = fs::create_dir_all(dir);
                    }
                }
                let f = if partial {
                    OpenOptions::new().append(true).open(&path)
                } else {
                    File::create(&path)
                };
                match f {
                    Ok(f) => file = Some(f),
                    Err(e) => {
                        log.brief(&format!("{}: {}\n", path, io_text(&e)));
                        return Outcome::Done(FILE_IO);
                    }
                }
                shown = path;
            }
            (None, Document::Stdout) => shown = "-".to_string(),
            (None, Document::File(p, _)) => shown = p.clone(),
            (None, Document::None) => shown = String::new(),
        }
        let to_stdout = matches!(self.document, Document::Stdout) && name.is_none();
        log.verbose(&format!(
            "Saving to: '{}'\n",
            if to_stdout { "STDOUT" } else { &shown }
        ));
        if opts.save_headers {
            // --save-headers: the head as received, before the body.
            let text = head.to_text();
            let _ = match (&mut file, &mut self.document) {
                (Some(f), _) => f.write_all(text.as_bytes()),
                (None, Document::Stdout) if to_stdout => env.stdout.write_all(text.as_bytes()),
                (None, Document::File(_, Some(f))) => f.write_all(text.as_bytes()),
                _ => Ok(()),
            };
        }
        let mut dots = Dots::new(
            length.map(|n| n + if partial { resume } else { 0 }),
            if partial { resume } else { 0 },
        );
        let body_start = Instant::now();
        let mut got = 0u64;
        let mut buf = vec![0u8; BODY_CHUNK];
        // --compression=gzip decodes what came gzipped (not spliced then).
        let mut decoder = if opts.gzip {
            Decoder::for_encoding(head.header("content-encoding"))
        } else {
            Decoder::Identity
        };
        if method_has_body(head) {
            // After the first bytes (read and written as usual), the kernel
            // writes the rest of the body to the output itself: no copy
            // passes through this program.
            let mut splice = matches!(decoder, Decoder::Identity);
            loop {
                let fd = if splice && got > 0 {
                    match (&mut file, &mut self.document) {
                        (Some(f), _) => crate::file_fd(f),
                        (None, Document::Stdout) => env.stdout.flush().ok().and(env.stdout_fd),
                        (None, Document::File(_, Some(f))) => crate::file_fd(f),
                        _ => None,
                    }
                } else {
                    None
                };
                // (bytes, written already, a failed write's errno)
                let step = match fd.and_then(|fd| ex.splice_body(fd, SPLICE_MAX)) {
                    Some(Ok(n)) => Ok((n, true, None)),
                    Some(Err(SpliceError::Write(no))) => Ok((0, true, Some(no))),
                    Some(Err(SpliceError::Net(e))) => Err(e),
                    None => {
                        splice = splice && fd.is_none();
                        ex.read_body(&mut buf).map(|n| (n, false, None))
                    }
                };
                let (n, written, write_errno) = match step {
                    Ok(v) => v,
                    Err(e) => {
                        let secs = body_start.elapsed().as_secs_f64();
                        dots.finish(log, secs);
                        let at = got + resume;
                        // wget's words: an end before the declared length is
                        // no read error; a read that failed names its errno
                        // ("Success" for a chunked body cut short).
                        let why = match e.reason {
                            Reason::Timeout => "Connection timed out".to_string(),
                            Reason::PartialBody => "Success".to_string(),
                            _ => e.message.clone(),
                        };
                        let what = match (e.reason, length) {
                            (Reason::PartialBody, Some(_)) => {
                                format!("Connection closed at byte {}. ", at)
                            }
                            (_, Some(n)) => format!(
                                "Read error at byte {}/{} ({}). ",
                                at,
                                n + if partial { resume } else { 0 },
                                why
                            ),
                            (_, None) => format!("Read error at byte {} ({}).", at, why),
                        };
                        log.verbose(&format!(
                            "{} ({}) - {}",
                            format_stamp((env.now)()),
                            rate(got, secs),
                            what
                        ));
                        return Outcome::Retry(NETWORK);
                    }
                };
                if n == 0 && write_errno.is_none() {
                    break;
                }
                got += n as u64;
                // Spliced bytes were written by the kernel already.
                let read = if written { &[][..] } else { &buf[..n] };
                let piece = match decoder.feed(read) {
                    Ok(p) => p.into_owned(),
                    Err(e) => {
                        log.brief(&format!(
                            "Cannot decompress '{}' ({}).\n",
                            shown,
                            io_text(&e)
                        ));
                        return Outcome::Done(GENERIC);
                    }
                };
                let w = match (write_errno, written, &mut file, &mut self.document) {
                    (Some(no), ..) => Err(std::io::Error::from_raw_os_error(no)),
                    (None, true, ..) => Ok(()),
                    (None, false, Some(f), _) => f.write_all(&piece),
                    (None, false, None, Document::Stdout) => env.stdout.write_all(&piece),
                    (None, false, None, Document::File(_, Some(f))) => f.write_all(&piece),
                    _ => Ok(()),
                };
                if let Err(e) = w {
                    if got <= STDIO_BUFFER && !written {
                        // wget's stdio buffer held these bytes: it finds the
                        // failure when it flushes, after the last dots line
                        // (which counted nothing written).
                        dots.finish(log, body_start.elapsed().as_secs_f64());
                        log.verbose("\n");
                    } else {
                        dots.interrupt(log);
                    }
                    log.brief(&format!("Cannot write to '{}' ({}).\n", shown, io_text(&e)));
                    return Outcome::Done(FILE_IO);
                }
                dots.add(log, n as u64);
            }
        }
        if let Ok(rest) = decoder.finish() {
            let _ = match (&mut file, &mut self.document) {
                (Some(f), _) => f.write_all(&rest),
                (None, Document::Stdout) => env.stdout.write_all(&rest),
                (None, Document::File(_, Some(f))) => f.write_all(&rest),
                _ => Ok(()),
            };
        }
        drop(ex);
        let secs = body_start.elapsed().as_secs_f64();
        dots.finish(log, secs);
        if failed {
            // --content-on-error kept the body; the error stands.
            return server_error(env, log, head);
        }
        if self.timestamping() && head.header("last-modified").is_none() {
            log.verbose("Last-modified header missing -- time-stamps turned off.\n");
        }
        // The file takes the server's time (wget does so always, -N or not).
        if let Some(t) = head
            .header("last-modified")
            .and_then(parse_http_date)
            .filter(|_| file.is_some())
        {
            drop(file.take());
            let _ = coreutils_core::meta::set_times(
                Path::new(&shown),
                None,
                Some((t.max(0) as u64) * 1_000_000_000),
                true,
            );
        }
        let _ = started;
        if name.is_some() {
            self.saved = Some(Saved {
                path: shown.clone(),
                url: url.clone(),
                kind: Kind::of(head.header("content-type")),
            });
        }
        self.downloaded_files += 1;
        self.downloaded_bytes += got;
        self.download_secs += secs;
        let size = match length {
            Some(n) => format!(
                "[{}/{}]",
                got + resume,
                n + if partial { resume } else { 0 }
            ),
            None => format!("[{}]", got),
        };
        let stamp = format_stamp((env.now)());
        let r = rate(got, secs);
        if to_stdout {
            log.verbose(&format!(
                "{} ({}) - written to stdout {}\n\n",
                stamp, r, size
            ));
        } else {
            log.verbose(&format!(
                "{} ({}) - '{}' saved {}\n\n",
                stamp, r, shown, size
            ));
        }
        if opts.no_verbose && !opts.quiet {
            log.brief(&format!(
                "{} URL:{} {} -> \"{}\" [1]\n",
                stamp,
                url,
                size,
                if to_stdout { "-" } else { &shown }
            ));
        }
        Outcome::Done(0)
    }
}

/// wget's line for a 4xx/5xx answer, and its exit status.
fn server_error(env: &mut Env, log: &mut Log, head: &Head) -> Outcome {
    log.brief(&format!(
        "{} ERROR {}: {}.\n",
        format_stamp((env.now)()),
        head.status,
        head.status_text
    ));
    log.verbose("\n");
    Outcome::Done(SERVER)
}

/// What wget's stdio buffer holds before a write reaches the file.
const STDIO_BUFFER: u64 = 4096;

/// A file's modification time in Unix seconds, if it exists.
fn mtime_secs(path: &str) -> Option<i64> {
    let m = fs::metadata(path).ok()?.modified().ok()?;
    let d = m.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(d.as_secs() as i64)
}

/// The `Length:` line: total, what remains after `resume` bytes, type.
fn log_length(log: &mut Log, head: &Head, resume: u64) {
    let length = head
        .header("content-length")
        .and_then(|v| v.trim().parse::<u64>().ok());
    let ctype = head
        .header("content-type")
        .map(|t| format!(" [{}]", t))
        .unwrap_or_default();
    match length {
        Some(n) if resume > 0 => {
            let total = n + resume;
            log.verbose(&format!(
                "Length: {} ({}), {} ({}) remaining{}\n",
                total,
                human(total),
                n,
                human(n),
                ctype
            ));
        }
        Some(n) if n >= 1024 => log.verbose(&format!("Length: {} ({}){}\n", n, human(n), ctype)),
        Some(n) => log.verbose(&format!("Length: {}{}\n", n, ctype)),
        None => log.verbose(&format!("Length: unspecified{}\n", ctype)),
    }
}

fn method_has_body(head: &Head) -> bool {
    !(head.status == 204 || head.status == 304)
}

const HELP: &str = "GNU Wget 1.21.3, a non-interactive network retriever (sandglass).
Usage: wget [OPTION]... [URL]...

  -V,  --version                   display the version of Wget and exit
  -h,  --help                      print this help
  -o,  --output-file=FILE          log messages to FILE
  -a,  --append-output=FILE        append messages to FILE
  -q,  --quiet                     quiet (no output)
  -nv, --no-verbose                turn off verboseness, without being quiet
  -i,  --input-file=FILE           download URLs found in local or external FILE
  -t,  --tries=NUMBER              set number of retries to NUMBER (0 unlimits)
       --retry-connrefused         retry even if connection is refused
  -O,  --output-document=FILE      write documents to FILE
  -c,  --continue                  resume getting a partially-downloaded file
  -S,  --server-response           print server response
  -T,  --timeout=SECONDS           set all timeout values to SECONDS
  -P,  --directory-prefix=PREFIX   save files to PREFIX/..
       --user=USER                 set http user to USER
       --password=PASS             set http password to PASS
       --header=STRING             insert STRING among the headers
       --max-redirect              maximum redirections allowed per page
       --post-data=STRING          use the POST method; send STRING as the data
       --post-file=FILE            use the POST method; send contents of FILE
       --method=HTTPMethod         use method \"HTTPMethod\" in the request
       --body-data=STRING          send STRING as data (--method must be set)
       --content-disposition       honor the Content-Disposition header
  -U,  --user-agent=AGENT          identify as AGENT instead of Wget/VERSION
       --no-cookies                don't use cookies
       --load-cookies=FILE         load cookies from FILE before session
       --save-cookies=FILE         save cookies to FILE after session
       --keep-session-cookies      load and save session (non-permanent) cookies

Connections, TLS and certificate checks are the sandbox's network gateway's;
its policy decides which hosts can be reached.
";
