//! wget end to end against the scripted transport.

mod common;

use common::{run, scratch};
use nettools::fake::{head, FakeTransport};
use nettools::transport::{NetError, Reason};

fn site() -> FakeTransport {
    FakeTransport::default()
        .route("/text", |_| Ok((head(200, "OK", &[("Content-Type", "text/plain"), ("Content-Length", "6")]), b"hello\n".to_vec())))
        .route("/missing", |_| Ok((head(404, "Not Found", &[]), b"nope\n".to_vec())))
        .route("/moved", |_| Ok((head(302, "Found", &[("Location", "/text")]), Vec::new())))
        .route("/loop", |_| Ok((head(302, "Found", &[("Location", "/loop")]), Vec::new())))
        .route("/cd", |_| Ok((head(200, "OK", &[("Content-Disposition", "attachment; filename=\"report.csv\"")]), b"a,b\n".to_vec())))
        .route("/denied", |_| Err(NetError::new(Reason::NotAllowed, "network policy denied h.test:80: no allowedHosts entry matches (network access is denied by default)")))
        .route("/refused", |_| Err(NetError::new(Reason::ConnectFailed, "refused")))
        .route("/echo", common::echo)
}

const W: fn(&[String], &mut nettools::Env) -> i32 = nettools::wget::main;

