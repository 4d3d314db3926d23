//! find: walk directory trees and evaluate an expression per file (GNU
//! findutils semantics). Lives in the `procutils` binary because -exec,
//! -execdir and -ok run programs.

mod dirlist;
use coreutils_core::fnmatch as glob;
mod parse;
pub(crate) mod print;

use coreutils_core::bytes::{os_bytes, path_bytes, path_from_bytes};
use coreutils_core::error::strerror;
use coreutils_core::meta::{self, ExtStat, Stat};
use coreutils_core::process::{self, Command};
use parse::{Exec, Node, PermKind, Stamp};
use std::cell::Cell;
use std::ffi::OsString;
use std::io::{BufRead, Write};

/// Why stat() failed on a followed symlink, sorted the way GNU find
/// treats the cases.
enum StatFail {
    /// Dangling link (ENOENT): examine the link itself, silently.
    Dangling,
    /// Link loop (ELOOP): report it and skip the file.
    Loop,
    /// Anything else (ENOTDIR, EACCES, ...): report it; below a starting
    /// point the link itself is still examined.
    Other,
}

fn stat_fail(e: &std::io::Error) -> StatFail {
    // errno numbers of the platform we run on: WASI's in the sandbox,
    // Linux's natively, the BSD family's elsewhere.
    #[cfg(target_os = "wasi")]
    const ELOOP: i32 = 32;
    #[cfg(target_os = "linux")]
    const ELOOP: i32 = 40;
    #[cfg(not(any(target_os = "wasi", target_os = "linux")))]
    const ELOOP: i32 = 62;
    if e.raw_os_error() == Some(ELOOP) {
        StatFail::Loop
    } else if e.kind() == std::io::ErrorKind::NotFound {
        StatFail::Dangling
    } else {
        StatFail::Other
    }
}

/// Total argument bytes per batched `-exec ... {} +` run.
const BATCH_BYTES: usize = 128 * 1024;

/// Nanoseconds since the epoch of one of `st`'s timestamps.
pub(crate) fn stamp_ns(st: &Stat, which: Stamp) -> i128 {
    (match which {
        Stamp::M => st.mtime_ns,
        Stamp::A => st.atime_ns,
        Stamp::C => st.ctime_ns,
    }) as i128
}

/// Stat `p`, through a final symlink when `follow` (a dangling one is
/// examined itself, as GNU does).
fn stat_following(p: &std::path::Path, follow: bool) -> std::io::Result<Stat> {
    if !follow {
        return meta::stat(p, false);
    }
    meta::stat(p, true).or_else(|e| match stat_fail(&e) {
        StatFail::Dangling => meta::stat(p, false),
        _ => Err(e),
    })
}

/// One file being evaluated.
pub(crate) struct Ent<'a> {
    path: &'a [u8],
    depth: usize,
    root_len: usize,
    /// The file's type: from the directory entry when walking (no stat),
    /// else from the stat made up front.
    ftype: Kind,
    /// The stat, made on first use: most expressions (-name, -type,
    /// -print) never need it, and a stat per entry is what made large walks
    /// slow in the sandbox, where each one is a kernel round trip.
    stat: Cell<Option<Option<Stat>>>,
    follow: bool,
}

impl<'a> Ent<'a> {
    fn p(&self) -> std::path::PathBuf {
        path_from_bytes(self.path)
    }

    fn ext(&self) -> ExtStat {
        self.stat().map(|s| s.ext()).unwrap_or_default()
    }

    /// The name -name matches: last component, trailing slashes ignored.
    fn base(&self) -> &'a [u8] {
        base_of(self.path)
    }

    fn type_char(&self) -> u8 {
        self.ftype.0
    }

    /// The file's stat (None if it vanished or cannot be read).
    pub(crate) fn stat(&self) -> Option<Stat> {
        if let Some(m) = self.stat.get() {
            return m;
        }
        let m = stat_following(&self.p(), self.follow).ok();
        self.stat.set(Some(m));
        m
    }

    /// Size in bytes (0 if unknown).
    pub(crate) fn len(&self) -> u64 {
        self.stat().map_or(0, |m| m.size)
    }

    /// One of the timestamps, in nanoseconds (0 if unknown).
    pub(crate) fn time(&self, st: Stamp) -> i128 {
        self.stat().map_or(0, |m| stamp_ns(&m, st))
    }
}

