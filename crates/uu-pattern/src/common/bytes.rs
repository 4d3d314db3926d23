//! Single-byte search. The memchr crate Debian ships (2.5) has SIMD
//! `memchr` only on x86; on wasm32 it scans four bytes at a time, which
//! made grep's binary-file check alone cost ~60 ms per 100 MB. With
//! `simd128` these scan 16 bytes per compare; natively they are memchr's.
//! The scans are written over a 16-byte `mask` so the same loops are
//! tested natively (with a scalar mask) and run on wasm (with SIMD).

/// Bit k set = `hay[i + k] == b`, for k in 0..16. Needs `i + 16 <= hay.len()`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn mask(hay: &[u8], i: usize, b: u8) -> u32 {
    use core::arch::wasm32::*;
    assert!(i + 16 <= hay.len());
    // SAFETY: the 16 bytes at i are inside `hay` (checked above).
    let v = unsafe { v128_load(hay.as_ptr().add(i) as *const v128) };
    u8x16_bitmask(u8x16_eq(v, u8x16_splat(b))) as u32
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn mask(hay: &[u8], i: usize, b: u8) -> u32 {
    let mut m = 0u32;
    for (k, &c) in hay[i..i + 16].iter().enumerate() {
        if c == b {
            m |= 1 << k;
        }
    }
    m
}

fn scan_first(b: u8, hay: &[u8]) -> Option<usize> {
    let len = hay.len();
    if len < 16 {
        return hay.iter().position(|&c| c == b);
    }
    let mut i = 0;
    while i + 64 <= len {
        let m = [
            mask(hay, i, b),
            mask(hay, i + 16, b),
            mask(hay, i + 32, b),
            mask(hay, i + 48, b),
        ];
        if m[0] | m[1] | m[2] | m[3] != 0 {
            for (k, &mk) in m.iter().enumerate() {
                if mk != 0 {
                    return Some(i + 16 * k + mk.trailing_zeros() as usize);
                }
            }
        }
        i += 64;
    }
    while i + 16 <= len {
        let m = mask(hay, i, b);
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    if i < len {
        // The last 16 bytes, minus those already seen.
        let m = mask(hay, len - 16, b) >> (i - (len - 16));
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
    }
    None
}

fn scan_last(b: u8, hay: &[u8]) -> Option<usize> {
    let len = hay.len();
    if len < 16 {
        return hay.iter().rposition(|&c| c == b);
    }
    let mut end = len;
    while end >= 16 {
        let m = mask(hay, end - 16, b);
        if m != 0 {
            return Some(end - 16 + 31 - m.leading_zeros() as usize);
        }
        end -= 16;
    }
    if end > 0 {
        let m = mask(hay, 0, b) & ((1u32 << end) - 1);
        if m != 0 {
            return Some(31 - m.leading_zeros() as usize);
        }
    }
    None
}

fn scan_count(b: u8, hay: &[u8]) -> usize {
    let mut total = 0usize;
    let mut i = 0;
    while i + 16 <= hay.len() {
        total += mask(hay, i, b).count_ones() as usize;
        i += 16;
    }
    total + hay[i..].iter().filter(|&&c| c == b).count()
}

const SIMD: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// Index of the first `b` in `hay`.
pub fn memchr(b: u8, hay: &[u8]) -> Option<usize> {
    if SIMD {
        scan_first(b, hay)
    } else {
        memchr::memchr(b, hay)
    }
}

/// Index of the last `b` in `hay`.
pub fn memrchr(b: u8, hay: &[u8]) -> Option<usize> {
    if SIMD {
        scan_last(b, hay)
    } else {
        memchr::memrchr(b, hay)
    }
}

/// How many times `b` occurs in `hay`.
pub fn count(b: u8, hay: &[u8]) -> usize {
    if SIMD {
        scan_count(b, hay)
    } else {
        memchr::memchr_iter(b, hay).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every start, length and needle against a plain scan, for the loops
    /// wasm runs and for the functions used here.
    #[test]
    fn agrees_with_a_plain_scan() {
        let base: Vec<u8> = (0..300u32).map(|i| (i * 7 % 13) as u8).collect();
        for start in 0..17 {
            for len in 0..(base.len() - start) {
                let hay = &base[start..start + len];
                for b in [0u8, 3, 12, 200] {
                    let first = hay.iter().position(|&c| c == b);
                    let last = hay.iter().rposition(|&c| c == b);
                    let n = hay.iter().filter(|&&c| c == b).count();
                    assert_eq!(scan_first(b, hay), first);
                    assert_eq!(scan_last(b, hay), last);
                    assert_eq!(scan_count(b, hay), n);
                    assert_eq!(
                        (memchr(b, hay), memrchr(b, hay), count(b, hay)),
                        (first, last, n)
                    );
                }
            }
        }
    }
}
