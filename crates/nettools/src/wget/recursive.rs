//! `wget -r`: a breadth-first walk from a start URL. Each page is fetched
//! like any URL (one request per hop, each through the gateway, so the
//! policy and approvals apply to every host a page names); an HTML page
//! or style sheet is read back from disk for its links, and a link is
//! queued once, when it passes wget's tests in wget's order: scheme,
//! domains (-D), parent (-np), -A/-R, the host (-H) and robots.txt.

use super::accept::{acceptable, html_suffix};
use super::links;
use super::log::Sink;
use super::robots::Robots;
use super::run::{worse, Kind, Run};
use crate::url::{escape_unsafe, Url};
use crate::Env;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fs;

/// What a page is read up to, for its links: a page is a file the
/// sandbox holds already, and this bounds the memory its links take.
const PAGE_LIMIT: u64 = 16 << 20;

struct Walk {
    start: Url,
    /// URLs queued or fetched already (wget's blacklist).
    seen: HashSet<String>,
    queue: VecDeque<(Url, u32)>,
    /// robots.txt per `host:port`, loaded once.
    robots: HashMap<String, Robots>,
}

/// The URL as wget compares them: the scheme's port left out.
fn canonical(mut u: Url) -> Url {
    if u.port == Some(u.default_port()) {
        u.port = None;
    }
    u.userinfo = None;
    u
}

fn key(u: &Url) -> String {
    u.to_string()
}

/// The directory part of a path, without its slashes (wget's `dir`).
fn dir_of(path: &str) -> &str {
    let d = &path[..path.rfind('/').unwrap_or(0)];
    d.trim_start_matches('/')
}

/// Retrieve `text` and what it links to; the status is wget's worst.
pub(super) fn retrieve_tree(run: &mut Run, env: &mut Env, sink: &mut Sink, text: &str) -> i32 {
    let start = match Url::parse(&escape_unsafe(text), true) {
        Ok(u) => canonical(u),
        // A URL that does not parse: the plain fetch says why.
        Err(_) => return run.fetch_logged(env, sink, text),
    };
    let mut walk = Walk {
        start: start.clone(),
        seen: HashSet::new(),
        queue: VecDeque::new(),
        robots: HashMap::new(),
    };
    walk.seen.insert(key(&start));
    walk.queue.push_back((start, 0));
    let mut status = 0;
    let level = run.opts.level;
    while let Some((url, depth)) = walk.queue.pop_front() {
        run.saved = None;
        status = worse(status, run.fetch_logged(env, sink, &url.to_string()));
        let saved = match run.saved.take() {
            Some(s) => s,
            None => continue,
        };
        let mut descend = saved.kind != Kind::Other && (level == 0 || depth < level);
        let here = canonical(saved.url.clone());
        if descend && here != url {
            // Redirected: the new place must pass the same tests.
            descend = walk.child_ok(run, env, sink, &here, &url, depth);
        }
        if descend {
            let text = read_page(&saved.path);
            let found = match saved.kind {
                Kind::Html => links::html(&text),
                _ => links::Links {
                    base: None,
                    urls: links::css(&text),
                },
            };
            let base = found
                .base
                .as_deref()
                .and_then(|b| here.join(&escape_unsafe(b)).ok())
                .unwrap_or_else(|| here.clone());
            for link in &found.urls {
                let child = match base.join(&escape_unsafe(link)) {
                    Ok(c) => c,
                    Err(_) => continue,
                };
                let child = canonical(child);
                if walk.child_ok(run, env, sink, &child, &here, depth) {
                    walk.seen.insert(key(&child));
                    walk.queue.push_back((child, depth + 1));
                }
            }
        }
        // A page -A/-R reject was fetched for its links only.
        if !acceptable(run.opts, &saved.path) {
            sink.log().verbose(&format!(
                "Removing {} since it should be rejected.\n\n",
                saved.path
            ));
            let _ = fs::remove_file(&saved.path);
            sink.flush(env.stderr);
        }
    }
    status
}

/// A page's text, for its links (up to PAGE_LIMIT bytes).
fn read_page(path: &str) -> String {
    use std::io::Read;
    let mut bytes = Vec::new();
    if let Ok(f) = fs::File::open(path) {
        let _ = f.take(PAGE_LIMIT).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Walk {
    /// wget's download_child_p: whether `u`, linked from `parent` at
    /// `depth`, is to be fetched.
    fn child_ok(
        &mut self,
        run: &mut Run,
        env: &mut Env,
        sink: &mut Sink,
        u: &Url,
        parent: &Url,
        depth: u32,
    ) -> bool {
        let opts = run.opts;
        if self.seen.contains(&key(u)) {
            return false;
        }
        // Schemes: Url::join gives http and https only.
        // -D and --exclude-domains.
        let host = u.host_bare().to_ascii_lowercase();
        let in_domain = |d: &String| {
            let d = d.trim_start_matches('.').to_ascii_lowercase();
            host == d || host.ends_with(&format!(".{}", d))
        };
        if !opts.domains.is_empty() && !opts.domains.iter().any(in_domain) {
            return false;
        }
        if opts.exclude_domains.iter().any(in_domain) {
            return false;
        }
        // -np: not above the start's directory on the start's host.
        if opts.no_parent
            && u.scheme == self.start.scheme
            && u.host == self.start.host
            && u.port_or_default() == self.start.port_or_default()
        {
            let top = dir_of(&self.start.path);
            let dir = dir_of(&u.path);
            if !(top.is_empty() || dir == top || dir.starts_with(&format!("{}/", top))) {
                return false;
            }
        }
        // -A/-R, except for HTML pages whose links may still be followed.
        let file = crate::url::percent_decode(&u.file_name());
        let level = opts.level;
        let non_leaf = level == 0 || depth + 1 < level;
        let exempt = file.is_empty() || (html_suffix(&file) && non_leaf);
        if !exempt && !acceptable(opts, &file) {
            return false;
        }
        // Another host only with -H.
        if !opts.span_hosts && u.host != parent.host {
            return false;
        }
        if opts.robots && !self.robots_allow(run, env, sink, u) {
            self.seen.insert(key(u));
            return false;
        }
        true
    }

    /// robots.txt of `u`'s host, fetched the first time that host comes up.
    fn robots_allow(&mut self, run: &mut Run, env: &mut Env, sink: &mut Sink, u: &Url) -> bool {
        let site = format!("{}:{}", u.host, u.port_or_default());
        if !self.robots.contains_key(&site) {
            sink.log()
                .verbose("Loading robots.txt; please ignore errors.\n");
            let mut robots_url = u.clone();
            robots_url.path = "/robots.txt".to_string();
            robots_url.query = None;
            run.saved = None;
            // Its failure (a 404 ...) is logged but is no failure of the run.
            let _ = run.fetch_robots(env, sink, &robots_url.to_string());
            let rules = match run.saved.take() {
                Some(s) => {
                    let r = Robots::parse(&read_page(&s.path));
                    if !acceptable(run.opts, &s.path) {
                        sink.log().verbose(&format!("Removing {}.\n", s.path));
                        let _ = fs::remove_file(&s.path);
                        sink.flush(env.stderr);
                    }
                    r
                }
                None => Robots::default(),
            };
            self.robots.insert(site.clone(), rules);
        }
        self.robots.get(&site).map_or(true, |r| r.allows(&u.path))
    }
}
