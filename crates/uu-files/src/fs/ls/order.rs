//! The order of a listing: `--sort`, `-r`, `--group-directories-first`.

use super::entry::{self, Entry};
use super::options::{Options, Sort, TimeField};
use crate::misc::datetime::Time;
use coreutils_core::version::filevercmp;
use std::cmp::Ordering;

/// The time `-t` sorts by and `-l` shows.
pub fn time_of(e: &Entry, field: TimeField) -> Time {
    entry::time_of(match field {
        TimeField::Mtime => e.st.mtime_ns,
        TimeField::Atime => e.st.atime_ns,
        TimeField::Ctime => e.st.ctime_ns,
    })
}

fn extension(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&c| c == b'.') {
        Some(i) => &name[i..],
        None => b"",
    }
}

fn compare(a: &Entry, b: &Entry, o: &Options) -> Ordering {
    let by_name = || a.name.cmp(&b.name);
    match o.sort {
        Sort::Name | Sort::None => by_name(),
        Sort::Size => b.st.size.cmp(&a.st.size).then_with(by_name),
        Sort::Time => {
            let (ta, tb) = (time_of(a, o.time), time_of(b, o.time));
            (tb.secs, tb.nanos)
                .cmp(&(ta.secs, ta.nanos))
                .then_with(by_name)
        }
        Sort::Version => filevercmp(&a.name, &b.name).then_with(by_name),
        Sort::Extension => extension(&a.name)
            .cmp(extension(&b.name))
            .then_with(by_name),
        Sort::Width => super::format::width_of(&a.name)
            .cmp(&super::format::width_of(&b.name))
            .then_with(by_name),
    }
}

/// Sort entries per the options.
pub fn sort(v: &mut [Entry], o: &Options) {
    if o.sort != Sort::None {
        v.sort_by(|a, b| {
            let c = compare(a, b, o);
            if o.reverse {
                c.reverse()
            } else {
                c
            }
        });
    }
    if o.dirs_first {
        // Stable: each group keeps the order above.
        v.sort_by_key(|e| !(e.is_dir || (!e.is_link && e.kind() == coreutils_core::meta::S_IFDIR)));
    }
}
