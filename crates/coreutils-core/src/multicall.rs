//! Dispatch of a multicall binary: the utility is argv[0]'s basename, or
//! the first argument when the binary is called by its own name
//! (`coreutils ls -l`, `coreutils --list`).

use crate::Applet;
use std::ffi::OsString;

/// A multicall binary: its name and its applet tables.
pub struct Multicall<'a> {
    /// The binary's own name (`coreutils`, `procutils`).
    pub name: &'static str,
    /// Applet tables, searched in order.
    pub tables: &'a [&'static [Applet]],
    /// Whether an argv[0] that names no applet is taken as the binary
    /// itself (dispatch on the next argument) rather than an error.
    pub any_name_is_self: bool,
}

impl Multicall<'_> {
    fn applets(&self) -> impl Iterator<Item = &'static Applet> + '_ {
        self.tables.iter().flat_map(|t| t.iter())
    }

    fn find(&self, name: &str) -> Option<&'static Applet> {
        self.applets().find(|a| a.name == name)
    }

    /// Run the utility `args` names; returns its exit status.
    pub fn run(&self, mut args: Vec<OsString>) -> i32 {
        let arg0 = args
            .first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = arg0.rsplit('/').next().unwrap_or("");
        if let Some(applet) = self.find(name) {
            crate::set_invoked(&arg0);
            return (applet.main)(args);
        }
        if name != self.name && !self.any_name_is_self {
            eprintln!("{}: unknown program '{}'", self.name, name);
            return 127;
        }
        if !args.is_empty() {
            args.remove(0);
        }
        match args.first().map(|a| a.to_string_lossy().into_owned()) {
            Some(ref flag) if flag == "--list" => {
                let mut names: Vec<&str> = self.applets().map(|a| a.name).collect();
                names.sort_unstable();
                for n in names {
                    println!("{}", n);
                }
                0
            }
            Some(ref util) => match self.find(util) {
                Some(applet) => {
                    crate::set_invoked(util);
                    (applet.main)(args)
                }
                None => {
                    eprintln!("{}: unknown program '{}'", self.name, util);
                    127
                }
            },
            None => {
                eprintln!("usage: {0} PROGRAM [ARGS]... | {0} --list", self.name);
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seven(_: Vec<OsString>) -> i32 {
        7
    }
    const T: &[Applet] = &[Applet {
        name: "seven",
        main: seven,
    }];
    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn dispatches_on_argv0_or_first_argument() {
        let m = Multicall {
            name: "multi",
            tables: &[T],
            any_name_is_self: false,
        };
        assert_eq!(m.run(args(&["/bin/seven"])), 7);
        assert_eq!(m.run(args(&["multi", "seven"])), 7);
        assert_eq!(m.run(args(&["multi", "nope"])), 127);
        assert_eq!(m.run(args(&["other", "seven"])), 127);
        assert_eq!(m.run(args(&["multi"])), 1);
        let m = Multicall {
            any_name_is_self: true,
            ..m
        };
        assert_eq!(m.run(args(&["other", "seven"])), 7);
    }
}
