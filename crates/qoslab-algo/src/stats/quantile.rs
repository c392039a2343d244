//! A log-linear ("HDR-style") histogram of non-negative integers (nanoseconds) that answers
//! quantile queries within a stated relative error, in bounded memory, without allocating
//! once it has its buckets.
//!
//! # Buckets
//! With `S = 2^SUB_BITS` sub-buckets per octave (here `S = 64`):
//! - values `v < 2S` have a bucket of their own (index `v`, exact);
//! - a value `v ≥ 2S` with `e = ⌊log2 v⌋` is shifted right by `s = e − SUB_BITS`, which
//!   leaves its top `SUB_BITS + 1` bits `m = v >> s ∈ [S, 2S)`; its index is `s·S + m`.
//!
//! Consecutive indices cover consecutive value ranges: bucket `s·S + m` holds
//! `[m·2^s, (m+1)·2^s)`, so its width `2^s` is at most `1/S` of its lower bound `m·2^s`.
//!
//! # Error bound (what is tested)
//! A quantile is reported as the integer midpoint of its bucket, `lo + (w − 1)/2` for the
//! bucket `[lo, lo + w)`, clamped to the exact `[min, max]` seen. The exact quantile `x`
//! lies in that bucket, so `|reported − x| ≤ (w − 1)/2 < w/2 ≤ lo/(2S) ≤ x/(2S)`:
//! **the relative error is below `1/(2S) = 1/128 ≈ 0.78 %`**, and zero for values below
//! `2S = 128` and whenever every sample in the bucket is the minimum or the maximum.
//! `min`, `max`, `count` and the mean (`sum / count`, the sum kept exactly in u128) are exact.
//!
//! The quantile `q` is the nearest-rank one: the smallest sample `x` with at least
//! `⌈q·n⌉` samples `≤ x` (at least rank 1), as `QueueLengthStats` uses for queue lengths.
//!
//! # Memory and allocation
//! Zeros are counted apart (a queue's sojourn is mostly zero) and need no bucket. The
//! buckets cover `[0, bound]` where `bound` is given at construction (the run's length: no
//! delay measured in a run can exceed it); larger values are clamped into the last bucket
//! (their `max` stays exact, and the top rank, `q = 1`, is reported as that exact maximum;
//! other quantiles that fall in the clamped bucket are outside the bound). Only a window of
//! them is held (session 15): allocated on the first positive sample as the two octaves
//! around it (128 buckets, 512 bytes), and widened (at least doubled) when a sample falls
//! outside it, so [`LogHistogram::record`] allocates a few times per histogram at most; a
//! bucket outside the window holds no sample, so every figure is what the whole array gave.
//! A histogram that only ever saw zeros holds no buckets at all. At most
//! `4·(S·(⌊log2 bound⌋ − SUB_BITS + 2))` bytes, 7.5 KiB for a 20 s run; u32 counts,
//! saturating (a bucket would need 2^32 samples).
//!
//! Why not a crate (`hdrhistogram`): this is 100 lines with no dependency, counts in u32
//! with a lazily allocated array (`hdrhistogram` allocates u64 counts for its whole range at
//! construction, 2x the memory on every flow and queue of a 10,000-flow run), and the error
//! bound above is ours to state and test.

/// Buckets of a histogram's first window (`LogHistogram::slot`): one octave each side.
const WINDOW: usize = 2 * SUB as usize;

/// Sub-bucket bits: `S = 2^SUB_BITS` sub-buckets per octave.
pub const SUB_BITS: u32 = 6;
/// Sub-buckets per octave.
pub const SUB: u64 = 1 << SUB_BITS;
/// The relative error bound of a reported quantile, `1/(2S)`.
pub const RELATIVE_ERROR: f64 = 1.0 / (2 * SUB) as f64;

/// Bucket index of a value (see the module doc).
#[inline]
pub fn bucket_of(v: u64) -> usize {
    if v < 2 * SUB {
        return v as usize;
    }
    let e = 63 - v.leading_zeros();
    let s = e - SUB_BITS;
    ((s as u64) * SUB + (v >> s)) as usize
}

