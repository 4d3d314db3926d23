//! User and group names from `/etc/passwd` and `/etc/group`.

use std::collections::HashMap;

/// One account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Login name.
    pub name: String,
    /// User id.
    pub uid: u32,
    /// Primary group id.
    pub gid: u32,
    /// Home directory.
    pub home: String,
}

/// One group with its members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Group name.
    pub name: String,
    /// Group id.
    pub gid: u32,
    /// Member login names.
    pub members: Vec<String>,
}

fn read(path: &str) -> String {
    crate::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// All users of `/etc/passwd` (malformed lines skipped).
pub fn users() -> Vec<User> {
    read("/etc/passwd")
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            if f.len() < 4 {
                return None;
            }
            Some(User {
                name: f[0].to_string(),
                uid: f[2].parse().ok()?,
                gid: f[3].parse().ok()?,
                home: f.get(5).unwrap_or(&"").to_string(),
            })
        })
        .collect()
}

/// All groups of `/etc/group`.
pub fn groups() -> Vec<Group> {
    read("/etc/group")
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            if f.len() < 3 {
                return None;
            }
            Some(Group {
                name: f[0].to_string(),
                gid: f[2].parse().ok()?,
                members: f
                    .get(3)
                    .map(|m| {
                        m.split(',')
                            .filter(|s| !s.is_empty())
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// Cached id → name lookups (names fall back to the number).
#[derive(Default)]
pub struct NameCache {
    users: Option<HashMap<u32, String>>,
    groups: Option<HashMap<u32, String>>,
}

impl NameCache {
    /// User name of `uid`.
    pub fn user(&mut self, uid: u32) -> String {
        let m = self
            .users
            .get_or_insert_with(|| users().into_iter().rev().map(|u| (u.uid, u.name)).collect());
        m.get(&uid).cloned().unwrap_or_else(|| uid.to_string())
    }
    /// Group name of `gid`.
    pub fn group(&mut self, gid: u32) -> String {
        let m = self.groups.get_or_insert_with(|| {
            groups()
                .into_iter()
                .rev()
                .map(|g| (g.gid, g.name))
                .collect()
        });
        m.get(&gid).cloned().unwrap_or_else(|| gid.to_string())
    }
}
