//! An exact token bucket with continuous accrual, and the single-rate policer built on it.
//!
//! # Units (an open choice, documented)
//!
//! RFC 2697 §3 and RFC 2698 §3 describe token counts that are "incremented by one CIR times
//! per second", i.e. one byte-token every `1/CIR` seconds. Implementations either add whole
//! tokens at discrete instants or accrue continuously. qoslab accrues **continuously and
//! exactly**: a token count is kept in *bit·nanoseconds* (one byte = 8 bits = 8·10⁹ bit·ns,
//! [`UNITS_PER_BYTE`]), and `Δ` nanoseconds at `r` bit/s add exactly `Δ·r` units. This is the
//! limit of "one token every 1/CIR s" as the token becomes infinitely fine, has no rounding
//! anywhere, and fits in `u128` for any `u64` rate, time and depth (2⁶⁴·2⁶⁴ = 2¹²⁸). A packet
//! of `B` bytes needs `B·8·10⁹` units.
//!
//! Other choices:
//! - A bucket starts **full** at time 0 (RFC 2697 §3, RFC 2698 §3: "initially (at time 0)
//!   full").
//! - Time is expected to be non-decreasing. A `now` earlier than the last update accrues
//!   nothing and does not move the bucket's clock back (saturating, never a panic).
//! - A packet conforms when `tokens ≥ B` (RFC 2697 §3 "Tc(t)-B >= 0"); an out-of-profile
//!   packet takes no tokens.
//! - [`TokenBucket::earliest`] rounds *up* to the next nanosecond, so at the returned instant
//!   the packet does conform.

use crate::error::ConfigError;
use crate::meter::{ColorCounters, MeterVerdict};
use crate::packet::{Color, PacketView};
use crate::time::{Duration, Time};
use crate::units::Rate;
use crate::verdict::DropReason;

/// Token units per byte: 8 bits × 10⁹ ns (tokens are kept in bit·ns).
pub const UNITS_PER_BYTE: u128 = 8_000_000_000;

/// Token units needed for `bytes` bytes.
pub const fn units(bytes: u64) -> u128 {
    bytes as u128 * UNITS_PER_BYTE
}

/// A token bucket of depth `depth` bytes filled at `rate`, counting tokens exactly in bit·ns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    rate: Rate,
    /// Depth in units (bytes × [`UNITS_PER_BYTE`]).
    depth: u128,
    /// Current tokens in units, always `<= depth`.
    tokens: u128,
    /// Instant up to which `tokens` is accrued.
    last: Time,
}

impl TokenBucket {
    /// A bucket that is full at `Time::ZERO` (RFC 2697/2698 §3).
    pub const fn full(rate: Rate, depth_bytes: u64) -> Self {
        let depth = units(depth_bytes);
        TokenBucket {
            rate,
            depth,
            tokens: depth,
            last: Time::ZERO,
        }
    }

    pub const fn rate(&self) -> Rate {
        self.rate
    }
    /// Depth in bytes.
    pub const fn depth_bytes(&self) -> u64 {
        (self.depth / UNITS_PER_BYTE) as u64
    }
    /// Current tokens in units (as of the last update).
    pub const fn tokens_units(&self) -> u128 {
        self.tokens
    }
    /// Current tokens in whole bytes (rounded down), as of the last update.
    pub const fn tokens_bytes(&self) -> u64 {
        (self.tokens / UNITS_PER_BYTE) as u64
    }
    /// The instant up to which tokens have been accrued.
    pub const fn last_update(&self) -> Time {
        self.last
    }

    /// Units accrued over `[last, now]`, before capping at the depth.
    fn accrual(&self, now: Time) -> u128 {
        // Δ ns × r bit/s = Δ·r bit·ns: exact.
        now.saturating_since(self.last).as_nanos() as u128 * self.rate.bps() as u128
    }

    /// Tokens (units) the bucket would hold at `now`, without changing it.
    pub fn tokens_at(&self, now: Time) -> u128 {
        self.tokens
            .saturating_add(self.accrual(now))
            .min(self.depth)
    }

    /// Accrues tokens up to `now`; returns the units that did not fit (RFC 2697 §3 passes
    /// these on to the E bucket).
    pub fn advance(&mut self, now: Time) -> u128 {
        let total = self.tokens.saturating_add(self.accrual(now));
        if now > self.last {
            self.last = now;
        }
        if total > self.depth {
            self.tokens = self.depth;
            total - self.depth
        } else {
            self.tokens = total;
            0
        }
    }

    /// Moves the bucket's clock to `now` (if later) without accruing: for a bucket fed only
    /// by another bucket's overflow (RFC 2697's E bucket).
    pub fn sync_clock(&mut self, now: Time) {
        self.last = self.last.max(now);
    }

    /// Adds `u` units (capped at the depth); returns what did not fit.
    pub fn add_units(&mut self, u: u128) -> u128 {
        let total = self.tokens.saturating_add(u);
        self.tokens = total.min(self.depth);
        total - self.tokens
    }

