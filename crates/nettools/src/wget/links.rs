//! The links wget follows in a page: the attributes of HTML tags that name
//! other documents (a href, img src, link href, script src, frames,
//! objects, media, a meta refresh ...), `url(...)` and `@import` in CSS
//! (style sheets, `<style>` blocks and `style` attributes), and `<base
//! href>`. Links come in document order, entities decoded, unresolved.

/// (tag, attribute) pairs whose value is a link.
const LINK_ATTRS: &[(&str, &str)] = &[
    ("a", "href"),
    ("applet", "code"),
    ("area", "href"),
    ("bgsound", "src"),
    ("body", "background"),
    ("embed", "href"),
    ("embed", "src"),
    ("fig", "src"),
    ("frame", "src"),
    ("iframe", "src"),
    ("img", "href"),
    ("img", "lowsrc"),
    ("img", "src"),
    ("input", "src"),
    ("layer", "src"),
    ("link", "href"),
    ("object", "data"),
    ("overlay", "src"),
    ("script", "src"),
    ("table", "background"),
    ("td", "background"),
    ("th", "background"),
    ("video", "src"),
    ("video", "poster"),
    ("audio", "src"),
    ("source", "src"),
    ("track", "src"),
];

/// What a page links to.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// `<base href>`: what relative links resolve against.
    pub base: Option<String>,
    pub urls: Vec<String>,
}

/// The links of an HTML page.
pub fn html(text: &str) -> Links {
    let b = text.as_bytes();
    let mut out = Links::default();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"<!--") {
            i = find(b, i + 4, b"-->").map_or(b.len(), |k| k + 3);
            continue;
        }
        let tag = match parse_tag(b, i + 1) {
            Some(t) => t,
            None => {
                i += 1;
                continue;
            }
        };
        i = tag.end;
        if tag.closing {
            continue;
        }
        for (name, value) in &tag.attrs {
            let value = decode_entities(value);
            if name == "style" {
                out.urls.extend(css(&value));
            } else if tag.name == "base" && name == "href" {
                out.base = Some(value.trim().to_string());
            } else if tag.name == "meta" && name == "content" {
                if let Some(u) = refresh_target(&tag.attrs, &value) {
                    out.urls.push(u);
                }
            } else if name == "srcset" && (tag.name == "img" || tag.name == "source") {
                for item in value.split(',') {
                    if let Some(u) = item.split_whitespace().next() {
                        out.urls.push(u.to_string());
                    }
                }
            } else if LINK_ATTRS.contains(&(tag.name.as_str(), name.as_str())) {
                let v = value.trim();
                if !v.is_empty() {
                    out.urls.push(v.to_string());
                }
            }
        }
        // A script's or style's text is not markup; a style's is CSS.
        if tag.name == "script" || tag.name == "style" {
            let close = format!("</{}", tag.name);
            let end = find_ci(b, i, close.as_bytes()).unwrap_or(b.len());
            if tag.name == "style" {
                out.urls.extend(css(&text[i..end]));
            }
            i = end;
        }
    }
    out
}

/// The links of a style sheet: `url(...)` and `@import "..."`.
pub fn css(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            i = find(b, i + 2, b"*/").map_or(b.len(), |k| k + 2);
            continue;
        }
        if starts_ci(&b[i..], b"url(") {
            let start = i + 4;
            let end = find(b, start, b")").unwrap_or(b.len());
            let v = text[start..end]
                .trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .trim();
            if !v.is_empty() {
                out.push(v.to_string());
            }
            i = end;
            continue;
        }
        if starts_ci(&b[i..], b"@import") {
            let rest = text[i + 7..].trim_start();
            if let Some(q @ ('"' | '\'')) = rest.chars().next() {
                if let Some(k) = rest[1..].find(q) {
                    out.push(rest[1..1 + k].to_string());
                }
            }
            i += 7;
            continue;
        }
        i += 1;
    }
    out
}

struct Tag {
    name: String,
    closing: bool,
    attrs: Vec<(String, String)>,
    /// Just past the `>`.
    end: usize,
}

