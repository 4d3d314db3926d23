//! The base64 alphabet of RFC 4648, shared by `base64` and jq's
//! `@base64`/`@base64d` (each decodes with its own leniency).

const ALPHA: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encode `data` as base64 with `=` padding and no line breaks.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut o = Vec::with_capacity(data.len() / 3 * 4 + 4);
    for ch in data.chunks(3) {
        let b = [ch[0], *ch.get(1).unwrap_or(&0), *ch.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        o.push(ALPHA[(n >> 18) as usize & 63]);
        o.push(ALPHA[(n >> 12) as usize & 63]);
        o.push(if ch.len() > 1 {
            ALPHA[(n >> 6) as usize & 63]
        } else {
            b'='
        });
        o.push(if ch.len() > 2 {
            ALPHA[n as usize & 63]
        } else {
            b'='
        });
    }
    o
}

/// The 6-bit value of an alphabet byte (`None` for `=` and anything else).
pub fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_with_padding_and_values_round_trip() {
        assert_eq!(encode(b""), b"");
        assert_eq!(encode(b"f"), b"Zg==");
        assert_eq!(encode(b"fo"), b"Zm8=");
        assert_eq!(encode(b"foobar"), b"Zm9vYmFy");
        for (i, &c) in ALPHA.iter().enumerate() {
            assert_eq!(value(c), Some(i as u32));
        }
        assert_eq!(value(b'='), None);
    }
}