    /// True if `bytes` bytes conform now (tokens ≥ B), as of the last update.
    pub fn conforms(&self, bytes: u32) -> bool {
        self.tokens >= units(bytes as u64)
    }

    /// Removes `bytes` worth of tokens, down to a minimum of 0 (RFC 2697 §3 "decremented by
    /// B down to the minimum value of 0").
    pub fn take(&mut self, bytes: u32) {
        self.tokens = self.tokens.saturating_sub(units(bytes as u64));
    }

    /// The earliest instant `>= now` at which `bytes` bytes would conform if no other packet
    /// takes tokens; `Time::NEVER` if `bytes` exceeds the depth or the rate is zero.
    ///
    /// A `now` earlier than the last update is answered from the tokens *at the last update*
    /// (the bucket keeps no history), and the answer is then never earlier than the last
    /// update: a packet metered at an earlier `now` would be taken as arriving then (see the
    /// module docs, "time is expected to be non-decreasing").
    pub fn earliest(&self, now: Time, bytes: u32) -> Time {
        let need = units(bytes as u64);
        if need > self.depth {
            return Time::NEVER;
        }
        let have = self.tokens_at(now);
        if have >= need {
            return now.max(self.last);
        }
        if self.rate.bps() == 0 {
            return Time::NEVER;
        }
        // (B - T(t)) / rate, rounded up to the next ns so the packet conforms at the result.
        let wait = (need - have).div_ceil(self.rate.bps() as u128);
        let wait = Duration(wait.min(u64::MAX as u128) as u64);
        now.max(self.last) + wait
    }
}

/// What a [`TbPolicer`] does with an out-of-profile packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicerAction {
    /// Discard it (`DropReason::Policed`).
    Drop,
    /// Re-mark it to this colour. A re-mark never improves a colour: the packet leaves with
    /// the worse of its own colour and this one.
    Remark(Color),
}

/// Validated settings of a single-rate token-bucket policer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbPolicerParams {
    pub rate: Rate,
    /// Bucket depth in bytes.
    pub burst: u64,
    pub action: PolicerAction,
}

impl TbPolicerParams {
    pub fn new(rate: Rate, burst: u64, action: PolicerAction) -> Result<Self, ConfigError> {
        if rate.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "cir",
                "0 bit/s",
                "> 0 bit/s (a zero-rate bucket never refills)",
            ));
        }
        if burst == 0 {
            return Err(ConfigError::out_of_range(
                "cbs",
                "0 B",
                "> 0 bytes (a zero-depth bucket passes nothing)",
            ));
        }
        if action == PolicerAction::Remark(Color::Green) {
            return Err(ConfigError::out_of_range(
                "action",
                "remark to green",
                "drop, or remark to yellow or red (out-of-profile traffic cannot be promoted)",
            ));
        }
        Ok(TbPolicerParams {
            rate,
            burst,
            action,
        })
    }
}

/// A token-bucket policer: in profile (tokens ≥ size) the packet passes unchanged and takes
/// its tokens; out of profile it is dropped or re-marked and takes none.
#[derive(Clone, Debug)]
pub struct TbPolicer {
    params: TbPolicerParams,
    bucket: TokenBucket,
    stats: ColorCounters,
}

impl TbPolicer {
    pub fn new(params: TbPolicerParams) -> Self {
        TbPolicer {
            params,
            bucket: TokenBucket::full(params.rate, params.burst),
            stats: ColorCounters::default(),
        }
    }
    pub fn params(&self) -> &TbPolicerParams {
        &self.params
    }
    pub fn bucket(&self) -> &TokenBucket {
        &self.bucket
    }
    pub fn counters(&self) -> &ColorCounters {
        &self.stats
    }

    pub fn police(&mut self, now: Time, pkt: &PacketView) -> MeterVerdict {
        self.bucket.advance(now);
        let v = if self.bucket.conforms(pkt.size) {
            self.bucket.take(pkt.size);
            MeterVerdict::Pass(pkt.color)
        } else {
            match self.params.action {
                PolicerAction::Drop => MeterVerdict::Drop(DropReason::Policed),
                PolicerAction::Remark(c) => MeterVerdict::Pass(pkt.color.max(c)),
            }
        };
        self.stats.record(v, pkt.size);
        v
    }

