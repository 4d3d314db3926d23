//! `ls` entries, sorting and the output formats (long, columns, lines).

use crate::misc::datetime::{strftime, Time};
use coreutils_core::meta;
use coreutils_core::meta::{perm_string, type_char};
use coreutils_core::users::NameCache;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Sort order.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// By name, byte order.
    #[default]
    Name,
    /// Largest first.
    Size,
    /// Newest first.
    Time,
    /// Directory order.
    None,
}

/// What the options asked for.
#[derive(Default)]
pub struct Options {
    pub all: bool,
    pub almost: bool,
    pub human: bool,
    pub recursive: bool,
    pub reverse: bool,
    pub dirs_as_files: bool,
    pub classify: bool,
    pub slash: bool,
    pub inode: bool,
    pub numeric: bool,
    pub long: bool,
    pub no_owner: bool,
    pub no_group: bool,
    pub deref: bool,
    pub one_per_line: bool,
    pub dirs_first: bool,
    pub sort: Sort,
    pub width: usize,
}

impl Options {
    /// Whether listing needs each entry's metadata; without it, names and
    /// readdir's file types are enough (GNU's `ls` and `ls -R` stat nothing
    /// either, which makes big trees ~30x cheaper here).
    pub fn needs_stat(&self) -> bool {
        self.long || self.classify || self.inode || self.deref || self.sort != Sort::Name
    }
}

/// One listed file.
pub struct Entry {
    pub path: PathBuf,
    pub name: Vec<u8>,
    pub is_dir: bool,
    pub is_link: bool,
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub size: u64,
    pub blocks: u64,
    pub mtime: Time,
    pub ino: u64,
    pub link_target: Option<Vec<u8>>,
}

impl Entry {
    /// An entry known by name and readdir's file type only (see `Options::needs_stat`).
    pub fn named(path: PathBuf, name: Vec<u8>, ft: std::fs::FileType) -> Entry {
        Entry {
            path,
            name,
            is_dir: ft.is_dir(),
            is_link: ft.is_symlink(),
            mode: 0,
            nlink: 0,
            uid: 0,
            gid: 0,
            size: 0,
            blocks: 0,
            mtime: Time { secs: 0, nanos: 0 },
            ino: 0,
            link_target: None,
        }
    }

    /// Stat `path` (following a final symlink when `follow`).
    pub fn load(path: &Path, name: Vec<u8>, follow: bool, _o: &Options) -> std::io::Result<Entry> {
        let lm = coreutils_core::fs::symlink_metadata(path)?;
        let is_link = lm.file_type().is_symlink();
        let m = if follow && is_link {
            coreutils_core::fs::metadata(path).unwrap_or_else(|_| lm.clone())
        } else {
            lm
        };
        let ext = meta::stat_ext(path, follow && is_link)
            .or_else(|_| meta::stat_ext(path, false))
            .unwrap_or_default();
        let blocks = coreutils_core::meta::blocks(&m) / 2; // 1 KiB units
        let ino = meta::inode(path, follow && is_link).unwrap_or(0);
        let mt = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        let link_target = if m.file_type().is_symlink() {
            coreutils_core::fs::read_link(path)
                .ok()
                .map(|t| coreutils_core::bytes::path_bytes(&t).to_vec())
        } else {
            None
        };
        Ok(Entry {
            path: path.to_path_buf(),
            name,
            is_dir: m.is_dir(),
            is_link: m.file_type().is_symlink(),
            mode: ext.mode,
            nlink: ext.nlink,
            uid: ext.uid,
            gid: ext.gid,
            size: m.len(),
            blocks,
            mtime: Time {
                secs: mt.as_secs() as i64,
                nanos: mt.subsec_nanos(),
            },
            ino,
            link_target,
        })
    }
}

