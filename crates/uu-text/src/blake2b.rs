//! BLAKE2b (RFC 7693), unkeyed, with any digest length from 1 to 64 bytes:
//! what `b2sum` computes. Debian packages no blake2 crate, so it is here.

const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// Message word order of each round (rounds 10 and 11 reuse 0 and 1).
const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const BLOCK: usize = 128;

/// Largest digest, in bytes.
pub const MAX_BYTES: usize = 64;

/// An unkeyed BLAKE2b hash in progress.
pub struct Blake2b {
    h: [u64; 8],
    buf: [u8; BLOCK],
    buf_len: usize,
    /// Bytes compressed so far.
    t: u128,
    out_len: usize,
}

fn mix(v: &mut [u64; 16], a: usize, b: usize, c: usize, d: usize, x: u64, y: u64) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(32);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(24);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(63);
}

impl Blake2b {
    /// A hash giving `out_len` bytes (1..=64; other values are clamped).
    pub fn new(out_len: usize) -> Blake2b {
        let out_len = out_len.clamp(1, MAX_BYTES);
        let mut h = IV;
        // Parameter block: digest length, no key, fanout 1, depth 1.
        h[0] ^= 0x0101_0000 ^ out_len as u64;
        Blake2b {
            h,
            buf: [0; BLOCK],
            buf_len: 0,
            t: 0,
            out_len,
        }
    }

    fn compress(&mut self, last: bool) {
        let mut m = [0u64; 16];
        for (i, w) in m.iter_mut().enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.buf[i * 8..i * 8 + 8]);
            *w = u64::from_le_bytes(b);
        }
        let mut v = [0u64; 16];
        v[..8].copy_from_slice(&self.h);
        v[8..].copy_from_slice(&IV);
        v[12] ^= self.t as u64;
        v[13] ^= (self.t >> 64) as u64;
        if last {
            v[14] = !v[14];
        }
        for round in 0..12 {
            let s = &SIGMA[round % 10];
            mix(&mut v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
            mix(&mut v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
            mix(&mut v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
            mix(&mut v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
            mix(&mut v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
            mix(&mut v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
            mix(&mut v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
            mix(&mut v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for i in 0..8 {
            self.h[i] ^= v[i] ^ v[i + 8];
        }
    }

    /// Hash `data` next.
    pub fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            // A full buffer is compressed only once more data follows: the
            // last block must be compressed with the final flag.
            if self.buf_len == BLOCK {
                self.t += BLOCK as u128;
                self.compress(false);
                self.buf_len = 0;
            }
            let n = (BLOCK - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + n].copy_from_slice(&data[..n]);
            self.buf_len += n;
            data = &data[n..];
        }
    }

    /// The digest.
    pub fn finalize(mut self) -> Vec<u8> {
        self.t += self.buf_len as u128;
        for b in &mut self.buf[self.buf_len..] {
            *b = 0;
        }
        self.compress(true);
        let mut out: Vec<u8> = self.h.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.truncate(self.out_len);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(out_len: usize, data: &[u8]) -> String {
        let mut h = Blake2b::new(out_len);
        h.update(data);
        h.finalize().iter().map(|b| format!("{:02x}", b)).collect()
    }

    #[test]
    fn rfc_7693_and_b2sum_vectors() {
        // RFC 7693 appendix A.
        assert_eq!(
            hex(64, b"abc"),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
             7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        );
        // `printf '' | b2sum` and `echo hi | b2sum -l 256`.
        assert!(hex(64, b"").starts_with("786a02f742015903c6c6fd852552d272912f4740e15847618a86e2"));
        assert_eq!(
            hex(32, b"hi\n"),
            "de9543b2ae1b2b87434a730727db17f5ac8b8c020b84a5cb8c5fbcc1423443ba"
        );
    }

    #[test]
    fn split_updates_match_one_update() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        for cut in [0, 1, 127, 128, 129, 256, 999, 1000] {
            let mut h = Blake2b::new(64);
            h.update(&data[..cut]);
            h.update(&data[cut..]);
            assert_eq!(h.finalize(), {
                let mut g = Blake2b::new(64);
                g.update(&data);
                g.finalize()
            });
        }
    }
}
