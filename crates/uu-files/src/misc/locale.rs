//! `locale [-a] [-m]`: the C locale and its UTF-8 variant are all there is.

use std::ffi::OsString;

const CATEGORIES: [&str; 12] = [
    "LC_CTYPE",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_COLLATE",
    "LC_MONETARY",
    "LC_MESSAGES",
    "LC_PAPER",
    "LC_NAME",
    "LC_ADDRESS",
    "LC_TELEPHONE",
    "LC_MEASUREMENT",
    "LC_IDENTIFICATION",
];

fn var(k: &str) -> String {
    std::env::var(k).unwrap_or_default()
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let ops: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match ops.first().map(|s| s.as_str()) {
        Some("-a") | Some("--all-locales") => {
            println!("C\nC.utf8\nPOSIX");
            0
        }
        Some("-m") | Some("--charmaps") => {
            println!("ANSI_X3.4-1968\nUTF-8");
            0
        }
        Some("--help") => {
            println!("Usage: locale [OPTION...] NAME\n  or:  locale [OPTION...] [-a|-m]\nGet locale-specific information.");
            0
        }
        Some(o) if o.starts_with('-') => {
            eprintln!(
                "{}: invalid option -- '{}'",
                coreutils_core::prog("locale"),
                o.trim_start_matches('-').chars().next().unwrap_or('-')
            );
            eprintln!(
                "Try '{} --help' or 'locale --usage' for more information.",
                coreutils_core::prog("locale")
            );
            64
        }
        Some(_) => {
            // Keyword queries: the few agents ask for.
            for k in &ops {
                match k.as_str() {
                    "charmap" => println!(
                        "{}",
                        if coreutils_core::locale::utf8_locale() {
                            "UTF-8"
                        } else {
                            "ANSI_X3.4-1968"
                        }
                    ),
                    "decimal_point" => println!("."),
                    "thousands_sep" => println!(),
                    _ => {}
                }
            }
            0
        }
        None => {
            let all = var("LC_ALL");
            let lang = var("LANG");
            println!("LANG={}", lang);
            println!("LANGUAGE={}", var("LANGUAGE"));
            for c in CATEGORIES {
                let v = if !all.is_empty() {
                    all.clone()
                } else if !var(c).is_empty() {
                    println!("{}={}", c, var(c));
                    continue;
                } else if !lang.is_empty() {
                    lang.clone()
                } else {
                    "POSIX".into()
                };
                println!("{}=\"{}\"", c, v);
            }
            println!("LC_ALL={}", all);
            0
        }
    }
}