/// A file's type, as find's `-type` letter (d, f, l, p, s, b, c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kind(pub(crate) u8);

impl Kind {
    /// The letter of the type bits of `mode`.
    pub(crate) fn of_mode(mode: u32) -> Kind {
        Kind(match mode & meta::S_IFMT {
            meta::S_IFDIR => b'd',
            meta::S_IFLNK => b'l',
            meta::S_IFIFO => b'p',
            meta::S_IFSOCK => b's',
            meta::S_IFBLK => b'b',
            meta::S_IFCHR => b'c',
            _ => b'f',
        })
    }
    pub(crate) fn is_dir(self) -> bool {
        self.0 == b'd'
    }
    pub(crate) fn is_file(self) -> bool {
        self.0 == b'f'
    }
    pub(crate) fn is_symlink(self) -> bool {
        self.0 == b'l'
    }
}

fn base_of(p: &[u8]) -> &[u8] {
    let mut end = p.len();
    while end > 1 && p[end - 1] == b'/' {
        end -= 1;
    }
    let t = &p[..end];
    match t.iter().rposition(|&c| c == b'/') {
        Some(i) if t.len() > 1 => &t[i + 1..],
        _ => t,
    }
}

fn type_char(ft: std::fs::FileType) -> u8 {
    if ft.is_dir() {
        b'd'
    } else if ft.is_symlink() {
        b'l'
    } else if ft.is_file() {
        b'f'
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if ft.is_fifo() {
                return b'p';
            }
            if ft.is_socket() {
                return b's';
            }
            if ft.is_block_device() {
                return b'b';
            }
            if ft.is_char_device() {
                return b'c';
            }
        }
        // std's wasi FileTypeExt is unstable on rustc 1.63; the sandbox's
        // only other node kind is a character device.
        #[cfg(target_os = "wasi")]
        {
            b'c'
        }
        #[cfg(not(target_os = "wasi"))]
        {
            b'p'
        }
    }
}

struct Batch {
    argv: Vec<Vec<u8>>,
    files: Vec<Vec<u8>>,
    bytes: usize,
    dir: Option<Vec<u8>>,
}

struct Finder<W: Write> {
    out: W,
    status: i32,
    quit: bool,
    prune: bool,
    now: i128,
    g: parse::Globals,
    follow_all: bool,
    follow_roots: bool,
    batches: Vec<Option<Batch>>,
    names: coreutils_core::users::NameCache,
    root_dev: u64,
}

fn q(b: &[u8]) -> String {
    format!("'{}'", String::from_utf8_lossy(b))
}

impl<W: Write> Finder<W> {
    fn err(&mut self, msg: &str) {
        let _ = self.out.flush();
        eprintln!("{}: {}", coreutils_core::prog("find"), msg);
        self.status = 1;
    }

