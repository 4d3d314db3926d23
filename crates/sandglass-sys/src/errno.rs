//! The text glibc's `strerror` gives for every WASI errno, so programs print
//! what bash and GNU tools print (`Argument list too long`, not a catch-all).

use crate::Errno;

/// glibc's message for a WASI errno (the numbering wasi-libc and our host
/// use). `ENOTCAPABLE` (76), which glibc lacks, reads as `EPERM` does; a
/// number outside WASI's range gives "Unknown error".
pub fn strerror(code: Errno) -> &'static str {
    match code {
        0 => "Success",
        1 => "Argument list too long",
        2 => "Permission denied",
        3 => "Address already in use",
        4 => "Cannot assign requested address",
        5 => "Address family not supported by protocol",
        6 => "Resource temporarily unavailable",
        7 => "Operation already in progress",
        8 => "Bad file descriptor",
        9 => "Bad message",
        10 => "Device or resource busy",
        11 => "Operation canceled",
        12 => "No child processes",
        13 => "Software caused connection abort",
        14 => "Connection refused",
        15 => "Connection reset by peer",
        16 => "Resource deadlock avoided",
        17 => "Destination address required",
        18 => "Numerical argument out of domain",
        19 => "Disk quota exceeded",
        20 => "File exists",
        21 => "Bad address",
        22 => "File too large",
        23 => "No route to host",
        24 => "Identifier removed",
        25 => "Invalid or incomplete multibyte or wide character",
        26 => "Operation now in progress",
        27 => "Interrupted system call",
        28 => "Invalid argument",
        29 => "Input/output error",
        30 => "Transport endpoint is already connected",
        31 => "Is a directory",
        32 => "Too many levels of symbolic links",
        33 => "Too many open files",
        34 => "Too many links",
        35 => "Message too long",
        36 => "Multihop attempted",
        37 => "File name too long",
        38 => "Network is down",
        39 => "Network dropped connection on reset",
        40 => "Network is unreachable",
        41 => "Too many open files in system",
        42 => "No buffer space available",
        43 => "No such device",
        44 => "No such file or directory",
        45 => "Exec format error",
        46 => "No locks available",
        47 => "Link has been severed",
        48 => "Cannot allocate memory",
        49 => "No message of desired type",
        50 => "Protocol not available",
        51 => "No space left on device",
        52 => "Function not implemented",
        53 => "Transport endpoint is not connected",
        54 => "Not a directory",
        55 => "Directory not empty",
        56 => "State not recoverable",
        57 => "Socket operation on non-socket",
        58 => "Operation not supported",
        59 => "Inappropriate ioctl for device",
        60 => "No such device or address",
        61 => "Value too large for defined data type",
        62 => "Owner died",
        63 => "Operation not permitted",
        64 => "Broken pipe",
        65 => "Protocol error",
        66 => "Protocol not supported",
        67 => "Protocol wrong type for socket",
        68 => "Numerical result out of range",
        69 => "Read-only file system",
        70 => "Illegal seek",
        71 => "No such process",
        72 => "Stale file handle",
        73 => "Connection timed out",
        74 => "Text file busy",
        75 => "Invalid cross-device link",
        76 => "Operation not permitted",
        _ => "Unknown error",
    }
}

#[cfg(test)]
mod tests {
    use super::strerror;

    /// Each WASI errno beside the Linux errno of the same name, in WASI order.
    const WASI_TO_LINUX: [i32; 77] = [
        0,
        libc::E2BIG,
        libc::EACCES,
        libc::EADDRINUSE,
        libc::EADDRNOTAVAIL,
        libc::EAFNOSUPPORT,
        libc::EAGAIN,
        libc::EALREADY,
        libc::EBADF,
        libc::EBADMSG,
        libc::EBUSY,
        libc::ECANCELED,
        libc::ECHILD,
        libc::ECONNABORTED,
        libc::ECONNREFUSED,
        libc::ECONNRESET,
        libc::EDEADLK,
        libc::EDESTADDRREQ,
        libc::EDOM,
        libc::EDQUOT,
        libc::EEXIST,
        libc::EFAULT,
        libc::EFBIG,
        libc::EHOSTUNREACH,
        libc::EIDRM,
        libc::EILSEQ,
        libc::EINPROGRESS,
        libc::EINTR,
        libc::EINVAL,
        libc::EIO,
        libc::EISCONN,
        libc::EISDIR,
        libc::ELOOP,
        libc::EMFILE,
        libc::EMLINK,
        libc::EMSGSIZE,
        libc::EMULTIHOP,
        libc::ENAMETOOLONG,
        libc::ENETDOWN,
        libc::ENETRESET,
        libc::ENETUNREACH,
        libc::ENFILE,
        libc::ENOBUFS,
        libc::ENODEV,
        libc::ENOENT,
        libc::ENOEXEC,
        libc::ENOLCK,
        libc::ENOLINK,
        libc::ENOMEM,
        libc::ENOMSG,
        libc::ENOPROTOOPT,
        libc::ENOSPC,
        libc::ENOSYS,
        libc::ENOTCONN,
        libc::ENOTDIR,
        libc::ENOTEMPTY,
        libc::ENOTRECOVERABLE,
        libc::ENOTSOCK,
        libc::ENOTSUP,
        libc::ENOTTY,
        libc::ENXIO,
        libc::EOVERFLOW,
        libc::EOWNERDEAD,
        libc::EPERM,
        libc::EPIPE,
        libc::EPROTO,
        libc::EPROTONOSUPPORT,
        libc::EPROTOTYPE,
        libc::ERANGE,
        libc::EROFS,
        libc::ESPIPE,
        libc::ESRCH,
        libc::ESTALE,
        libc::ETIMEDOUT,
        libc::ETXTBSY,
        libc::EXDEV,
        // ENOTCAPABLE: glibc has none; it reads as EPERM.
        libc::EPERM,
    ];

    fn host_strerror(linux: i32) -> String {
        // SAFETY: strerror returns a NUL-terminated string valid until the next call.
        unsafe { std::ffi::CStr::from_ptr(libc::strerror(linux)) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn every_wasi_errno_reads_as_glibc_says() {
        for (wasi, linux) in WASI_TO_LINUX.iter().enumerate() {
            assert_eq!(
                strerror(wasi as i32),
                host_strerror(*linux),
                "WASI errno {}",
                wasi
            );
        }
        assert_eq!(strerror(77), "Unknown error");
        assert_eq!(strerror(-1), "Unknown error");
    }
}
