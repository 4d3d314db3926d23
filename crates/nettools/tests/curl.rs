//! curl end to end against the scripted transport.

mod common;

use common::{run, scratch};
use nettools::fake::{head, FakeTransport};
use nettools::transport::{NetError, Reason};

fn site() -> FakeTransport {
    FakeTransport::default()
        .route("/text", |_| Ok((head(200, "OK", &[("Content-Type", "text/plain"), ("Content-Length", "6")]), b"hello\n".to_vec())))
        .route("/missing", |_| Ok((head(404, "Not Found", &[("Content-Length", "5")]), b"nope\n".to_vec())))
        .route("/loop", |_| Ok((head(302, "Found", &[("Location", "/loop")]), Vec::new())))
        .route("/moved", |_| Ok((head(301, "Moved Permanently", &[("Location", "/text")]), b"moved".to_vec())))
        .route("/see", |_| Ok((head(303, "See Other", &[("Location", "/echo")]), Vec::new())))
        .route("/cookie", |_| Ok((head(200, "OK", &[("Set-Cookie", "sid=42; Path=/"), ("Content-Length", "0")]), Vec::new())))
        .route("/echo", common::echo)
        .route("/denied", |_| {
            Err(NetError::new(Reason::NotAllowed, "network policy denied h.test:80: no allowedHosts entry matches (network access is denied by default)"))
        })
        .route("/refused", |_| Err(NetError::new(Reason::ConnectFailed, "connect ECONNREFUSED")))
        .route("/slow", |_| Err(NetError::new(Reason::Timeout, "timed out")))
        .route("/unresolved", |_| Err(NetError::new(Reason::ResolveFailed, "ENOTFOUND")))
        .route("/badheader", |_| {
            Err(NetError::new(Reason::BadHeader, "header \"X\" has a CR or LF"))
        })
        .route("/busy", |_| Ok((head(503, "Service Unavailable", &[]), b"busy\n".to_vec())))
}

const C: fn(&[String], &mut nettools::Env) -> i32 = nettools::curl::main;

#[test]
fn body_to_stdout_and_write_out() {
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-w",
            "%{http_code} %{size_download} %{url_effective} %{content_type}\\n",
            "http://h.test/text",
        ],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.out, "hello\n200 6 http://h.test/text text/plain\n");
    assert_eq!(r.err, "");
    let h = &r.requests[0].headers;
    assert_eq!(h[0], ("User-Agent".to_string(), "curl/7.88.1".to_string()));
    assert_eq!(h[1], ("Accept".to_string(), "*/*".to_string()));
}

#[test]
fn include_and_head() {
    let r = run(C, &["curl", "-si", "http://h.test/text"], site(), b"");
    assert_eq!(
        r.out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
    );
    let r = run(C, &["curl", "-sI", "http://h.test/text"], site(), b"");
    assert_eq!(r.requests[0].method, "HEAD");
    assert!(r.requests[0].head_only);
    assert_eq!(
        r.out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n"
    );
}

#[test]
fn fail_codes_and_messages() {
    let r = run(C, &["curl", "-f", "http://h.test/missing"], site(), b"");
    assert_eq!((r.code, r.out.as_str()), (22, ""));
    assert_eq!(r.err, "curl: (22) The requested URL returned error: 404\n");
    let r = run(
        C,
        &["curl", "-s", "-f", "http://h.test/missing"],
        site(),
        b"",
    );
    assert_eq!((r.code, r.err.as_str()), (22, ""));
    let r = run(
        C,
        &["curl", "-sS", "--fail-with-body", "http://h.test/missing"],
        site(),
        b"",
    );
    assert_eq!((r.code, r.out.as_str()), (22, "nope\n"));
    let r = run(C, &["curl", "http://h.test/missing"], site(), b"");
    assert_eq!((r.code, r.out.as_str()), (0, "nope\n"));
}