    /// Visits one file; `dtype` is its type as the directory entry gave it
    /// (None for the starting points, which are always stat'ed).
    fn visit(
        &mut self,
        expr: &Node,
        path: Vec<u8>,
        dtype: Option<Kind>,
        depth: usize,
        root_len: usize,
        anc: &mut Vec<(u64, u64, Vec<u8>)>,
    ) {
        let p = path_from_bytes(&path);
        let follow = self.follow_all || (depth == 0 && self.follow_roots);
        // Following symlinks needs the target's type: stat now.
        let known = match dtype {
            Some(t) if !(follow && t.is_symlink()) => Some(t),
            _ => None,
        };
        let (ftype, first_meta) = match known {
            Some(t) => (t, None),
            None => {
                let m = if follow {
                    meta::stat(&p, true).or_else(|e| match stat_fail(&e) {
                        StatFail::Dangling => meta::stat(&p, false),
                        StatFail::Loop => Err(e),
                        // GNU reports it, and below a starting point still
                        // examines the link itself.
                        StatFail::Other if depth == 0 => Err(e),
                        StatFail::Other => {
                            self.err(&format!("{}: {}", q(&path), strerror(&e)));
                            meta::stat(&p, false)
                        }
                    })
                } else {
                    meta::stat(&p, false)
                };
                match m {
                    Ok(m) => (Kind::of_mode(m.mode), Some(Some(m))),
                    Err(e) => {
                        self.err(&format!("{}: {}", q(&path), strerror(&e)));
                        return;
                    }
                }
            }
        };
        let in_range = depth >= self.g.mindepth;
        let ent = Ent {
            path: &path,
            depth,
            root_len,
            ftype,
            stat: Cell::new(first_meta),
            follow,
        };
        let mut pruned = false;
        if !self.g.depth && in_range {
            self.prune = false;
            self.eval(expr, &ent);
            pruned = self.prune;
            if self.quit {
                return;
            }
        }
        let descend = ftype.is_dir() && !pruned && self.g.maxdepth.map_or(true, |d| depth < d);
        if descend {
            let mut key = None;
            if self.follow_all || self.follow_roots || self.g.xdev {
                if let Some(r) = ent.stat() {
                    if depth == 0 {
                        self.root_dev = r.dev;
                    }
                    key = Some((r.dev, r.ino));
                }
            }
            let mut skip = false;
            if let Some((dev, ino)) = key {
                if self.g.xdev && dev != self.root_dev {
                    skip = true;
                }
                if self.follow_all {
                    if let Some(a) = anc.iter().find(|a| a.0 == dev && a.1 == ino) {
                        let msg = format!(
                            "File system loop detected; {} is part of the same file system loop as {}.",
                            q(&path),
                            q(&a.2)
                        );
                        self.err(&msg);
                        skip = true;
                    }
                }
            }
            if !skip {
                match dirlist::list(&p) {
                    Ok(names) => {
                        if let Some((dev, ino)) = key {
                            anc.push((dev, ino, path.clone()));
                        }
                        for (n, t) in names {
                            let mut child = path.clone();
                            if child.last() != Some(&b'/') {
                                child.push(b'/');
                            }
                            child.extend_from_slice(os_bytes(&n));
                            self.visit(expr, child, t, depth + 1, root_len, anc);
                            if self.quit {
                                return;
                            }
                        }
                        if key.is_some() {
                            anc.pop();
                        }
                    }
                    Err(e) => self.err(&format!("{}: {}", q(&path), strerror(&e))),
                }
            }
        }
        if self.g.depth && in_range {
            // -depth: the contents may have changed its times; stat afresh.
            ent.stat.set(None);
            self.eval(expr, &ent);
        }
    }

