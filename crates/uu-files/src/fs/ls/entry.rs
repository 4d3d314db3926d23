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
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub size: u64,
    /// 512-byte blocks.
    pub blocks: u64,
    pub mtime: Time,
    pub atime: Time,
    pub ctime: Time,
    pub ino: u64,
    pub link_target: Option<Vec<u8>>,
    /// Mode of a symlink's target (None when dangling or not a link).
    pub target_mode: Option<u32>,
}

fn time_of(ns: u64) -> Time {
    Time {
        secs: (ns / 1_000_000_000) as i64,
        nanos: (ns % 1_000_000_000) as u32,
    }
}

const ZERO: Time = Time { secs: 0, nanos: 0 };

impl Entry {
    /// An entry known by name and readdir's file type only (listings that
    /// need no metadata stat nothing, like GNU: big trees are much cheaper).
    pub fn named(path: PathBuf, name: Vec<u8>, ft: std::fs::FileType) -> Entry {
        let mut e = Entry::unknown(path, name);
        e.stat_ok = true;
        e.is_dir = ft.is_dir();
        e.is_link = ft.is_symlink();
        e.mode = if ft.is_dir() {
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
            mode: 0,
            nlink: 0,
            uid: 0,
            gid: 0,
            size: 0,
            blocks: 0,
            mtime: ZERO,
            atime: ZERO,
            ctime: ZERO,
            ino: 0,
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
            mode: st.mode,
            nlink: st.nlink,
            uid: st.uid,
            gid: st.gid,
            size: st.size,
            blocks: st.blocks,
            mtime: time_of(st.mtime_ns),
            atime: time_of(st.atime_ns),
            ctime: time_of(st.ctime_ns),
            ino: st.ino,
            link_target,
            target_mode,
        })
    }

    /// The file type bits.
    pub fn kind(&self) -> u32 {
        self.mode & meta::S_IFMT
    }
}
