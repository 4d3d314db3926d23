//! Geometric heap growth for wasm32-wasi programs.
//!
//! wasi-libc's malloc (dlmalloc) grows the heap through `sbrk`, 64 KiB at a
//! time, and wasi-libc's `sbrk` turns each call into one `memory.grow`. In
//! V8 every `memory.grow` costs about a millisecond whatever its size (it
//! replaces the memory's ArrayBuffer and asks for a full GC), so a program
//! building a 200 MB heap spent seconds growing it: jq on a 20 MB document
//! spent 2.3 s of its 5 s in `sbrk` and 1.3 s in GC.
//!
//! This crate's `sbrk` replaces libc's at link time (a binary links it with
//! `use wasm_heap as _;`). It hands out the same contiguous break, but when
//! memory must grow it grows by at least an eighth of the current size (and
//! 1 MiB), so a heap of N bytes takes O(log N) grows. Near a memory limit it
//! falls back to growing exactly what was asked. Off wasm32 only the
//! growth policy is compiled (for its tests).

/// Smallest step, in pages (1 MiB).
const MIN_STEP: usize = 16;

/// Pages to grow by when `need` more pages are wanted and `have` exist.
pub fn step_pages(have: usize, need: usize) -> usize {
    need.max(have / 8).max(MIN_STEP)
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use core::arch::wasm32::{memory_grow, memory_size};

    const PAGE: usize = 65536;

    /// The break: end of what malloc has been given (0 = not yet read).
    static mut BRK: usize = 0;

    /// Pages the last failed growth asked for (0 = none failed).
    static mut REFUSED: usize = 0;

    /// Read by the host after a trap: a program aborting because its memory
    /// limit refused a large allocation may be far below the limit, and this
    /// tells the host the trap was the limit's doing.
    #[no_mangle]
    pub extern "C" fn sandglass_heap_refused() -> usize {
        // SAFETY: single-threaded program; read after the program stopped.
        unsafe { REFUSED }
    }

    /// `sbrk(2)` for dlmalloc: `increment` is 0 (query) or a positive amount;
    /// wasm memory cannot shrink, so a negative one fails as libc's did.
    ///
    /// # Safety
    /// Called by libc's malloc, which serialises its calls (single thread).
    #[no_mangle]
    pub unsafe extern "C" fn sbrk(increment: isize) -> *mut u8 {
        let fail = usize::MAX as *mut u8;
        if BRK == 0 {
            BRK = memory_size(0) * PAGE;
        }
        if increment < 0 {
            return fail;
        }
        let old = BRK;
        let end = match old.checked_add(increment as usize) {
            Some(e) => e,
            None => return fail,
        };
        let have = memory_size(0) * PAGE;
        if end > have {
            let need = (end - have + PAGE - 1) / PAGE;
            let step = super::step_pages(memory_size(0), need);
            if memory_grow(0, step) == usize::MAX && memory_grow(0, need) == usize::MAX {
                REFUSED = need;
                return fail;
            }
        }
        BRK = end;
        old as *mut u8
    }
}

#[cfg(test)]
mod tests {
    use super::step_pages;

    #[test]
    fn a_big_heap_takes_few_grows() {
        // dlmalloc asks for 64 KiB (1 page) at a time; a 256 MiB heap is 4096 asks.
        let (mut have, mut brk, mut grows) = (2usize, 2usize, 0);
        for _ in 0..4096 {
            brk += 1;
            if brk > have {
                have += step_pages(have, brk - have);
                grows += 1;
            }
        }
        assert!(grows <= 40, "{} grows", grows);
        assert!(
            have - brk <= brk / 8 + 16,
            "over-grown: {} pages for {}",
            have,
            brk
        );
    }

    #[test]
    fn a_large_request_gets_at_least_what_it_asked() {
        assert_eq!(step_pages(100, 5000), 5000);
        assert_eq!(step_pages(1, 1), 16);
    }
}