#[test]
fn network_errors_map_to_curl_codes() {
    let r = run(C, &["curl", "-sS", "http://h.test/denied"], site(), b"");
    assert_eq!(r.code, 7);
    assert_eq!(r.err, "curl: (7) Failed to connect to h.test port 80: network policy denied h.test:80: no allowedHosts entry matches (network access is denied by default)\n");
    let r = run(C, &["curl", "-sS", "http://h.test:8/refused"], site(), b"");
    assert_eq!(r.code, 7);
    assert!(
        r.err
            .starts_with("curl: (7) Failed to connect to h.test port 8 after "),
        "{}",
        r.err
    );
    assert!(
        r.err.ends_with(" ms: Couldn't connect to server\n"),
        "{}",
        r.err
    );
    let r = run(
        C,
        &["curl", "-sS", "http://nowhere.test/unresolved"],
        site(),
        b"",
    );
    assert_eq!(
        (r.code, r.err.as_str()),
        (6, "curl: (6) Could not resolve host: nowhere.test\n")
    );
    let r = run(
        C,
        &["curl", "-sS", "-m", "1", "http://h.test/slow"],
        site(),
        b"",
    );
    assert_eq!(r.code, 28);
    assert!(r.err.starts_with("curl: (28) Operation timed out after "));
    assert!(r.requests[0].timeout_ms > 0);
    let r = run(C, &["curl", "-sS", "sftp://h.test/"], site(), b"");
    assert_eq!(
        (r.code, r.err.as_str()),
        (
            1,
            "curl: (1) Protocol \"sftp\" not supported or disabled in libcurl\n"
        )
    );
    let r = run(C, &["curl", "-sS", "http://h.test/badheader"], site(), b"");
    assert_eq!(
        (r.code, r.err.as_str()),
        (43, "curl: (43) header \"X\" has a CR or LF\n")
    );
    let r = run(C, &["curl", "-sS", "http://"], site(), b"");
    assert_eq!(r.code, 3);
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-w",
            "%{http_code}|%{exitcode}",
            "http://h.test/denied",
        ],
        site(),
        b"",
    );
    assert_eq!((r.out.as_str(), r.err.as_str()), ("000|7", ""));
}

#[test]
fn redirects() {
    let r = run(
        C,
        &[
            "curl",
            "-sL",
            "-w",
            "|%{num_redirects} %{url_effective}",
            "http://h.test/moved",
        ],
        site(),
        b"",
    );
    assert_eq!(r.out, "hello\n|1 http://h.test/text");
    let r = run(
        C,
        &["curl", "-s", "-w", "%{redirect_url}", "http://h.test/moved"],
        site(),
        b"",
    );
    assert_eq!(r.out, "movedhttp://h.test/text");
    let r = run(
        C,
        &["curl", "-sSL", "--max-redirs", "3", "http://h.test/loop"],
        site(),
        b"",
    );
    assert_eq!(
        (r.code, r.err.as_str()),
        (47, "curl: (47) Maximum (3) redirects followed\n")
    );
    assert_eq!(r.requests.len(), 4);
    let r = run(
        C,
        &["curl", "-sL", "-d", "a=1", "http://h.test/see"],
        site(),
        b"",
    );
    assert_eq!(r.requests[1].method, "GET");
    assert!(r.requests[1].body.is_empty());
    let r = run(C, &["curl", "-siL", "http://h.test/moved"], site(), b"");
    assert!(
        r.out.starts_with(
            "HTTP/1.1 301 Moved Permanently\r\nLocation: /text\r\n\r\nHTTP/1.1 200 OK\r\n"
        ),
        "{}",
        r.out
    );
}

