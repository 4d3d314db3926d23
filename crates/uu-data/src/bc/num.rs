//! Arbitrary-precision decimal numbers for bc: a magnitude held in base 10^9
//! limbs plus a decimal scale, with GNU bc's scale rules for each operation
//! (results are truncated, never rounded).

use std::cmp::Ordering;
use std::fmt::Write as _;

const BASE: u64 = 1_000_000_000;
const POW10: [u32; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// An unsigned integer, little-endian base 10^9 limbs without high zero limbs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Mag(Vec<u32>);

impl Mag {
    pub fn zero() -> Mag {
        Mag(Vec::new())
    }

    pub fn from_u64(mut v: u64) -> Mag {
        let mut l = Vec::new();
        while v > 0 {
            l.push((v % BASE) as u32);
            v /= BASE;
        }
        Mag(l)
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn trim(mut self) -> Mag {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    pub fn cmp_mag(&self, o: &Mag) -> Ordering {
        if self.0.len() != o.0.len() {
            return self.0.len().cmp(&o.0.len());
        }
        for i in (0..self.0.len()).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => {}
                x => return x,
            }
        }
        Ordering::Equal
    }

    pub fn add(&self, o: &Mag) -> Mag {
        let n = self.0.len().max(o.0.len());
        let mut r = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = *self.0.get(i).unwrap_or(&0) as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            r.push((s % BASE) as u32);
            carry = s / BASE;
        }
        if carry > 0 {
            r.push(carry as u32);
        }
        Mag(r).trim()
    }

    /// `self - o`; the caller guarantees `self >= o`.
    pub fn sub(&self, o: &Mag) -> Mag {
        let mut r = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut d = self.0[i] as i64 - *o.0.get(i).unwrap_or(&0) as i64 - borrow;
            if d < 0 {
                d += BASE as i64;
                borrow = 1;
            } else {
                borrow = 0;
            }
            r.push(d as u32);
        }
        Mag(r).trim()
    }

    pub fn mul(&self, o: &Mag) -> Mag {
        if self.is_zero() || o.is_zero() {
            return Mag::zero();
        }
        let mut r = vec![0u64; self.0.len() + o.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let t = r[i + j] + a as u64 * b as u64 + carry;
                r[i + j] = t % BASE;
                carry = t / BASE;
            }
            let mut k = i + o.0.len();
            while carry > 0 {
                let t = r[k] + carry;
                r[k] = t % BASE;
                carry = t / BASE;
                k += 1;
            }
        }
        Mag(r.into_iter().map(|x| x as u32).collect()).trim()
    }

    pub fn mul_small(&self, m: u32) -> Mag {
        let mut r = Vec::with_capacity(self.0.len() + 2);
        let mut carry = 0u64;
        for &a in &self.0 {
            let t = a as u64 * m as u64 + carry;
            r.push((t % BASE) as u32);
            carry = t / BASE;
        }
        while carry > 0 {
            r.push((carry % BASE) as u32);
            carry /= BASE;
        }
        Mag(r).trim()
    }

    pub fn divmod_small(&self, d: u32) -> (Mag, u32) {
        let mut q = vec![0u32; self.0.len()];
        let mut rem = 0u64;
        for i in (0..self.0.len()).rev() {
            let cur = rem * BASE + self.0[i] as u64;
            q[i] = (cur / d as u64) as u32;
            rem = cur % d as u64;
        }
        (Mag(q).trim(), rem as u32)
    }

    /// Quotient and remainder (Knuth's algorithm D in base 10^9); `o` is non-zero.
    pub fn divmod(&self, o: &Mag) -> (Mag, Mag) {
        if self.cmp_mag(o) == Ordering::Less {
            return (Mag::zero(), self.clone());
        }
        if o.0.len() == 1 {
            let (q, r) = self.divmod_small(o.0[0]);
            return (q, Mag::from_u64(r as u64));
        }
        let n = o.0.len();
        let m = self.0.len() - n;
        let d = (BASE / (o.0[n - 1] as u64 + 1)) as u32;
        let v = o.mul_small(d).0;
        let mut u = self.mul_small(d).0;
        u.resize(self.0.len() + 1, 0);
        let mut q = vec![0u32; m + 1];
        let b = BASE as i64;
        for j in (0..=m).rev() {
            let num = u[j + n] as u64 * BASE + u[j + n - 1] as u64;
            let mut qhat = num / v[n - 1] as u64;
            let mut rhat = num % v[n - 1] as u64;
            while qhat >= BASE || qhat * v[n - 2] as u64 > rhat * BASE + u[j + n - 2] as u64 {
                qhat -= 1;
                rhat += v[n - 1] as u64;
                if rhat >= BASE {
                    break;
                }
            }
            // Multiply and subtract qhat * v from u[j..j+n+1].
            let mut borrow = 0i64;
            let mut carry = 0u64;
            for i in 0..n {
                let p = qhat * v[i] as u64 + carry;
                carry = p / BASE;
                let mut t = u[i + j] as i64 - (p % BASE) as i64 - borrow;
                borrow = 0;
                if t < 0 {
                    t += b;
                    borrow = 1;
                }
                u[i + j] = t as u32;
            }
            let mut t = u[j + n] as i64 - carry as i64 - borrow;
            if t < 0 {
                // qhat was one too large: add v back.
                t += b;
                u[j + n] = t as u32;
                qhat -= 1;
                let mut c = 0u64;
                for i in 0..n {
                    let s = u[i + j] as u64 + v[i] as u64 + c;
                    u[i + j] = (s % BASE) as u32;
                    c = s / BASE;
                }
                u[j + n] = ((u[j + n] as u64 + c) % BASE) as u32;
            } else {
                u[j + n] = t as u32;
            }
            q[j] = qhat as u32;
        }
        u.truncate(n);
        let (r, _) = Mag(u).trim().divmod_small(d);
        (Mag(q).trim(), r)
    }

    pub fn pow10(n: usize) -> Mag {
        Mag::from_u64(1).mul_pow10(n)
    }

    pub fn mul_pow10(&self, n: usize) -> Mag {
        if self.is_zero() {
            return Mag::zero();
        }
        let mut l = vec![0u32; n / 9];
        l.extend_from_slice(&self.0);
        Mag(l).mul_small(POW10[n % 9])
    }

    /// Truncating division by 10^n.
    pub fn div_pow10(&self, n: usize) -> Mag {
        let limbs = n / 9;
        if limbs >= self.0.len() {
            return Mag::zero();
        }
        Mag(self.0[limbs..].to_vec()).divmod_small(POW10[n % 9]).0
    }

    pub fn to_dec(&self) -> String {
        match self.0.last() {
            None => "0".to_string(),
            Some(top) => {
                let mut s = top.to_string();
                for l in self.0.iter().rev().skip(1) {
                    let _ = write!(s, "{:09}", l);
                }
                s
            }
        }
    }

    /// Number of decimal digits (0 for zero).
    pub fn digits(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() - 1) * 9 + top.to_string().len(),
        }
    }

    pub fn to_u64(&self) -> Option<u64> {
        let mut v: u64 = 0;
        for &l in self.0.iter().rev() {
            v = v.checked_mul(BASE)?.checked_add(l as u64)?;
        }
        Some(v)
    }

    /// Integer square root (floor), by Newton's iteration from above.
    pub fn isqrt(&self) -> Mag {
        if self.is_zero() {
            return Mag::zero();
        }
        let mut x = Mag::pow10((self.digits() + 1) / 2);
        loop {
            let (q, _) = self.divmod(&x);
            let (y, _) = x.add(&q).divmod_small(2);
            if y.cmp_mag(&x) != Ordering::Less {
                return x;
            }
            x = y;
        }
    }
}

