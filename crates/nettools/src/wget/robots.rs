//! robots.txt, as wget reads it: the record for `wget` if there is one,
//! else the one for `*`; its Allow/Disallow lines are path prefixes and
//! the first that matches a path decides. An empty `Disallow:` allows all.

use crate::url::percent_decode;

#[derive(Clone, Debug, Default)]
pub struct Robots {
    /// (prefix, allowed) in file order.
    rules: Vec<(String, bool)>,
}

impl Robots {
    pub fn parse(text: &str) -> Robots {
        // Records: user-agent lines, then rules; a user-agent line after a
        // rule starts the next record.
        let mut ours: Option<Vec<(String, bool)>> = None;
        let mut any: Option<Vec<(String, bool)>> = None;
        let mut agents: Vec<String> = Vec::new();
        let mut rules: Vec<(String, bool)> = Vec::new();
        let mut in_rules = false;
        let mut finish = |agents: &[String], rules: &mut Vec<(String, bool)>| {
            for a in agents {
                let a = a.to_ascii_lowercase();
                if a == "*" && any.is_none() {
                    any = Some(rules.clone());
                } else if a.starts_with("wget") && ours.is_none() {
                    ours = Some(rules.clone());
                }
            }
            rules.clear();
        };
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let (field, value) = match line.split_once(':') {
                Some(fv) => fv,
                None => continue,
            };
            let value = value.trim();
            match field.trim().to_ascii_lowercase().as_str() {
                "user-agent" => {
                    if in_rules {
                        finish(&agents, &mut rules);
                        agents.clear();
                        in_rules = false;
                    }
                    agents.push(value.to_string());
                }
                "disallow" => {
                    in_rules = true;
                    // `Disallow:` with nothing allows everything.
                    rules.push((percent_decode(value), value.is_empty()));
                }
                "allow" => {
                    in_rules = true;
                    rules.push((percent_decode(value), true));
                }
                _ => {}
            }
        }
        finish(&agents, &mut rules);
        Robots {
            rules: ours.or(any).unwrap_or_default(),
        }
    }

    /// Whether a path (`/dir/file`, the query left out) may be fetched.
    pub fn allows(&self, path: &str) -> bool {
        let path = percent_decode(path);
        self.rules
            .iter()
            .find(|(prefix, _)| path.starts_with(prefix.as_str()))
            .map_or(true, |(_, allowed)| *allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_prefixes() {
        let r = Robots::parse("User-agent: *\nDisallow: /site/private/\n");
        assert!(!r.allows("/site/private/x.html"));
        assert!(r.allows("/site/a.html"));
        let r = Robots::parse(
            "User-agent: other\nDisallow: /\n\nUser-agent: Wget\nAllow: /a/b\nDisallow: /a\n# c\nUser-agent: *\nDisallow: /\n",
        );
        assert!(r.allows("/a/b/c") && !r.allows("/a/x") && r.allows("/z"));
        assert!(Robots::parse("User-agent: *\nDisallow:\n").allows("/x"));
        assert!(Robots::parse("").allows("/x"));
    }
}