#[test]
fn request_bodies() {
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-d",
            "a=1",
            "-d",
            "b=2",
            "--data-urlencode",
            "c=x y",
            "http://h.test/echo",
        ],
        site(),
        b"",
    );
    assert!(r.out.starts_with("POST http://h.test/echo\n"), "{}", r.out);
    assert!(
        r.out
            .contains("Content-Length: 13\nContent-Type: application/x-www-form-urlencoded\n"),
        "{}",
        r.out
    );
    assert!(r.out.ends_with("a=1&b=2&c=x+y"), "{}", r.out);
    let r = run(
        C,
        &["curl", "-s", "-G", "-d", "q=1", "http://h.test/echo?x=0"],
        site(),
        b"",
    );
    assert!(
        r.out.starts_with("GET http://h.test/echo?x=0&q=1\n"),
        "{}",
        r.out
    );
    let r = run(
        C,
        &["curl", "-s", "--json", "{\"k\":1}", "http://h.test/echo"],
        site(),
        b"",
    );
    assert!(
        r.out
            .contains("Content-Type: application/json\nAccept: application/json\n"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("*/*"));
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "--data-binary",
            "@-",
            "-X",
            "PUT",
            "http://h.test/echo",
        ],
        site(),
        b"raw\r\nbytes",
    );
    assert!(r.out.starts_with("PUT "));
    assert!(r.out.ends_with("raw\r\nbytes"));
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-F",
            "a=1",
            "-F",
            "b=two",
            "http://h.test/echo",
        ],
        site(),
        b"",
    );
    let ct = r.requests[0]
        .headers
        .iter()
        .find(|(n, _)| n == "Content-Type")
        .unwrap();
    let boundary = ct.1.strip_prefix("multipart/form-data; boundary=").unwrap();
    assert_eq!(boundary.len(), 40);
    let body = String::from_utf8(r.requests[0].body.clone()).unwrap();
    assert_eq!(body, format!("--{b}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--{b}\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\ntwo\r\n--{b}--\r\n", b = boundary));
}

#[test]
fn headers_user_agent_referer_auth() {
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-H",
            "X-A: 1",
            "-H",
            "Accept:",
            "-H",
            "X-Empty;",
            "-A",
            "agent/1",
            "-e",
            "http://ref/",
            "-u",
            "u:p",
            "http://h.test/echo",
        ],
        site(),
        b"",
    );
    let h: Vec<String> = r.requests[0]
        .headers
        .iter()
        .map(|(n, v)| format!("{}: {}", n, v))
        .collect();
    assert_eq!(
        h,
        [
            "Authorization: Basic dTpw",
            "User-Agent: agent/1",
            "Referer: http://ref/",
            "X-A: 1",
            "X-Empty: "
        ]
    );
    let r = run(
        C,
        &["curl", "-s", "http://user:pw@h.test/echo"],
        site(),
        b"",
    );
    assert_eq!(r.requests[0].url, "http://h.test/echo");
    assert_eq!(r.requests[0].headers[0].1, "Basic dXNlcjpwdw==");
}

#[test]
fn cookies_round_trip() {
    let d = scratch("curl-cookies");
    let jar = d.join("jar.txt");
    let jar_s = jar.to_str().unwrap();
    let r = run(
        C,
        &["curl", "-s", "-c", jar_s, "http://h.test/cookie"],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    let text = std::fs::read_to_string(&jar).unwrap();
    assert!(text.starts_with("# Netscape HTTP Cookie File\n"));
    assert!(
        text.contains("h.test\tFALSE\t/\tFALSE\t0\tsid\t42\n"),
        "{}",
        text
    );
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-b",
            jar_s,
            "-b",
            "extra=1",
            "http://h.test/echo",
        ],
        site(),
        b"",
    );
    assert!(r.out.contains("Cookie: sid=42; extra=1\n"), "{}", r.out);
}

#[test]
fn output_files() {
    let d = scratch("curl-out");
    let ds = d.to_str().unwrap();
    let r = run(
        C,
        &["curl", "-s", "-O", "--output-dir", ds, "http://h.test/text"],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    assert_eq!(std::fs::read(d.join("text")).unwrap(), b"hello\n");
    let f = d.join("o.txt");
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-o",
            f.to_str().unwrap(),
            "-w",
            "%{filename_effective}",
            "http://h.test/text",
        ],
        site(),
        b"",
    );
    assert_eq!(r.out, f.to_str().unwrap());
    let r = run(C, &["curl", "-sS", "-O", "http://h.test/"], site(), b"");
    assert_eq!(
        (r.code, r.err.as_str()),
        (
            23,
            "curl: (23) Failed writing received data to disk/application\n"
        )
    );
    let r = run(
        C,
        &[
            "curl",
            "-sS",
            "-o",
            &format!("{}/no/such/x", ds),
            "http://h.test/text",
        ],
        site(),
        b"",
    );
    assert_eq!(
        (r.code, r.err.as_str()),
        (23, "curl: (23) Failure writing output to destination\n")
    );
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "--create-dirs",
            "-o",
            &format!("{}/a/b/x", ds),
            "http://h.test/text",
        ],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    let dump = d.join("h.txt");
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "-D",
            dump.to_str().unwrap(),
            "http://h.test/text",
        ],
        site(),
        b"",
    );
    assert_eq!(r.out, "hello\n");
    assert!(std::fs::read_to_string(dump)
        .unwrap()
        .starts_with("HTTP/1.1 200 OK\r\n"));
    // -f leaves no file behind.
    let g = d.join("gone");
    let r = run(
        C,
        &[
            "curl",
            "-sf",
            "-o",
            g.to_str().unwrap(),
            "http://h.test/missing",
        ],
        site(),
        b"",
    );
    assert_eq!(r.code, 22);
    assert!(!g.exists());
}