    fn eval(&mut self, n: &Node, e: &Ent) -> bool {
        match n {
            Node::And(a, b) => self.eval(a, e) && !self.quit && self.eval(b, e),
            Node::Or(a, b) => self.eval(a, e) || (!self.quit && self.eval(b, e)),
            Node::Comma(a, b) => {
                self.eval(a, e);
                !self.quit && self.eval(b, e)
            }
            Node::Not(a) => !self.eval(a, e),
            Node::True => true,
            Node::False => false,
            Node::Name(pat, fold) => glob::fnmatch(pat, e.base(), *fold),
            Node::Path(pat, fold) => glob::fnmatch(pat, e.path, *fold),
            Node::Lname(pat, fold) => {
                if !e.ftype.is_symlink() {
                    return false;
                }
                match coreutils_core::fs::read_link(e.p()) {
                    Ok(t) => glob::fnmatch(pat, path_bytes(&t), *fold),
                    Err(_) => false,
                }
            }
            Node::Regex(re) => re.is_match(e.path),
            Node::Type(set, x) => {
                let c = if *x {
                    // -xtype: the type on the other side of a symlink.
                    let other = if e.follow {
                        coreutils_core::fs::symlink_metadata(e.p())
                    } else {
                        coreutils_core::fs::metadata(e.p())
                    };
                    match other {
                        Ok(m) => type_char(m.file_type()),
                        // A link loop is an error (GNU); other failures
                        // leave a link that points nowhere.
                        Err(err) if !e.follow && matches!(stat_fail(&err), StatFail::Loop) => {
                            self.err(&format!("{}: {}", q(e.path), strerror(&err)));
                            return false;
                        }
                        Err(_) => b'l',
                    }
                } else {
                    e.type_char()
                };
                set.contains(&c)
            }
            Node::Size(num, unit) => {
                let len = e.len();
                let units = if *unit == 1 {
                    len
                } else {
                    (len + unit - 1) / unit
                };
                num.test(units)
            }
            Node::Age(st, num, unit) => {
                let t = e.time(*st);
                let base = if self.g.daystart {
                    let day = 86_400_000_000_000i128;
                    (self.now.div_euclid(day) + 1) * day
                } else {
                    self.now
                };
                let age = base - t;
                let u = *unit as i128 * 1_000_000_000;
                if *unit == 60 {
                    // Minutes compare exactly against the fraction.
                    let n = num.n as i128 * u;
                    match num.ord {
                        1 => age > n,
                        -1 => age < n,
                        _ => age > n - u && age <= n,
                    }
                } else {
                    let days = age.div_euclid(u);
                    if days < 0 {
                        return num.ord == -1;
                    }
                    num.test(days as u64)
                }
            }
            Node::Newer(st, t) => e.time(*st) > *t,
            Node::Perm(m, kind) => {
                let mode = e.ext().mode & 0o7777;
                match kind {
                    PermKind::Exact => mode == *m,
                    PermKind::All => mode & m == *m,
                    PermKind::Any => *m == 0 || mode & m != 0,
                }
            }
            Node::Empty => {
                if e.ftype.is_dir() {
                    match std::fs::read_dir(e.p()) {
                        Ok(mut rd) => rd.next().is_none(),
                        Err(_) => false,
                    }
                } else {
                    e.ftype.is_file() && e.stat().map_or(false, |m| m.size == 0)
                }
            }
            Node::Uid(num) => num.test(e.ext().uid as u64),
            Node::Gid(num) => num.test(e.ext().gid as u64),
            Node::NoUser => {
                let uid = e.ext().uid;
                !coreutils_core::users::users().iter().any(|u| u.uid == uid)
            }
            Node::NoGroup => {
                let gid = e.ext().gid;
                !coreutils_core::users::groups().iter().any(|g| g.gid == gid)
            }
            Node::Links(num) => num.test(e.ext().nlink as u64),
            Node::Inum(num) => e.stat().map_or(false, |s| num.test(s.ino)),
            Node::Same(dev, ino) => e.stat().map_or(false, |s| s.dev == *dev && s.ino == *ino),
            Node::Access(m) => meta::access(&e.p(), *m).is_ok(),
            Node::Prune => {
                self.prune = true;
                true
            }
            Node::Quit => {
                self.quit = true;
                true
            }
            Node::Print(nul) => {
                let r = self
                    .out
                    .write_all(e.path)
                    .and_then(|_| self.out.write_all(if *nul { b"\0" } else { b"\n" }));
                if let Err(err) = r {
                    coreutils_core::io::exit_on_write_error(err);
                }
                true
            }
            Node::Printf(fmt) => {
                let s = print::printf(fmt, e, self.now, &mut self.names);
                if let Err(err) = self.out.write_all(&s) {
                    coreutils_core::io::exit_on_write_error(err);
                }
                true
            }
            Node::Ls => {
                let s = print::ls(e, self.now, &mut self.names);
                if let Err(err) = self.out.write_all(&s) {
                    coreutils_core::io::exit_on_write_error(err);
                }
                true
            }
            Node::Delete => {
                if e.path == b"." {
                    return true;
                }
                let r = if e.ftype.is_dir() {
                    coreutils_core::fs::remove_dir(e.p())
                } else {
                    coreutils_core::fs::remove_file(e.p())
                };
                match r {
                    Ok(()) => true,
                    Err(err) => {
                        self.err(&format!("cannot delete {}: {}", q(e.path), strerror(&err)));
                        false
                    }
                }
            }
            Node::Exec(x) => self.exec(x, e),
        }
    }