/// A bc number: sign, magnitude and the count of decimal digits after the point.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Num {
    neg: bool,
    mag: Mag,
    scale: usize,
}

/// Why an arithmetic operation failed (the message is GNU bc's).
#[derive(Debug, PartialEq, Eq)]
pub enum NumError {
    DivideByZero,
    ModuloByZero,
    PowDivideByZero,
    NegativeSqrt,
    ExponentTooLarge,
}

impl NumError {
    pub fn message(&self) -> &'static str {
        match self {
            NumError::DivideByZero => "Divide by zero",
            NumError::ModuloByZero => "Modulo by zero",
            NumError::PowDivideByZero => "divide by zero",
            NumError::NegativeSqrt => "Square root of a negative number",
            NumError::ExponentTooLarge => "exponent too large in raise",
        }
    }
}

/// Largest result (in digits) a `^` may build; GNU would try and exhaust memory.
const MAX_POW_DIGITS: u64 = 20_000_000;

impl Num {
    pub fn zero() -> Num {
        Num::default()
    }

    pub fn from_i64(v: i64) -> Num {
        Num {
            neg: v < 0,
            mag: Mag::from_u64(v.unsigned_abs()),
            scale: 0,
        }
    }

    fn make(neg: bool, mag: Mag, scale: usize) -> Num {
        Num {
            neg: neg && !mag.is_zero(),
            mag,
            scale,
        }
    }

