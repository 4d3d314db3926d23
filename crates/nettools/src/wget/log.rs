//! wget's log: where it goes (stderr or -o/-a FILE), how much of it
//! (-q, -nv), and its formats: sizes, rates and the dot progress display.

use std::io::Write;

pub struct Log<'a> {
    pub out: &'a mut dyn Write,
    pub quiet: bool,
    pub brief: bool,
}

impl Log<'_> {
    /// Lines of the default (verbose) log.
    pub fn verbose(&mut self, s: &str) {
        if !self.quiet && !self.brief {
            let _ = self.out.write_all(s.as_bytes());
        }
    }

    /// Lines even -q keeps (-S's response headers).
    pub fn always(&mut self, s: &str) {
        let _ = self.out.write_all(s.as_bytes());
    }

    /// Lines -nv keeps too.
    pub fn brief(&mut self, s: &str) {
        if !self.quiet {
            let _ = self.out.write_all(s.as_bytes());
        }
    }
}

/// Where the log goes for a whole run: the -o/-a file, or stderr through
/// a buffer written out after each retrieval (the program's `Env` holds
/// stderr while a retrieval runs).
pub struct Sink {
    pub file: Option<std::fs::File>,
    pub buf: Vec<u8>,
    pub quiet: bool,
    pub brief: bool,
}

impl Sink {
    pub fn log(&mut self) -> Log<'_> {
        Log {
            out: match self.file.as_mut() {
                Some(f) => f,
                None => &mut self.buf,
            },
            quiet: self.quiet,
            brief: self.brief,
        }
    }

    /// What went to the buffer, to stderr now.
    pub fn flush(&mut self, stderr: &mut dyn Write) {
        let _ = stderr.write_all(&self.buf);
        self.buf.clear();
    }
}

/// `(121K)`-style sizes: one decimal below 10 of a unit.
pub fn human(n: u64) -> String {
    const UNITS: [&str; 4] = ["K", "M", "G", "T"];
    let mut v = n as f64;
    let mut unit = "";
    for u in UNITS.iter() {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    if unit.is_empty() {
        n.to_string()
    } else if v < 10.0 {
        format!("{:.1}{}", v, unit)
    } else {
        format!("{}{}", v.round() as u64, unit)
    }
}

/// A rate as wget prints it after a download: `692 KB/s`, `1.03 MB/s`.
pub fn rate(bytes: u64, secs: f64) -> String {
    let mut r = bytes as f64 / secs.max(1e-6);
    let names = ["B/s", "KB/s", "MB/s", "GB/s"];
    let mut u = 0;
    while r >= 1024.0 && u < names.len() - 1 {
        r /= 1024.0;
        u += 1;
    }
    let prec = if r >= 99.95 {
        0
    } else if r >= 9.995 {
        1
    } else {
        2
    };
    format!("{:.*} {}", prec, r, names[u])
}

/// The short rate at the end of a dot line: `692K`, `1.03M`.
fn short_rate(bytes: u64, secs: f64) -> String {
    let full = rate(bytes, secs);
    let mut parts = full.split(' ');
    let num = parts.next().unwrap_or("0");
    let unit = parts.next().unwrap_or("B/s");
    // wget's unit letters: ' ' for bytes, then K, M, G.
    let unit = unit.trim_end_matches("B/s");
    format!("{}{}", num, if unit.is_empty() { " " } else { unit })
}

/// wget's "dot" display: a dot per KiB, ten to a group, fifty to a line
/// that ends with the percentage and the rate.
pub struct Dots {
    total: Option<u64>,
    start: u64,
    bytes: u64,
    dots: u64,
    line_start: std::time::Instant,
    line_bytes: u64,
}

const DOT: u64 = 1024;
const PER_LINE: u64 = 50;

impl Dots {
    pub fn new(total: Option<u64>, start: u64) -> Dots {
        Dots {
            total,
            start,
            bytes: 0,
            dots: 0,
            line_start: std::time::Instant::now(),
            line_bytes: 0,
        }
    }

    fn pct(&self, at: u64) -> String {
        match self.total {
            Some(t) if t > 0 => format!("{:3}%", (self.start + at) * 100 / t),
            _ => String::new(),
        }
    }

    pub fn add(&mut self, log: &mut Log, n: u64) {
        self.bytes += n;
        while (self.dots + 1) * DOT <= self.bytes {
            if self.dots % PER_LINE == 0 {
                log.verbose(&format!("\n{:6}K", (self.start + self.dots * DOT) / 1024));
                self.line_start = std::time::Instant::now();
                self.line_bytes = 0;
            }
            if self.dots % 10 == 0 {
                log.verbose(" ");
            }
            log.verbose(".");
            self.dots += 1;
            self.line_bytes += DOT;
            if self.dots % PER_LINE == 0 {
                let secs = self.line_start.elapsed().as_secs_f64();
                log.verbose(&format!(
                    " {} {}",
                    self.pct(self.dots * DOT),
                    short_rate(self.line_bytes, secs)
                ));
            }
        }
    }

    /// End a line of dots cut short (a failed write), before a message.
    pub fn interrupt(&mut self, log: &mut Log) {
        if self.dots > 0 {
            log.verbose("\n");
        }
    }

    /// The last line: pad to the end of the line, then percentage, rate
    /// and total time.
    pub fn finish(&mut self, log: &mut Log, secs: f64) {
        let in_line = self.dots % PER_LINE;
        if in_line == 0 {
            log.verbose(&format!("\n{:6}K", (self.start + self.dots * DOT) / 1024));
        }
        let mut pad = String::new();
        let first_pad = if in_line == 0 && self.dots > 0 {
            0
        } else {
            in_line
        };
        for i in first_pad..PER_LINE {
            if i % 10 == 0 {
                pad.push(' ');
            }
            pad.push(' ');
        }
        let tail_bytes = self.bytes - (self.dots - in_line) * DOT;
        let pct = self.pct(self.bytes);
        log.verbose(&format!(
            "{} {}{}={}s\n\n",
            pad,
            if pct.is_empty() {
                String::new()
            } else {
                format!("{} ", pct)
            },
            short_rate(tail_bytes.max(self.bytes.min(1)), secs),
            if secs < 10.0 {
                format!("{:.*}", if secs < 0.005 { 0 } else { 2 }, secs)
            } else {
                format!("{:.0}", secs)
            }
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(human(6), "6");
        assert_eq!(human(123_456), "121K");
        assert_eq!(human(1_572_864), "1.5M");
        assert_eq!(rate(708_608, 1.0), "692 KB/s");
        assert_eq!(rate(1_080_000, 1.0), "1.03 MB/s");
    }

    #[test]
    fn dots() {
        let mut out = Vec::new();
        {
            let mut log = Log {
                out: &mut out,
                quiet: false,
                brief: false,
            };
            let mut d = Dots::new(Some(60 * 1024), 0);
            d.add(&mut log, 60 * 1024);
            d.finish(&mut log, 0.0);
        }
        let s = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        assert!(
            lines[1]
                .starts_with("     0K .......... .......... .......... .......... ..........  83%"),
            "{}",
            s
        );
        assert!(lines[2].starts_with("    50K .......... "), "{}", s);
        assert!(lines[2].contains("100% "), "{}", s);
    }
}