/// Sort entries per the options.
pub fn sort(v: &mut [Entry], o: &Options) {
    match o.sort {
        Sort::Name => v.sort_by(|a, b| a.name.cmp(&b.name)),
        Sort::Size => v.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.name.cmp(&b.name))),
        Sort::Time => v.sort_by(|a, b| {
            b.mtime
                .secs
                .cmp(&a.mtime.secs)
                .then(b.mtime.nanos.cmp(&a.mtime.nanos))
                .then_with(|| a.name.cmp(&b.name))
        }),
        Sort::None => {}
    }
    if o.reverse && o.sort != Sort::None {
        v.reverse();
    }
    if o.dirs_first {
        v.sort_by_key(|e| !e.is_dir);
    }
}

/// GNU `-h` sizes: 1023, 1.0K, 9.9K, 10K, 1.5M (rounded up).
pub fn human(n: u64) -> String {
    if n < 1024 {
        return n.to_string();
    }
    let units = ["K", "M", "G", "T", "P", "E"];
    let mut v = n as f64;
    let mut i = 0;
    loop {
        v /= 1024.0;
        if v < 1024.0 || i == units.len() - 1 {
            break;
        }
        i += 1;
    }
    if v < 10.0 {
        let r = (v * 10.0).ceil() / 10.0;
        if r >= 10.0 {
            return format!("{}{}", r as u64, units[i]);
        }
        format!("{:.1}{}", r, units[i])
    } else {
        let r = v.ceil();
        if r >= 1024.0 && i + 1 < units.len() {
            return format!("1.0{}", units[i + 1]);
        }
        format!("{}{}", r as u64, units[i])
    }
}

fn indicator(e: &Entry, o: &Options) -> &'static [u8] {
    if !(o.classify || o.slash) {
        return b"";
    }
    use coreutils_core::meta::*;
    let t = e.mode & S_IFMT;
    if e.is_dir || t == S_IFDIR {
        return b"/";
    }
    if !o.classify {
        return b"";
    }
    if e.is_link {
        return b"@";
    }
    match t {
        S_IFIFO => b"|",
        S_IFSOCK => b"=",
        _ if e.mode & 0o111 != 0 => b"*",
        _ => b"",
    }
}

fn time_str(t: Time) -> String {
    let now = Time::now().secs;
    let six_months = 31556952 / 2;
    if t.secs > now - six_months && t.secs <= now + 60 * 60 {
        strftime("%b %e %H:%M", t)
    } else {
        strftime("%b %e  %Y", t)
    }
}

/// Print a list of entries in the chosen format.
pub fn print_list(out: &mut dyn Write, v: &[Entry], o: &Options, _in_dir: bool) {
    let mut names = NameCache::default();
    let mut buf = Vec::new();
    if o.long {
        let rows: Vec<[String; 5]> = v
            .iter()
            .map(|e| {
                let owner = if o.numeric {
                    e.uid.to_string()
                } else {
                    names.user(e.uid)
                };
                let group = if o.numeric {
                    e.gid.to_string()
                } else {
                    names.group(e.gid)
                };
                let size = if o.human {
                    human(e.size)
                } else {
                    e.size.to_string()
                };
                [e.ino.to_string(), e.nlink.to_string(), owner, group, size]
            })
            .collect();
        let w = |k: usize| rows.iter().map(|r| r[k].len()).max().unwrap_or(0);
        let (wi, wn, wo, wg, ws) = (w(0), w(1), w(2), w(3), w(4));
        for (e, r) in v.iter().zip(rows.iter()) {
            if o.inode {
                buf.extend_from_slice(format!("{:>w$} ", r[0], w = wi).as_bytes());
            }
            buf.push(type_char(e.mode) as u8);
            buf.extend_from_slice(perm_string(e.mode).as_bytes());
            buf.extend_from_slice(format!(" {:>w$}", r[1], w = wn).as_bytes());
            if !o.no_owner {
                buf.extend_from_slice(format!(" {:<w$}", r[2], w = wo).as_bytes());
            }
            if !o.no_group {
                buf.extend_from_slice(format!(" {:<w$}", r[3], w = wg).as_bytes());
            }
            buf.extend_from_slice(format!(" {:>w$} ", r[4], w = ws).as_bytes());
            buf.extend_from_slice(time_str(e.mtime).as_bytes());
            buf.push(b' ');
            buf.extend_from_slice(&e.name);
            if let Some(t) = &e.link_target {
                buf.extend_from_slice(b" -> ");
                buf.extend_from_slice(t);
            } else {
                buf.extend_from_slice(indicator(e, o));
            }
            buf.push(b'\n');
        }
        let _ = out.write_all(&buf);
        return;
    }
    let cells: Vec<Vec<u8>> = v
        .iter()
        .map(|e| {
            let mut c = Vec::new();
            if o.inode {
                c.extend_from_slice(format!("{} ", e.ino).as_bytes());
            }
            c.extend_from_slice(&e.name);
            c.extend_from_slice(indicator(e, o));
            c
        })
        .collect();
    if o.one_per_line {
        for c in &cells {
            buf.extend_from_slice(c);
            buf.push(b'\n');
        }
        let _ = out.write_all(&buf);
        return;
    }
    columns(&mut buf, &cells, o.width);
    let _ = out.write_all(&buf);
}