    pub fn scale(&self) -> usize {
        self.scale
    }

    pub fn is_zero(&self) -> bool {
        self.mag.is_zero()
    }

    pub fn is_neg(&self) -> bool {
        self.neg
    }

    /// Parses a bc constant written in `ibase`. A single digit means itself
    /// whatever the base, as in GNU bc.
    pub fn parse(text: &str, ibase: u32) -> Num {
        let digit = |c: u8| -> u32 {
            if c.is_ascii_digit() {
                (c - b'0') as u32
            } else {
                (c - b'A') as u32 + 10
            }
        };
        let bytes = text.as_bytes();
        if bytes.len() == 1 && bytes[0] != b'.' {
            return Num::from_i64(digit(bytes[0]) as i64);
        }
        let (int, frac) = match text.find('.') {
            Some(p) => (&bytes[..p], &bytes[p + 1..]),
            None => (bytes, &bytes[..0]),
        };
        if ibase == 10 && bytes.iter().all(|c| c.is_ascii_digit() || *c == b'.') {
            let mut all = String::with_capacity(bytes.len());
            all.push_str(std::str::from_utf8(int).unwrap_or("0"));
            all.push_str(std::str::from_utf8(frac).unwrap_or(""));
            return Num::make(false, dec_to_mag(&all), frac.len());
        }
        let mut acc = Mag::zero();
        for &c in int {
            acc = acc.mul_small(ibase).add(&Mag::from_u64(digit(c) as u64));
        }
        if frac.is_empty() {
            return Num::make(false, acc, 0);
        }
        let mut f = Mag::zero();
        let mut mult = Mag::from_u64(1);
        for &c in frac {
            f = f.mul_small(ibase).add(&Mag::from_u64(digit(c) as u64));
            mult = mult.mul_small(ibase);
        }
        let k = frac.len();
        let (fq, _) = f.mul_pow10(k).divmod(&mult);
        Num::make(false, acc.mul_pow10(k).add(&fq), k)
    }

    /// The magnitude at a larger scale (digits appended).
    fn mag_at(&self, scale: usize) -> Mag {
        self.mag.mul_pow10(scale - self.scale)
    }

    /// The same value shown with `scale` digits (truncating or padding).
    pub fn with_scale(&self, scale: usize) -> Num {
        if scale >= self.scale {
            Num::make(self.neg, self.mag_at(scale), scale)
        } else {
            Num::make(self.neg, self.mag.div_pow10(self.scale - scale), scale)
        }
    }

