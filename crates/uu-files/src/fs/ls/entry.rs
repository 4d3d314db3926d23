//! One listed file: the name as listed and what `ls` shows about it.

use crate::misc::datetime::Time;
use coreutils_core::meta;
use std::path::{Path, PathBuf};

/// One listed file.
pub struct Entry {
    pub path: PathBuf,
    pub name: Vec<u8>,
    /// Whether stat (or lstat) worked; a failed `-L` stat lists `?` fields.
    pub stat_ok: bool,
    pub is_dir: bool,
    pub is_link: bool,
    /// What stat said; only the type bits of `mode` for a [`named`](Entry::named) entry.
    pub st: meta::Stat,
    pub link_target: Option<Vec<u8>>,
    /// Mode of a symlink's target (None when dangling or not a link).
    pub target_mode: Option<u32>,
}

/// A stat time (nanoseconds since the epoch) as ls formats it.
pub fn time_of(ns: u64) -> Time {
    Time {
        secs: (ns / 1_000_000_000) as i64,
        nanos: (ns % 1_000_000_000) as u32,
    }
}

impl Entry {
    /// An entry known by name and readdir's file type only (listings that
    /// need no metadata stat nothing, like GNU: big trees are much cheaper).
    pub fn named(path: PathBuf, name: Vec<u8>, ft: std::fs::FileType) -> Entry {
        let mut e = Entry::unknown(path, name);
        e.stat_ok = true;
        e.is_dir = ft.is_dir();
        e.is_link = ft.is_symlink();
        e.st.mode = if ft.is_dir() {
            meta::S_IFDIR
        } else if ft.is_symlink() {
            meta::S_IFLNK
        } else {
            meta::S_IFREG
        };
        e
    }

    /// An entry whose stat failed.
    pub fn unknown(path: PathBuf, name: Vec<u8>) -> Entry {
        Entry {
            path,
            name,
            stat_ok: false,
            is_dir: false,
            is_link: false,
            st: meta::Stat::default(),
            link_target: None,
            target_mode: None,
        }
    }

    /// Stat `path`, following a final symlink when `follow`; `want_target`
    /// reads a symlink's target and the target's mode (long format, `-F`,
    /// colours).
    pub fn load(
        path: &Path,
        name: Vec<u8>,
        follow: bool,
        want_target: bool,
    ) -> std::io::Result<Entry> {
        let st = meta::stat(path, follow)?;
        let is_link = st.is_symlink();
        let (link_target, target_mode) = if is_link && want_target {
            let t = coreutils_core::fs::read_link(path)
                .ok()
                .map(|t| coreutils_core::bytes::path_bytes(&t).to_vec());
            let tm = meta::stat_ext(path, true).ok().map(|x| x.mode);
            (t, tm)
        } else {
            (None, None)
        };
        Ok(Entry {
            path: path.to_path_buf(),
            name,
            stat_ok: true,
            is_dir: st.is_dir(),
            is_link,
            st,
            link_target,
            target_mode,
        })
    }

    /// The file type bits.
    pub fn kind(&self) -> u32 {
        self.st.mode & meta::S_IFMT
    }
}
