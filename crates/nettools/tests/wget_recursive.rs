//! wget -r end to end against the scripted transport: the walk, its
//! options, and pages that try to lead it astray.

mod common;

use common::{run, scratch};
use nettools::fake::{head, Answer, FakeTransport};
use nettools::transport::{NetError, Reason, Request};
use std::fmt::Write as _;

const W: fn(&[String], &mut nettools::Env) -> i32 = nettools::wget::main;

fn page(body: String) -> Answer {
    let len = body.len().to_string();
    Ok((
        head(
            200,
            "OK",
            &[("Content-Type", "text/html"), ("Content-Length", &len)],
        ),
        body.into_bytes(),
    ))
}

/// Requests' URLs, in order.
fn urls(requests: &[Request]) -> Vec<String> {
    requests.iter().map(|r| r.url.clone()).collect()
}

/// wget with `args` over site() into `dir`: its run (a success) and the
/// URLs it asked for.
fn walk(dir: &std::path::Path, args: &[&str]) -> (common::Ran, Vec<String>) {
    let mut argv = vec!["wget", "-P", dir.to_str().unwrap_or(".")];
    argv.extend_from_slice(args);
    argv.push("http://127.0.0.1:9/d/");
    let r = run(W, &argv, site(), b"");
    assert_eq!(r.code, 0, "{}", r.err);
    let u = urls(&r.requests);
    (r, u)
}

fn site() -> FakeTransport {
    FakeTransport::default()
        .route("/robots.txt", |_| {
            Ok((
                head(200, "OK", &[("Content-Type", "text/plain")]),
                b"User-agent: *\nDisallow: /d/private/\n".to_vec(),
            ))
        })
        .route("/d/a.html", |_| {
            page("<a href=\"b.html\">b</a> <a href=\"../up.html\">up</a>".into())
        })
        .route("/d/b.html", |_| {
            page("<a href=\"sub/c.html\">c</a><img src=\"i.png\">".into())
        })
        .route("/d/sub/c.html", |_| page("<a href=\"d.html\">d</a>".into()))
        .route("/d/sub/d.html", |_| page("deep".into()))
        .route("/d/i.png", |_| {
            Ok((
                head(200, "OK", &[("Content-Type", "image/png")]),
                vec![1, 2, 3],
            ))
        })
        .route("/up.html", |_| page("up".into()))
        .route("/d/private/", |_| page("secret".into()))
        .route("/d/", |_| {
            page("<a href=\"a.html\">a</a><a href=\"private/x.html\">p</a>".into())
        })
}

#[test]
fn walks_breadth_first_into_host_directories() {
    let d = scratch("wget-r");
    let (r, u) = walk(&d, &["-r"]);
    assert_eq!(
        u,
        [
            "http://127.0.0.1:9/d/",
            "http://127.0.0.1:9/robots.txt",
            "http://127.0.0.1:9/d/a.html",
            "http://127.0.0.1:9/d/b.html",
            "http://127.0.0.1:9/up.html",
            "http://127.0.0.1:9/d/sub/c.html",
            "http://127.0.0.1:9/d/i.png",
            "http://127.0.0.1:9/d/sub/d.html",
        ]
    );
    for f in [
        "d/index.html",
        "robots.txt",
        "d/a.html",
        "d/sub/d.html",
        "d/i.png",
        "up.html",
    ] {
        assert!(d.join("127.0.0.1:9").join(f).exists(), "{}", f);
    }
    assert!(r
        .err
        .contains("Loading robots.txt; please ignore errors.\n"));
    assert!(r.err.contains("\nFINISHED --"));
    assert!(r.err.contains("Downloaded: 8 files, "));
}

#[test]
fn level_no_parent_and_flat_names() {
    let d = scratch("wget-r-opts");
    let (_, u) = walk(&d, &["-r", "-l", "2", "-np", "-nd", "-e", "robots=off"]);
    assert_eq!(
        u,
        [
            "http://127.0.0.1:9/d/",
            "http://127.0.0.1:9/d/a.html",
            "http://127.0.0.1:9/d/private/x.html",
            "http://127.0.0.1:9/d/b.html",
        ]
    );
    assert!(d.join("index.html").exists() && d.join("b.html").exists());
    // -A keeps what matches; pages are fetched for their links, then removed.
    let d = scratch("wget-r-accept");
    let (r, _) = walk(&d, &["-r", "-np", "-A", "png"]);
    assert!(d.join("127.0.0.1:9/d/i.png").exists());
    assert!(
        !d.join("127.0.0.1:9/d/a.html").exists() && !d.join("127.0.0.1:9/d/a.html.tmp").exists()
    );
    assert!(r.err.contains("Removing "));
    assert!(r
        .err
        .contains("/d/a.html.tmp since it should be rejected.\n"));
}

/// A hostile page: links to the metadata address, other schemes, a huge
/// number of links (most of them to itself), and a loop of redirects.
fn hostile() -> FakeTransport {
    FakeTransport::default()
        .route("/robots.txt", |_| {
            Ok((head(404, "Not Found", &[]), Vec::new()))
        })
        .route("/h/loop", |_| {
            Ok((head(302, "Found", &[("Location", "/h/loop")]), Vec::new()))
        })
        .route("/h/", |_| {
            let mut body = String::from(
                "<a href=\"http://169.254.169.254/latest/meta-data/\">m</a>\
                 <a href=\"file:///etc/passwd\">f</a><a href=\"gopher://x/\">g</a>\
                 <a href=\"javascript:alert(1)\">j</a><a href=\"//169.254.169.254/\">n</a>\
                 <img src=\"http://[::1]/x\"><a href=\"loop\">l</a>",
            );
            for i in 0..5_000 {
                let _ = write!(body, "<a href=\"./#{}\">s</a><a href=\"/h/?\">q</a>", i);
            }
            page(body)
        })
        .route("/", |r: &Request| {
            if r.url.contains("169.254.169.254") || r.url.contains("[::1]") {
                Err(NetError::new(
                    Reason::NotAllowed,
                    "network policy denied 169.254.169.254:80: a link-local address",
                ))
            } else {
                page(String::new())
            }
        })
}

#[test]
fn a_hostile_page_does_not_escape_or_hang() {
    let d = scratch("wget-r-hostile");
    let p = d.to_str().unwrap();
    let r = run(
        W,
        &["wget", "-r", "-P", p, "http://127.0.0.1:9/h/"],
        hostile(),
        b"",
    );
    let u = urls(&r.requests);
    // Same host only: nothing else was asked of the gateway.
    assert!(
        u.iter().all(|x| x.starts_with("http://127.0.0.1:9/")),
        "{:?}",
        u
    );
    assert!(u.len() < 30, "{:?}", u);
    assert!(r.err.contains("20 redirections exceeded."));
    // -H: the other hosts are asked for, and the gateway's verdict stands.
    let r = run(
        W,
        &["wget", "-r", "-H", "-P", p, "http://127.0.0.1:9/h/"],
        hostile(),
        b"",
    );
    let u = urls(&r.requests);
    assert!(u.iter().all(|x| x.starts_with("http://")), "{:?}", u);
    assert_eq!(
        u.iter().filter(|x| x.contains("169.254.169.254")).count(),
        3,
        "{:?}",
        u
    );
    assert!(r
        .err
        .contains("failed: network policy denied 169.254.169.254:80"));
    assert_eq!(r.code, 4);
}
