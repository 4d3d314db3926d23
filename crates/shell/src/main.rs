//! shell.wasm: a bash-compatible shell for Sandglass (installed as /bin/sh and
//! /bin/bash). Modes: `-c CMD`, `FILE ARGS`, script on stdin, `-i` interactive
//! (own line editor), `--sandglass-api` (session loop) and the private
//! `--sandglass-subshell FD` used for child shells.

// Its sbrk replaces libc's: the heap grows in big steps (see the crate).
use wasm_heap as _;
mod assoc;
mod ast;
mod builtins;
mod bytes;
mod eval;
mod fsx;
mod interactive;
mod parse;
mod printer;
mod session_state;
mod state;
mod sys;

use ast::Bytes;
use eval::{Ctl, Shell};

sandglass_sys::export_abi_version!();

fn main() {
    let args: Vec<Bytes> = std::env::args_os().map(|a| bytes::os_bytes(&a)).collect();
    let code = run(args);
    std::process::exit(code);
}

fn adopt_pwd(sh: &mut Shell) {
    let pwd = sh.get_var(b"PWD");
    match pwd {
        Some(p) if p.starts_with(b"/") && std::env::set_current_dir(bytes::path(&p)).is_ok() => {}
        _ => {
            let cur = std::env::current_dir()
                .map(|c| bytes::os_bytes(c.as_os_str()))
                .unwrap_or_else(|_| b"/".to_vec());
            sh.set_var(b"PWD", cur);
        }
    }
}

fn finish(sh: &mut Shell, r: Result<(), Ctl>) -> i32 {
    let mut st = match r {
        Ok(()) => sh.status,
        Err(Ctl::Exit(n)) | Err(Ctl::Abort(n)) | Err(Ctl::Return(n)) => n,
        Err(_) => sh.status,
    };
    if let Some(code) = sh.traps.remove(&0) {
        sh.status = st;
        sh.in_trap = true;
        // bash runs the EXIT trap's text as new input: its lines count from 1
        if let Err(Ctl::Exit(n)) = sh.eval_string(&code, 1) {
            st = n;
        }
    }
    // Leave shared file offsets where this shell's reads ended.
    sh.sys.sync();
    st & 0xff
}

fn usage_error(sh: &mut Shell, msg: &str) -> i32 {
    let m = format!("{}: {}\n", String::from_utf8_lossy(&sh.arg0), msg);
    sh.write_fd(2, m.as_bytes());
    2
}

/// bash's reply to an unknown invocation option.
fn invalid_option(sh: &mut Shell, opt: &[u8]) -> i32 {
    let mut m = format!("bash: {}: invalid option\n", String::from_utf8_lossy(opt));
    m.push_str("Usage:\tbash [GNU long option] [option] ...\n\tbash [GNU long option] [option] script-file ...\nGNU long options:\n");
    for o in [
        "debug",
        "debugger",
        "dump-po-strings",
        "dump-strings",
        "help",
        "init-file",
        "login",
        "noediting",
        "noprofile",
        "norc",
        "posix",
        "pretty-print",
        "rcfile",
        "restricted",
        "verbose",
        "version",
    ] {
        m.push_str("\t--");
        m.push_str(o);
        m.push('\n');
    }
    m.push_str("Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n\t-abefhkmnptuvxBCEHPT or -o option\n");
    sh.write_fd(2, m.as_bytes());
    2
}

/// A non-interactive shell first sources the file named by $BASH_ENV.
fn source_bash_env(sh: &mut Shell) {
    if let Some(f) = sh.get_var(b"BASH_ENV").filter(|f| !f.is_empty()) {
        let _ = sh.run_builtin(&[b"source".to_vec(), f]);
    }
}

/// Record the fds the parent passed beyond 0-2 (`sh -c 'cat <&3' 3<f`), so
/// redirections may use them and children inherit them. The kernel lists a
/// process's open descriptors under /dev/fd.
fn adopt_inherited_fds(sh: &mut Shell) {
    #[cfg(target_arch = "wasm32")]
    {
        // Hold the lowest free slot while listing, so the listing's own
        // descriptor cannot take it (an empty slot 3 still answers fstat as
        // the root directory, and would look inherited).
        let hold = unsafe { libc::open(b"/dev/fd\0".as_ptr() as *const _, libc::O_RDONLY) };
        let listed: Vec<i32> = match std::fs::read_dir("/dev/fd") {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .filter_map(|e| bytes::parse_i64(&bytes::os_bytes(&e.file_name())))
                .map(|n| n as i32)
                .filter(|&n| n > 2 && n != hold)
                .collect(),
            Err(_) => Vec::new(),
        };
        if hold >= 0 {
            unsafe { libc::close(hold) };
        }
        // The listing may include the descriptor that read it, closed since.
        for fd in listed {
            if fd_open(fd) {
                sh.open_fds.insert(fd);
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        for fd in 3..10 {
            if fd_open(fd) {
                sh.open_fds.insert(fd);
            }
        }
    }
}

/// Whether fd is open in this process.
fn fd_open(fd: i32) -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        let mut st = std::mem::MaybeUninit::<libc::stat>::zeroed();
        unsafe { libc::fstat(fd, st.as_mut_ptr()) == 0 }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
    }
}