/// The values `[lo, lo + width)` that bucket `i` holds.
#[inline]
pub fn bucket_range(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < 2 * SUB {
        return (i, 1);
    }
    // i = s·S + m with m in [S, 2S): s = i/S − 1, m = i − s·S.
    let s = i / SUB - 1;
    let m = i - s * SUB;
    (m << s, 1 << s)
}

/// A streaming histogram of u64 values (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct LogHistogram {
    /// Counts of buckets `off..off + counts.len()` (a window within `[0, len)`; no sample
    /// is in a bucket outside it); empty until the first positive sample.
    counts: Vec<u32>,
    /// Index of the bucket `counts[0]` counts.
    off: usize,
    /// Buckets to allocate: `bucket_of(bound) + 1`.
    len: usize,
    zeros: u64,
    /// Positive samples, their sum, smallest and largest.
    n: u64,
    sum: u128,
    min: u64,
    max: u64,
}

/// The figures of a histogram, in the histogram's unit (ns here). All zero without samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quantiles {
    pub count: u64,
    pub mean: f64,
    pub min: u64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

impl LogHistogram {
    /// A histogram for values in `[0, bound]` (larger ones are clamped into the last bucket).
    pub fn new(bound: u64) -> Self {
        LogHistogram {
            len: bucket_of(bound.max(1)) + 1,
            min: u64::MAX,
            ..Default::default()
        }
    }

    /// Adds one sample.
    #[inline]
    pub fn record(&mut self, v: u64) {
        if v == 0 {
            // the common case of a queue's sojourn: three instructions
            self.zeros += 1;
            return;
        }
        self.n += 1;
        self.sum += v as u128;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        match self.counts.get_mut(bucket_of(v).wrapping_sub(self.off)) {
            Some(c) => *c = c.saturating_add(1),
            None => self.record_slow(v),
        }
    }

    /// A positive sample outside the window (the first allocates it) or above the bound
    /// (clamped into the last bucket).
    #[cold]
    #[inline(never)]
    fn record_slow(&mut self, v: u64) {
        let i = bucket_of(v).min(self.len - 1);
        *self.slot(i) = self.slot(i).saturating_add(1);
    }

    /// The count of bucket `i` (`i < len`), the window first widened to hold it: on the
    /// first sample to [`WINDOW`] buckets around it, then at least doubled towards it
    /// (issue 13 session 15: a flow's delays span a few octaves at most, a few hundred
    /// buckets, where a window over `[0, bound]` is 1,800 for a 5-s run; 20,000 such
    /// histograms were 140 MB allocated and 10 MB zeroed inside a 10,000-flow run).
    fn slot(&mut self, i: usize) -> &mut u32 {
        debug_assert!(i < self.len);
        let (lo, hi) = (self.off, self.off + self.counts.len());
        if self.counts.is_empty() {
            let lo = i.saturating_sub(WINDOW / 2);
            let hi = (lo + WINDOW).min(self.len);
            (self.counts, self.off) = (vec![0; hi - lo], lo);
        } else if i < lo || i >= hi {
            let size = hi - lo;
            let (nlo, nhi) = if i < lo {
                (i.min(lo.saturating_sub(size)), hi)
            } else {
                (lo, (i + 1).max(hi + size).min(self.len))
            };
            let mut c = vec![0; nhi - nlo];
            c[lo - nlo..hi - nlo].copy_from_slice(&self.counts);
            (self.counts, self.off) = (c, nlo);
        }
        &mut self.counts[i - self.off]
    }

    /// The count of bucket `i` (0 outside the window; `None` at or above the bound).
    #[cfg(test)]
    fn count_at(&self, i: usize) -> Option<u32> {
        (i < self.len).then(|| {
            self.counts
                .get(i.wrapping_sub(self.off))
                .copied()
                .unwrap_or(0)
        })
    }

