//! Line reading for awk and sed.

use std::io::BufRead;

/// `BufRead::read_until` with a SIMD search (std's is a plain byte loop on
/// wasm32).
pub fn read_until<R: BufRead + ?Sized>(
    reader: &mut R,
    delim: u8,
    out: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let (done, used) = {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            match super::bytes::memchr(delim, buf) {
                Some(i) => {
                    out.extend_from_slice(&buf[..=i]);
                    (true, i + 1)
                }
                None => {
                    out.extend_from_slice(buf);
                    (buf.is_empty(), buf.len())
                }
            }
        };
        reader.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read_until;
    use std::io::BufReader;

    #[test]
    fn splits_like_std_across_buffer_refills() {
        let data = b"alpha\nbe\n\nlast-without-newline";
        for cap in [1, 2, 3, 7, 64] {
            let mut ours = BufReader::with_capacity(cap, &data[..]);
            let mut std_r = BufReader::with_capacity(cap, &data[..]);
            loop {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let n = read_until(&mut ours, b'\n', &mut a).unwrap();
                let m = std::io::BufRead::read_until(&mut std_r, b'\n', &mut b).unwrap();
                assert_eq!((n, &a), (m, &b), "capacity {}", cap);
                if n == 0 {
                    break;
                }
            }
        }
    }
}
