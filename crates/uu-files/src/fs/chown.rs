//! `chown [-R] [-v|-c] [-f] [-h] OWNER[:GROUP] FILE...` and
//! `chgrp [-R] [-v|-c] [-f] GROUP FILE...`, names from `/etc/passwd` and
//! `/etc/group`.

use super::attrs::{self, Switches};
use coreutils_core::args::{long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use coreutils_core::users::{groups, users, NameCache};
use std::ffi::OsString;
use std::path::Path;

/// chown's own options, beside the shared ones.
const OWN_LONGS: [LongOpt; 2] = [
    long("no-dereference", HasArg::No, 'h'),
    long("dereference", HasArg::No, '\u{e002}'),
];

fn group_id(s: &str) -> Option<u32> {
    groups()
        .into_iter()
        .find(|g| g.name == s)
        .map(|g| g.gid)
        .or_else(|| s.parse().ok())
}

/// `GROUP` when it is a group's name (numeric ids are shown as numbers).
fn named_group(s: &str) -> Option<String> {
    groups().into_iter().find(|g| g.name == s).map(|g| g.name)
}

/// Parses chown's `[OWNER][:[GROUP]]` (`.` accepted for `:`); returns the
/// ids and the names messages use, or GNU's complaint.
#[allow(clippy::type_complexity)]
fn parse_owner_spec(
    spec: &str,
) -> Result<(Option<u32>, Option<u32>, Option<String>, Option<String>), &'static str> {
    let (u, g) = match spec.split_once([':', '.']) {
        Some((u, g)) => (u, Some(g)),
        None => (spec, None),
    };
    let user = users().into_iter().find(|x| !u.is_empty() && x.name == u);
    let uid = if u.is_empty() {
        None
    } else {
        match &user {
            Some(x) => Some(x.uid),
            None => Some(u.parse::<u32>().map_err(|_| "invalid user")?),
        }
    };
    let (gid, mut group_name) = match g {
        None => (None, None),
        // `OWNER:` means the owner's login group; a numeric owner has none.
        Some("") if uid.is_some() => match &user {
            Some(x) => {
                let name = groups()
                    .into_iter()
                    .find(|gr| gr.gid == x.gid)
                    .map_or_else(|| x.gid.to_string(), |gr| gr.name);
                (Some(x.gid), Some(name))
            }
            None => return Err("invalid spec"),
        },
        Some("") => (None, None),
        Some(gs) => match group_id(gs) {
            Some(x) => (Some(x), named_group(gs)),
            None => return Err("invalid group"),
        },
    };
    let mut user_name = user.map(|x| x.name);
    if user_name.is_none() && uid.is_none() && group_name.is_some() {
        // GNU: "so that diagnostics say 'ownership :GROUP'".
        user_name = Some(String::new());
    }
    if gid.is_none() {
        group_name = None;
    }
    Ok((uid, gid, user_name, group_name))
}

struct Job {
    prog: &'static str,
    uid: Option<u32>,
    gid: Option<u32>,
    /// The new owner and group as messages name them: the names given on
    /// the command line, numbers for numeric ids; `Some("")` for the user of
    /// `chown :GROUP` so that it speaks of "ownership ... to :GROUP".
    new_user: Option<String>,
    new_group: Option<String>,
    sw: Switches,
    follow: bool,
    names: NameCache,
}

/// `user:group`, `user` or `group`, as GNU's `user_group_str`.
fn user_group(u: Option<&str>, g: Option<&str>) -> Option<String> {
    match (u, g) {
        (Some(u), Some(g)) => Some(format!("{}:{}", u, g)),
        (Some(u), None) => Some(u.to_string()),
        (None, Some(g)) => Some(g.to_string()),
        (None, None) => None,
    }
}