    /// Adds every sample of `other` (same bound) to this histogram.
    pub fn merge(&mut self, other: &LogHistogram) {
        if other.count() == 0 {
            return;
        }
        if self.counts.is_empty() && !other.counts.is_empty() {
            // Held buckets from here on, as before the windows (this decides the bound
            // of a later merge).
            self.len = self.len.max(other.len);
            self.slot(other.off.min(self.len - 1));
        }
        // Buckets at or above this histogram's bound were dropped before the windows too.
        for (j, &b) in other.counts.iter().enumerate() {
            let i = other.off + j;
            if b > 0 && i < self.len {
                let a = self.slot(i);
                *a = a.saturating_add(b);
            }
        }
        self.zeros += other.zeros;
        self.n += other.n;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Adds every sample of `other`, each increased by `shift` (waiting-time histograms of
    /// paths with different fixed times merged into one delay histogram). Count, sum (so the
    /// mean), min and max stay exact. A positive sample of `other` is added at `shift` + the
    /// integer midpoint of its own bucket (clamped to `other`'s exact min and max), which is
    /// within `v/(2S)` of its value `v`; a quantile read afterwards is therefore within
    /// `2 · RELATIVE_ERROR` (1.56 %) of the exact one rather than `RELATIVE_ERROR`.
    pub fn merge_shifted(&mut self, other: &LogHistogram, shift: u64) {
        let n = other.count();
        if n == 0 {
            return;
        }
        let top = self.len - 1;
        // Held buckets from here on, as before the windows (a later `merge` keeps its bound).
        self.slot(bucket_of(shift).min(top));
        let mut add = |v: u64, c: u64| {
            let a = self.slot(bucket_of(v).min(top));
            *a = a.saturating_add(c.min(u64::from(u32::MAX)) as u32);
        };
        if other.zeros > 0 && shift > 0 {
            add(shift, other.zeros);
        }
        for (j, &c) in other.counts.iter().enumerate() {
            if c > 0 {
                let (lo, w) = bucket_range(other.off + j);
                let mid = (lo + (w - 1) / 2).clamp(other.min, other.max);
                add(shift + mid, u64::from(c));
            }
        }
        if shift == 0 {
            self.zeros += other.zeros;
            self.n += other.n;
        } else {
            self.n += n;
        }
        self.sum += other.sum + u128::from(shift) * u128::from(n);
        self.min = self.min.min(other.min() + shift);
        self.max = self.max.max(other.max + shift);
    }

    /// Samples recorded.
    pub fn count(&self) -> u64 {
        self.n + self.zeros
    }

    /// The smallest sample (u64::MAX without samples).
    fn min(&self) -> u64 {
        if self.zeros > 0 {
            0
        } else {
            self.min
        }
    }

    /// Bytes of bucket memory held.
    pub fn bytes(&self) -> usize {
        self.counts.len() * core::mem::size_of::<u32>()
    }

    /// The nearest-rank `q`-quantile (`0 < q ≤ 1`), within the relative error bound; 0
    /// without samples.
    pub fn quantile(&self, q: f64) -> u64 {
        let mut at = self.scan_start();
        self.at_rank(self.rank(q), &mut at)
    }

    /// The nearest rank of `q` among the samples (at least 1; 0 without samples).
    fn rank(&self, q: f64) -> u64 {
        let n = self.count();
        if n == 0 {
            return 0;
        }
        (libm::ceil(q * n as f64) as u64).clamp(1, n)
    }

    /// Where a bucket scan starts: the bucket of the smallest positive sample, with the
    /// count of the samples below it (the zeros). No bucket below it holds a sample: every
    /// positive sample `v` (or, merged, a bucket midpoint of at least the merged histogram's
    /// minimum) went to `bucket_of(v)` (clamped to the last bucket), never below
    /// `bucket_of(min)`, and `min` is the least of them (issue 13 session 14: a delay
    /// histogram's samples start some thousand buckets up, which a scan from bucket 0
    /// walked for every quantile; 10,000 flows spent 30 M instructions in it).
    fn scan_start(&self) -> (usize, u64) {
        // (Buckets below the window hold no sample, so the scan starts at it at the lowest.)
        let end = self.off + self.counts.len();
        let first = if self.n == 0 {
            end
        } else {
            bucket_of(self.min)
                .min(self.len.saturating_sub(1))
                .max(self.off)
        };
        (first.min(end), self.zeros)
    }

    /// The sample of rank `rank` (1-based; 0 for none), scanning the buckets from `at`
    /// (a bucket index and the samples before it), which is left at the bucket found so a
    /// larger rank can continue from there.
    fn at_rank(&self, rank: u64, at: &mut (usize, u64)) -> u64 {
        let n = self.count();
        if n == 0 {
            return 0;
        }
        if rank <= self.zeros {
            return 0;
        }
        if rank == n {
            return self.max;
        }
        let (mut i, mut acc) = *at;
        while let Some(&c) = self.counts.get(i.wrapping_sub(self.off)) {
            let next = acc + c as u64;
            if next >= rank {
                *at = (i, acc);
                let (lo, w) = bucket_range(i);
                return (lo + (w - 1) / 2).clamp(self.min(), self.max);
            }
            acc = next;
            i += 1;
        }
        *at = (i, acc);
        self.max
    }

    pub fn mean(&self) -> f64 {
        let n = self.count();
        if n == 0 {
            0.0
        } else {
            self.sum as f64 / n as f64
        }
    }

    pub fn summary(&self) -> Quantiles {
        let n = self.count();
        if n == 0 {
            return Quantiles::default();
        }
        // One scan for the three quantiles: their ranks do not decrease.
        let mut at = self.scan_start();
        let p50 = self.at_rank(self.rank(0.5), &mut at);
        let p90 = self.at_rank(self.rank(0.9), &mut at);
        let p99 = self.at_rank(self.rank(0.99), &mut at);
        Quantiles {
            count: n,
            mean: self.mean(),
            min: self.min(),
            p50,
            p90,
            p99,
            max: self.max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn merge_shifted_is_within_twice_the_bound() {
        // Two waiting-time streams (many zeros, a long tail) on paths of fixed time 1 ms
        // and 37 ms, merged into one delay histogram.
        let mut r = crate::Rng::from_seed(11);
        let mut parts = [LogHistogram::new(1 << 32), LogHistogram::new(1 << 32)];
        let shifts = [1_000_000u64, 37_000_000];
        let mut exact = Vec::new();
        for k in 0..20_000 {
            let p = k % 2;
            let e = 1 + r.below(25);
            let w = if r.below(3) == 0 { 0 } else { r.below(1 << e) };
            parts[p].record(w);
            exact.push(w + shifts[p]);
        }
        let mut all = LogHistogram::new(1 << 32);
        for (h, &s) in parts.iter().zip(&shifts) {
            all.merge_shifted(h, s);
        }
        exact.sort_unstable();
        let n = exact.len();
        assert_eq!(all.count(), n as u64);
        assert_eq!(all.mean(), exact.iter().sum::<u64>() as f64 / n as f64);
        let q = all.summary();
        assert_eq!((q.min, q.max), (exact[0], exact[n - 1]));
        for p in [0.01, 0.1, 0.5, 0.9, 0.99, 0.999] {
            let x = exact[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
            let got = all.quantile(p);
            let err = (got as f64 - x as f64).abs() / x as f64;
            assert!(err <= 2.0 * RELATIVE_ERROR, "q {p}: {got} vs {x}");
        }
        // shift 0 is a plain merge
        let mut a = LogHistogram::new(1 << 32);
        a.merge_shifted(&parts[0], 0);
        let mut b = LogHistogram::new(1 << 32);
        b.merge(&parts[0]);
        assert_eq!(a.summary(), b.summary());
    }

    #[test]
    fn buckets_tile_the_line() {
        // Every bucket starts where the previous one ended, and widths are ≤ lo/S.
        let mut next = 0u64;
        for i in 0..bucket_of(1 << 40) {
            let (lo, w) = bucket_range(i);
            assert_eq!(lo, next, "bucket {i}");
            assert!(lo < 2 * SUB || w * SUB <= lo, "bucket {i}: [{lo}, +{w})");
            assert_eq!(bucket_of(lo), i);
            assert_eq!(bucket_of(lo + w - 1), i);
            next = lo + w;
        }
    }

    #[test]
    fn hand_computed() {
        let mut h = LogHistogram::new(1_000_000);
        for v in [0, 0, 5, 100, 127] {
            h.record(v);
        }
        // all below 2S: exact. ranks: p50 -> 3rd = 5, p90 -> 5th = 127
        let s = h.summary();
        assert_eq!((s.count, s.min, s.p50, s.p90, s.max), (5, 0, 5, 127, 127));
        assert_eq!(s.mean, 232.0 / 5.0);
        // one value repeated: reported exactly (clamped to [min, max])
        let mut h = LogHistogram::new(1 << 30);
        for _ in 0..10 {
            h.record(123_456_789);
        }
        assert_eq!(h.quantile(0.5), 123_456_789);
        assert_eq!(h.quantile(0.99), 123_456_789);
        // zeros alone allocate nothing
        let mut h = LogHistogram::new(1 << 30);
        h.record(0);
        assert_eq!((h.bytes(), h.quantile(0.99)), (0, 0));
        assert_eq!(LogHistogram::new(10).summary(), Quantiles::default());
    }

    #[test]
    fn clamps_above_the_bound() {
        let mut h = LogHistogram::new(1000);
        h.record(1 << 40);
        h.record(500);
        assert_eq!(h.summary().max, 1 << 40);
        // the top rank is the exact maximum; others above the bound lose the error bound
        assert_eq!(h.quantile(1.0), 1 << 40);
        assert!(h.quantile(0.5).abs_diff(500) <= 500 / 128);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The reported quantile is within `x/(2S)` of the exact nearest-rank quantile `x`
        /// of the sample, for samples spread over many octaves, with zeros and repeats.
        #[test]
        fn quantile_within_the_bound(
            raw in proptest::collection::vec((0u32..40, any::<u64>()), 1..400),
            qs in proptest::collection::vec(0.001f64..1.0, 1..8),
        ) {
            let vals: Vec<u64> = raw.iter().map(|&(e, m)| if e == 0 { 0 } else { m >> (64 - e) }).collect();
            let mut h = LogHistogram::new(1 << 40);
            for &v in &vals {
                h.record(v);
            }
            let mut sorted = vals.clone();
            sorted.sort_unstable();
            let n = sorted.len();
            for q in qs.into_iter().chain([0.5, 0.9, 0.99, 1.0]) {
                let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
                let x = sorted[rank - 1];
                let got = h.quantile(q);
                let err = got.abs_diff(x) as f64;
                prop_assert!(err <= x as f64 * RELATIVE_ERROR, "q {q}: got {got}, exact {x}");
            }
            prop_assert_eq!(h.summary().min, sorted[0]);
            prop_assert_eq!(h.summary().max, sorted[n - 1]);
            let mean = vals.iter().map(|&v| v as u128).sum::<u128>() as f64 / n as f64;
            prop_assert_eq!(h.mean(), mean);
            // merging two halves gives the same figures as recording all
            let (a, b) = vals.split_at(n / 2);
            let mut ha = LogHistogram::new(1 << 40);
            let mut hb = LogHistogram::new(1 << 40);
            a.iter().for_each(|&v| ha.record(v));
            b.iter().for_each(|&v| hb.record(v));
            ha.merge(&hb);
            prop_assert_eq!(ha.summary(), h.summary());
        }

        /// `quantile` and `summary` (scans from the smallest sample's bucket, one scan for
        /// the three quantiles of `summary`) give exactly what a scan of every bucket from 0
        /// gives, for histograms built by `record`, `merge` and `merge_shifted` (zeros,
        /// clamped values above the bound and shifted merges included).
        #[test]
        fn scan_from_the_minimum_is_exact(
            parts in proptest::collection::vec(
                (proptest::collection::vec((0u32..44, any::<u64>()), 0..60), 0u64..3_000_000, 0u8..3),
                1..5),
            qs in proptest::collection::vec(0.001f64..1.0, 1..6),
        ) {
            // The earlier scan, from bucket 0, one per quantile.
            fn full_scan(h: &LogHistogram, q: f64) -> u64 {
                let n = h.count();
                if n == 0 {
                    return 0;
                }
                let rank = (libm::ceil(q * n as f64) as u64).clamp(1, n);
                if rank <= h.zeros {
                    return 0;
                }
                if rank == n {
                    return h.max;
                }
                let mut acc = h.zeros;
                for i in 0..h.len {
                    acc += h.count_at(i).unwrap_or(0) as u64;
                    if acc >= rank {
                        let (lo, w) = bucket_range(i);
                        return (lo + (w - 1) / 2).clamp(h.min(), h.max);
                    }
                }
                h.max
            }
            let mut h = LogHistogram::new(1 << 36);
            for (raw, shift, how) in parts {
                let mut p = LogHistogram::new(1 << 36);
                for (e, m) in raw {
                    p.record(if e == 0 { 0 } else { m >> (64 - e) });
                }
                match how {
                    0 => p.clone_into(&mut h),
                    1 => h.merge(&p),
                    _ => h.merge_shifted(&p, shift),
                }
                for &q in qs.iter().chain(&[0.5, 0.9, 0.99, 1.0]) {
                    prop_assert_eq!(h.quantile(q), full_scan(&h, q), "q {}", q);
                }
                let s = h.summary();
                prop_assert_eq!(
                    (s.p50, s.p90, s.p99),
                    (full_scan(&h, 0.5), full_scan(&h, 0.9), full_scan(&h, 0.99))
                );
            }
        }

        /// The bucket window (session 15) holds exactly what an array over every bucket of
        /// `[0, bound]` holds: a model array fed the same records (values from 1 to past the
        /// bound, so the window grows both ways and clamps), `merge`s (with a histogram of a
        /// smaller or larger bound: buckets at or above this one's bound are dropped, as
        /// before) and `merge_shifted`s agrees bucket by bucket, and so in every figure.
        #[test]
        fn window_holds_what_the_whole_array_holds(
            ops in proptest::collection::vec(
                (0u8..4, proptest::collection::vec((0u32..42, any::<u64>()), 0..40), 0u64..1 << 30),
                1..12,
            ),
        ) {
            let bound = 1u64 << 34;
            let mut h = LogHistogram::new(bound);
            let mut model = vec![0u64; h.len];
            let mut zeros = 0u64;
            let value = |e: u32, m: u64| if e == 0 { 0 } else { (m >> (64 - e)).max(1) };
            for (how, raw, shift) in ops {
                // the other histogram: this bound, a smaller one or a larger one
                let ob = [bound, 1 << 24, 1 << 40][usize::from(how % 3)];
                let mut o = LogHistogram::new(ob);
                let mut om = vec![0u64; o.len];
                for &(e, m) in &raw {
                    let v = value(e, m);
                    o.record(v);
                    if v > 0 {
                        om[bucket_of(v).min(o.len - 1)] += 1;
                    }
                }
                match how {
                    0 => {
                        for &(e, m) in &raw {
                            let v = value(e, m);
                            h.record(v);
                            if v == 0 {
                                zeros += 1;
                            } else {
                                model[bucket_of(v).min(h.len - 1)] += 1;
                            }
                        }
                    }
                    1 | 2 => {
                        if h.counts.is_empty() && !o.counts.is_empty() {
                            model.resize(model.len().max(o.len), 0);
                        }
                        h.merge(&o);
                        zeros += o.zeros;
                        for (i, &c) in om.iter().enumerate().take(h.len) {
                            model[i] += c;
                        }
                    }
                    _ => {
                        h.merge_shifted(&o, shift);
                        let top = h.len - 1;
                        if o.zeros > 0 {
                            if shift > 0 {
                                model[bucket_of(shift).min(top)] += o.zeros;
                            } else {
                                zeros += o.zeros;
                            }
                        }
                        for (i, &c) in om.iter().enumerate() {
                            if c > 0 {
                                let (lo, w) = bucket_range(i);
                                let mid = (lo + (w - 1) / 2).clamp(o.min(), o.max);
                                model[bucket_of(shift + mid).min(top)] += c;
                            }
                        }
                    }
                }
                prop_assert_eq!(h.zeros, zeros);
                prop_assert_eq!(h.len, model.len());
                for (i, &c) in model.iter().enumerate() {
                    prop_assert_eq!(u64::from(h.count_at(i).unwrap()), c, "bucket {}", i);
                }
                prop_assert!(h.bytes() <= 4 * h.len);
            }
        }
    }
}