    pub fn neg(&self) -> Num {
        Num::make(!self.neg, self.mag.clone(), self.scale)
    }

    pub fn cmp_num(&self, o: &Num) -> Ordering {
        match (self.neg, o.neg) {
            (false, true) => return Ordering::Greater,
            (true, false) => return Ordering::Less,
            _ => {}
        }
        let s = self.scale.max(o.scale);
        let c = self.mag_at(s).cmp_mag(&o.mag_at(s));
        if self.neg {
            c.reverse()
        } else {
            c
        }
    }

    fn add_signed(&self, o: &Num, negate_o: bool, min_scale: usize) -> Num {
        let s = self.scale.max(o.scale).max(min_scale);
        let (a, b) = (self.mag_at(s), o.mag_at(s));
        let bneg = o.neg != negate_o;
        if self.neg == bneg {
            return Num::make(self.neg, a.add(&b), s);
        }
        match a.cmp_mag(&b) {
            Ordering::Less => Num::make(bneg, b.sub(&a), s),
            _ => Num::make(self.neg, a.sub(&b), s),
        }
    }

    pub fn add(&self, o: &Num) -> Num {
        self.add_signed(o, false, 0)
    }

    pub fn sub(&self, o: &Num) -> Num {
        self.add_signed(o, true, 0)
    }

    /// Product kept to min(sa+sb, max(scale, sa, sb)) digits.
    pub fn mul(&self, o: &Num, scale: usize) -> Num {
        let full = self.scale + o.scale;
        let rscale = full.min(scale.max(self.scale).max(o.scale));
        let p = self.mag.mul(&o.mag);
        Num::make(self.neg != o.neg, p.div_pow10(full - rscale), rscale)
    }

    pub fn div(&self, o: &Num, scale: usize) -> Result<Num, NumError> {
        if o.is_zero() {
            return Err(NumError::DivideByZero);
        }
        let e = scale as i64 + o.scale as i64 - self.scale as i64;
        let q = if e >= 0 {
            self.mag.mul_pow10(e as usize).divmod(&o.mag).0
        } else {
            self.mag.divmod(&o.mag.mul_pow10((-e) as usize)).0
        };
        Ok(Num::make(self.neg != o.neg, q, scale))
    }

    pub fn rem(&self, o: &Num, scale: usize) -> Result<Num, NumError> {
        if o.is_zero() {
            return Err(NumError::ModuloByZero);
        }
        let rscale = self.scale.max(o.scale + scale);
        let t = self.div(o, scale)?;
        let p = t.mul(o, rscale);
        Ok(self.add_signed(&p, true, rscale))
    }

    /// `self ^ e`; `e` must already be an integer (the caller warns).
    pub fn pow(&self, e: &Num, scale: usize) -> Result<Num, NumError> {
        let ei = e.with_scale(0);
        let exp = match ei.mag.to_u64() {
            Some(v) if v <= i64::MAX as u64 => v,
            _ => return Err(NumError::ExponentTooLarge),
        };
        if exp == 0 {
            return Ok(Num::from_i64(1));
        }
        let digits = (self.mag.digits() as u64).max(1);
        if !self.is_zero()
            && self.mag != Mag::from_u64(1)
            && digits.saturating_mul(exp) > MAX_POW_DIGITS
        {
            return Err(NumError::ExponentTooLarge);
        }
        // Exact power by squaring.
        let mut result = Mag::from_u64(1);
        let mut base = self.mag.clone();
        let mut k = exp;
        while k > 0 {
            if k & 1 == 1 {
                result = result.mul(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base);
            }
        }
        let full_scale = (self.scale as u64 * exp) as usize;
        let exact = Num::make(self.neg && exp & 1 == 1, result, full_scale);
        if ei.neg {
            if exact.is_zero() {
                return Err(NumError::PowDivideByZero);
            }
            return Num::from_i64(1).div(&exact, scale);
        }
        let rscale = full_scale.min(scale.max(self.scale));
        Ok(exact.with_scale(rscale))
    }

