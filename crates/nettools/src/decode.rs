//! Content-Encoding decoding for `curl --compressed` (gzip, deflate),
//! chunk by chunk so a large body never sits in memory. A `br` body is
//! decoded by the gateway when the request asks (no brotli decoder is in
//! the offline crate registry; Node's zlib has one): it arrives plain.

use flate2::write::{GzDecoder, ZlibDecoder};
use std::borrow::Cow;
use std::io::Write;

pub enum Decoder {
    Identity,
    Gzip(Box<GzDecoder<Vec<u8>>>),
    Deflate(Box<ZlibDecoder<Vec<u8>>>),
}

/// The encodings we ask for with --compressed (the host's curl adds
/// `zstd`, which neither side here decodes).
pub const ACCEPT_ENCODING: &str = "deflate, gzip, br";

/// Whether a Content-Encoding is brotli alone: the gateway decoded it.
pub fn is_brotli(enc: Option<&str>) -> bool {
    enc.map_or(false, |e| e.trim().eq_ignore_ascii_case("br"))
}

impl Decoder {
    /// A decoder for a Content-Encoding value; unknown ones pass through.
    pub fn for_encoding(enc: Option<&str>) -> Decoder {
        match enc.map(|e| e.trim().to_ascii_lowercase()).as_deref() {
            Some("gzip") | Some("x-gzip") => Decoder::Gzip(Box::new(GzDecoder::new(Vec::new()))),
            Some("deflate") => Decoder::Deflate(Box::new(ZlibDecoder::new(Vec::new()))),
            _ => Decoder::Identity,
        }
    }

    /// Feed encoded bytes; returns what decoded so far. Identity hands the
    /// input back as is: a plain download copies nothing here.
    pub fn feed<'a>(&mut self, data: &'a [u8]) -> std::io::Result<Cow<'a, [u8]>> {
        match self {
            Decoder::Identity => Ok(Cow::Borrowed(data)),
            Decoder::Gzip(d) => {
                d.write_all(data)?;
                Ok(Cow::Owned(std::mem::take(d.get_mut())))
            }
            Decoder::Deflate(d) => {
                d.write_all(data)?;
                Ok(Cow::Owned(std::mem::take(d.get_mut())))
            }
        }
    }

    /// End of input: the rest, or an error if the stream was cut short.
    pub fn finish(&mut self) -> std::io::Result<Vec<u8>> {
        match self {
            Decoder::Identity => Ok(Vec::new()),
            Decoder::Gzip(d) => {
                d.try_finish()?;
                Ok(std::mem::take(d.get_mut()))
            }
            Decoder::Deflate(d) => {
                d.try_finish()?;
                Ok(std::mem::take(d.get_mut()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;

    #[test]
    fn gunzips_in_pieces() {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(&b"hello world ".repeat(1000)).unwrap();
        let gz = e.finish().unwrap();
        let mut d = Decoder::for_encoding(Some("gzip"));
        let mut out = Vec::new();
        for c in gz.chunks(7) {
            out.extend_from_slice(&d.feed(c).unwrap());
        }
        out.extend(d.finish().unwrap());
        assert_eq!(out, b"hello world ".repeat(1000));
        let mut id = Decoder::for_encoding(Some("br"));
        let data = b"x".to_vec();
        let piece = id.feed(&data).unwrap();
        assert!(matches!(piece, Cow::Borrowed(_)), "identity must not copy");
        assert_eq!(&*piece, b"x");
    }
}
