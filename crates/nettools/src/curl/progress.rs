//! curl's progress meter (stderr, terminals only).

use std::io::Write;
use std::time::Instant;

const HEADER: &str = "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n";

pub struct Meter {
    start: Instant,
    last: Option<Instant>,
    shown_header: bool,
    pub total: Option<u64>,
    pub downloaded: u64,
    pub uploaded: u64,
    pub upload_total: u64,
}

/// curl's five-column size: bytes, then k, M, G.
fn max5(n: u64) -> String {
    const K: u64 = 1024;
    const M: u64 = K * K;
    if n < 100_000 {
        format!("{:5}", n)
    } else if n < 10_000 * K {
        format!("{:4}k", n / K)
    } else if n < 100 * M {
        format!("{:2}.{}M", n / M, (n % M) / (M / 10))
    } else if n < 10_000 * M {
        format!("{:4}M", n / M)
    } else {
        format!("{:4}G", n / (M * K))
    }
}

fn hms(secs: Option<u64>) -> String {
    match secs {
        Some(s) if s > 0 && s / 3600 <= 99 => {
            format!("{:2}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
        }
        Some(s) if s > 0 => format!("{:3}d {:02}h", s / 86_400, s / 3600 % 24),
        _ => "--:--:--".to_string(),
    }
}

impl Meter {
    pub fn new() -> Meter {
        Meter {
            start: Instant::now(),
            last: None,
            shown_header: false,
            total: None,
            downloaded: 0,
            uploaded: 0,
            upload_total: 0,
        }
    }

    fn line(&self) -> String {
        let spent = self.start.elapsed().as_secs_f64();
        let speed = if spent > 0.0 {
            (self.downloaded as f64 / spent) as u64
        } else {
            0
        };
        let uspeed = if spent > 0.0 {
            (self.uploaded as f64 / spent) as u64
        } else {
            0
        };
        let pct = |a: u64, b: u64| if b == 0 { 0 } else { a * 100 / b };
        let (dl_pct, total_time, left) = match self.total {
            Some(t) if t > 0 && speed > 0 => {
                let total_s = t / speed.max(1);
                (
                    pct(self.downloaded, t),
                    Some(total_s),
                    Some(total_s.saturating_sub(spent as u64)),
                )
            }
            _ => (0, None, None),
        };
        let expected = self.total.unwrap_or(self.downloaded) + self.upload_total;
        let total_pct = if self.total.is_some() || self.downloaded > 0 {
            pct(self.downloaded + self.uploaded, expected.max(1))
        } else {
            0
        };
        format!(
            "\r{:3} {}  {:3} {}  {:3} {}  {}  {} {} {} {} {}",
            total_pct.min(100),
            max5(expected),
            dl_pct.min(100),
            max5(self.downloaded),
            pct(self.uploaded, self.upload_total),
            max5(self.uploaded),
            max5(speed),
            max5(uspeed),
            hms(total_time),
            hms(Some(spent as u64)),
            hms(left),
            max5(speed)
        )
    }

    /// Redraw at most once a second.
    pub fn tick(&mut self, err: &mut dyn Write) {
        if !self.shown_header {
            let _ = err.write_all(HEADER.as_bytes());
            self.shown_header = true;
        }
        let due = self.last.map_or(true, |t| t.elapsed().as_millis() >= 1000);
        if due {
            self.last = Some(Instant::now());
            let _ = err.write_all(self.line().as_bytes());
        }
    }

    /// The final line and the newline that ends the meter.
    pub fn finish(&mut self, err: &mut dyn Write) {
        if !self.shown_header {
            let _ = err.write_all(HEADER.as_bytes());
            self.shown_header = true;
        }
        let _ = err.write_all(self.line().as_bytes());
        let _ = err.write_all(b"\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns() {
        assert_eq!(max5(6), "    6");
        assert_eq!(max5(150_000), " 146k");
        assert_eq!(max5(50 * 1024 * 1024 + 512 * 1024), "50.5M");
        assert_eq!(hms(Some(61)), " 0:01:01");
        assert_eq!(hms(None), "--:--:--");
        let mut m = Meter::new();
        m.total = Some(6);
        m.downloaded = 6;
        let mut out = Vec::new();
        m.finish(&mut out);
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with(HEADER));
        assert!(s.contains("\r100     6  100     6    0     0"), "{}", s);
    }
}