    /// The `{}` replacement and working directory for one file.
    fn target(&self, x: &Exec, e: &Ent) -> (Vec<u8>, Option<Vec<u8>>) {
        if !x.dir {
            return (e.path.to_vec(), None);
        }
        let base = base_of(e.path);
        let mut end = e.path.len();
        while end > 1 && e.path[end - 1] == b'/' {
            end -= 1;
        }
        let dir = match e.path[..end].iter().rposition(|&c| c == b'/') {
            Some(0) => b"/".to_vec(),
            Some(i) => e.path[..i].to_vec(),
            None => b".".to_vec(),
        };
        let mut t = b"./".to_vec();
        if base == b"/" {
            t = b"/".to_vec();
        } else {
            t.extend_from_slice(base);
        }
        (t, Some(dir))
    }

    fn exec(&mut self, x: &Exec, e: &Ent) -> bool {
        let (t, dir) = self.target(x, e);
        if x.plus {
            let full = match &self.batches[x.batch] {
                Some(b) => b.bytes + t.len() + 1 > BATCH_BYTES || b.dir != dir,
                None => false,
            };
            if full {
                self.flush_batch(x.batch);
            }
            let b = self.batches[x.batch].get_or_insert_with(|| Batch {
                argv: x.argv.clone(),
                files: Vec::new(),
                bytes: 0,
                dir: dir.clone(),
            });
            b.bytes += t.len() + 1;
            b.files.push(t);
            return true;
        }
        let argv: Vec<Vec<u8>> = x.argv.iter().map(|w| replace_braces(w, &t)).collect();
        if x.ask {
            let _ = self.out.flush();
            let words: Vec<String> = argv
                .iter()
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            eprint!("< {} ... {} > ? ", words[0], String::from_utf8_lossy(&t));
            let _ = std::io::stderr().flush();
            let mut line = String::new();
            let _ = std::io::stdin().lock().read_line(&mut line);
            if !line.starts_with('y') && !line.starts_with('Y') {
                return false;
            }
        }
        self.run(&argv, dir) == Some(0)
    }

    fn run(&mut self, argv: &[Vec<u8>], dir: Option<Vec<u8>>) -> Option<i32> {
        if let Err(e) = self.out.flush() {
            coreutils_core::io::exit_on_write_error(e);
        }
        let cmd = Command {
            program: coreutils_core::bytes::os_from_bytes(&argv[0]),
            args: argv[1..]
                .iter()
                .map(|a| coreutils_core::bytes::os_from_bytes(a))
                .collect(),
            cwd: dir.map(|d| path_from_bytes(&d)),
            ..Default::default()
        };
        match process::run(&cmd) {
            Ok(st) => Some(st.code()),
            Err(err) => {
                // GNU's forked child reports this; find's own status stays.
                let keep = self.status;
                self.err(&format!("{}: {}", q(&argv[0]), strerror(&err)));
                self.status = keep;
                None
            }
        }
    }

    fn flush_batch(&mut self, i: usize) {
        if let Some(b) = self.batches[i].take() {
            let mut argv = b.argv;
            argv.extend(b.files);
            if self.run(&argv, b.dir) != Some(0) {
                self.status = 1;
            }
        }
    }
}

fn replace_braces(w: &[u8], t: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(w.len());
    let mut i = 0;
    while i < w.len() {
        if w[i] == b'{' && w.get(i + 1) == Some(&b'}') {
            out.extend_from_slice(t);
            i += 2;
        } else {
            out.push(w[i]);
            i += 1;
        }
    }
    out
}