#[test]
fn saves_under_the_url_name_with_suffixes() {
    let d = scratch("wget-names");
    let p = d.to_str().unwrap();
    let r = run(
        W,
        &["wget", "-P", p, "http://127.0.0.1:9/text"],
        site(),
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(std::fs::read(d.join("text")).unwrap(), b"hello\n");
    let lines: Vec<&str> = r.err.lines().collect();
    assert_eq!(lines[0], "--2026-11-18 11:06:40--  http://127.0.0.1:9/text");
    assert_eq!(lines[1], "Connecting to 127.0.0.1:9... connected.");
    assert_eq!(lines[2], "HTTP request sent, awaiting response... 200 OK");
    assert_eq!(lines[3], "Length: 6 [text/plain]");
    assert_eq!(lines[4], format!("Saving to: '{}/text'", p));
    assert!(
        r.err.ends_with(&format!(
            "2026-11-18 11:06:40 ({}) - '{}/text' saved [6/6]\n\n",
            lines[lines.len() - 1]
                .split('(')
                .nth(1)
                .map(|s| s.split(')').next().unwrap_or(""))
                .unwrap_or(""),
            p
        )) || r.err.contains("saved [6/6]\n\n")
    );
    let r = run(
        W,
        &["wget", "-q", "-P", p, "http://127.0.0.1:9/text"],
        site(),
        b"",
    );
    assert_eq!((r.code, r.err.as_str()), (0, ""));
    assert!(d.join("text.1").exists());
    let r = run(
        W,
        &[
            "wget",
            "-nv",
            "-P",
            p,
            "--content-disposition",
            "http://127.0.0.1:9/cd",
        ],
        site(),
        b"",
    );
    assert_eq!(
        r.err,
        format!(
            "2026-11-18 11:06:40 URL:http://127.0.0.1:9/cd [4] -> \"{}/report.csv\" [1]\n",
            p
        )
    );
    let r = run(
        W,
        &["wget", "-q", "-P", p, "http://127.0.0.1:9/"],
        site(),
        b"",
    );
    assert_eq!(r.code, 8);
}

#[test]
fn stdout_document_and_errors() {
    let r = run(W, &["wget", "-qO-", "http://h.test/text"], site(), b"");
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, "hello\n", ""));
    let r = run(
        W,
        &["wget", "-O", "-", "http://h.test/missing"],
        site(),
        b"",
    );
    assert_eq!(r.code, 8);
    assert!(r.err.ends_with("HTTP request sent, awaiting response... 404 Not Found\n2026-11-18 11:06:40 ERROR 404: Not Found.\n\n"), "{}", r.err);
    let r = run(
        W,
        &["wget", "-nv", "-O", "-", "http://h.test/missing"],
        site(),
        b"",
    );
    assert_eq!(
        r.err,
        "http://h.test/missing:\n2026-11-18 11:06:40 ERROR 404: Not Found.\n"
    );
    let r = run(
        W,
        &["wget", "-O-", "http://127.0.0.1:9/denied"],
        site(),
        b"",
    );
    assert_eq!(r.code, 4);
    assert!(r.err.ends_with("Connecting to 127.0.0.1:9... failed: network policy denied h.test:80: no allowedHosts entry matches (network access is denied by default).\n"), "{}", r.err);
    let r = run(
        W,
        &["wget", "-nv", "-O-", "http://127.0.0.1:9/refused"],
        site(),
        b"",
    );
    assert_eq!(
        (r.code, r.err.as_str()),
        (4, "failed: Connection refused.\n")
    );
    let r = run(W, &["wget"], site(), b"");
    assert_eq!((r.code, r.err.as_str()), (1, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"));
    let r = run(W, &["wget", "--bogus"], site(), b"");
    assert_eq!(r.code, 2);
}

#[test]
fn redirects_and_posts() {
    let r = run(W, &["wget", "-O-", "http://127.0.0.1:9/moved"], site(), b"");
    assert_eq!((r.code, r.out.as_str()), (0, "hello\n"));
    assert!(r.err.contains("HTTP request sent, awaiting response... 302 Found\nLocation: /text [following]\n--2026-11-18 11:06:40--  http://127.0.0.1:9/text\nReusing existing connection to 127.0.0.1:9.\n"), "{}", r.err);
    let r = run(
        W,
        &[
            "wget",
            "-q",
            "-O-",
            "--max-redirect",
            "2",
            "http://127.0.0.1:9/loop",
        ],
        site(),
        b"",
    );
    assert_eq!(r.code, 8);
    let r = run(
        W,
        &[
            "wget",
            "-q",
            "-O-",
            "--post-data",
            "a=1",
            "--header",
            "X-T: y",
            "http://h.test/echo",
        ],
        site(),
        b"",
    );
    assert_eq!(r.out, "POST http://h.test/echo\nUser-Agent: Wget/1.21.3\nAccept: */*\nAccept-Encoding: identity\nX-T: y\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 3\na=1");
}

#[test]
fn server_response_and_input_file() {
    let d = scratch("wget-input");
    let list = d.join("urls");
    std::fs::write(&list, "http://h.test/text\n\nhttp://h.test/text\n").unwrap();
    let r = run(
        W,
        &["wget", "-nv", "-S", "-O", "-", "-i", list.to_str().unwrap()],
        site(),
        b"",
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.out, "hello\nhello\n");
    assert!(
        r.err
            .starts_with("  HTTP/1.1 200 OK\n  Content-Type: text/plain\n  Content-Length: 6\n"),
        "{}",
        r.err
    );
    assert!(
        r.err.contains("FINISHED --2026-11-18 11:06:40--\n"),
        "{}",
        r.err
    );
}

#[test]
fn ftp_fails_like_a_connection() {
    let d = scratch("wget-ftp");
    let p = d.to_str().unwrap();
    let r = run(
        W,
        &["wget", "-P", p, "FTP://127.0.0.1:2121/dir/a%20b?q"],
        site(),
        b"",
    );
    assert_eq!(r.code, 4);
    assert!(r.requests.is_empty());
    assert_eq!(
        r.err,
        format!(
            "--2026-11-18 11:06:40--  ftp://127.0.0.1:2121/dir/a%20b\n           => '{}/a b'\nConnecting to 127.0.0.1:2121... failed: FTP is not available in the sandbox (the network gateway speaks HTTP and HTTPS only).\n",
            p
        )
    );
    let out = d.join("out");
    let r = run(
        W,
        &["wget", "-nv", "-O", out.to_str().unwrap(), "ftp://h.test/"],
        site(),
        b"",
    );
    assert_eq!(r.code, 4);
    assert!(
        r.err.starts_with("failed: FTP is not available"),
        "{}",
        r.err
    );
    assert!(out.exists(), "-O's file is created before the connection");
    let r = run(W, &["wget", "-q", "gopher://h.test/"], site(), b"");
    assert_eq!(r.code, 1);
}

#[test]
fn directory_options() {
    let d = scratch("wget-dirs");
    let p = d.to_str().unwrap();
    let get = |args: &[&str]| {
        let mut a = vec!["wget", "-q", "-P", p];
        a.extend_from_slice(args);
        let ok = |_: &nettools::transport::Request| Ok((head(200, "OK", &[]), b"x\n".to_vec()));
        let routes = ["/a%20b/c/text", "/a/c/text", "/x/"];
        let t = routes.iter().fold(site(), |t, r| t.route(r, ok));
        let r = run(W, &a, t, b"");
        assert_eq!(r.code, 0, "{}", r.err);
    };
    get(&["-x", "http://127.0.0.1:9/a%20b/c/text"]);
    assert!(d.join("127.0.0.1:9/a b/c/text").exists());
    get(&["-x", "-nH", "--cut-dirs=1", "http://127.0.0.1:9/a/c/text"]);
    assert!(d.join("c/text").exists());
    get(&["-x", "--protocol-directories", "http://h.test:80/x/"]);
    assert!(d.join("http/h.test/x/index.html").exists());
    get(&["--default-page=home.htm", "-x", "-nd", "http://h.test/x/"]);
    assert!(d.join("home.htm").exists());
}
