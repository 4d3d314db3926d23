//! One bundle of short options, as curl and wget both read them (`-sSL`,
//! `-XPOST`, `-qO-`, `-o file`): letters one by one; a letter that takes a
//! value takes the rest of the bundle, else the next argument, and ends
//! the bundle. Each program words its own errors.

#[derive(Debug, PartialEq, Eq)]
pub enum BundleError<E> {
    /// A letter the program does not know.
    Unknown(char),
    /// A letter that takes a value, with none left.
    NeedsValue(char),
    /// What applying a letter failed with.
    Apply(E),
}

/// Read `bundle` (an argument without its leading `-`); `args[*next]` is
/// the argument after it, and `*next` moves past a value taken from there.
/// `takes_value` says whether a letter takes a value (None: unknown);
/// `apply` gets each letter with its value, in order.
pub fn parse_bundle<E>(
    bundle: &str,
    args: &[String],
    next: &mut usize,
    takes_value: impl Fn(char) -> Option<bool>,
    mut apply: impl FnMut(char, Option<&str>) -> Result<(), E>,
) -> Result<(), BundleError<E>> {
    for (at, letter) in bundle.char_indices() {
        match takes_value(letter) {
            None => return Err(BundleError::Unknown(letter)),
            Some(false) => apply(letter, None).map_err(BundleError::Apply)?,
            Some(true) => {
                let rest = &bundle[at + letter.len_utf8()..];
                let value = if !rest.is_empty() {
                    rest
                } else {
                    let v = args.get(*next).ok_or(BundleError::NeedsValue(letter))?;
                    *next += 1;
                    v.as_str()
                };
                return apply(letter, Some(value)).map_err(BundleError::Apply);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bundle: &str, args: &[&str]) -> (Result<(), BundleError<()>>, Vec<String>, usize) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let mut next = 0;
        let mut seen = Vec::new();
        let r = parse_bundle(
            bundle,
            &args,
            &mut next,
            |c| match c {
                's' | 'S' | 'L' => Some(false),
                'o' | 'X' => Some(true),
                _ => None,
            },
            |c, v| {
                seen.push(format!(
                    "{}{}",
                    c,
                    v.map(|v| format!("={}", v)).unwrap_or_default()
                ));
                Ok(())
            },
        );
        (r, seen, next)
    }

    #[test]
    fn letters_values_and_errors() {
        assert_eq!(
            run("sSL", &[]),
            (Ok(()), vec!["s".into(), "S".into(), "L".into()], 0)
        );
        assert_eq!(
            run("sXPOST", &["u"]),
            (Ok(()), vec!["s".into(), "X=POST".into()], 0)
        );
        assert_eq!(
            run("so", &["f", "u"]),
            (Ok(()), vec!["s".into(), "o=f".into()], 1)
        );
        assert_eq!(
            run("sZ", &[]),
            (Err(BundleError::Unknown('Z')), vec!["s".into()], 0)
        );
        assert_eq!(
            run("o", &[]),
            (Err(BundleError::NeedsValue('o')), vec![], 0)
        );
        // A value may be anything, even what looks like more letters.
        assert_eq!(run("o-Z", &[]), (Ok(()), vec!["o=-Z".into()], 0));
    }
}