    pub fn sqrt(&self, scale: usize) -> Result<Num, NumError> {
        if self.neg {
            return Err(NumError::NegativeSqrt);
        }
        let rscale = scale.max(self.scale);
        let m = self.mag.mul_pow10(2 * rscale - self.scale);
        Ok(Num::make(false, m.isqrt(), rscale))
    }

    /// GNU's length(): significant digits.
    pub fn length(&self) -> usize {
        let int = self.mag.div_pow10(self.scale);
        if int.is_zero() {
            self.scale.max(1)
        } else {
            int.digits() + self.scale
        }
    }

    /// Truncated integer value, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        let v = self.mag.div_pow10(self.scale).to_u64()?;
        if v > i64::MAX as u64 {
            return None;
        }
        Some(if self.neg { -(v as i64) } else { v as i64 })
    }

    /// The text bc prints for this number in `obase` (no line wrapping).
    pub fn to_base_string(&self, obase: u64) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        if obase == 10 {
            let d = self.mag.to_dec();
            let d = if d.len() <= self.scale {
                format!("{}{}", "0".repeat(self.scale - d.len() + 1), d)
            } else {
                d
            };
            let (int, frac) = d.split_at(d.len() - self.scale);
            if int != "0" {
                out.push_str(int);
            }
            if self.scale > 0 {
                out.push('.');
                out.push_str(frac);
            }
            return out;
        }
        let wide = obase > 16;
        let width = (obase - 1).to_string().len();
        let put = |out: &mut String, d: u64, space: bool| {
            if wide {
                if space {
                    out.push(' ');
                }
                let _ = write!(out, "{:0w$}", d, w = width);
            } else {
                out.push(char::from(b"0123456789ABCDEF"[d as usize]));
            }
        };
        let int = self.mag.div_pow10(self.scale);
        let mut digits = Vec::new();
        let mut rest = int;
        while !rest.is_zero() {
            let (q, r) = divmod_u64(&rest, obase);
            digits.push(r);
            rest = q;
        }
        for &d in digits.iter().rev() {
            put(&mut out, d, true);
        }
        if self.scale > 0 {
            out.push('.');
            let one = Mag::pow10(self.scale);
            let mut frac = self
                .mag
                .sub(&self.mag.div_pow10(self.scale).mul_pow10(self.scale));
            let mut t = Mag::from_u64(1);
            let mut first = true;
            while t.digits() <= self.scale {
                let p = mul_u64(&frac, obase);
                let (d, r) = p.divmod(&one);
                put(&mut out, d.to_u64().unwrap_or(0), !first);
                first = false;
                frac = r;
                t = mul_u64(&t, obase);
            }
        }
        out
    }
}

fn divmod_u64(m: &Mag, d: u64) -> (Mag, u64) {
    if d < u32::MAX as u64 {
        let (q, r) = m.divmod_small(d as u32);
        (q, r as u64)
    } else {
        let (q, r) = m.divmod(&Mag::from_u64(d));
        (q, r.to_u64().unwrap_or(0))
    }
}

fn mul_u64(m: &Mag, v: u64) -> Mag {
    if v < u32::MAX as u64 {
        m.mul_small(v as u32)
    } else {
        m.mul(&Mag::from_u64(v))
    }
}

