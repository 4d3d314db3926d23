//! Running curl and wget against the scripted transport.
#![allow(dead_code)]

use nettools::fake::{head, Answer, FakeTransport};
use nettools::transport::Request;
use nettools::Env;
use std::time::Duration;

pub struct Ran {
    pub code: i32,
    pub out: String,
    pub err: String,
    pub requests: Vec<Request>,
    pub sleeps: Vec<Duration>,
}

pub fn run(
    program: fn(&[String], &mut Env) -> i32,
    argv: &[&str],
    mut t: FakeTransport,
    stdin: &[u8],
) -> Ran {
    let args: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = stdin;
    let mut sleeps = Vec::new();
    let code = {
        let mut sleep = |d: Duration| sleeps.push(d);
        let mut env = Env {
            transport: &mut t,
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
            stdout_tty: false,
            stderr_tty: false,
            stdout_fd: None,
            now: || 1_795_000_000,
            sleep: &mut sleep,
        };
        program(&args, &mut env)
    };
    Ran {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
        requests: t.requests,
        sleeps,
    }
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("nettools-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A route answering with the request it got: request line, headers, body.
pub fn echo(r: &Request) -> Answer {
    use std::fmt::Write as _;
    let mut s = format!("{} {}\n", r.method, r.url);
    for (n, v) in &r.headers {
        let _ = writeln!(s, "{}: {}", n, v);
    }
    s.push_str(&String::from_utf8_lossy(&r.body));
    Ok((head(200, "OK", &[]), s.into_bytes()))
}