fn display_width(c: &[u8]) -> usize {
    String::from_utf8_lossy(c).chars().count()
}

/// GNU's vertical column layout: the most columns that fit the width.
fn columns(buf: &mut Vec<u8>, cells: &[Vec<u8>], width: usize) {
    if cells.is_empty() {
        return;
    }
    let lens: Vec<usize> = cells.iter().map(|c| display_width(c)).collect();
    let n = cells.len();
    let mut best_cols = 1;
    let mut best_widths = vec![lens.iter().copied().max().unwrap_or(0)];
    for cols in (2..=n.min(width / 3 + 1)).rev() {
        let rows = (n + cols - 1) / cols;
        let real_cols = (n + rows - 1) / rows;
        let mut widths = vec![0; real_cols];
        for (i, l) in lens.iter().enumerate() {
            let c = i / rows;
            widths[c] = widths[c].max(*l);
        }
        let total: usize = widths
            .iter()
            .enumerate()
            .map(|(i, w)| if i + 1 < real_cols { w + 2 } else { *w })
            .sum();
        if total < width {
            best_cols = real_cols;
            best_widths = widths;
            break;
        }
    }
    let rows = (n + best_cols - 1) / best_cols;
    for r in 0..rows {
        let mut c = 0;
        let mut pos = 0usize;
        while c < best_cols {
            let i = c * rows + r;
            if i >= n {
                break;
            }
            buf.extend_from_slice(&cells[i]);
            let last = c + 1 == best_cols || (c + 1) * rows + r >= n;
            if !last {
                // GNU pads with tabs (tab stops every 8) and then spaces.
                let target = pos + best_widths[c] + 2;
                let mut at = pos + lens[i];
                while at < target {
                    if target / 8 > (at + 1) / 8 {
                        buf.push(b'\t');
                        at += 8 - at % 8;
                    } else {
                        buf.push(b' ');
                        at += 1;
                    }
                }
                pos = target;
            }
            c += 1;
        }
        buf.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn human_sizes() {
        assert_eq!(human(1023), "1023");
        assert_eq!(human(1024), "1.0K");
        assert_eq!(human(1100), "1.1K");
        assert_eq!(human(10 * 1024 + 1), "11K");
        assert_eq!(human(1536 * 1024), "1.5M");
    }
    #[test]
    fn column_layout() {
        let cells: Vec<Vec<u8>> = ["a", "bb", "ccc", "d"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        let mut b = Vec::new();
        columns(&mut b, &cells, 80);
        assert_eq!(String::from_utf8(b).unwrap(), "a  bb  ccc  d\n");
        let mut b = Vec::new();
        let long: Vec<Vec<u8>> = ["abcdefghij", "b"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        columns(&mut b, &long, 80);
        assert_eq!(String::from_utf8(b).unwrap(), "abcdefghij  b\n");
        let mut b = Vec::new();
        columns(&mut b, &cells, 8);
        assert_eq!(String::from_utf8(b).unwrap(), "a   ccc\nbb  d\n");
    }
}
