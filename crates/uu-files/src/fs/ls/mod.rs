//! `ls`: list directory contents the GNU way: sorting, long format,
//! columns, quoting styles, colours, sizes and time styles.

mod color;
mod entry;
mod format;
mod options;
mod order;
mod quoting;
mod size;

use coreutils_core::bytes::os_bytes;
use coreutils_core::error::strerror;
use coreutils_core::fnmatch::fnmatch;
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::quote::quote_gnu;
use entry::Entry;
use format::Printer;
use options::{Deref, Format, Hidden, Options};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

/// GNU `-h` sizes (1023, 1.0K, 11K, 1.5M), as `du` and `df` print them too.
pub fn human(n: u64) -> String {
    size::human(n, 1024)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let (o, operands) = match options::parse(&args) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let ops: Vec<OsString> = if operands.is_empty() {
        vec![OsString::from(".")]
    } else {
        operands
    };
    let mut ls = Lister {
        o: &o,
        printer: Printer::new(&o),
        out: Vec::new(),
        printed: false,
        status: 0,
    };
    let mut files: Vec<Entry> = Vec::new();
    for op in &ops {
        if let Some(e) = ls.operand(op) {
            files.push(e);
        }
    }
    order::sort(&mut files, &o);
    let is_dir = |e: &Entry| e.is_dir && !o.dirs_as_files;
    // Files first, directories after; columns are sized over all of them.
    if files.iter().any(|e| !is_dir(e)) {
        let (mut plain, mut dirs): (Vec<Entry>, Vec<Entry>) =
            files.drain(..).partition(|e| !is_dir(e));
        let n = plain.len();
        plain.append(&mut dirs);
        let (head, _) = plain.split_at(n);
        ls.printer.print_among(&mut ls.out, head, &plain);
        ls.printed = true;
        files = plain.split_off(n);
    }
    let show_names = ops.len() > 1 || o.recursive;
    for d in &files {
        ls.list_dir(&d.path, &d.name, show_names, true);
    }
    ls.flush();
    ls.status
}

/// Walks operands and directories, writing through the printer.
struct Lister<'a> {
    o: &'a Options,
    printer: Printer<'a>,
    out: Vec<u8>,
    printed: bool,
    status: i32,
}

/// Whether a `-I`/`--hide` pattern matches (a leading `.` must be matched
/// literally, as fnmatch's FNM_PERIOD asks).
fn pattern_hides(pat: &[u8], name: &[u8]) -> bool {
    if name.first() == Some(&b'.') && pat.first() != Some(&b'.') {
        return false;
    }
    fnmatch(pat, name, false)
}

impl Lister<'_> {
    fn flush(&mut self) {
        let mut so = stdout();
        if let Err(e) = so.write_all(&self.out).and_then(|_| so.flush()) {
            exit_on_write_error(e);
        }
        self.out.clear();
    }

    /// Stat a command-line operand per the dereference rules.
    fn operand(&mut self, op: &OsString) -> Option<Entry> {
        let o = self.o;
        let path = PathBuf::from(op);
        let name = os_bytes(op).to_vec();
        let want = o.wants_target();
        let r = match o.deref {
            Deref::All | Deref::Args => Entry::load(&path, name, true, want),
            Deref::None => Entry::load(&path, name, false, want),
            Deref::ArgDirs => match Entry::load(&path, name.clone(), true, want) {
                Ok(e) if e.is_dir => Ok(e),
                _ => Entry::load(&path, name, false, want),
            },
        };
        match r {
            Ok(e) => Some(e),
            Err(err) => {
                self.flush();
                eprintln!(
                    "{}: cannot access {}: {}",
                    coreutils_core::prog("ls"),
                    quote_gnu(op),
                    strerror(&err)
                );
                self.status = 2;
                None
            }
        }
    }

    fn hidden(&self, name: &[u8]) -> bool {
        let o = self.o;
        let dot = name.first() == Some(&b'.');
        let dotdir = name == b"." || name == b"..";
        match o.hidden {
            Hidden::Dotfiles if dot => return true,
            Hidden::DotDirs if dotdir => return true,
            _ => {}
        }
        (o.hidden == Hidden::Dotfiles && o.hide.iter().any(|p| pattern_hides(p, name)))
            || o.ignore.iter().any(|p| pattern_hides(p, name))
    }

    fn list_dir(&mut self, path: &Path, name: &[u8], show_name: bool, arg: bool) {
        let o = self.o;
        let rd = match std::fs::read_dir(path) {
            Ok(r) => r,
            Err(e) => {
                self.flush();
                eprintln!(
                    "{}: cannot open directory {}: {}",
                    coreutils_core::prog("ls"),
                    quote_gnu(&coreutils_core::bytes::os_from_bytes(name)),
                    strerror(&e)
                );
                self.status = self.status.max(if arg { 2 } else { 1 });
                return;
            }
        };
        if self.printed {
            self.out.push(b'\n');
        }
        if show_name {
            let h = self.printer.heading(name);
            self.out.extend_from_slice(&h);
            self.out.extend_from_slice(b":\n");
        }
        self.printed = true;
        let mut entries = Vec::new();
        let mut names: Vec<(PathBuf, Vec<u8>, Option<std::fs::FileType>)> = Vec::new();
        if o.hidden == Hidden::Nothing {
            for dot in [".", ".."] {
                names.push((path.join(dot), dot.as_bytes().to_vec(), None));
            }
        }
        for de in rd.flatten() {
            let b = os_bytes(&de.file_name()).to_vec();
            if self.hidden(&b) {
                continue;
            }
            names.push((de.path(), b, de.file_type().ok()));
        }
        let follow = o.deref == Deref::All;
        for (p, b, ft) in names {
            let loaded = match ft {
                Some(ft) if !o.needs_stat() => Ok(Entry::named(p.clone(), b, ft)),
                _ => match Entry::load(&p, b.clone(), follow, o.wants_target()) {
                    Err(e) if follow => {
                        // A dangling link under -L: reported, then listed with `?`.
                        self.flush();
                        eprintln!(
                            "{}: cannot access {}: {}",
                            coreutils_core::prog("ls"),
                            quote_gnu(p.as_os_str()),
                            strerror(&e)
                        );
                        self.status = self.status.max(1);
                        let mut u = Entry::unknown(p.clone(), b.clone());
                        if let Ok(l) = Entry::load(&p, b, false, false) {
                            u.st.mode = l.st.mode & coreutils_core::meta::S_IFMT;
                            u.is_link = l.is_link;
                        }
                        Ok(u)
                    }
                    r => r,
                },
            };
            match loaded {
                Ok(e) => entries.push(e),
                Err(e) => {
                    self.flush();
                    eprintln!(
                        "{}: cannot access {}: {}",
                        coreutils_core::prog("ls"),
                        quote_gnu(p.as_os_str()),
                        strerror(&e)
                    );
                    self.status = self.status.max(1);
                }
            }
        }
        order::sort(&mut entries, o);
        if o.format == Format::Long || o.print_size {
            self.printer.total(&mut self.out, &entries);
        }
        self.printer.print(&mut self.out, &entries);
        if self.out.len() > 1 << 16 {
            self.flush();
        }
        if o.recursive {
            for e in &entries {
                if e.is_dir && !e.is_link && e.name != b"." && e.name != b".." {
                    let mut child = name.to_vec();
                    if !child.ends_with(b"/") {
                        child.push(b'/');
                    }
                    child.extend_from_slice(&e.name);
                    self.list_dir(&e.path, &child, true, false);
                }
            }
        }
    }
}