/// A tag starting after its `<`; None when what follows is not one.
fn parse_tag(b: &[u8], mut i: usize) -> Option<Tag> {
    let closing = b.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let start = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-' || b[i] == b':') {
        i += 1;
    }
    if i == start || !b[start].is_ascii_alphabetic() {
        return None;
    }
    let name = String::from_utf8_lossy(&b[start..i]).to_ascii_lowercase();
    let mut attrs = Vec::new();
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() {
            return Some(Tag {
                name,
                closing,
                attrs,
                end: b.len(),
            });
        }
        if b[i] == b'>' {
            return Some(Tag {
                name,
                closing,
                attrs,
                end: i + 1,
            });
        }
        let a = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !b"=>/".contains(&b[i]) {
            i += 1;
        }
        let attr = String::from_utf8_lossy(&b[a..i]).to_ascii_lowercase();
        if i == a {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        let mut value = String::new();
        if b.get(j) == Some(&b'=') {
            j += 1;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            match b.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    let end = b[j + 1..]
                        .iter()
                        .position(|&c| c == q)
                        .map_or(b.len(), |k| j + 1 + k);
                    value = String::from_utf8_lossy(&b[j + 1..end]).into_owned();
                    j = (end + 1).min(b.len());
                }
                _ => {
                    let s = j;
                    while j < b.len() && !b[j].is_ascii_whitespace() && b[j] != b'>' {
                        j += 1;
                    }
                    value = String::from_utf8_lossy(&b[s..j]).into_owned();
                }
            }
            i = j;
        }
        attrs.push((attr, value));
    }
}

/// `<meta http-equiv="refresh" content="5; url=next.html">`'s target.
fn refresh_target(attrs: &[(String, String)], content: &str) -> Option<String> {
    let refresh = attrs
        .iter()
        .any(|(n, v)| n == "http-equiv" && v.eq_ignore_ascii_case("refresh"));
    if !refresh {
        return None;
    }
    let (_, rest) = content.split_once(';')?;
    let rest = rest.trim_start();
    if !starts_ci(rest.as_bytes(), b"url") {
        return None;
    }
    let v = rest[3..].trim_start().strip_prefix('=')?.trim();
    let v = v.trim_matches(|c| c == '"' || c == '\'');
    (!v.is_empty()).then(|| v.to_string())
}

/// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;`, `&#xN;`.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        let end = rest[..rest.len().min(12)].find(';');
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let n = if let Some(h) =
                        name.strip_prefix("#x").or_else(|| name.strip_prefix("#X"))
                    {
                        u32::from_str_radix(h, 16).ok()
                    } else {
                        name.strip_prefix('#').and_then(|d| d.parse().ok())
                    };
                    n.and_then(char::from_u32)
                }
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|k| from + k)
}

fn find_ci(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|k| from + k)
}

fn starts_ci(b: &[u8], prefix: &[u8]) -> bool {
    b.len() >= prefix.len() && b[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_in_document_order() {
        let l = html(
            "<html><head><link rel=stylesheet href=\"s.css\"><script src='a.js'>if (a<b) x('<a href=no>')</script>\
             <style>body{background:url(\"bg.png\")} @import 'more.css';</style></head>\
             <!-- <a href=\"commented.html\"> --><body background=b.gif>\
             <A HREF = \"x.html?a=1&amp;b=2\">x</A><img src=i.png srcset=\"i2.png 2x, i3.png 3x\">\
             <p style=\"background: url(p.png)\">\
             <meta http-equiv=\"Refresh\" content=\"3; URL=next.html\"><a name=x><a href=\"\">",
        );
        assert_eq!(
            l.urls,
            [
                "s.css",
                "a.js",
                "bg.png",
                "more.css",
                "b.gif",
                "x.html?a=1&b=2",
                "i.png",
                "i2.png",
                "i3.png",
                "p.png",
                "next.html"
            ]
        );
        assert_eq!(l.base, None);
        assert_eq!(
            html("<base href=\"http://h/d/\"><a href=x>")
                .base
                .as_deref(),
            Some("http://h/d/")
        );
    }

    #[test]
    fn broken_markup_ends() {
        assert_eq!(html("<a href=\"x").urls, ["x"]);
        assert!(html("<").urls.is_empty());
        assert!(html("<!-- x").urls.is_empty());
        assert_eq!(decode_entities("&#65;&#x42;&bogus;&"), "AB&bogus;&");
    }
}
