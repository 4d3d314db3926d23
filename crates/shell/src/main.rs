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
    let _ = short;
    adopt_pwd(&mut sh);
    if args.get(1).map(|a| a.as_slice()) != Some(b"--sandglass-subshell") {
        adopt_inherited_fds(&mut sh);
    }
    let mut i = 1;
    let mut command: Option<Bytes> = None;
    let mut interactive = false;
    let mut api = false;
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
            b"--norc" | b"--noprofile" | b"--posix" | b"--login" | b"-l" | b"--noediting"
            | b"-s" => {}
            b"--version" => {
                sh.write_fd(
                    1,
                    b"GNU bash, version 5.2.15(1)-release (wasm32-sandglass-wasi)\n",
                );
                return 0;
            }
            b"-c" => {
                i += 1;
                match args.get(i) {
                    Some(c) => command = Some(c.clone()),
                    None => return usage_error(&mut sh, "-c: option requires an argument"),
                }
            }
            b"-i" => interactive = true,
            b"--" => {
                i += 1;
                break;
            }
            x if x.len() > 1 && (x[0] == b'-' || x[0] == b'+') && !x.starts_with(b"--") => {
                let on = x[0] == b'-';
                let mut k = 1;
                while k < x.len() {
                    let c = x[k];
                    k += 1;
                    if c == b'o' {
                        i += 1;
                        if let Some(n) = args.get(i) {
                            if let Some(f) = sh.opts.get(&String::from_utf8_lossy(n)) {
                                *f = on;
                            }
                        }
                        continue;
                    }
                    if c == b'c' {
                        i += 1;
                        command = args.get(i).cloned();
                        continue;
                    }
                    if c == b'i' {
                        interactive = true;
                        continue;
                    }
                    if let Some(n) = state::Options::flag_name(c) {
                        if let Some(f) = sh.opts.get(n) {
                            *f = on;
                        }
                    }
                }
            }
            x if x.starts_with(b"--") => {
                return usage_error(
                    &mut sh,
                    &format!("{}: invalid option", String::from_utf8_lossy(x)),
                );
            }
            _ => break,
        }
        i += 1;
    }
    let rest: Vec<Bytes> = args[i.min(args.len())..].to_vec();
    if api {
        return interactive::api_loop(&mut sh);
    }
    if let Some(code) = command {
        sh.c_mode = true;
        if let Some(a0) = rest.first() {
            sh.arg0 = a0.clone();
            sh.err_name = a0.clone();
            sh.positional = rest[1..].to_vec();
        }
        let r = sh.run_text(&code, 1, true);
        return finish(&mut sh, r);
    }
    if let Some(file) = rest.first() {
        sh.c_mode = false;
        let code = match std::fs::read(bytes::path(file)) {
            Ok(c) => c,
            Err(e) => {
                let m = format!(
                    "{}: {}: {}\n",
                    String::from_utf8_lossy(&argv0),
                    String::from_utf8_lossy(file),
                    sys::strerror(sys::io_errno(&e))
                );
                sh.write_fd(2, m.as_bytes());
                return 127;
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
        sh.sources.push(file.clone());
        sh.frames.push((b"main".to_vec(), file.clone(), 0));
        sh.positional = rest[1..].to_vec();
        let r = sh.run_text(&code, 1, true);
        return finish(&mut sh, r);
    }
    if interactive || sh.sys.isatty(0) {
        sh.opts.interactive = true;
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
    let r = sh.run_text(&code, 1, true);
    finish(&mut sh, r)
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
    let (mypid, ppid) = sh.sys.getpid();
    let code = sh.decode_state(&data);
    let _ = (mypid, ppid);
    adopt_pwd(sh);
    let r = sh.run_text(&code.text, code.line, true);
    finish(sh, r)
}

/// Run the EXIT trap and compute the final status (used by interactive mode).
pub fn finish_pub(sh: &mut Shell, r: Result<(), Ctl>, _st: i32) -> i32 {
    finish(sh, r)
}