pub fn run(args: Vec<Bytes>) -> i32 {
    let mut sh = Shell::new(sys::host());
    let argv0 = args.first().cloned().unwrap_or_else(|| b"bash".to_vec());
    let short = argv0
        .rsplit(|c| *c == b'/')
        .next()
        .unwrap_or(&argv0)
        .to_vec();
    sh.arg0 = argv0.clone();
    sh.err_name = argv0.clone();
    #[cfg(not(target_arch = "wasm32"))]
    {
        if let Ok(p) = std::env::current_exe() {
            sh.exe = bytes::os_bytes(p.as_os_str());
        }
    }
    adopt_pwd(&mut sh);
    if args.get(1).map(|a| a.as_slice()) != Some(b"--sandglass-subshell") {
        adopt_inherited_fds(&mut sh);
    }
    let mut i = 1;
    let mut command: Option<Bytes> = None;
    let mut interactive = false;
    let mut api = false;
    let mut from_stdin = false;
    let mut take_command = false;
    if argv0.starts_with(b"-") {
        sh.login = true;
    }
    while i < args.len() {
        let a = args[i].clone();
        match a.as_slice() {
            b"--sandglass-subshell" => {
                let fd = args
                    .get(i + 1)
                    .and_then(|f| bytes::parse_i64(f))
                    .unwrap_or(eval::child::STATE_FD as i64) as i32;
                return run_child(&mut sh, fd);
            }
            b"--sandglass-api" => api = true,
            b"--norc" | b"--noprofile" | b"--noediting" => {}
            b"--posix" => sh.set_option("posix", true),
            b"--login" => sh.login = true,
            b"--verbose" => sh.opts.verbose = true,
            b"--version" => {
                sh.write_fd(
                    1,
                    b"GNU bash, version 5.2.15(1)-release (wasm32-sandglass-wasi)\n",
                );
                return 0;
            }
            b"--" | b"-" => {
                i += 1;
                break;
            }
            x if x.len() > 1 && (x[0] == b'-' || x[0] == b'+') && !x.starts_with(b"--") => {
                let on = x[0] == b'-';
                let mut k = 1;
                while k < x.len() {
                    let c = x[k];
                    k += 1;
                    match c {
                        b'o' | b'O' => {
                            i += 1;
                            let n = match args.get(i) {
                                Some(n) => String::from_utf8_lossy(n).into_owned(),
                                None => continue,
                            };
                            if c == b'o' {
                                sh.set_option(&n, on);
                            } else if sh.shopt_state(&n).is_some() {
                                sh.set_shopt(&n, on);
                            } else {
                                let m = format!("bash: {}: invalid shell option name\n", n);
                                sh.write_fd(2, m.as_bytes());
                                return 2;
                            }
                        }
                        b'c' => take_command = true,
                        b'i' => interactive = true,
                        b's' => from_stdin = true,
                        b'l' => sh.login = true,
                        b'r' | b'D' => {}
                        c => match state::Options::flag_name(c) {
                            Some(n) => sh.set_option(n, on),
                            None => return invalid_option(&mut sh, &[x[0], c]),
                        },
                    }
                }
            }
            x if x.starts_with(b"--") => return invalid_option(&mut sh, x),
            _ => break,
        }
        i += 1;
    }
    if take_command {
        // the first argument after the options is the command; the rest,
        // `--` included, are $0 and the positional parameters
        match args.get(i) {
            Some(c) => command = Some(c.clone()),
            None => return usage_error(&mut sh, "-c: option requires an argument"),
        }
        i += 1;
    }
    if sh.login {
        sh.set_shopt("login_shell", true);
    }
    let rest: Vec<Bytes> = args[i.min(args.len())..].to_vec();
    sh.sync_specials();
    if api {
        return interactive::api_loop(&mut sh);
    }
    if let Some(code) = command {
        sh.c_mode = true;
        if interactive {
            sh.opts.interactive = true;
        } else {
            // the shell ends with the string: its last command may replace it,
            // as bash does. Invoked as `sh` it keeps itself, as Debian's
            // /bin/sh (dash) does: scripts compare `$$` with their children's
            // parent (Python's `shell=True` runs /bin/sh).
            sh.oneshot = short != b"sh";
            source_bash_env(&mut sh);
        }
        if let Some(a0) = rest.first() {
            sh.arg0 = a0.clone();
            sh.err_name = a0.clone();
            sh.positional = rest[1..].to_vec();
        }
        sh.input_name = b"-c".to_vec();
        sh.set_var(b"BASH_EXECUTION_STRING", code.clone());
        let r = sh.run_text(&code, 1, true);
        return finish(&mut sh, r);
    }
    if from_stdin {
        sh.positional = rest.clone();
    }
    if let Some(file) = rest.first().filter(|_| !from_stdin) {
        sh.c_mode = false;
        source_bash_env(&mut sh);
        let code = match std::fs::read(bytes::path(file)) {
            Ok(c) => c,
            Err(e) => {
                let errno = sys::io_errno(&e);
                // a file that cannot be opened is reported under bash's name;
                // a directory opens, and fails to read once bash has taken
                // the script's name. Only a missing file is 127.
                let name = if errno == sys::EISDIR { file } else { &argv0 };
                let found = errno != sys::ENOENT;
                let m = format!(
                    "{}: {}: {}\n",
                    String::from_utf8_lossy(name),
                    String::from_utf8_lossy(file),
                    sys::strerror(errno)
                );
                sh.write_fd(2, m.as_bytes());
                return if found { 126 } else { 127 };
            }
        };
        if code.iter().take(80).any(|c| *c == 0) {
            let m = format!(
                "{}: {}: cannot execute binary file\n",
                String::from_utf8_lossy(&argv0),
                String::from_utf8_lossy(file)
            );
            sh.write_fd(2, m.as_bytes());
            return 126;
        }
        sh.arg0 = file.clone();
        sh.err_name = file.clone();
        sh.input_name = file.clone();
        sh.sources.push(file.clone());
        sh.frames.push((b"main".to_vec(), file.clone(), 0));
        sh.positional = rest[1..].to_vec();
        let r = sh.run_text(&code, 1, true);
        return finish(&mut sh, r);
    }
    if interactive || (!from_stdin && sh.sys.isatty(0)) {
        sh.opts.interactive = true;
        // only an interactive shell has prompts
        for (k, v) in [(&b"PS1"[..], &b"\\s-\\v\\$ "[..]), (b"PS2", b"> ")] {
            if sh.vars.get(k).is_none() {
                sh.set_var(k, v.to_vec());
            }
        }
        return interactive::repl(&mut sh);
    }
    // script on stdin
    let mut code = Vec::new();
    let mut buf = vec![0u8; 65536];
    loop {
        match sh.sys.read(0, &mut buf) {
            Ok(0) => break,
            Ok(n) => code.extend_from_slice(&buf[..n]),
            Err(sys::EINTR) => continue,
            Err(_) => break,
        }
    }
    sh.c_mode = false;
    sh.input_name = sh.err_name.clone();
    source_bash_env(&mut sh);
    let r = sh.run_text(&code, 1, true);
    finish(&mut sh, r)
}