fn dec_to_mag(digits: &str) -> Mag {
    let b = digits.as_bytes();
    let mut limbs = Vec::with_capacity(b.len() / 9 + 1);
    let mut end = b.len();
    while end > 0 {
        let start = end.saturating_sub(9);
        let mut v = 0u32;
        for &c in &b[start..end] {
            v = v * 10 + (c - b'0') as u32;
        }
        limbs.push(v);
        end = start;
    }
    Mag(limbs).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Num {
        if let Some(r) = s.strip_prefix('-') {
            Num::parse(r, 10).neg()
        } else {
            Num::parse(s, 10)
        }
    }
    fn show(x: &Num) -> String {
        x.to_base_string(10)
    }

    #[test]
    fn parse_and_print() {
        assert_eq!(show(&n("1.50")), "1.50");
        assert_eq!(show(&n("0.5")), ".5");
        assert_eq!(show(&n("-0.5")), "-.5");
        assert_eq!(show(&n("0.00")), "0");
        assert_eq!(
            show(&n("123456789012345678901234567890")),
            "123456789012345678901234567890"
        );
        assert_eq!(show(&Num::parse("FF", 16)), "255");
        assert_eq!(show(&Num::parse("A", 10)), "10");
        assert_eq!(show(&Num::parse("1F.8", 16)), "31.5");
    }

    #[test]
    fn arithmetic_scales() {
        assert_eq!(show(&n("1.5").add(&n("2.25"))), "3.75");
        assert_eq!(show(&n("1").sub(&n("1.00"))), "0");
        assert_eq!(show(&n("1.5").mul(&n("1.5"), 0)), "2.2");
        assert_eq!(show(&n("1.5").mul(&n("1.5"), 5)), "2.25");
        assert_eq!(show(&n("1").div(&n("3"), 5).unwrap()), ".33333");
        assert_eq!(show(&n("-7").div(&n("2"), 0).unwrap()), "-3");
        assert_eq!(show(&n("7").rem(&n("3"), 3).unwrap()), ".001");
        assert_eq!(show(&n("-7").rem(&n("3"), 0).unwrap()), "-1");
        assert_eq!(n("1").div(&n("0"), 0), Err(NumError::DivideByZero));
    }

    #[test]
    fn big_division_matches_multiplication() {
        let a = n("987654321987654321987654321987654321");
        let b = n("123456789123456789123");
        let (q, r) = a.mag.divmod(&b.mag);
        assert_eq!(q.mul(&b.mag).add(&r), a.mag);
        assert_eq!(r.cmp_mag(&b.mag), Ordering::Less);
    }

    #[test]
    fn powers_and_roots() {
        assert_eq!(
            show(&n("2").pow(&n("100"), 0).unwrap()),
            "1267650600228229401496703205376"
        );
        assert_eq!(show(&n("2.5").pow(&n("3"), 0).unwrap()), "15.6");
        assert_eq!(show(&n("2.5").pow(&n("3"), 20).unwrap()), "15.625");
        assert_eq!(show(&n("1.1").pow(&n("10"), 4).unwrap()), "2.5937");
        assert_eq!(show(&n("10").pow(&n("-2"), 4).unwrap()), ".0100");
        assert_eq!(show(&n("-2").pow(&n("3"), 0).unwrap()), "-8");
        assert_eq!(show(&n("2").sqrt(5).unwrap()), "1.41421");
        assert_eq!(show(&n("16.00").sqrt(0).unwrap()), "4.00");
        assert_eq!(n("-1").sqrt(0), Err(NumError::NegativeSqrt));
    }

    #[test]
    fn other_bases() {
        assert_eq!(n("255").to_base_string(16), "FF");
        assert_eq!(n("3.75").to_base_string(16), "3.C0");
        assert_eq!(n("5.5").to_base_string(2), "101.1000");
        assert_eq!(n("123456.789").to_base_string(100), " 12 34 56.78 90");
        assert_eq!(n("20").to_base_string(17), " 01 03");
        assert_eq!(n("-0.25").to_base_string(16), "-.40");
    }

    #[test]
    fn lengths() {
        assert_eq!(n("0.005").length(), 3);
        assert_eq!(n("0").length(), 1);
        assert_eq!(n("123.45").length(), 5);
        assert_eq!(n("-0.10").length(), 2);
    }
}
