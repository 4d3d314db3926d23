//! curl's URL globbing: `{a,b,c}` sets and `[1-10]`, `[01-10]`, `[a-z]`,
//! `[0-100:10]` ranges, expanded left to right (the rightmost varies
//! fastest), and `#N` in an output name for the Nth pattern's value.
//! `-g/--globoff` turns it off; `[::1]` as a host is an IPv6 literal.

/// A malformed pattern: curl's words and the 1-based position it shows.
#[derive(Debug, PartialEq, Eq)]
pub struct GlobError {
    pub msg: &'static str,
    pub pos: usize,
}

impl GlobError {
    /// curl's three lines: the error, the URL, a caret under the position.
    pub fn render(&self, url: &str) -> String {
        format!(
            "{} in URL position {}:\n{}\n{}^",
            self.msg,
            self.pos,
            url,
            " ".repeat(self.pos.saturating_sub(1))
        )
    }
}

/// One piece of a URL pattern.
enum Part {
    Text(String),
    Choices(Vec<String>),
}

/// One URL a pattern stands for, with the values its patterns took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expanded {
    pub url: String,
    pub values: Vec<String>,
}

/// Most URLs one pattern may stand for (curl's own limit is about this).
const MAX_URLS: usize = 100_000;

fn err(msg: &'static str, pos: usize) -> GlobError {
    GlobError { msg, pos }
}

/// `[a-b]` or `[a-b:step]`, numbers (zero-padded when `a` is) or letters.
fn range(body: &str, end_pos: usize) -> Result<Vec<String>, GlobError> {
    let bad = || err("bad range", end_pos);
    let (span, step) = match body.split_once(':') {
        Some((s, st)) => (
            s,
            st.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(bad)?,
        ),
        None => (body, 1),
    };
    let (a, b) = span.split_once('-').ok_or_else(bad)?;
    let letter = |s: &str| {
        let mut c = s.chars();
        match (c.next(), c.next()) {
            (Some(ch), None) if ch.is_ascii_alphabetic() => Some(ch),
            _ => None,
        }
    };
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (letter(a), letter(b)) {
        if x > y || x.is_ascii_lowercase() != y.is_ascii_lowercase() {
            return Err(bad());
        }
        let mut c = x as u64;
        while c <= y as u64 {
            out.push(((c as u8) as char).to_string());
            c += step;
        }
        return Ok(out);
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return Err(bad());
    }
    let (x, y) = match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) if x <= y => (x, y),
        _ => return Err(bad()),
    };
    let width = if a.starts_with('0') { a.len() } else { 0 };
    let mut n = x;
    while n <= y {
        out.push(format!("{:0w$}", n, w = width));
        if out.len() > MAX_URLS {
            return Err(err("too many URLs", end_pos));
        }
        n = match n.checked_add(step) {
            Some(v) => v,
            None => break,
        };
    }
    Ok(out)
}

/// Whether the `[` at byte `at` opens an IPv6 host literal, not a range.
fn ipv6_host(url: &str, at: usize) -> bool {
    let before = &url[..at];
    let host_start = before.ends_with("://") || (before.contains("://") && before.ends_with('@'));
    host_start
        && url[at + 1..]
            .split(']')
            .next()
            .map_or(false, |h| h.contains(':'))
}

fn parse(url: &str) -> Result<Vec<Part>, GlobError> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let chars: Vec<(usize, char)> = url.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let pos = i + 1;
        match c {
            '\\' if i + 1 < chars.len() && "{}[],".contains(chars[i + 1].1) => {
                text.push(chars[i + 1].1);
                i += 2;
                continue;
            }
            '{' => {
                let mut choices = Vec::new();
                let mut cur = String::new();
                let mut j = i + 1;
                loop {
                    match chars.get(j).map(|x| x.1) {
                        None => return Err(err("unmatched brace", pos)),
                        Some('{') => return Err(err("nested brace", j + 1)),
                        Some('}') => break,
                        Some(',') => choices.push(std::mem::take(&mut cur)),
                        Some('\\') if j + 1 < chars.len() => {
                            j += 1;
                            cur.push(chars[j].1);
                        }
                        Some(ch) => cur.push(ch),
                    }
                    j += 1;
                }
                choices.push(cur);
                parts.push(Part::Text(std::mem::take(&mut text)));
                parts.push(Part::Choices(choices));
                i = j + 1;
                continue;
            }
            '[' if ipv6_host(url, at) => {
                let close = url[at..].find(']').map_or(url.len(), |k| at + k + 1);
                text.push_str(&url[at..close]);
                i = chars
                    .iter()
                    .position(|x| x.0 >= close)
                    .unwrap_or(chars.len());
                continue;
            }
            '[' => {
                let close = chars[i + 1..].iter().position(|x| x.1 == ']');
                let (body, end_pos) = match close {
                    Some(k) => (
                        chars[i + 1..i + 1 + k]
                            .iter()
                            .map(|x| x.1)
                            .collect::<String>(),
                        i + k + 3,
                    ),
                    None => return Err(err("bad range", chars.len() + 1)),
                };
                let values = range(&body, end_pos)?;
                parts.push(Part::Text(std::mem::take(&mut text)));
                parts.push(Part::Choices(values));
                i = end_pos - 1;
                continue;
            }
            '}' | ']' => return Err(err("unmatched close brace/bracket", pos)),
            _ => text.push(c),
        }
        i += 1;
    }
    parts.push(Part::Text(text));
    Ok(parts)
}

