//! Option checking common to builtins: an unknown option letter or a
//! missing option argument is an error with bash's usage line and status 2,
//! before the builtin itself runs.

use super::Shell;
use crate::ast::Bytes;

/// Builtin, its options (getopt style: `x:` takes an argument), its synopsis.
const OPTIONS: &[(&str, &str, &str)] = &[
    ("pwd", "LP", "pwd [-LP]"),
    ("cd", "LPe@", "cd [-L|[-P [-e]] [-@]] [dir]"),
    (
        "exec",
        "cla:",
        "exec [-cl] [-a name] [command [argument ...]] [redirection ...]",
    ),
    ("source", "", "source filename [arguments]"),
    (".", "", ". filename [arguments]"),
    ("eval", "", "eval [arg ...]"),
    ("wait", "fnp:", "wait [-fn] [-p var] [id ...]"),
    ("trap", "lp", "trap [-lp] [[arg] signal_spec ...]"),
    ("suspend", "f", "suspend [-f]"),
    (
        "ulimit",
        "SHabcdefiklmnpqrstuvxPRT",
        "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]",
    ),
    (
        "export",
        "fnp",
        "export [-fn] [name[=value] ...] or export -p",
    ),
    (
        "readonly",
        "aAfp",
        "readonly [-aAf] [name[=value] ...] or readonly -p",
    ),
    ("hash", "lrp:dt", "hash [-lr] [-p pathname] [-dt] [name ...]"),
    ("alias", "p", "alias [-p] [name[=value] ... ]"),
    ("unalias", "a", "unalias [-a] name [name ...]"),
    (
        "jobs",
        "lnprsx",
        "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
    ),
    ("disown", "ahr", "disown [-h] [-ar] [jobspec ... | pid ...]"),
    ("printf", "v:", "printf [-v var] format [arguments]"),
    (
        "mapfile",
        "d:n:O:s:tu:C:c:",
        "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
    ),
    (
        "readarray",
        "d:n:O:s:tu:C:c:",
        "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
    ),
    ("umask", "pS", "umask [-p] [-S] [mode]"),
    ("type", "afptP", "type [-afptP] name [name ...]"),
    ("command", "pVv", "command [-pVv] command [arg ...]"),
    ("enable", "adnpsf:", "enable [-a] [-dnps] [-f filename] [name ...]"),
    ("help", "dms", "help [-dms] [pattern ...]"),
    (
        "fc",
        "e:lnrs",
        "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]",
    ),
    ("unset", "fvn", "unset [-f] [-v] [-n] [name ...]"),
    (
        "compgen",
        "abcdefgjksuvo:A:G:W:F:C:X:P:S:",
        "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
    ),
];

impl Shell {
    /// Check a builtin's options; false (after bash's error and usage
    /// lines, status 2) when one is unknown or lacks its argument.
    pub fn builtin_options_ok(&mut self, name: &str, args: &[Bytes]) -> bool {
        let (spec, usage) = match OPTIONS.iter().find(|(n, _, _)| *n == name) {
            Some((_, s, u)) => (s.as_bytes(), *u),
            None => return true,
        };
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a == b"--" || a.len() < 2 || a[0] != b'-' || !a[1].is_ascii_alphabetic() {
                return true;
            }
            let mut k = 1;
            while k < a.len() {
                let c = a[k];
                let at = spec.iter().position(|s| *s == c && c != b':');
                let takes_arg = at.map_or(false, |p| spec.get(p + 1) == Some(&b':'));
                let msg = match at {
                    None => Some("invalid option"),
                    Some(_) if takes_arg && k + 1 == a.len() && i + 1 == args.len() => {
                        Some("option requires an argument")
                    }
                    Some(_) => None,
                };
                if let Some(msg) = msg {
                    let m = format!("-{}: {}", c as char, msg);
                    self.berr(name, m.as_bytes());
                    self.write_fd(2, format!("{}: usage: {}\n", name, usage).as_bytes());
                    self.status = 2;
                    return false;
                }
                if takes_arg {
                    // the rest of this word, or the next, is the argument
                    if k + 1 == a.len() {
                        i += 1;
                    }
                    break;
                }
                k += 1;
            }
            i += 1;
        }
        true
    }
}
