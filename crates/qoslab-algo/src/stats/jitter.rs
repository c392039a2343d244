//! Delay variation of one packet stream: RFC 3550's interarrival jitter and RFC 3393's IP
//! packet delay variation between consecutive packets.
//!
//! Both take, per packet received, its send time `S` and arrival time `R` in nanoseconds,
//! in order of arrival. In qoslab a flow's packets follow one static route through FIFO
//! queues, so arrival order is also sending order (no reordering); a lost packet is simply
//! never handed in, so the "consecutive" pair spans it (see [`Ipdv`]).

/// RFC 3550 §6.4.1 interarrival jitter `J`, in nanoseconds (the RFC uses RTP timestamp
/// units; we use the simulation's exact send and arrival instants, so there is no clock
/// offset or timestamp quantisation).
///
/// For consecutive arrivals i−1, i: `D(i−1, i) = (R_i − R_(i−1)) − (S_i − S_(i−1))`
/// (equation of §6.4.1, written as the difference of the two transit times), and
/// `J(i) = J(i−1) + (|D(i−1, i)| − J(i−1)) / 16`. Open choices: `J` starts at 0 with the
/// first packet (RFC 3550 A.8 does the same: the first packet only sets the transit);
/// the division is in f64 rather than A.8's integer form scaled by 16 (no rounding drift);
/// the reported value is `J` after the last packet, as an RTCP receiver report would carry.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rfc3550Jitter {
    /// Transit time `R − S` of the previous packet; None before the first.
    prev_transit: Option<i64>,
    j: f64,
}

impl Rfc3550Jitter {
    /// One packet sent at `sent` and received at `arrived` (ns).
    #[inline]
    pub fn on_packet(&mut self, sent: u64, arrived: u64) {
        let transit = arrived as i64 - sent as i64;
        if let Some(prev) = self.prev_transit {
            // D(i-1,i) = (R_i - S_i) - (R_(i-1) - S_(i-1))
            self.step((transit - prev).abs());
        }
        self.prev_transit = Some(transit);
    }

    /// One `|D(i−1, i)|` (ns), already computed by the caller.
    #[inline]
    fn step(&mut self, abs_d: i64) {
        // (i64 -> f64 converts in one instruction; u64 -> f64 does not)
        // J(i) = J(i-1) + (|D(i-1,i)| - J(i-1))/16
        self.j += (abs_d as f64 - self.j) / 16.0;
    }

    /// The current estimate `J`, ns.
    pub fn value(&self) -> f64 {
        self.j
    }
}

/// RFC 3393 one-way IPDV with the selection function of RFC 5481 §4.1: each packet paired
/// with the previous packet of the stream that arrived (`ipdv_i = D_i − D_(i−1)`, `D` the
/// one-way delay; §2 of RFC 3393, where "consecutive" is RFC 5481's adjacent-packet
/// selection). RFC 5481 pairs adjacent packets in sending order and leaves a pair undefined
/// when one of them is lost; we pair adjacent *arrivals* (the same thing when nothing is
/// lost; across a loss the pair spans it), a documented deviation that keeps the measure
/// defined for TCP flows with drops.
///
/// Kept: the number of pairs, the mean of |ipdv| and the largest |ipdv|. (The signed mean
/// telescopes to `(D_last − D_first)/pairs` and says nothing.) The RFC 5481 §4.2 PDV
/// (`D − D_min` at a high percentile) is read from the delay histogram instead.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ipdv {
    prev_delay: Option<u64>,
    pairs: u64,
    sum_abs: u128,
    max_abs: u64,
}

impl Ipdv {
    /// One packet with one-way delay `d` (ns).
    #[inline]
    pub fn on_packet(&mut self, d: u64) {
        if let Some(p) = self.prev_delay {
            self.step(d.abs_diff(p));
        }
        self.prev_delay = Some(d);
    }

