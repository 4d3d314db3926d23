//! File-name quoting as GNU prints names in diagnostics (`'a b'`).

/// Quote a name the way GNU coreutils do in error messages: bare when it
/// contains only safe characters, otherwise in single quotes (with `'\''`
/// for embedded quotes).
pub fn quote(name: &str) -> String {
    let safe = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./,+:@%^=".contains(c));
    if safe {
        return name.to_string();
    }
    if !name.contains('\'') {
        return format!("'{}'", name);
    }
    if !name.contains('"') && !name.contains('$') && !name.contains('`') && !name.contains('\\') {
        return format!("\"{}\"", name);
    }
    format!("'{}'", name.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::quote;
    #[test]
    fn quotes_like_gnu() {
        assert_eq!(quote("a.txt"), "a.txt");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "\"it's\"");
    }
}
