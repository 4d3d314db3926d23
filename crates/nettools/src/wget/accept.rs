//! -A/-R: which file names a recursion keeps. An entry with a shell
//! wildcard is a pattern for the whole name; one without is a suffix
//! (`-A html` keeps `index.html`), as in wget.

use super::args::Opts;
use coreutils_core::fnmatch::fnmatch;

/// Whether a local file (its last path component counts) is to be kept.
pub fn acceptable(opts: &Opts, path: &str) -> bool {
    if opts.output_document.as_deref() == Some(path) {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let accepted = opts.accept.is_empty() || in_list(&opts.accept, name);
    accepted && (opts.reject.is_empty() || !in_list(&opts.reject, name))
}

fn in_list(list: &[String], name: &str) -> bool {
    list.iter().any(|entry| {
        if entry.contains(['*', '?', '[']) {
            fnmatch(entry.as_bytes(), name.as_bytes(), false)
        } else {
            name.ends_with(entry.as_str())
        }
    })
}

/// Whether a name looks like an HTML page (wget fetches those despite
/// -A/-R while it may still follow their links).
pub fn html_suffix(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".html") || lower.ends_with(".htm")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(accept: &[&str], reject: &[&str]) -> Opts {
        Opts {
            accept: accept.iter().map(|s| s.to_string()).collect(),
            reject: reject.iter().map(|s| s.to_string()).collect(),
            ..Opts::default()
        }
    }

    #[test]
    fn suffixes_and_patterns() {
        let o = opts(&["html", "*.png"], &[]);
        assert!(acceptable(&o, "h/site/index.html"));
        assert!(acceptable(&o, "logo.png"));
        assert!(!acceptable(&o, "style.css"));
        let o = opts(&[], &["*.js", "css"]);
        assert!(!acceptable(&o, "app.js"));
        assert!(!acceptable(&o, "style.css"));
        assert!(acceptable(&o, "a.html"));
        assert!(acceptable(&opts(&[], &[]), "anything"));
        assert!(html_suffix("A.HTM") && !html_suffix("a.txt"));
    }
}
