//! The `sandglass` import list, declared once. On wasm each row is an
//! import; elsewhere the same name is a function answering `ENOSYS`, so the
//! wrappers compile on every target.

macro_rules! imports {
    ($( fn $name:ident($($arg:ident: $ty:ty),* $(,)?); )*) => {
        #[cfg(target_arch = "wasm32")]
        #[link(wasm_import_module = "sandglass")]
        extern "C" {
            $( pub fn $name($($arg: $ty),*) -> i32; )*
        }

        $(
            #[cfg(not(target_arch = "wasm32"))]
            #[allow(unused_variables, clippy::missing_safety_doc)]
            pub unsafe fn $name($($arg: $ty),*) -> i32 {
                crate::ENOSYS
            }
        )*
    };
}

imports! {
    // Process.
    fn spawn(req: *const u8, req_len: u32, pid_out: *mut i32);
    fn exec(req: *const u8, req_len: u32);
    fn wait(pid: i32, options: u32, pid_out: *mut i32, status_out: *mut i32);
    fn kill(pid: i32, sig: u32);
    fn getpid(pid_out: *mut i32, ppid_out: *mut i32);
    fn setpgid(pid: i32, pgid: i32);
    fn getpgid(pid: i32, pgid_out: *mut i32);
    fn sigaction(sig: u32, disposition: u32);
    fn sigpending(mask_out: *mut u64);
    fn chdir(path: *const u8, len: u32);
    fn getcwd(handle_out: *mut u32, len_out: *mut u32);
    // File metadata.
    fn path_stat_ext(path: *const u8, len: u32, follow: u32, out: *mut u32);
    fn fd_stat_ext(fd: u32, out: *mut u32);
    fn path_chmod(path: *const u8, len: u32, follow: u32, mode: u32);
    fn path_chown(path: *const u8, len: u32, follow: u32, uid: i32, gid: i32);
    fn path_access(path: *const u8, len: u32, amode: u32);
    fn getuid(out: *mut u32);
    fn umask(new: i32, old_out: *mut u32);
    // File descriptors.
    fn pipe(fds_out: *mut u32);
    fn dup(fd: u32, min_fd: u32, new_out: *mut u32);
    fn dup2(old: u32, new: u32);
    fn fd_cloexec(fd: u32, on: u32);
    fn isatty(fd: u32, out: *mut u32);
    // Terminal.
    fn tty_get(fd: u32, mode_out: *mut u32);
    fn tty_set(fd: u32, mode: u32);
    fn tty_winsize(fd: u32, out: *mut u16);
    fn tcsetpgrp(fd: u32, pgid: i32);
    fn tcgetpgrp(fd: u32, pgid_out: *mut i32);
    // Sessions.
    fn session_next(handle_out: *mut u32, len_out: *mut u32);
    fn session_done(status: i32);
    fn step_begin(text: *const u8, len: u32);
    fn step_end(status: i32, state: *const u8, state_len: u32, flags_out: *mut u32);
    fn ctl_take(handle_out: *mut u32, len_out: *mut u32);
    // Network.
    fn net_request(req: *const u8, req_len: u32, x_out: *mut u32);
    fn net_body_write(x: u32, buf: *const u8, len: u32, n_out: *mut u32);
    fn net_response(x: u32, handle_out: *mut u32, len_out: *mut u32);
    fn net_body_read(x: u32, buf: *mut u8, len: u32, n_out: *mut u32);
    fn net_body_splice(x: u32, fd: u32, max: u32, n_out: *mut u32);
    fn net_close(x: u32);
    // Generic.
    fn handle_read(handle: u32, buf: *mut u8, len: u32);
}
