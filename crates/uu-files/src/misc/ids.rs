//! `whoami`, `id` and `groups`: user and group identity from the kernel's
//! ids and the names in `/etc/passwd` and `/etc/group`.

use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use coreutils_core::users::{groups, users, User};
use std::ffi::OsString;
use std::fmt::Write as _;

fn name_of_user(uid: u32) -> Option<String> {
    users().into_iter().find(|u| u.uid == uid).map(|u| u.name)
}

fn name_of_group(gid: u32) -> Option<String> {
    groups().into_iter().find(|g| g.gid == gid).map(|g| g.name)
}

/// Primary group first, then supplementary groups naming the user.
fn group_list(name: Option<&str>, primary: u32) -> Vec<u32> {
    let mut v = vec![primary];
    if let Some(n) = name {
        for g in groups() {
            if g.members.iter().any(|m| m == n) && !v.contains(&g.gid) {
                v.push(g.gid);
            }
        }
    }
    v
}

/// `whoami`.
pub fn main_whoami(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("whoami", &args, "", &coreutils_core::args::STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("whoami", &p, "Usage: whoami [OPTION]...\nPrint the user name associated with the current effective user ID.\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        return coreutils_core::args::extra_operand("whoami", op, 1);
    }
    let uid = meta::ids().map(|i| i.euid).unwrap_or(0);
    match name_of_user(uid) {
        Some(n) => {
            println!("{}", n);
            0
        }
        None => {
            eprintln!(
                "{}: cannot find name for user ID {}",
                coreutils_core::prog("whoami"),
                uid
            );
            1
        }
    }
}

const ID_LONGS: &[LongOpt] = &[
    long("user", HasArg::No, 'u'),
    long("group", HasArg::No, 'g'),
    long("groups", HasArg::No, 'G'),
    long("name", HasArg::No, 'n'),
    long("real", HasArg::No, 'r'),
    long("zero", HasArg::No, 'z'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

fn lookup_user(arg: &OsString) -> Option<User> {
    let s = arg.to_string_lossy();
    let all = users();
    all.iter().find(|u| u.name == s).cloned().or_else(|| {
        s.parse::<u32>()
            .ok()
            .and_then(|n| all.into_iter().find(|u| u.uid == n))
    })
}

/// `id`.
pub fn main_id(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("id", &args, "ugGnrzaZ", ID_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("id", &p, "Usage: id [OPTION]... [USER]...\nPrint user and group information for each specified USER,\nor (when USER omitted) for the current process.\n") {
        return c;
    }
    let (u, g, gs, n, z) = (p.has('u'), p.has('g'), p.has('G'), p.has('n'), p.has('z'));
    let picked = [u, g, gs].iter().filter(|x| **x).count();
    if picked > 1 {
        eprintln!(
            "{}: cannot print \"only\" of more than one choice",
            coreutils_core::prog("id")
        );
        return 1;
    }
    if (n || p.has('r')) && picked == 0 {
        eprintln!(
            "{}: cannot print only names or real IDs in default format",
            coreutils_core::prog("id")
        );
        return 1;
    }
    if z && picked == 0 {
        eprintln!(
            "{}: option --zero not permitted in default format",
            coreutils_core::prog("id")
        );
        return 1;
    }
    let targets: Vec<Option<&OsString>> = if p.operands.is_empty() {
        vec![None]
    } else {
        p.operands.iter().map(Some).collect()
    };
    let mut status = 0;
    for t in targets {
        let (uid, gid, name) = match t {
            Some(a) => match lookup_user(a) {
                Some(us) => (us.uid, us.gid, Some(us.name)),
                None => {
                    eprintln!(
                        "{}: {}: no such user",
                        coreutils_core::prog("id"),
                        quote_gnu(a)
                    );
                    status = 1;
                    continue;
                }
            },
            None => {
                let ids = meta::ids().unwrap_or_default();
                let (uid, gid) = if p.has('r') {
                    (ids.uid, ids.gid)
                } else {
                    (ids.euid, ids.egid)
                };
                (uid, gid, name_of_user(uid))
            }
        };
        let gl = group_list(name.as_deref(), gid);
        let gname = |g: u32| name_of_group(g).unwrap_or_else(|| g.to_string());
        let term = if z { "\0" } else { "\n" };
        if u {
            print!(
                "{}{}",
                if n {
                    name.clone().unwrap_or_else(|| uid.to_string())
                } else {
                    uid.to_string()
                },
                term
            );
        } else if g {
            print!("{}{}", if n { gname(gid) } else { gid.to_string() }, term);
        } else if gs {
            let sep = if z { "\0" } else { " " };
            let items: Vec<String> = gl
                .iter()
                .map(|&x| if n { gname(x) } else { x.to_string() })
                .collect();
            print!("{}{}", items.join(sep), term);
        } else {
            let mut s = format!("uid={}", uid);
            if let Some(nm) = &name {
                let _ = write!(s, "({})", nm);
            }
            let _ = write!(s, " gid={}", gid);
            if let Some(gn) = name_of_group(gid) {
                let _ = write!(s, "({})", gn);
            }
            let items: Vec<String> = gl
                .iter()
                .map(|&x| match name_of_group(x) {
                    Some(gn) => format!("{}({})", x, gn),
                    None => x.to_string(),
                })
                .collect();
            let _ = write!(s, " groups={}", items.join(","));
            println!("{}", s);
        }
    }
    status
}

/// `groups`.
pub fn main_groups(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("groups", &args, "", &coreutils_core::args::STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("groups", &p, "Usage: groups [OPTION]... [USERNAME]...\nPrint group memberships for each USERNAME or, if no USERNAME is specified, for\nthe current process.\n") {
        return c;
    }
    let gname = |g: u32| name_of_group(g).unwrap_or_else(|| g.to_string());
    if p.operands.is_empty() {
        let ids = meta::ids().unwrap_or_default();
        let gl = group_list(name_of_user(ids.euid).as_deref(), ids.egid);
        let v: Vec<String> = gl.into_iter().map(gname).collect();
        println!("{}", v.join(" "));
        return 0;
    }
    let mut status = 0;
    for a in &p.operands {
        match lookup_user(a) {
            Some(u) => {
                let v: Vec<String> = group_list(Some(&u.name), u.gid)
                    .into_iter()
                    .map(gname)
                    .collect();
                println!("{} : {}", a.to_string_lossy(), v.join(" "));
            }
            None => {
                eprintln!(
                    "{}: {}: no such user",
                    coreutils_core::prog("groups"),
                    quote_gnu(a)
                );
                status = 1;
            }
        }
    }
    let _ = usage_error;
    status
}
