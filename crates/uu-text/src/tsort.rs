//! `tsort [FILE]`: a total order consistent with the pairs read, in GNU's
//! order: Knuth's algorithm T over items visited in byte order, successors
//! taken newest first, and loops reported and broken the way GNU does.

use std::collections::BTreeMap;
use std::ffi::OsString;

use crate::common::bytes::qf;
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{extra_operand, parse_or_usage, std_opts, STD_LONGS};

const USAGE: &str = "Usage: tsort [OPTION] [FILE]\nWrite totally ordered list consistent with the partial ordering in FILE.\n\nWith no FILE, or when FILE is -, read standard input.\n\n      --help        display this help and exit\n      --version     output version information and exit\n";

struct Item {
    name: Vec<u8>,
    /// Predecessors not yet output.
    count: usize,
    /// Successors, oldest first (GNU walks its list newest first).
    succ: Vec<usize>,
    /// The chain GNU's loop search threads through the graph.
    qlink: Option<usize>,
    printed: bool,
}

struct Graph {
    items: Vec<Item>,
    /// Items by name: iteration is GNU's in-order tree walk.
    order: BTreeMap<Vec<u8>, usize>,
}

impl Graph {
    fn item(&mut self, name: &[u8]) -> usize {
        if let Some(&i) = self.order.get(name) {
            return i;
        }
        let i = self.items.len();
        self.items.push(Item {
            name: name.to_vec(),
            count: 0,
            succ: Vec::new(),
            qlink: None,
            printed: false,
        });
        self.order.insert(name.to_vec(), i);
        i
    }

    fn walk(&self) -> Vec<usize> {
        self.order.values().copied().collect()
    }

    /// One pass of GNU's `detect_loop` over the items in order; `cur` is
    /// its `loop` pointer, kept between passes. Returns the names of a loop
    /// found (and breaks one of its relations).
    fn detect_loop(&mut self, cur: &mut Option<usize>) -> Option<Vec<usize>> {
        for k in self.walk() {
            if self.items[k].count == 0 {
                continue;
            }
            if cur.is_none() {
                *cur = Some(k);
                continue;
            }
            // Successors newest first, as GNU's list.
            let n = self.items[k].succ.len();
            for pos in (0..n).rev() {
                if Some(self.items[k].succ[pos]) != *cur {
                    continue;
                }
                if self.items[k].qlink.is_some() {
                    let mut shown = Vec::new();
                    while let Some(l) = *cur {
                        let next = self.items[l].qlink;
                        shown.push(l);
                        if l == k {
                            let s = self.items[k].succ.remove(pos);
                            self.items[s].count -= 1;
                            break;
                        }
                        self.items[l].qlink = None;
                        *cur = next;
                    }
                    while let Some(l) = *cur {
                        let next = self.items[l].qlink;
                        self.items[l].qlink = None;
                        *cur = next;
                    }
                    return Some(shown);
                }
                self.items[k].qlink = *cur;
                *cur = Some(k);
                break;
            }
        }
        None
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("tsort", &args, "", &STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("tsort", &p, USAGE) {
        return c;
    }
    if p.operands.len() > 1 {
        return extra_operand("tsort", &p.operands[1], 1);
    }
    let file = p
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("-"));
    let data = match read_all(&file) {
        Ok(d) => d,
        // GNU reads a directory as empty input (its read error is EOF).
        Err(_) if file != "-" && coreutils_core::fs::is_dir(&file) => Vec::new(),
        Err(e) => {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("tsort"),
                qf(&file),
                err_text(&e)
            );
            return 1;
        }
    };
    let mut g = Graph {
        items: Vec::new(),
        order: BTreeMap::new(),
    };
    let tokens: Vec<&[u8]> = data
        .split(|b| b" \t\n\r\x0b\x0c".contains(b))
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() % 2 == 1 {
        eprintln!(
            "{}: {}: input contains an odd number of tokens",
            coreutils_core::prog("tsort"),
            qf(&file)
        );
        return 1;
    }
    for pair in tokens.chunks(2) {
        let j = g.item(pair[0]);
        let k = g.item(pair[1]);
        if j != k {
            g.items[k].count += 1;
            g.items[j].succ.push(k);
        }
    }
    let mut out = stdout();
    let mut status = 0;
    let mut left = g.items.len();
    while left > 0 {
        // Queue of items with no predecessor left, in walk order.
        let mut queue: std::collections::VecDeque<usize> = g
            .walk()
            .into_iter()
            .filter(|&i| g.items[i].count == 0 && !g.items[i].printed)
            .collect();
        while let Some(h) = queue.pop_front() {
            let mut line = g.items[h].name.clone();
            line.push(b'\n');
            put(&mut out, &line);
            g.items[h].printed = true;
            left -= 1;
            for pos in (0..g.items[h].succ.len()).rev() {
                let s = g.items[h].succ[pos];
                g.items[s].count -= 1;
                if g.items[s].count == 0 {
                    queue.push_back(s);
                }
            }
        }
        if left > 0 {
            use std::io::Write;
            let _ = out.flush();
            eprintln!(
                "{}: {}: input contains a loop:",
                coreutils_core::prog("tsort"),
                qf(&file)
            );
            status = 1;
            let mut cur = None;
            loop {
                match g.detect_loop(&mut cur) {
                    Some(names) => {
                        let mut err = std::io::stderr().lock();
                        for i in names {
                            let _ = err.write_all(b"tsort: ");
                            let _ = err.write_all(&g.items[i].name);
                            let _ = err.write_all(b"\n");
                        }
                    }
                    None if cur.is_none() => break,
                    None => {}
                }
                if cur.is_none() {
                    break;
                }
            }
        }
    }
    finish(&mut out, "tsort", status)
}
