//! `--color`: SGR codes per file type from `LS_COLORS` (GNU's built-in
//! table when unset), written the way GNU `ls` writes them.

use super::entry::Entry;
use coreutils_core::meta::*;

/// The colour table.
pub struct Colors {
    codes: Vec<(String, Vec<u8>)>,
    exts: Vec<(Vec<u8>, Vec<u8>)>,
}

// GNU's defaults (ls.c color_indicator) for the keys that have one.
const DEFAULTS: &[(&str, &str)] = &[
    ("lc", "\x1b["),
    ("rc", "m"),
    ("rs", "0"),
    ("di", "01;34"),
    ("ln", "01;36"),
    ("pi", "33"),
    ("so", "01;35"),
    ("bd", "01;33"),
    ("cd", "01;33"),
    ("ex", "01;32"),
    ("do", "01;35"),
    ("su", "37;41"),
    ("sg", "30;43"),
    ("st", "37;44"),
    ("ow", "34;42"),
    ("tw", "30;42"),
];

/// Decode dircolors' escapes (`\e`, `^[`, octal, `\n`...) in a value.
fn unescape(v: &str) -> Vec<u8> {
    let b = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                i += 1;
                let c = b[i];
                match c {
                    b'0'..=b'7' => {
                        let mut n = 0u32;
                        let mut k = 0;
                        while k < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                            n = n * 8 + u32::from(b[i] - b'0');
                            i += 1;
                            k += 1;
                        }
                        out.push(n as u8);
                        continue;
                    }
                    b'e' => out.push(0x1b),
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'v' => out.push(11),
                    b'r' => out.push(b'\r'),
                    b'?' => out.push(127),
                    b'_' => out.push(b' '),
                    _ => out.push(c),
                }
                i += 1;
            }
            b'^' if i + 1 < b.len() => {
                let c = b[i + 1];
                out.push(if c == b'?' { 127 } else { c & 0x1f });
                i += 2;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

// The TERM patterns of dircolors' database: without LS_COLORS, GNU colours
// only for these terminals (or when COLORTERM is set).
const KNOWN_TERMS: &[&str] = &[
    "Eterm",
    "ansi",
    "*color*",
    "con[0-9]*x[0-9]*",
    "cons25",
    "console",
    "cygwin",
    "*direct*",
    "dtterm",
    "gnome",
    "hurd",
    "jfbterm",
    "konsole",
    "kterm",
    "linux",
    "linux-c",
    "mlterm",
    "putty",
    "rxvt*",
    "screen*",
    "st",
    "terminator",
    "tmux*",
    "vt100",
    "xterm*",
];

/// Whether `--color` may colour at all: `LS_COLORS` is set, or `COLORTERM`
/// is, or `TERM` names a terminal known to take colours.
pub fn usable() -> bool {
    let set = |k: &str| std::env::var_os(k).map_or(false, |v| !v.is_empty());
    if set("LS_COLORS") || set("COLORTERM") {
        return true;
    }
    let term = std::env::var("TERM").unwrap_or_default();
    KNOWN_TERMS
        .iter()
        .any(|p| coreutils_core::fnmatch::fnmatch(p.as_bytes(), term.as_bytes(), false))
}

impl Colors {
    /// The table from `LS_COLORS` over GNU's defaults.
    pub fn from_env() -> Colors {
        let mut c = Colors {
            codes: DEFAULTS
                .iter()
                .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
                .collect(),
            exts: Vec::new(),
        };
        if let Ok(spec) = std::env::var("LS_COLORS") {
            for item in spec.split(':').filter(|s| !s.is_empty()) {
                let (k, v) = match item.split_once('=') {
                    Some((k, v)) => (k, unescape(v)),
                    None => continue,
                };
                if let Some(ext) = k.strip_prefix('*') {
                    c.exts.push((ext.as_bytes().to_vec(), v));
                } else if let Some(slot) = c.codes.iter_mut().find(|(key, _)| key == k) {
                    slot.1 = v;
                } else {
                    c.codes.push((k.to_string(), v));
                }
            }
        }
        c
    }

    fn get(&self, key: &str) -> Option<&[u8]> {
        self.codes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
            .filter(|v| !v.is_empty() && *v != b"0" && *v != b"00")
    }

    fn raw(&self, key: &str) -> &[u8] {
        self.codes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
            .unwrap_or(b"")
    }

    /// The code for a file of `mode` named `name` (`linkok`: a symlink's
    /// target exists).
    fn code_for(&self, name: &[u8], mode: u32, nlink: u32, linkok: bool) -> Option<&[u8]> {
        let key = match mode & S_IFMT {
            S_IFDIR => {
                let (sticky, ow) = (mode & 0o1000 != 0, mode & 0o002 != 0);
                match (sticky, ow) {
                    (true, true) if self.get("tw").is_some() => "tw",
                    (false, true) if self.get("ow").is_some() => "ow",
                    (true, false) if self.get("st").is_some() => "st",
                    _ => "di",
                }
            }
            S_IFLNK => {
                if !linkok && self.get("or").is_some() {
                    "or"
                } else {
                    "ln"
                }
            }
            S_IFIFO => "pi",
            S_IFSOCK => "so",
            S_IFBLK => "bd",
            S_IFCHR => "cd",
            _ => {
                if mode & 0o4000 != 0 && self.get("su").is_some() {
                    "su"
                } else if mode & 0o2000 != 0 && self.get("sg").is_some() {
                    "sg"
                } else if mode & 0o111 != 0 && self.get("ex").is_some() {
                    "ex"
                } else if nlink > 1 && self.get("mh").is_some() {
                    "mh"
                } else {
                    if let Some((_, v)) = self.exts.iter().find(|(e, _)| name.ends_with(e)) {
                        return Some(v.as_slice()).filter(|v| !v.is_empty());
                    }
                    "fi"
                }
            }
        };
        self.get(key)
    }

    /// The reset GNU writes once, before the first coloured name.
    pub fn reset(&self) -> Vec<u8> {
        [self.raw("lc"), self.raw("rs"), self.raw("rc")].concat()
    }

    /// Write `text` (the quoted name of `e`, or of its link target when
    /// `target`) in its colour; returns whether it was coloured.
    pub fn paint(&self, out: &mut Vec<u8>, e: &Entry, text: &[u8], target: bool) -> bool {
        let linkok = !e.is_link || e.target_mode.is_some();
        let code = if target {
            match e.target_mode {
                Some(m) => self.code_for(e.link_target.as_deref().unwrap_or(b""), m, 1, true),
                None => self.get("mi").or_else(|| self.get("or")),
            }
        } else if e.is_link && self.raw("ln") == b"target" {
            match e.target_mode {
                Some(m) => self.code_for(&e.name, m, 1, true),
                None => self.get("or"),
            }
        } else if !e.stat_ok {
            self.get("mi").or_else(|| self.get("or"))
        } else {
            self.code_for(&e.name, e.st.mode, e.st.nlink, linkok)
        };
        let code = match code {
            Some(c) => c.to_vec(),
            None => {
                out.extend_from_slice(text);
                return false;
            }
        };
        let (lc, rc) = (self.raw("lc").to_vec(), self.raw("rc").to_vec());
        out.extend_from_slice(&lc);
        out.extend_from_slice(&code);
        out.extend_from_slice(&rc);
        out.extend_from_slice(text);
        match self.get("ec") {
            Some(ec) => out.extend_from_slice(ec),
            None => out.extend_from_slice(&self.reset()),
        }
        true
    }
}