#[test]
fn retries() {
    let r = run(
        C,
        &["curl", "-sS", "--retry", "2", "-f", "http://h.test/busy"],
        site(),
        b"",
    );
    assert_eq!(r.code, 22);
    assert_eq!(r.requests.len(), 3);
    assert_eq!(r.sleeps.len(), 2);
    // Every failed attempt says so (curl 7.88), -w only at the end.
    assert_eq!(
        r.err
            .matches("curl: (22) The requested URL returned error: 503\n")
            .count(),
        3
    );
    let d = scratch("curl-retry");
    let f = d.join("out");
    let r = run(
        C,
        &[
            "curl",
            "--retry",
            "1",
            "--retry-delay",
            "3",
            "-o",
            f.to_str().unwrap(),
            "http://h.test/busy",
        ],
        site(),
        b"",
    );
    assert_eq!(r.sleeps, [std::time::Duration::from_secs(3)]);
    assert!(
        r.err.contains(
            "Warning: Problem : HTTP error. Will retry in 3 seconds. 1 retries left.\nThrowing away 5 bytes\n"
        ),
        "{}",
        r.err
    );
    assert_eq!(std::fs::read(&f).unwrap(), b"busy\n");
    // An output that cannot be truncated ends it, before the sleep and -w.
    let r = run(
        C,
        &[
            "curl",
            "--retry",
            "1",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "http://h.test/busy",
        ],
        site(),
        b"",
    );
    assert_eq!((r.code, r.out.as_str()), (23, ""));
    assert!(r.sleeps.is_empty());
    assert!(
        r.err
            .ends_with("Throwing away 5 bytes\ncurl: (23) Failed to truncate file\n"),
        "{}",
        r.err
    );
}

#[test]
fn argument_errors() {
    let r = run(C, &["curl", "--nope"], site(), b"");
    assert_eq!((r.code, r.err.as_str()), (2, "curl: option --nope: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n"));
    let r = run(C, &["curl"], site(), b"");
    assert_eq!(
        (r.code, r.err.as_str()),
        (
            2,
            "curl: try 'curl --help' or 'curl --manual' for more information\n"
        )
    );
}

#[test]
fn verbose_lines() {
    let r = run(C, &["curl", "-sv", "http://h.test:8080/text"], site(), b"");
    assert!(r.err.contains("> GET /text HTTP/1.1\r\n> Host: h.test:8080\r\n> User-Agent: curl/7.88.1\r\n> Accept: */*\r\n> \r\n"), "{}", r.err);
    assert!(
        r.err
            .contains("< HTTP/1.1 200 OK\r\n< Content-Type: text/plain\r\n"),
        "{}",
        r.err
    );
    assert!(
        r.err.starts_with("*   Trying h.test:8080...\n"),
        "{}",
        r.err
    );
}

