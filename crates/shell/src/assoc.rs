//! Associative arrays stored as bash stores them: a hash table of FNV-1
//! hashed keys, new keys put at the head of their bucket, the table growing
//! fourfold past two entries per bucket. Listing walks the buckets in order,
//! so `${!m[@]}` and `declare -p` list keys in the order bash does.

use crate::ast::Bytes;

/// bash's ASSOC_HASH_BUCKETS.
const INITIAL_BUCKETS: usize = 1024;

fn fnv1(key: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &c in key {
        h = h.wrapping_mul(16_777_619);
        h ^= c as u32;
    }
    h
}

#[derive(Clone, Debug, Default)]
pub struct AssocMap {
    /// Empty until the first insert (most arrays are small; the table is not).
    buckets: Vec<Vec<(Bytes, Bytes)>>,
    len: usize,
}

impl AssocMap {
    pub fn new() -> AssocMap {
        AssocMap::default()
    }
    fn slot(&self, key: &[u8]) -> usize {
        fnv1(key) as usize & (self.buckets.len() - 1)
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn get(&self, key: &[u8]) -> Option<&Bytes> {
        if self.buckets.is_empty() {
            return None;
        }
        self.buckets[self.slot(key)]
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
    pub fn contains_key(&self, key: &[u8]) -> bool {
        self.get(key).is_some()
    }
    pub fn insert(&mut self, key: Bytes, val: Bytes) {
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); INITIAL_BUCKETS];
        }
        let s = self.slot(&key);
        if let Some(e) = self.buckets[s].iter_mut().find(|(k, _)| *k == key) {
            e.1 = val;
            return;
        }
        if self.len >= self.buckets.len() * 2 {
            self.grow();
        }
        let s = self.slot(&key);
        self.buckets[s].insert(0, (key, val));
        self.len += 1;
    }
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.buckets);
        self.buckets = vec![Vec::new(); old.len() * 4];
        for bucket in old {
            for (k, v) in bucket {
                let s = self.slot(&k);
                self.buckets[s].insert(0, (k, v));
            }
        }
    }
    pub fn remove(&mut self, key: &[u8]) -> Option<Bytes> {
        if self.buckets.is_empty() {
            return None;
        }
        let s = self.slot(key);
        let at = self.buckets[s].iter().position(|(k, _)| k == key)?;
        self.len -= 1;
        Some(self.buckets[s].remove(at).1)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Bytes, &Bytes)> {
        self.buckets.iter().flatten().map(|(k, v)| (k, v))
    }
    pub fn keys(&self) -> impl Iterator<Item = &Bytes> {
        self.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl Iterator<Item = &Bytes> {
        self.iter().map(|(_, v)| v)
    }
}

impl<'a> IntoIterator for &'a AssocMap {
    type Item = (&'a Bytes, &'a Bytes);
    type IntoIter = Box<dyn Iterator<Item = (&'a Bytes, &'a Bytes)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(m: &AssocMap) -> Vec<String> {
        m.keys()
            .map(|k| String::from_utf8_lossy(k).into_owned())
            .collect()
    }

    #[test]
    fn lists_keys_in_bashs_bucket_order() {
        let mut m = AssocMap::new();
        for k in ["z", "a", "m"] {
            m.insert(k.into(), b"1".to_vec());
        }
        assert_eq!(keys(&m), ["z", "m", "a"]);
        m.insert(b"a".to_vec(), b"2".to_vec());
        assert_eq!(m.len(), 3);
        assert_eq!(m.remove(b"m"), Some(b"1".to_vec()));
        assert_eq!(keys(&m), ["z", "a"]);
    }

    #[test]
    fn grows_past_two_entries_per_bucket() {
        let mut m = AssocMap::new();
        for i in 0..3000 {
            m.insert(i.to_string().into_bytes(), Vec::new());
        }
        assert_eq!(m.len(), 3000);
        assert_eq!(m.buckets.len(), 4096);
        assert!(m.contains_key(b"2999"));
    }
}
