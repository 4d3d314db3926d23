//! Variable-length results: a call hands back `(handle, len)` and
//! [`read`] copies the bytes out, freeing the handle.

use crate::{check, raw, Errno};

/// Copy a handle's bytes out and free it (`len` must be its length).
pub fn read(handle: u32, len: u32) -> Result<Vec<u8>, Errno> {
    let mut buf = vec![0u8; len as usize];
    // SAFETY: buf has room for len bytes.
    check(unsafe { raw::handle_read(handle, buf.as_mut_ptr(), len) })?;
    Ok(buf)
}