/// Where the kernel installs this shell (its links in Cargo.toml).
pub fn is_shell_program(path: &[u8]) -> bool {
    matches!(
        path,
        b"/bin/sh" | b"/bin/bash" | b"/usr/bin/sh" | b"/usr/bin/bash"
    )
}

/// `exec` of the shell itself in this process: the environment becomes
/// `env` (NAME=value entries) and a fresh shell starts with `argv`.
pub fn reexec(argv: Vec<Bytes>, env: Vec<Bytes>) -> i32 {
    let old: Vec<std::ffi::OsString> = std::env::vars_os().map(|(k, _)| k).collect();
    for k in old {
        std::env::remove_var(k);
    }
    for e in &env {
        if let Some(eq) = e.iter().position(|c| *c == b'=') {
            let (k, v) = (bytes::to_os(&e[..eq]), bytes::to_os(&e[eq + 1..]));
            if !e[..eq].is_empty() {
                std::env::set_var(k, v);
            }
        }
    }
    run(argv)
}

/// A child shell: load the parent's state from `fd`, run the code, exit.
fn run_child(sh: &mut Shell, fd: i32) -> i32 {
    let mut data = Vec::new();
    let mut buf = vec![0u8; 65536];
    loop {
        match sh.sys.read(fd, &mut buf) {
            Ok(0) => break,
            Ok(n) => data.extend_from_slice(&buf[..n]),
            Err(sys::EINTR) => continue,
            Err(_) => break,
        }
    }
    sh.sys.close(fd);
    let (mypid, _) = sh.sys.getpid();
    let code = sh.decode_state(&data);
    sh.bashpid = mypid;
    adopt_pwd(sh);
    sh.sole_subshell = sh.sole_subshell && sh.is_sole_subshell(&code.text);
    sh.oneshot = true;
    let r = sh.run_text(&code.text, code.line, true);
    finish(sh, r)
}

/// Run the EXIT trap and compute the final status (used by interactive mode).
pub fn finish_pub(sh: &mut Shell, r: Result<(), Ctl>, _st: i32) -> i32 {
    finish(sh, r)
}
