//! `getconf NAME [PATH]` and `getconf -a`: system configuration values.

use std::ffi::OsString;

fn table() -> Vec<(&'static str, String)> {
    let nproc = coreutils_core::cpus::online().to_string();
    let long_bit = (std::mem::size_of::<usize>() * 8).to_string();
    vec![
        ("ARG_MAX", "2097152".into()),
        ("CHILD_MAX", "4096".into()),
        ("CLK_TCK", "100".into()),
        ("HOST_NAME_MAX", "64".into()),
        ("LINE_MAX", "2048".into()),
        ("LINK_MAX", "65000".into()),
        ("LOGIN_NAME_MAX", "256".into()),
        ("LONG_BIT", long_bit),
        ("NGROUPS_MAX", "65536".into()),
        ("OPEN_MAX", "1024".into()),
        ("PAGESIZE", "4096".into()),
        ("PAGE_SIZE", "4096".into()),
        ("_NPROCESSORS_CONF", nproc.clone()),
        ("_NPROCESSORS_ONLN", nproc),
        ("_POSIX_ARG_MAX", "2097152".into()),
        ("_POSIX_LINK_MAX", "65000".into()),
        ("_POSIX_NAME_MAX", "255".into()),
        ("_POSIX_PATH_MAX", "4096".into()),
        ("_POSIX_PIPE_BUF", "4096".into()),
        ("CHAR_BIT", "8".into()),
        ("INT_MAX", "2147483647".into()),
        ("UINT_MAX", "4294967295".into()),
    ]
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let ops: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let usage = || {
        eprintln!("Usage: getconf [-v specification] variable_name [pathname]");
        eprintln!("       getconf -a [pathname]");
        2
    };
    match ops.first().map(|s| s.as_str()) {
        None => usage(),
        Some("-a") => {
            for (k, v) in table() {
                println!("{:<35}{}", k, v);
            }
            0
        }
        Some(name) => {
            if ops.len() > 2 {
                return usage();
            }
            // pathconf variables need a path operand.
            let path_vars = [
                ("NAME_MAX", "255"),
                ("PATH_MAX", "4096"),
                ("PIPE_BUF", "4096"),
                ("LINK_MAX", "65000"),
            ];
            if let Some((_, v)) = path_vars.iter().find(|(k, _)| *k == name) {
                if ops.len() == 2 {
                    println!("{}", v);
                    return 0;
                }
                if *v != "65000" {
                    return usage();
                }
            }
            match table().into_iter().find(|(k, _)| *k == name) {
                Some((_, v)) => {
                    println!("{}", v);
                    0
                }
                None => {
                    eprintln!(
                        "{}: Unrecognized variable `{}'",
                        coreutils_core::prog("getconf"),
                        name
                    );
                    2
                }
            }
        }
    }
}
