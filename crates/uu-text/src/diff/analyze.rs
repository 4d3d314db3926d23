//! The comparison engine, shaped like GNU diff's so hunks come out the
//! same: common prefix/suffix trimming, discarding of lines with no (or
//! very many) matches, Myers' linear-space middle-snake divide and conquer
//! (`compareseq`/`diag`), then sliding change runs (`shift_boundaries`).

/// Which lines of each file are changed (index = line number, 0-based).
pub struct Changes {
    /// Changed flags for the first file.
    pub a: Vec<bool>,
    /// Changed flags for the second file.
    pub b: Vec<bool>,
}

struct Ctx<'a> {
    xv: &'a [usize],
    yv: &'a [usize],
    fd: Vec<isize>,
    bd: Vec<isize>,
    off: isize,
    xchg: Vec<bool>,
    ychg: Vec<bool>,
}

impl<'a> Ctx<'a> {
    /// Middle snake of x[xoff..xlim] vs y[yoff..ylim].
    fn diag(&mut self, xoff: isize, xlim: isize, yoff: isize, ylim: isize) -> (isize, isize) {
        let o = self.off;
        let dmin = xoff - ylim;
        let dmax = xlim - yoff;
        let fmid = xoff - yoff;
        let bmid = xlim - ylim;
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        self.fd[(fmid + o) as usize] = xoff;
        self.bd[(bmid + o) as usize] = xlim;
        loop {
            if fmin > dmin {
                fmin -= 1;
                self.fd[(fmin - 1 + o) as usize] = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.fd[(fmax + 1 + o) as usize] = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let tlo = self.fd[(d - 1 + o) as usize];
                let thi = self.fd[(d + 1 + o) as usize];
                let x0 = if tlo < thi { thi } else { tlo + 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while x < xlim && y < ylim && self.xv[x as usize] == self.yv[y as usize] {
                    x += 1;
                    y += 1;
                }
                self.fd[(d + o) as usize] = x;
                if odd && bmin <= d && d <= bmax && self.bd[(d + o) as usize] <= x {
                    return (x, y);
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.bd[(bmin - 1 + o) as usize] = isize::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.bd[(bmax + 1 + o) as usize] = isize::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let tlo = self.bd[(d - 1 + o) as usize];
                let thi = self.bd[(d + 1 + o) as usize];
                let x0 = if tlo < thi { tlo } else { thi - 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while xoff < x && yoff < y && self.xv[(x - 1) as usize] == self.yv[(y - 1) as usize]
                {
                    x -= 1;
                    y -= 1;
                }
                self.bd[(d + o) as usize] = x;
                if !odd && fmin <= d && d <= fmax && x <= self.fd[(d + o) as usize] {
                    return (x, y);
                }
                d -= 2;
            }
        }
    }

    fn compareseq(&mut self, mut xoff: isize, mut xlim: isize, mut yoff: isize, mut ylim: isize) {
        // Iterative on the second half to bound recursion depth.
        loop {
            while xoff < xlim && yoff < ylim && self.xv[xoff as usize] == self.yv[yoff as usize] {
                xoff += 1;
                yoff += 1;
            }
            while xoff < xlim
                && yoff < ylim
                && self.xv[(xlim - 1) as usize] == self.yv[(ylim - 1) as usize]
            {
                xlim -= 1;
                ylim -= 1;
            }
            if xoff == xlim {
                for y in yoff..ylim {
                    self.ychg[y as usize] = true;
                }
                return;
            }
            if yoff == ylim {
                for x in xoff..xlim {
                    self.xchg[x as usize] = true;
                }
                return;
            }
            let (xm, ym) = self.diag(xoff, xlim, yoff, ylim);
            self.compareseq(xoff, xm, yoff, ym);
            xoff = xm;
            yoff = ym;
        }
    }
}

/// Mark lines to leave out of the core comparison, as GNU's
/// `discard_confusing_lines`: no match in the other file (1), or so many
/// matches (2, provisional) that they only confuse the alignment.
fn discards(eq: &[usize], other_counts: &[usize]) -> Vec<u8> {
    let end = eq.len();
    let mut many = 5usize;
    let mut tem = end / 64;
    loop {
        tem >>= 2;
        if tem == 0 {
            break;
        }
        many *= 2;
    }
    let mut d: Vec<u8> = eq
        .iter()
        .map(|&e| {
            let n = other_counts[e];
            if n == 0 {
                1
            } else if n > many {
                2
            } else {
                0
            }
        })
        .collect();
    let mut i = 0;
    while i < end {
        if d[i] == 2 {
            d[i] = 0;
        } else if d[i] != 0 {
            let mut j = i;
            let mut provisional = 0;
            while j < end {
                if d[j] == 0 {
                    break;
                }
                if d[j] == 2 {
                    provisional += 1;
                }
                j += 1;
            }
            while j > i && d[j - 1] == 2 {
                j -= 1;
                d[j] = 0;
                provisional -= 1;
            }
            let length = j - i;
            if provisional * 4 > length {
                while j > i {
                    j -= 1;
                    if d[j] == 2 {
                        d[j] = 0;
                    }
                }
            } else {
                let mut minimum = 1usize;
                let mut tem = length >> 2;
                loop {
                    tem >>= 2;
                    if tem == 0 {
                        break;
                    }
                    minimum <<= 1;
                }
                minimum += 1;
                let mut consec = 0usize;
                let mut jj: isize = 0;
                while (jj as usize) < length {
                    let k = i + jj as usize;
                    if d[k] != 2 {
                        consec = 0;
                    } else {
                        consec += 1;
                        match minimum.cmp(&consec) {
                            std::cmp::Ordering::Equal => jj -= consec as isize,
                            std::cmp::Ordering::Less => d[k] = 0,
                            std::cmp::Ordering::Greater => {}
                        }
                    }
                    jj += 1;
                }
                let mut consec = 0;
                for j in 0..length {
                    if j >= 8 && d[i + j] == 1 {
                        break;
                    }
                    if d[i + j] == 2 {
                        consec = 0;
                        d[i + j] = 0;
                    } else if d[i + j] == 0 {
                        consec = 0;
                    } else {
                        consec += 1;
                    }
                    if consec == 3 {
                        break;
                    }
                }
                i += length - 1;
                let mut consec = 0;
                for j in 0..length {
                    if j >= 8 && d[i - j] == 1 {
                        break;
                    }
                    if d[i - j] == 2 {
                        consec = 0;
                        d[i - j] = 0;
                    } else if d[i - j] == 0 {
                        consec = 0;
                    } else {
                        consec += 1;
                    }
                    if consec == 3 {
                        break;
                    }
                }
            }
        }
        i += 1;
    }
    d
}

/// Slide runs of changes as GNU's `shift_boundaries` does, so they merge
/// with neighbours and end at the last possible line.
fn shift_boundaries(changed: &mut [bool], other: &[bool], equivs: &[usize]) {
    // Sentinels: index 0 and len+1 are unchanged.
    let n = changed.len();
    let mut ch = vec![false; n + 2];
    ch[1..=n].copy_from_slice(changed);
    let mut oc = vec![false; other.len() + 2];
    oc[1..=other.len()].copy_from_slice(other);
    let eq = |i: usize| equivs[i - 1];
    let i_end = n + 1;
    let mut i = 1;
    let mut j = 1;
    loop {
        while i < i_end && !ch[i] {
            while oc[j] {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == i_end {
            break;
        }
        let mut start = i;
        i += 1;
        while ch[i] {
            i += 1;
        }
        while oc[j] {
            j += 1;
        }
        let mut corresponding;
        loop {
            let runlength = i - start;
            while start > 1 && eq(start - 1) == eq(i - 1) {
                start -= 1;
                ch[start] = true;
                i -= 1;
                ch[i] = false;
                while ch[start - 1] {
                    start -= 1;
                }
                j -= 1;
                while oc[j] {
                    j -= 1;
                }
            }
            corresponding = if oc[j - 1] { i } else { i_end };
            while i != i_end && eq(start) == eq(i) {
                ch[start] = false;
                start += 1;
                ch[i] = true;
                i += 1;
                while ch[i] {
                    i += 1;
                }
                j += 1;
                while oc[j] {
                    j += 1;
                    corresponding = i;
                }
            }
            if runlength == i - start {
                break;
            }
        }
        while corresponding < i {
            start -= 1;
            ch[start] = true;
            i -= 1;
            ch[i] = false;
            j -= 1;
            while oc[j] {
                j -= 1;
            }
        }
    }
    changed.copy_from_slice(&ch[1..=n]);
}

/// Compare two sequences of equivalence-class ids.
pub fn analyze(a: &[usize], b: &[usize], nclasses: usize, horizon: usize) -> Changes {
    let (n, m) = (a.len(), b.len());
    // Common prefix and suffix never change.
    let mut pre = 0;
    while pre < n && pre < m && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf] {
        suf += 1;
    }
    let am = &a[pre..n - suf];
    let bm = &b[pre..m - suf];
    let mut ca = vec![0usize; nclasses];
    let mut cb = vec![0usize; nclasses];
    for &e in am {
        ca[e] += 1;
    }
    for &e in bm {
        cb[e] += 1;
    }
    let da = discards(am, &cb);
    let db = discards(bm, &ca);
    let mut achg = vec![false; n];
    let mut bchg = vec![false; m];
    let xs: Vec<usize> = (0..am.len()).filter(|&i| da[i] == 0).collect();
    let ys: Vec<usize> = (0..bm.len()).filter(|&i| db[i] == 0).collect();
    for (i, &d) in da.iter().enumerate() {
        if d != 0 {
            achg[pre + i] = true;
        }
    }
    for (i, &d) in db.iter().enumerate() {
        if d != 0 {
            bchg[pre + i] = true;
        }
    }
    let xv: Vec<usize> = xs.iter().map(|&i| am[i]).collect();
    let yv: Vec<usize> = ys.iter().map(|&i| bm[i]).collect();
    let size = xv.len() + yv.len() + 3;
    let mut ctx = Ctx {
        xv: &xv,
        yv: &yv,
        fd: vec![0; 2 * size + 2],
        bd: vec![0; 2 * size + 2],
        off: yv.len() as isize + 1,
        xchg: vec![false; xv.len()],
        ychg: vec![false; yv.len()],
    };
    ctx.compareseq(0, xv.len() as isize, 0, yv.len() as isize);
    for (k, &c) in ctx.xchg.iter().enumerate() {
        if c {
            achg[pre + xs[k]] = true;
        }
    }
    for (k, &c) in ctx.ychg.iter().enumerate() {
        if c {
            bchg[pre + ys[k]] = true;
        }
    }
    // The identical prefix and suffix are outside GNU's working range, so
    // runs never slide into them.
    // (GNU keeps `horizon` lines of each, the context size, in range.)
    let hp = pre.min(horizon);
    let hs = suf.min(horizon);
    let (s0, ae, be) = (pre - hp, n - suf + hs, m - suf + hs);
    {
        let (x, y) = (&mut achg[s0..ae], &bchg[s0..be]);
        shift_boundaries(x, y, &a[s0..ae]);
    }
    {
        let (y, x) = (&achg[s0..ae], &mut bchg[s0..be]);
        shift_boundaries(x, y, &b[s0..be]);
    }
    Changes { a: achg, b: bchg }
}

/// A hunk: `a[a0..a1]` replaced by `b[b0..b1]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hunk {
    /// Start in the first file.
    pub a0: usize,
    /// End in the first file (exclusive).
    pub a1: usize,
    /// Start in the second file.
    pub b0: usize,
    /// End in the second file (exclusive).
    pub b1: usize,
}

/// Runs of changes as hunks, in order.
pub fn hunks(c: &Changes) -> Vec<Hunk> {
    let (n, m) = (c.a.len(), c.b.len());
    let mut v = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && !c.a[i] && !c.b[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (a0, b0) = (i, j);
        while i < n && c.a[i] {
            i += 1;
        }
        while j < m && c.b[j] {
            j += 1;
        }
        if a0 == i && b0 == j {
            // Unbalanced tail (should not happen); step to avoid looping.
            i += usize::from(i < n);
            j += usize::from(j < m);
            continue;
        }
        v.push(Hunk {
            a0,
            a1: i,
            b0,
            b1: j,
        });
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> Vec<Hunk> {
        let mut ids = std::collections::HashMap::new();
        let mut id = |c: char| {
            let n = ids.len();
            *ids.entry(c).or_insert(n)
        };
        let av: Vec<usize> = a.chars().map(&mut id).collect();
        let bv: Vec<usize> = b.chars().map(&mut id).collect();
        hunks(&analyze(&av, &bv, ids.len(), 0))
    }

    #[test]
    fn simple_edits() {
        assert_eq!(run("abc", "abc"), vec![]);
        assert_eq!(
            run("abc", "abxc"),
            vec![Hunk {
                a0: 2,
                a1: 2,
                b0: 2,
                b1: 3
            }]
        );
        assert_eq!(
            run("abc", "ac"),
            vec![Hunk {
                a0: 1,
                a1: 2,
                b0: 1,
                b1: 1
            }]
        );
        assert_eq!(
            run("abc", "axc"),
            vec![Hunk {
                a0: 1,
                a1: 2,
                b0: 1,
                b1: 2
            }]
        );
        assert_eq!(
            run("", "ab"),
            vec![Hunk {
                a0: 0,
                a1: 0,
                b0: 0,
                b1: 2
            }]
        );
    }

    #[test]
    fn runs_slide_to_the_end() {
        // Deleting one of two equal lines reports the later one, as GNU.
        assert_eq!(
            run("aab", "ab"),
            vec![Hunk {
                a0: 1,
                a1: 2,
                b0: 1,
                b1: 1
            }]
        );
    }
}
