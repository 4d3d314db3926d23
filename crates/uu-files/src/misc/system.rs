//! `uname`, `hostname`, `nproc` and `uptime`: what the system says about
//! itself, read from `/proc` where the kernel offers it, with the
//! sandbox's fixed identity otherwise.

use coreutils_core::args::{
    extra_operand, long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

fn read_trim(path: &str) -> Option<String> {
    let s = coreutils_core::fs::read_to_string(path).ok()?;
    let t = s.trim().to_string();
    if t.is_empty() {
        None
    } else {
        Some(t)
    }
}

/// The node name: the kernel's, `/etc/hostname`, or `sandglass`.
pub fn hostname() -> String {
    read_trim("/proc/sys/kernel/hostname")
        .or_else(|| read_trim("/etc/hostname"))
        .unwrap_or_else(|| "sandglass".into())
}

fn machine() -> String {
    match std::env::consts::ARCH {
        "x86" => "i686".into(),
        a => a.into(),
    }
}

const UNAME_LONGS: &[LongOpt] = &[
    long("all", HasArg::No, 'a'),
    long("kernel-name", HasArg::No, 's'),
    long("nodename", HasArg::No, 'n'),
    long("kernel-release", HasArg::No, 'r'),
    long("kernel-version", HasArg::No, 'v'),
    long("machine", HasArg::No, 'm'),
    long("processor", HasArg::No, 'p'),
    long("hardware-platform", HasArg::No, 'i'),
    long("operating-system", HasArg::No, 'o'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// `uname`.
pub fn main_uname(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("uname", &args, "asnrvmpio", UNAME_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("uname", &p, "Usage: uname [OPTION]...\nPrint certain system information.  With no OPTION, same as -s.\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        return extra_operand("uname", op, 1);
    }
    let all = p.has('a');
    let mut want: Vec<char> = "snrvmpio"
        .chars()
        .filter(|c| p.has(*c) || (all && !"pi".contains(*c)))
        .collect();
    if want.is_empty() {
        want.push('s');
    }
    let mut parts = Vec::new();
    for c in want {
        let v = match c {
            's' => read_trim("/proc/sys/kernel/ostype").unwrap_or_else(|| "Linux".into()),
            'n' => hostname(),
            'r' => {
                read_trim("/proc/sys/kernel/osrelease").unwrap_or_else(|| "6.0.0-sandglass".into())
            }
            'v' => read_trim("/proc/sys/kernel/version").unwrap_or_else(|| "#1 Sandglass".into()),
            'm' => machine(),
            'p' | 'i' => {
                if all {
                    continue;
                }
                "unknown".into()
            }
            _ => "GNU/Linux".into(),
        };
        parts.push(v);
    }
    println!("{}", parts.join(" "));
    0
}

/// `hostname`: prints the name; setting it is not possible here.
pub fn main_hostname(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(
        "hostname",
        &args,
        "sfiIdaAy",
        &coreutils_core::args::STD_LONGS,
        1,
    ) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "hostname",
        &p,
        "Usage: hostname [-s]\nShow the system's host name.\n",
    ) {
        return c;
    }
    if !p.operands.is_empty() {
        eprintln!(
            "{}: you must be root to change the host name",
            coreutils_core::prog("hostname")
        );
        return 1;
    }
    let h = hostname();
    if p.has('s') {
        println!("{}", h.split('.').next().unwrap_or(""));
    } else if p.has('i') || p.has('I') {
        println!("127.0.0.1");
    } else {
        println!("{}", h);
    }
    0
}

const NPROC_LONGS: &[LongOpt] = &[
    long("all", HasArg::No, 'a'),
    long("ignore", HasArg::Required, 'i'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// `nproc [--all] [--ignore=N]`.
pub fn main_nproc(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("nproc", &args, "", NPROC_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("nproc", &p, "Usage: nproc [OPTION]...\nPrint the number of processing units available to the current process.\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        return extra_operand("nproc", op, 1);
    }
    let mut n = coreutils_core::cpus::online();
    if !p.has('a') {
        if let Some(v) = std::env::var("OMP_NUM_THREADS").ok().and_then(|s| {
            s.split(',')
                .next()
                .and_then(|x| x.trim().parse::<usize>().ok())
        }) {
            if v > 0 {
                n = v;
            }
        }
        if let Some(l) = std::env::var("OMP_THREAD_LIMIT")
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
        {
            if l > 0 {
                n = n.min(l);
            }
        }
    }
    if let Some(i) = p.last('i') {
        match i.to_string_lossy().trim().parse::<usize>() {
            Ok(k) => n = n.saturating_sub(k).max(1),
            Err(_) => {
                eprintln!(
                    "{}: invalid number: {}",
                    coreutils_core::prog("nproc"),
                    quote_gnu(i)
                );
                return 1;
            }
        }
    }
    println!("{}", n);
    0
}

/// `uptime`: time, time since boot and load averages from `/proc`.
pub fn main_uptime(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("uptime", &args, "ps", &coreutils_core::args::STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("uptime", &p, "Usage: uptime [OPTION]...\nPrint the current time, the length of time the system has been up,\nthe number of users on the system, and the average number of jobs\nin the run queue over the last 1, 5 and 15 minutes.\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        return usage_error("uptime", &format!("extra operand {}", quote_gnu(op)), 1);
    }
    let up: f64 = read_trim("/proc/uptime")
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0.0);
    let load = read_trim("/proc/loadavg")
        .map(|s| {
            s.split_whitespace()
                .take(3)
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|v| v.len() == 3)
        .unwrap_or_else(|| vec!["0.00".into(), "0.00".into(), "0.00".into()]);
    let secs = up as u64;
    let (days, hours, mins) = (secs / 86400, secs % 86400 / 3600, secs % 3600 / 60);
    if p.has('p') {
        let mut parts = Vec::new();
        if days > 0 {
            parts.push(format!("{} day{}", days, if days == 1 { "" } else { "s" }));
        }
        if hours > 0 {
            parts.push(format!(
                "{} hour{}",
                hours,
                if hours == 1 { "" } else { "s" }
            ));
        }
        parts.push(format!(
            "{} minute{}",
            mins,
            if mins == 1 { "" } else { "s" }
        ));
        println!("up {}", parts.join(", "));
        return 0;
    }
    let now = crate::misc::datetime::Time::now();
    if p.has('s') {
        let boot = crate::misc::datetime::Time {
            secs: now.secs - secs as i64,
            nanos: 0,
        };
        println!(
            "{}",
            crate::misc::datetime::strftime("%Y-%m-%d %H:%M:%S", boot)
        );
        return 0;
    }
    let upstr = if days > 0 {
        format!(
            "{} day{}, {:2}:{:02}",
            days,
            if days == 1 { "" } else { "s" },
            hours,
            mins
        )
    } else if hours > 0 {
        format!("{:2}:{:02}", hours, mins)
    } else {
        format!("{} min", mins)
    };
    println!(
        " {} up {},  0 users,  load average: {}, {}, {}",
        crate::misc::datetime::strftime("%H:%M:%S", now),
        upstr,
        load[0],
        load[1],
        load[2]
    );
    0
}