    /// One `|IPDV|` (ns) of a consecutive pair, already computed by the caller.
    #[inline]
    fn step(&mut self, v: u64) {
        self.pairs += 1;
        self.sum_abs += v as u128;
        self.max_abs = self.max_abs.max(v);
    }

    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// Mean |ipdv| over the pairs, ns (0 without pairs).
    pub fn mean_abs(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.sum_abs as f64 / self.pairs as f64
        }
    }

    pub fn max_abs(&self) -> u64 {
        self.max_abs
    }
}

/// Both measures of one stream fed from a single difference per packet. Here the transit
/// time of RFC 3550 §6.4.1 and the one-way delay of RFC 3393 are the same quantity `R − S`
/// (exact send and arrival instants), so `|D(i−1, i)|` and `|IPDV|` are one number: it is
/// kept and subtracted once per packet instead of once per measure.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DelayVariation {
    /// One-way delay `R − S` of the previous packet; None before the first.
    prev: Option<u64>,
    /// RFC 3550 §6.4.1 interarrival jitter.
    pub jitter: Rfc3550Jitter,
    /// RFC 3393 IPDV of consecutive packets.
    pub ipdv: Ipdv,
}

impl DelayVariation {
    /// One packet received with one-way delay `d` = arrival − send (ns), in arrival order.
    #[inline]
    pub fn on_packet(&mut self, d: u64) {
        if let Some(p) = self.prev {
            let v = d.abs_diff(p);
            self.jitter.step(v as i64);
            self.ipdv.step(v);
        }
        self.prev = Some(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3550_hand_computed() {
        let mut j = Rfc3550Jitter::default();
        // transits 10, 10, 26, 10 (ns)
        for (s, r) in [(0, 10), (100, 110), (200, 226), (300, 310)] {
            j.on_packet(s, r);
        }
        // D: 0, 16, 16 -> J = 0; 0 + 16/16 = 1; 1 + 15/16 = 1.9375
        assert_eq!(j.value(), 1.9375);
        // constant transit: J stays 0
        let mut j = Rfc3550Jitter::default();
        for k in 0..100u64 {
            j.on_packet(k * 7, k * 7 + 1000);
        }
        assert_eq!(j.value(), 0.0);
    }

    #[test]
    fn rfc3550_converges_to_mean_abs_difference() {
        // |D| alternating 0 and 32: J oscillates around 16 (exponential mean, gain 1/16).
        let mut j = Rfc3550Jitter::default();
        for k in 0..2000u64 {
            let transit = if k % 4 < 2 { 100 } else { 132 };
            j.on_packet(k * 1000, k * 1000 + transit);
        }
        assert!((j.value() - 16.0).abs() < 1.0, "{}", j.value());
    }

    #[test]
    fn delay_variation_equals_the_two_measures_fed_apart() {
        let mut both = DelayVariation::default();
        let (mut j, mut v) = (Rfc3550Jitter::default(), Ipdv::default());
        for (s, r) in [
            (0u64, 10u64),
            (100, 110),
            (200, 226),
            (300, 310),
            (400, 455),
        ] {
            both.on_packet(r - s);
            j.on_packet(s, r);
            v.on_packet(r - s);
        }
        assert_eq!(both.jitter.value(), j.value());
        assert_eq!(
            (both.ipdv.pairs(), both.ipdv.mean_abs(), both.ipdv.max_abs()),
            (v.pairs(), v.mean_abs(), v.max_abs())
        );
        assert_eq!(both.jitter.value(), 4.62890625);
        assert_eq!(both.ipdv.max_abs(), 45);
    }

    #[test]
    fn ipdv_hand_computed() {
        let mut p = Ipdv::default();
        for d in [10, 30, 25, 25] {
            p.on_packet(d);
        }
        // |ipdv|: 20, 5, 0
        assert_eq!((p.pairs(), p.max_abs()), (3, 20));
        assert_eq!(p.mean_abs(), 25.0 / 3.0);
        assert_eq!(Ipdv::default().mean_abs(), 0.0);
    }
}
