//! Position lists as `cut` and `numfmt --field` take them: `N`, `N-`,
//! `-M`, `N-M`, separated by commas or blanks, merged and sorted.

/// Inclusive 1-based ranges, sorted and merged; `usize::MAX` is open.
pub type Ranges = Vec<(usize, usize)>;

/// Parse a list; `fields` picks the wording of GNU's messages.
pub fn parse_list(s: &str, fields: bool) -> Result<Ranges, String> {
    let from1 = if fields {
        "fields are numbered from 1"
    } else {
        "byte/character positions are numbered from 1"
    };
    let mut out: Ranges = Vec::new();
    for item in s.split([',', ' ', '\t']) {
        if item.is_empty() {
            return Err(from1.into());
        }
        let num = |t: &str| -> Result<usize, String> {
            if !t.bytes().all(|c| c.is_ascii_digit()) {
                return Err(if fields {
                    format!("invalid field value '{}'", item)
                } else {
                    format!("invalid byte/character position '{}'", item)
                });
            }
            t.parse::<usize>().map_err(|_| {
                if fields {
                    format!("field number '{}' is too large", t)
                } else {
                    format!("byte/character offset '{}' is too large", t)
                }
            })
        };
        let (lo, hi) = match item.find('-') {
            None => {
                let n = num(item)?;
                if n == 0 {
                    return Err(from1.into());
                }
                (n, n)
            }
            Some(p) => {
                let (l, r) = (&item[..p], &item[p + 1..]);
                if l.is_empty() && r.is_empty() {
                    return Err("invalid range with no endpoint: -".into());
                }
                let lo = if l.is_empty() { 1 } else { num(l)? };
                if !l.is_empty() && lo == 0 {
                    return Err(from1.into());
                }
                let hi = if r.is_empty() { usize::MAX } else { num(r)? };
                if hi < lo {
                    return Err("invalid decreasing range".into());
                }
                (lo, hi)
            }
        };
        out.push((lo, hi));
    }
    out.sort_unstable();
    let mut merged: Ranges = Vec::with_capacity(out.len());
    for (lo, hi) in out {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    Ok(merged)
}

/// Complement of `r` within 1..=MAX.
pub fn complement(r: &Ranges) -> Ranges {
    let mut out = Vec::new();
    let mut next = 1usize;
    for &(lo, hi) in r {
        if lo > next {
            out.push((next, lo - 1));
        }
        if hi == usize::MAX {
            return out;
        }
        next = hi + 1;
    }
    out.push((next, usize::MAX));
    out
}

/// Whether 1-based position `n` is selected.
pub fn contains(r: &Ranges, n: usize) -> bool {
    r.iter().any(|&(lo, hi)| lo <= n && n <= hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_and_merges() {
        assert_eq!(
            parse_list("3,1-2,5-", true).unwrap(),
            vec![(1, 3), (5, usize::MAX)]
        );
        assert_eq!(parse_list("-2", true).unwrap(), vec![(1, 2)]);
        assert_eq!(
            parse_list("0", true).unwrap_err(),
            "fields are numbered from 1"
        );
        assert_eq!(
            parse_list("3-1", false).unwrap_err(),
            "invalid decreasing range"
        );
        assert_eq!(
            parse_list("x", true).unwrap_err(),
            "invalid field value 'x'"
        );
        assert_eq!(complement(&vec![(2, 3)]), vec![(1, 1), (4, usize::MAX)]);
    }
}