fn usage() -> i32 {
    println!("Usage: find [-H] [-L] [-P] [path...] [expression]");
    0
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let words: Vec<Vec<u8>> = args.iter().skip(1).map(|a| os_bytes(a).to_vec()).collect();
    let mut i = 0;
    let mut follow_all = false;
    let mut follow_roots = false;
    while i < words.len() {
        match words[i].as_slice() {
            b"-H" => {
                follow_roots = true;
                follow_all = false;
            }
            b"-L" => {
                follow_all = true;
                follow_roots = false;
            }
            b"-P" => {
                follow_all = false;
                follow_roots = false;
            }
            b"--help" => return usage(),
            b"--version" => return crate::common::version("find"),
            b"-D" | b"-O" => i += 1,
            b"--" => {
                i += 1;
                break;
            }
            w if w.starts_with(b"-O") || w.starts_with(b"-D") => {}
            _ => break,
        }
        i += 1;
    }
    let start = i;
    while i < words.len() {
        let w = &words[i];
        if (w.len() > 1 && w[0] == b'-') || w == b"(" || w == b"!" || w == b")" || w == b"," {
            break;
        }
        i += 1;
    }
    let mut roots: Vec<Vec<u8>> = words[start..i].to_vec();
    if roots.is_empty() {
        roots.push(b".".to_vec());
    }
    let now = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(_) => 0,
    };
    let env = parse::Env { follow: follow_all };
    let parsed = match parse::parse(&words[i..], &env) {
        Ok(p) => p,
        Err(m) => {
            eprintln!("{}: {}", coreutils_core::prog("find"), m);
            return 1;
        }
    };
    let mut f = Finder {
        out: coreutils_core::io::stdout(),
        status: 0,
        quit: false,
        prune: false,
        now,
        g: parsed.g,
        follow_all,
        follow_roots,
        batches: (0..parsed.batches).map(|_| None).collect(),
        names: Default::default(),
        root_dev: 0,
    };
    for r in roots {
        if r.is_empty() {
            f.err("'': No such file or directory");
            continue;
        }
        let len = r.len();
        let mut anc = Vec::new();
        f.visit(&parsed.expr, r, None, 0, len, &mut anc);
        if f.quit {
            break;
        }
    }
    for b in 0..f.batches.len() {
        f.flush_batch(b);
    }
    if let Err(e) = f.out.flush() {
        coreutils_core::io::exit_on_write_error(e);
    }
    f.status
}

/// fnmatch for sibling utilities (tar --exclude).
pub(crate) fn fnmatch_pub(pat: &[u8], name: &[u8]) -> bool {
    glob::fnmatch(pat, name, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basenames() {
        assert_eq!(base_of(b"./a/b"), b"b");
        assert_eq!(base_of(b"dir/"), b"dir");
        assert_eq!(base_of(b"/"), b"/");
        assert_eq!(base_of(b"."), b".");
    }

    #[test]
    fn braces_replace_everywhere() {
        assert_eq!(replace_braces(b"x{}y{}", b"f"), b"xfyf".to_vec());
    }

    #[cfg(unix)]
    #[test]
    fn stat_failures_sorted_like_gnu() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("uu-data-find-{}", std::process::id()));
        let _ = coreutils_core::fs::remove_dir_all(&dir);
        coreutils_core::fs::create_dir_all(&dir).unwrap();
        symlink("self", dir.join("self")).unwrap();
        symlink("nowhere", dir.join("dangling")).unwrap();
        coreutils_core::fs::write(dir.join("file"), b"").unwrap();
        symlink("file/x", dir.join("notdir")).unwrap();
        let kind = |n: &str| match coreutils_core::fs::metadata(dir.join(n)) {
            Err(e) => stat_fail(&e),
            Ok(_) => panic!("{} should not stat", n),
        };
        assert!(matches!(kind("self"), StatFail::Loop));
        assert!(matches!(kind("dangling"), StatFail::Dangling));
        assert!(matches!(kind("notdir"), StatFail::Other));
        let _ = coreutils_core::fs::remove_dir_all(&dir);
    }
}
