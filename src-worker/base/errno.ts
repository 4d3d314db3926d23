/**
 * The kernel's error vocabulary. Numbers are WASI preview1 errno values so
 * the WASI host can pass them through unchanged; every kernel layer throws
 * `KernelError` and the syscall glue maps it to the guest's errno.
 */
export enum Errno {
  SUCCESS = 0,
  E2BIG = 1,
  EACCES = 2,
  EAGAIN = 6,
  EBADF = 8,
  EBUSY = 10,
  ECANCELED = 11,
  ECHILD = 12,
  ECONNREFUSED = 14,
  EDQUOT = 19,
  EEXIST = 20,
  EFAULT = 21,
  EFBIG = 22,
  EILSEQ = 25,
  EINTR = 27,
  EINVAL = 28,
  EIO = 29,
  EISDIR = 31,
  ELOOP = 32,
  EMFILE = 33,
  EMLINK = 34,
  ENAMETOOLONG = 37,
  ENOENT = 44,
  ENOEXEC = 45,
  ENOMEM = 48,
  ENOSPC = 51,
  ENOSYS = 52,
  ENOTDIR = 54,
  ENOTEMPTY = 55,
  ENOTSOCK = 57,
  ENOTSUP = 58,
  ENOTTY = 59,
  ENXIO = 60,
  EPERM = 63,
  EPIPE = 64,
  EPROTO = 65,
  ERANGE = 68,
  EROFS = 69,
  ESPIPE = 70,
  ESRCH = 71,
  ETIMEDOUT = 73,
  EXDEV = 75,
  ENOTCAPABLE = 76,
}

/** Short POSIX-style messages, for logs and host-side error text. */
export const errnoMessage: Record<Errno, string> = {
  [Errno.SUCCESS]: 'Success',
  [Errno.E2BIG]: 'Argument list too long',
  [Errno.EACCES]: 'Permission denied',
  [Errno.EAGAIN]: 'Resource temporarily unavailable',
  [Errno.EBADF]: 'Bad file descriptor',
  [Errno.EBUSY]: 'Device or resource busy',
  [Errno.ECANCELED]: 'Operation canceled',
  [Errno.ECHILD]: 'No child processes',
  [Errno.ECONNREFUSED]: 'Connection refused',
  [Errno.EDQUOT]: 'Disk quota exceeded',
  [Errno.EEXIST]: 'File exists',
  [Errno.EFAULT]: 'Bad address',
  [Errno.EFBIG]: 'File too large',
  [Errno.EILSEQ]: 'Invalid or incomplete multibyte or wide character',
  [Errno.EINTR]: 'Interrupted system call',
  [Errno.EINVAL]: 'Invalid argument',
  [Errno.EIO]: 'Input/output error',
  [Errno.EISDIR]: 'Is a directory',
  [Errno.ELOOP]: 'Too many levels of symbolic links',
  [Errno.EMFILE]: 'Too many open files',
  [Errno.EMLINK]: 'Too many links',
  [Errno.ENAMETOOLONG]: 'File name too long',
  [Errno.ENOENT]: 'No such file or directory',
  [Errno.ENOEXEC]: 'Exec format error',
  [Errno.ENOMEM]: 'Cannot allocate memory',
  [Errno.ENOSPC]: 'No space left on device',
  [Errno.ENOSYS]: 'Function not implemented',
  [Errno.ENOTDIR]: 'Not a directory',
  [Errno.ENOTEMPTY]: 'Directory not empty',
  [Errno.ENOTSOCK]: 'Socket operation on non-socket',
  [Errno.ENOTSUP]: 'Operation not supported',
  [Errno.ENOTTY]: 'Inappropriate ioctl for device',
  [Errno.ENXIO]: 'No such device or address',
  [Errno.EPERM]: 'Operation not permitted',
  [Errno.EPIPE]: 'Broken pipe',
  [Errno.EPROTO]: 'Protocol error',
  [Errno.ERANGE]: 'Numerical result out of range',
  [Errno.EROFS]: 'Read-only file system',
  [Errno.ESPIPE]: 'Illegal seek',
  [Errno.ESRCH]: 'No such process',
  [Errno.ETIMEDOUT]: 'Connection timed out',
  [Errno.EXDEV]: 'Invalid cross-device link',
  [Errno.ENOTCAPABLE]: 'Capabilities insufficient',
};

/** The one error type every kernel layer throws. */
export class KernelError extends Error {
  constructor(
    readonly errno: Errno,
    detail?: string,
    /** Said on the stderr of the process whose syscall failed (an errno alone would not explain it). */
    readonly notice?: string,
  ) {
    super(detail ? `${errnoMessage[errno]}: ${detail}` : errnoMessage[errno]);
    this.name = 'KernelError';
  }
}

/** Throw `KernelError(errno)`; for terse guards in kernel code. */
export function fail(errno: Errno, detail?: string): never {
  throw new KernelError(errno, detail);
}