/// What `-v`/`-c` print for one file; `outcome` is `Ok(changed)` or `Err(())`
/// when the change failed.
fn describe(j: &mut Job, q: &str, old_uid: u32, old_gid: u32, outcome: Result<bool, ()>) {
    let old_user = j.new_user.as_ref().map(|_| j.names.user(old_uid));
    let old_group = j.new_group.as_ref().map(|_| j.names.group(old_gid));
    let old = user_group(old_user.as_deref(), old_group.as_deref()).unwrap_or_default();
    let new = user_group(j.new_user.as_deref(), j.new_group.as_deref()).unwrap_or_default();
    let owner = j.new_user.is_some();
    let group = j.new_group.is_some();
    match outcome {
        Ok(true) if owner => println!("changed ownership of {} from {} to {}", q, old, new),
        Ok(true) if group => println!("changed group of {} from {} to {}", q, old, new),
        Ok(true) => println!("no change to ownership of {}", q),
        Err(()) if owner => println!(
            "failed to change ownership of {} from {} to {}",
            q, old, new
        ),
        Err(()) if group => println!("failed to change group of {} from {} to {}", q, old, new),
        Err(()) => println!("failed to change ownership of {}", q),
        Ok(false) if owner => println!("ownership of {} retained as {}", q, old),
        Ok(false) if group => println!("group of {} retained as {}", q, old),
        Ok(false) => println!("ownership of {} retained", q),
    }
}

fn change(j: &mut Job, path: &Path) -> bool {
    let q = quote_gnu(path.as_os_str());
    let st = match meta::stat_ext(path, j.follow) {
        Ok(s) => s,
        Err(e) => {
            if !j.sw.quiet {
                eprintln!("{}: cannot access {}: {}", j.prog, q, strerror(&e));
            }
            return false;
        }
    };
    let mut ok = true;
    // GNU changes a directory after its contents (fts post-order), so a
    // recursive run reports the children first.
    if j.sw.recursive && st.mode & meta::S_IFMT == meta::S_IFDIR {
        let saved = j.follow;
        j.follow = false;
        for child in attrs::children(path) {
            ok &= change(j, &child);
        }
        j.follow = saved;
    }
    let nu = j.uid.unwrap_or(st.uid);
    let ng = j.gid.unwrap_or(st.gid);
    // The diagnostic speaks of the group when no new owner was asked for.
    let what = if j.uid.is_none() {
        "group"
    } else {
        "ownership"
    };
    if nu != st.uid || ng != st.gid {
        match meta::chown(path, j.uid, j.gid, j.follow) {
            Ok(()) => {
                if j.sw.verbose || j.sw.changes {
                    describe(j, &q, st.uid, st.gid, Ok(true));
                }
            }
            Err(e) => {
                if !j.sw.quiet {
                    eprintln!("{}: changing {} of {}: {}", j.prog, what, q, strerror(&e));
                }
                if j.sw.verbose {
                    describe(j, &q, st.uid, st.gid, Err(()));
                }
                ok = false;
            }
        }
    } else if j.sw.verbose {
        describe(j, &q, st.uid, st.gid, Ok(false));
    }
    ok
}

fn run(prog: &'static str, args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(
        prog,
        &args,
        "RvcfhHLP",
        &[&attrs::longs()[..], &OWN_LONGS[..]].concat(),
        1,
    ) {
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
    // (uid, gid, name of the new owner, name of the new group)
    let reference = match attrs::reference(prog, &p) {
        Ok(r) => r,
        Err(c) => return c,
    };
    let (uid, gid, new_user, new_group) = if let Some(s) = reference {
        (
            if prog == "chown" { Some(s.uid) } else { None },
            Some(s.gid),
            None,
            None,
        )
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
                Some(g) => (None, Some(g), None, named_group(&spec)),
                None => {
                    eprintln!(
                        "{}: invalid group: {}",
                        coreutils_core::prog("chgrp"),
                        quote_gnu(&spec_os)
                    );
                    return 1;
                }
            }
        } else {
            match parse_owner_spec(&spec) {
                Ok(x) => x,
                Err(what) => {
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("chown"),
                        what,
                        quote_gnu(&spec_os)
                    );
                    return 1;
                }
            }
        }
    };
    if ops.is_empty() {
        return usage_error(prog, "missing operand", 1);
    }
    let mut j = Job {
        prog,
        uid,
        gid,
        new_user: new_user.or_else(|| uid.map(|u| u.to_string())),
        new_group: new_group.or_else(|| gid.map(|g| g.to_string())),
        sw: Switches::from(&p),
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
