//! `chown [-R] [-v|-c] [-f] [-h] OWNER[:GROUP] FILE...` and
//! `chgrp [-R] [-v|-c] [-f] GROUP FILE...`, names from `/etc/passwd` and
//! `/etc/group`.

use coreutils_core::args::{parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use coreutils_core::users::{groups, users, NameCache};
use std::ffi::OsString;
use std::path::Path;

const REFERENCE: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    LongOpt {
        name: "recursive",
        arg: HasArg::No,
        key: 'R',
    },
    LongOpt {
        name: "verbose",
        arg: HasArg::No,
        key: 'v',
    },
    LongOpt {
        name: "changes",
        arg: HasArg::No,
        key: 'c',
    },
    LongOpt {
        name: "silent",
        arg: HasArg::No,
        key: 'f',
    },
    LongOpt {
        name: "quiet",
        arg: HasArg::No,
        key: 'f',
    },
    LongOpt {
        name: "no-dereference",
        arg: HasArg::No,
        key: 'h',
    },
    LongOpt {
        name: "dereference",
        arg: HasArg::No,
        key: '\u{e002}',
    },
    LongOpt {
        name: "reference",
        arg: HasArg::Required,
        key: REFERENCE,
    },
    LongOpt {
        name: "help",
        arg: HasArg::No,
        key: HELP,
    },
    LongOpt {
        name: "version",
        arg: HasArg::No,
        key: VERSION,
    },
];

fn user_id(s: &str) -> Option<u32> {
    users()
        .into_iter()
        .find(|u| u.name == s)
        .map(|u| u.uid)
        .or_else(|| s.parse().ok())
}

fn group_id(s: &str) -> Option<u32> {
    groups()
        .into_iter()
        .find(|g| g.name == s)
        .map(|g| g.gid)
        .or_else(|| s.parse().ok())
}

struct Job {
    prog: &'static str,
    uid: Option<u32>,
    gid: Option<u32>,
    recursive: bool,
    verbose: bool,
    changes: bool,
    quiet: bool,
    follow: bool,
    names: NameCache,
}

fn describe(j: &mut Job, uid: u32, gid: u32) -> String {
    if j.prog == "chgrp" {
        j.names.group(gid)
    } else if j.gid.is_none() {
        j.names.user(uid)
    } else {
        format!("{}:{}", j.names.user(uid), j.names.group(gid))
    }
}

fn change(j: &mut Job, path: &Path) -> bool {
    let q = quote_gnu(path.as_os_str());
    let st = match meta::stat_ext(path, j.follow) {
        Ok(s) => s,
        Err(e) => {
            if !j.quiet {
                eprintln!("{}: cannot access {}: {}", j.prog, q, strerror(&e));
            }
            return false;
        }
    };
    let nu = j.uid.unwrap_or(st.uid);
    let ng = j.gid.unwrap_or(st.gid);
    let mut ok = true;
    let what = if j.prog == "chgrp" {
        "group"
    } else {
        "ownership"
    };
    if nu != st.uid || ng != st.gid {
        match meta::chown(path, j.uid, j.gid, j.follow) {
            Ok(()) => {
                if j.verbose || j.changes {
                    let old = describe(j, st.uid, st.gid);
                    let new = describe(j, nu, ng);
                    println!("changed {} of {} from {} to {}", what, q, old, new);
                }
            }
            Err(e) => {
                if !j.quiet {
                    eprintln!("{}: changing {} of {}: {}", j.prog, what, q, strerror(&e));
                }
                ok = false;
            }
        }
    } else if j.verbose {
        let cur = describe(j, st.uid, st.gid);
        println!("{} of {} retained as {}", what, q, cur);
    }
    if j.recursive && st.mode & meta::S_IFMT == meta::S_IFDIR {
        if let Ok(rd) = std::fs::read_dir(path) {
            let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
            names.sort();
            let saved = j.follow;
            j.follow = false;
            for n in names {
                ok &= change(j, &path.join(n));
            }
            j.follow = saved;
        }
    }
    ok
}

fn run(prog: &'static str, args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(prog, &args, "RvcfhHLP", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let help = if prog == "chown" {
        "Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...\n  or:  chown [OPTION]... --reference=RFILE FILE...\nChange the owner and/or group of each FILE to OWNER and/or GROUP.\n"
    } else {
        "Usage: chgrp [OPTION]... GROUP FILE...\n  or:  chgrp [OPTION]... --reference=RFILE FILE...\nChange the group of each FILE to GROUP.\n"
    };
    if let Some(c) = std_opts(prog, &p, help) {
        return c;
    }
    let mut ops = p.operands.clone();
    let (uid, gid) = if let Some(r) = p.last(REFERENCE) {
        match meta::stat_ext(Path::new(r), true) {
            Ok(s) => (
                if prog == "chown" { Some(s.uid) } else { None },
                Some(s.gid),
            ),
            Err(e) => {
                eprintln!(
                    "{}: failed to get attributes of {}: {}",
                    prog,
                    quote_gnu(r),
                    strerror(&e)
                );
                return 1;
            }
        }
    } else {
        if ops.is_empty() {
            return usage_error(prog, "missing operand", 1);
        }
        let spec_os = ops.remove(0);
        let spec = spec_os.to_string_lossy().into_owned();
        if ops.is_empty() {
            return usage_error(
                prog,
                &format!("missing operand after {}", quote_gnu(&spec_os)),
                1,
            );
        }
        if prog == "chgrp" {
            match group_id(&spec) {
                Some(g) => (None, Some(g)),
                None => {
                    eprintln!("chgrp: invalid group: {}", quote_gnu(&spec_os));
                    return 1;
                }
            }
        } else {
            let (u, g) = match spec.split_once(|c| c == ':' || c == '.') {
                Some((u, g)) => (u.to_string(), Some(g.to_string())),
                None => (spec.clone(), None),
            };
            let uid = if u.is_empty() {
                None
            } else {
                match user_id(&u) {
                    Some(x) => Some(x),
                    None => {
                        eprintln!("chown: invalid user: {}", quote_gnu(&spec_os));
                        return 1;
                    }
                }
            };
            let gid = match g.as_deref() {
                None | Some("") => {
                    // `user:` means the user's login group.
                    if g.is_some() {
                        users()
                            .into_iter()
                            .find(|x| Some(x.uid) == uid)
                            .map(|x| x.gid)
                    } else {
                        None
                    }
                }
                Some(gs) => match group_id(gs) {
                    Some(x) => Some(x),
                    None => {
                        eprintln!("chown: invalid group: {}", quote_gnu(&spec_os));
                        return 1;
                    }
                },
            };
            (uid, gid)
        }
    };
    if ops.is_empty() {
        return usage_error(prog, "missing operand", 1);
    }
    let mut j = Job {
        prog,
        uid,
        gid,
        recursive: p.has('R'),
        verbose: p.has('v'),
        changes: p.has('c'),
        quiet: p.has('f'),
        follow: !p.has('h'),
        names: NameCache::default(),
    };
    let mut status = 0;
    for f in &ops {
        if !change(&mut j, Path::new(f)) {
            status = 1;
        }
    }
    status
}

/// `chown`.
pub fn main_chown(args: Vec<OsString>) -> i32 {
    run("chown", args)
}

/// `chgrp`.
pub fn main_chgrp(args: Vec<OsString>) -> i32 {
    run("chgrp", args)
}