    /// The earliest instant at which a packet of `size` bytes would be in profile.
    pub fn earliest_in_profile(&self, now: Time, size: u32) -> Time {
        self.bucket.earliest(now, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accrual_is_exact() {
        // 1 Mbit/s = 125 B/s... per ns 1e6 bit·ns per ns. Empty a 1000 B bucket, then
        // 1 ms later: 1e6 bit/s × 1e6 ns = 1e12 bit·ns = 1e12 / 8e9 = 125 B exactly.
        let mut b = TokenBucket::full(Rate::from_mbps(1), 1000);
        b.take(1000);
        assert_eq!(b.tokens_units(), 0);
        assert_eq!(b.advance(Time::from_millis(1)), 0);
        assert_eq!(b.tokens_units(), 125 * UNITS_PER_BYTE);
        // 1 ns at 3 bit/s = 3 bit·ns: a fraction of a byte is kept, not rounded.
        let mut c = TokenBucket::full(Rate(3), 1);
        c.take(1);
        c.advance(Time(1));
        assert_eq!(c.tokens_units(), 3);
    }

    #[test]
    fn overflow_is_returned_and_time_never_goes_back() {
        // Depth 100 B, 8 Mbit/s = 1 B/us. Take 50 B, wait 80 us: 80 B accrued, 30 overflow.
        let mut b = TokenBucket::full(Rate::from_mbps(8), 100);
        b.take(50);
        assert_eq!(b.advance(Time::from_micros(80)), units(30));
        assert_eq!(b.tokens_bytes(), 100);
        b.take(100);
        // An earlier instant accrues nothing and leaves the clock at 80 us.
        assert_eq!(b.advance(Time::from_micros(10)), 0);
        assert_eq!(b.tokens_units(), 0);
        assert_eq!(b.last_update(), Time::from_micros(80));
    }

    #[test]
    fn earliest_rounds_up() {
        // 3 bit/s, depth 1 B = 8e9 units, empty at t=0: need 8e9/3 = 2666666666.67 ns -> ...667.
        let mut b = TokenBucket::full(Rate(3), 1);
        b.take(1);
        let t = b.earliest(Time::ZERO, 1);
        assert_eq!(t, Time(2_666_666_667));
        assert!(b.tokens_at(t) >= units(1));
        assert!(b.tokens_at(Time(t.0 - 1)) < units(1));
        assert_eq!(b.earliest(Time::ZERO, 2), Time::NEVER);
    }

    #[test]
    fn policer_drops_or_remarks_out_of_profile() {
        // 1500 B bucket at 1.2 Mbit/s (= 150 B/ms). Two 1000 B packets at t=0:
        // first takes 1000 (500 left), second is out. At t=5 ms: 500 + 750 = 1250 >= 1000.
        let p = TbPolicerParams::new(Rate::from_kbps(1200), 1500, PolicerAction::Drop).unwrap();
        let mut pol = TbPolicer::new(p);
        let pk = PacketView::new(1000);
        assert_eq!(
            pol.police(Time::ZERO, &pk),
            MeterVerdict::Pass(Color::Green)
        );
        assert_eq!(
            pol.police(Time::ZERO, &pk),
            MeterVerdict::Drop(DropReason::Policed)
        );
        assert_eq!(
            pol.earliest_in_profile(Time::ZERO, 1000),
            Time::from_micros(3333) + Duration(334)
        );
        assert_eq!(
            pol.police(Time::from_millis(5), &pk),
            MeterVerdict::Pass(Color::Green)
        );
        assert_eq!(pol.counters().dropped_pkts, 1);
        assert_eq!(pol.counters().pkts, [2, 0, 0]);

        let p = TbPolicerParams::new(
            Rate::from_kbps(1200),
            1500,
            PolicerAction::Remark(Color::Yellow),
        )
        .unwrap();
        let mut pol = TbPolicer::new(p);
        pol.police(Time::ZERO, &pk);
        assert_eq!(
            pol.police(Time::ZERO, &pk),
            MeterVerdict::Pass(Color::Yellow)
        );
        // A red packet stays red when re-marked to yellow.
        let red = PacketView::with_color(1000, Color::Red);
        assert_eq!(pol.police(Time::ZERO, &red), MeterVerdict::Pass(Color::Red));
    }

    #[test]
    fn policer_params_are_validated() {
        assert!(TbPolicerParams::new(Rate(0), 10, PolicerAction::Drop).is_err());
        assert!(TbPolicerParams::new(Rate(1), 0, PolicerAction::Drop).is_err());
        assert!(TbPolicerParams::new(Rate(1), 1, PolicerAction::Remark(Color::Green)).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Bytes passed in any window [t0, t1] never exceed depth + rate·(t1 - t0).
        #[test]
        fn policer_passes_at_most_burst_plus_rate_times_t(
            rate_kbps in 1u64..100_000,
            burst in 1u64..20_000,
            pkts in prop::collection::vec((0u64..2_000_000, 1u32..3000), 1..200),
        ) {
            let p = TbPolicerParams::new(Rate::from_kbps(rate_kbps), burst, PolicerAction::Drop).unwrap();
            let mut pol = TbPolicer::new(p);
            let mut t = 0u64;
            let mut passed: Vec<(u64, u64)> = Vec::new();
            for (gap, size) in pkts {
                t += gap;
                if let MeterVerdict::Pass(_) = pol.police(Time(t), &PacketView::new(size)) {
                    passed.push((t, size as u64));
                }
                prop_assert!(pol.bucket().tokens_units() <= units(burst));
            }
            for i in 0..passed.len() {
                let mut sum = 0u128;
                for j in i..passed.len() {
                    sum += passed[j].1 as u128;
                    let span = (passed[j].0 - passed[i].0) as u128;
                    // in units: sum·8e9 <= burst·8e9 + span_ns·rate_bps
                    prop_assert!(sum * UNITS_PER_BYTE <= units(burst) + span * (rate_kbps as u128 * 1000));
                }
            }
        }
    }
}