/// Every URL `url` stands for, in curl's order; a URL without patterns
/// stands for itself.
pub fn expand(url: &str) -> Result<Vec<Expanded>, GlobError> {
    let parts = parse(url)?;
    let mut out = vec![Expanded {
        url: String::new(),
        values: Vec::new(),
    }];
    for p in &parts {
        match p {
            Part::Text(t) => {
                for e in &mut out {
                    e.url.push_str(t);
                }
            }
            Part::Choices(cs) => {
                if out.len().saturating_mul(cs.len()) > MAX_URLS {
                    return Err(err("too many URLs", url.chars().count()));
                }
                let mut next = Vec::with_capacity(out.len() * cs.len());
                for e in &out {
                    for c in cs {
                        let mut values = e.values.clone();
                        values.push(c.clone());
                        next.push(Expanded {
                            url: format!("{}{}", e.url, c),
                            values,
                        });
                    }
                }
                out = next;
            }
        }
    }
    Ok(out)
}

/// An output name with `#N` replaced by the Nth pattern's value; a `#N`
/// with no such pattern stays as written.
pub fn output_name(template: &str, values: &[String]) -> String {
    let mut o = String::new();
    let b: Vec<char> = template.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '#' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let n: Option<usize> = b[i + 1..j].iter().collect::<String>().parse().ok();
            if let Some(v) = n.and_then(|n| n.checked_sub(1)).and_then(|k| values.get(k)) {
                o.push_str(v);
                i = j;
                continue;
            }
        }
        o.push(b[i]);
        i += 1;
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(u: &str) -> Vec<String> {
        expand(u).unwrap().into_iter().map(|e| e.url).collect()
    }

    #[test]
    fn sets_and_ranges_in_order() {
        assert_eq!(urls("h/{a,b}/[1-2]"), ["h/a/1", "h/a/2", "h/b/1", "h/b/2"]);
        assert_eq!(urls("h/[08-10]"), ["h/08", "h/09", "h/10"]);
        assert_eq!(urls("h/[1-5:2]"), ["h/1", "h/3", "h/5"]);
        assert_eq!(urls("h/[x-z]"), ["h/x", "h/y", "h/z"]);
        assert_eq!(urls("h/{,a}"), ["h/", "h/a"]);
        assert_eq!(
            urls("http://[::1]:80/{a,b}"),
            ["http://[::1]:80/a", "http://[::1]:80/b"]
        );
        assert_eq!(urls("h/\\{a\\}"), ["h/{a}"]);
    }

    #[test]
    fn errors_with_curls_positions() {
        let e = expand("http://h/{a,b").unwrap_err();
        assert_eq!(e, err("unmatched brace", 10));
        assert_eq!(
            e.render("http://h/{a,b"),
            "unmatched brace in URL position 10:\nhttp://h/{a,b\n         ^"
        );
        assert_eq!(expand("h/[1-").unwrap_err(), err("bad range", 6));
        assert_eq!(expand("h/[3-1]").unwrap_err(), err("bad range", 8));
        assert_eq!(expand("h/[a-5]").unwrap_err(), err("bad range", 8));
        assert_eq!(
            expand("h/x]").unwrap_err(),
            err("unmatched close brace/bracket", 4)
        );
        assert_eq!(expand("h/{a,{b}}").unwrap_err(), err("nested brace", 6));
    }

    #[test]
    fn output_names() {
        let v = vec!["a".to_string(), "1".to_string()];
        assert_eq!(output_name("f#1_#2#3#x#", &v), "fa_1#3#x#");
    }
}