#[test]
fn globbing_with_numbered_outputs_and_url_query() {
    let d = scratch("glob");
    let out = d.join("o_#1").to_string_lossy().into_owned();
    let r = run(
        C,
        &[
            "curl",
            "-s",
            "--url-query",
            "q=a b",
            "-o",
            &out,
            "http://h.test/{text,echo}",
        ],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    let urls: Vec<&str> = r.requests.iter().map(|q| q.url.as_str()).collect();
    assert_eq!(
        urls,
        ["http://h.test/text?q=a+b", "http://h.test/echo?q=a+b"]
    );
    assert_eq!(
        std::fs::read_to_string(d.join("o_text")).unwrap(),
        "hello\n"
    );
    assert!(std::fs::read_to_string(d.join("o_echo"))
        .unwrap()
        .starts_with("GET "));
    let bad = run(C, &["curl", "-sS", "http://h.test/{a"], site(), b"");
    assert_eq!(bad.code, 3);
    assert_eq!(
        bad.err,
        "curl: (3) unmatched brace in URL position 15:\nhttp://h.test/{a\n              ^\n"
    );
}

#[test]
fn config_file_and_netrc() {
    let d = scratch("config");
    let cfg = d.join("cfg");
    let nrc = d.join("nrc");
    std::fs::write(&nrc, "machine h.test login u password p\n").unwrap();
    std::fs::write(
        &cfg,
        format!(
            "silent\nurl = \"http://h.test/echo\"\nnetrc-file {}\nbogus\n",
            nrc.display()
        ),
    )
    .unwrap();
    let r = run(C, &["curl", "-K", &cfg.to_string_lossy()], site(), b"");
    assert_eq!(r.code, 0);
    // -s hides the config file's warnings as curl does.
    assert_eq!(r.err, "");
    assert!(r.out.contains("Authorization: Basic dTpw\n"), "{}", r.out);
    let missing = run(C, &["curl", "-K", "/nonexistent/cfg"], site(), b"");
    assert_eq!(missing.code, 26);
    assert!(missing
        .err
        .starts_with("curl: cannot read config from '/nonexistent/cfg'\n"));
}

#[test]
fn ftp_fails_like_a_connection() {
    let r = run(C, &["curl", "-sS", "ftp://127.0.0.1:2121/x"], site(), b"");
    assert_eq!(r.code, 7);
    assert!(r.requests.is_empty());
    assert_eq!(
        r.err,
        "curl: (7) Failed to connect to 127.0.0.1 port 2121 after 0 ms: FTP is not available in the sandbox (the network gateway speaks HTTP and HTTPS only)\n"
    );
    let r = run(C, &["curl", "-sS", "gopher://h.test/"], site(), b"");
    assert_eq!(r.code, 1);
}

#[test]
fn resolve_tries_its_addresses_in_order() {
    let t = FakeTransport::default().route("/text", |r| match &r.connect_to {
        Some((h, _)) if h == "10.0.0.2" => Ok((head(200, "OK", &[]), b"second\n".to_vec())),
        _ => Err(NetError::new(Reason::ConnectFailed, "refused")),
    });
    let r = run(
        C,
        &[
            "curl",
            "-sv",
            "--resolve",
            "x.test:80:10.0.0.1,10.0.0.2",
            "http://x.test/text",
        ],
        t,
        b"",
    );
    assert_eq!((r.code, r.out.as_str()), (0, "second\n"), "{}", r.err);
    assert!(r.err.contains(
        "*   Trying 10.0.0.1:80...\n* connect to 10.0.0.1 port 80 failed: Connection refused\n*   Trying 10.0.0.2:80...\n"
    ));
    assert_eq!(r.requests.len(), 2);
    // None answers: the last failure is curl's.
    let t = FakeTransport::default().route("/", |_| {
        Err(NetError::new(Reason::ConnectFailed, "refused"))
    });
    let r = run(
        C,
        &[
            "curl",
            "-sS",
            "--resolve",
            "x.test:80:10.0.0.1,10.0.0.3",
            "http://x.test/",
        ],
        t,
        b"",
    );
    assert_eq!(r.code, 7);
    assert_eq!(r.requests.len(), 2);
}

#[test]
fn verbose_chunked_upload_shows_the_go_ahead_and_chunks() {
    let r = run(
        C,
        &["curl", "-sv", "-T", "-", "http://h.test/echo"],
        site(),
        b"hello",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err.contains(
            "> \r\n< HTTP/1.1 100 Continue\r\n} [10 bytes data]\n* Signaling end of chunked upload via terminating chunk.\n} [5 bytes data]\n< HTTP/1.1 200 OK\r\n"
        ),
        "{}",
        r.err
    );
}
