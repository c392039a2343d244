//! The TCP throughput equation of TFRC and the TFRC-SP rate conversion.
//!
//! RFC 5348 §3.1 (same text as RFC 3448 §3.1, which RFC 4828 §4.1 reproduces):
//!
//! ```text
//!                                 s
//!   X_Bps = ----------------------------------------------------------
//!           R*sqrt(2*b*p/3) + (t_RTO * (3*sqrt(3*b*p/8)*p*(1+32*p^2)))
//! ```
//!
//! with `s` the segment size in bytes, `R` the round-trip time in seconds, `p` the loss
//! event rate in (0, 1], `b` the number of packets acknowledged by one TCP ACK and `t_RTO`
//! the TCP retransmission timeout in seconds. RFC 5348 §3.1: "b = 1" is the recommended
//! value (RFC 3448 said 1 too) and "t_RTO = 4*R" is the recommended simplification.
//!
//! Choices the text leaves open, and what is done here:
//! - **p = 0**: the equation is not defined; [`throughput`] returns `f64::INFINITY` (no
//!   loss: no equation limit). `p > 1` is clamped to 1 (a loss event rate is a fraction).
//! - **No `min(1, 3*sqrt(3bp/8))` cap**: the Padhye model and ns-2's `p_to_b` cap the
//!   timeout factor at 1; RFC 5348 writes the equation without it and so does RFC 4828's
//!   Table 1 (with the cap, Table 1's row p = 0.5 would read 0.81 KBps, not 0.63), so
//!   there is no cap here. ns-2 differs: its `p_to_b` has the cap (one of the reasons
//!   RFC 4828's ns-2 TFRC sends more than the equation at p > 0.3, see [`ns2`](super::ns2));
//!   [`throughput_capped`] gives that form for [`Ns2Compat`](super::Ns2Compat).
//! - **t_RTO**: 4R. ns-2 differs: TCP's RTO estimate in 100 ms ticks ([`Ns2Rto`](super::Ns2Rto)).
//! - **Floating point**: the equation is evaluated in `f64` with `libm` (bit-identical on
//!   every platform). It is off the per-packet path (evaluated per feedback).
//! - **Inversion** ([`loss_rate_for_throughput`], needed by RFC 5348 §6.3.1 to seed the
//!   loss history): 200 steps of bisection on `ln p` over [1e-12, 1]; the result is
//!   deterministic and its relative error in `p` is below 1e-12.
//!
//! TFRC-SP (RFC 4828 §3) changes the segment size used in the equation to a *nominal*
//! segment size (1460 bytes by default) and then reduces the allowed rate by the header
//! allowance `X := X * s_true / (s_true + H)` (H = 40 bytes by default); packets are at least
//! the Min Interval (10 ms) apart. [`SmallPacketParams`] holds those settings.

use crate::error::ConfigError;
use crate::time::Duration;

/// RFC 5348 §3.1: "b = 1" (packets acknowledged by a single TCP ACK).
pub const DEFAULT_B: f64 = 1.0;
/// RFC 5348 §3.1: "t_RTO = 4*R".
pub const T_RTO_FACTOR: f64 = 4.0;

/// The TCP throughput equation in bytes per second, general form (RFC 5348 §3.1).
///
/// `s` bytes, `rtt` and `t_rto` seconds, `p` the loss event rate, `b` packets per ACK.
/// Returns `f64::INFINITY` for `p <= 0` (or NaN), and for a zero denominator.
pub fn throughput_general(s: f64, rtt: f64, p: f64, b: f64, t_rto: f64) -> f64 {
    // NaN and p <= 0 both mean "no loss": there is no equation limit.
    if p.is_nan() || p <= 0.0 {
        return f64::INFINITY;
    }
    let p = p.min(1.0);
    // RFC 5348 §3.1: R*sqrt(2*b*p/3)
    let first = rtt * libm::sqrt(2.0 * b * p / 3.0);
    // RFC 5348 §3.1: t_RTO * (3*sqrt(3*b*p/8) * p * (1+32*p^2))
    let second = t_rto * (3.0 * libm::sqrt(3.0 * b * p / 8.0)) * p * (1.0 + 32.0 * p * p);
    let denom = first + second;
    if denom <= 0.0 {
        return f64::INFINITY;
    }
    s / denom
}

/// The throughput equation with the timeout factor capped, `min(1, 3·sqrt(3bp/8))`, as in
/// the Padhye et al. model and ns-2's `p_to_b` (`tcp/formula.h`) — not RFC 5348 §3.1, which
/// has no cap (see the module docs). Used only with
/// [`Ns2Compat::cap_timeout_factor`](super::Ns2Compat::cap_timeout_factor). The cap binds
/// for `p > 8/(27b)`; otherwise the result equals [`throughput_general`]'s.
pub fn throughput_capped(s: f64, rtt: f64, p: f64, b: f64, t_rto: f64) -> f64 {
    if p.is_nan() || p <= 0.0 {
        return f64::INFINITY;
    }
    let p = p.min(1.0);
    let first = rtt * libm::sqrt(2.0 * b * p / 3.0);
    // ns-2 formula.h: tmp1 = 3*sqrt(3*b*p/8), at most 1.
    let factor = (3.0 * libm::sqrt(3.0 * b * p / 8.0)).min(1.0);
    let denom = first + t_rto * factor * p * (1.0 + 32.0 * p * p);
    if denom <= 0.0 {
        return f64::INFINITY;
    }
    s / denom
}

/// The TCP throughput equation with the RFC 5348 §3.1 recommendations `b = 1`,
/// `t_RTO = 4R`: bytes per second for segments of `s` bytes, round-trip time `rtt` seconds
/// and loss event rate `p`.
pub fn throughput(s: f64, rtt: f64, p: f64) -> f64 {
    throughput_general(s, rtt, p, DEFAULT_B, T_RTO_FACTOR * rtt)
}

/// The loss event rate `p` at which [`throughput`]`(s, rtt, p) == x` (RFC 5348 §6.3.1:
/// "the loss interval that would be required to produce the data rate X_recv").
///
/// The equation is strictly decreasing in `p`, so the answer is unique. Results are clamped
/// to [1e-12, 1]: `x` at or below the rate at p = 1 gives 1, `x` above the rate at
/// p = 1e-12 gives 1e-12. `x <= 0`, `s <= 0` or `rtt <= 0` give 1 (no usable rate).
pub fn loss_rate_for_throughput(s: f64, rtt: f64, x: f64) -> f64 {
    const P_MIN: f64 = 1e-12;
    if x.is_nan() || x <= 0.0 || s <= 0.0 || rtt <= 0.0 || rtt.is_nan() {
        return 1.0;
    }
    if throughput(s, rtt, 1.0) >= x {
        return 1.0;
    }
    if throughput(s, rtt, P_MIN) <= x {
        return P_MIN;
    }
    // Invariant: throughput(lo) > x > throughput(hi), in ln p.
    let (mut lo, mut hi) = (libm::log(P_MIN), 0.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if throughput(s, rtt, libm::exp(mid)) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    libm::exp(0.5 * (lo + hi))
}

/// RFC 4828 §3: "The nominal segment size s defaults to 1460 bytes."
pub const SP_NOMINAL_SEGMENT: u32 = 1460;
/// RFC 4828 §3: "The H parameter is set to the constant 40 bytes."
pub const SP_HEADER: u32 = 40;
/// RFC 4828 §3: "TFRC-SP enforces a Min Interval between packets of 10 ms."
pub const SP_MIN_INTERVAL: Duration = Duration::from_millis(10);

/// How a TFRC-SP receiver counts the losses of a short loss interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShortIntervalRule {
    /// RFC 4828 §3 (the default): an interval of at most two RTTs with N packets and K
    /// losses has length N/K; a longer one has length N.
    Step,
    /// RFC 4828 Appendix C's "more gradual transition": all K losses count for an interval
    /// of one RTT, 2/3 of them for two RTTs, 1/3 for three, one loss from four RTTs on.
    /// Between those points the counted fraction is interpolated linearly,
    /// `f(d) = clamp((4 - d/R)/3, 0, 1)`, and at least one loss is counted:
    /// length = N / max(1, K·f).
    Gradual,
}

/// Validated TFRC-SP settings (RFC 4828 §3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmallPacketParams {
    nominal_segment: u32,
    header: u32,
    min_interval: Duration,
    short_rule: ShortIntervalRule,
}

impl SmallPacketParams {
    /// `nominal_segment` in 1..=1460 bytes (RFC 4828 §3: 1460 by default, smaller when the
    /// path MSS is known to be smaller), `header` in 0..=1460 bytes (RFC 4828 §3: 40, or a
    /// more precise estimate), `min_interval` >= 10 ms (RFC 4828 §3: a flow that wants a
    /// shorter interval MUST use standard TFRC).
    pub fn new(
        nominal_segment: u32,
        header: u32,
        min_interval: Duration,
        short_rule: ShortIntervalRule,
    ) -> Result<Self, ConfigError> {
        if nominal_segment == 0 || nominal_segment > SP_NOMINAL_SEGMENT {
            return Err(ConfigError::out_of_range(
                "nominal_segment",
                nominal_segment,
                "1..=1460 bytes (RFC 4828 §3: nominal segment size 1460 or the smaller path MSS)",
            ));
        }
        if header > 1460 {
            return Err(ConfigError::out_of_range(
                "header",
                header,
                "0..=1460 bytes (RFC 4828 §3: H = 40 or the actual header size)",
            ));
        }
        if min_interval < SP_MIN_INTERVAL {
            return Err(ConfigError::relation(
                "Min Interval >= 10 ms",
                "RFC 4828 §3",
                format!(
                    "min_interval = {min_interval}; a flow that wants a shorter interval MUST use standard TFRC"
                ),
            ));
        }
        Ok(SmallPacketParams {
            nominal_segment,
            header,
            min_interval,
            short_rule,
        })
    }

    /// RFC 4828 defaults: s = 1460 B, H = 40 B, Min Interval 10 ms, the step rule of §3.
    pub fn rfc4828() -> Self {
        SmallPacketParams {
            nominal_segment: SP_NOMINAL_SEGMENT,
            header: SP_HEADER,
            min_interval: SP_MIN_INTERVAL,
            short_rule: ShortIntervalRule::Step,
        }
    }

    pub fn nominal_segment(&self) -> u32 {
        self.nominal_segment
    }
    pub fn header(&self) -> u32 {
        self.header
    }
    pub fn min_interval(&self) -> Duration {
        self.min_interval
    }
    pub fn short_rule(&self) -> ShortIntervalRule {
        self.short_rule
    }
}

/// RFC 4828 §3: `X := X * s_true / (s_true + H)`, the allowed *data* rate once the bytes of
/// the headers are accounted for. `x` in bytes/s, `s_true` and `h` in bytes.
pub fn sp_header_allowance(x: f64, s_true: f64, h: f64) -> f64 {
    if s_true + h <= 0.0 {
        return 0.0;
    }
    x * s_true / (s_true + h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn equation_hand_computed() {
        // s = 1000 B, R = 0.1 s, p = 0.01, b = 1, t_RTO = 0.4 s:
        //   R*sqrt(2p/3)        = 0.1 * sqrt(0.0066667)       = 0.1 * 0.08164966 = 0.008164966
        //   3*sqrt(3p/8)        = 3 * sqrt(0.00375)            = 3 * 0.06123724 = 0.18371173
        //   p*(1+32p^2)         = 0.01 * 1.0032                = 0.010032
        //   t_RTO * ...         = 0.4 * 0.18371173 * 0.010032  = 0.00073720
        //   X = 1000 / (0.008164966 + 0.00073720) = 1000 / 0.00890217 = 112332.3 B/s
        let x = throughput(1000.0, 0.1, 0.01);
        assert!(close(x, 112_332.3, 1e-5), "{x}");
        // p = 1, s = 1500, R = 0.1: 0.1*sqrt(2/3) = 0.0816497; 0.4*3*sqrt(3/8)*1*33 = 24.2499
        // X = 1500 / 24.3316 = 61.648 B/s  (RFC 4828 Table 3's 0.06 KBps floor for 1460 B)
        let x1 = throughput(1500.0, 0.1, 1.0);
        assert!(close(x1, 61.648, 1e-4), "{x1}");
    }

    #[test]
    fn general_form_with_b_and_t_rto() {
        // b = 2, t_RTO = 1 s, s = 1460, R = 0.2, p = 0.02:
        //   0.2*sqrt(4*0.02/3)=0.2*0.16329932=0.032659863
        //   3*sqrt(6*0.02/8)=3*0.12247449=0.36742346; p(1+32p^2)=0.02*1.0128=0.020256
        //   1 * 0.36742346 * 0.020256 = 0.0074425
        //   X = 1460 / 0.0401024 = 36406.8 B/s
        let x = throughput_general(1460.0, 0.2, 0.02, 2.0, 1.0);
        assert!(close(x, 36_406.8, 1e-4), "{x}");
    }

    #[test]
    fn capped_timeout_factor_hand_computed() {
        // p = 0.5, b = 1, s = 1460, R = 0.24, t_RTO = 0.5 (ns-2's tzero_ for a 240 ms RTT):
        //   R*sqrt(2p/3) = 0.24 * 0.5773503 = 0.1385641
        //   3*sqrt(3p/8) = 3 * 0.4330127 = 1.299 -> capped at 1
        //   p*(1+32p^2) = 0.5 * 9 = 4.5; 0.5 * 1 * 4.5 = 2.25
        //   X = 1460 / 2.3885641 = 611.246 B/s (uncapped: 0.5*1.2990381*4.5 = 2.9228357, 1460 / 3.0613998 = 476.906)
        let x = throughput_capped(1460.0, 0.24, 0.5, 1.0, 0.5);
        assert!(close(x, 611.2459, 1e-5), "{x}");
        let u = throughput_general(1460.0, 0.24, 0.5, 1.0, 0.5);
        assert!(close(u, 476.9060, 1e-5), "{u}");
        // Below p = 8/27 the cap does not bind: same as the RFC form.
        for p in [0.01, 0.1, 0.29] {
            assert_eq!(
                throughput_capped(1000.0, 0.1, p, 1.0, 0.4),
                throughput_general(1000.0, 0.1, p, 1.0, 0.4)
            );
        }
        assert_eq!(throughput_capped(1000.0, 0.1, 0.0, 1.0, 0.4), f64::INFINITY);
    }

    #[test]
    fn no_loss_means_no_limit() {
        assert_eq!(throughput(1000.0, 0.1, 0.0), f64::INFINITY);
        assert_eq!(throughput(1000.0, 0.1, f64::NAN), f64::INFINITY);
        assert_eq!(throughput(1000.0, 0.1, 2.0), throughput(1000.0, 0.1, 1.0));
    }

    #[test]
    fn inversion_round_trips() {
        for &p in &[1e-6, 1e-4, 0.003, 0.05, 0.3, 0.9] {
            let x = throughput(1460.0, 0.08, p);
            let q = loss_rate_for_throughput(1460.0, 0.08, x);
            assert!(close(q, p, 1e-9), "{p} -> {q}");
        }
        assert_eq!(loss_rate_for_throughput(1460.0, 0.08, 1.0), 1.0);
        assert_eq!(loss_rate_for_throughput(1460.0, 0.08, 1e30), 1e-12);
        assert_eq!(loss_rate_for_throughput(1460.0, 0.0, 1e5), 1.0);
    }

    #[test]
    fn header_allowance_rfc4828_section_4_2_example() {
        // RFC 4828 §4.2: "a sender using 120-byte packets needs a TCP-friendly rate of
        // 128 Kbps to send 96 Kbps of application data" (128 * 120/160 = 96); with 40-byte
        // segments 128 * 40/80 = 64 Kbps; with 1-byte segments 128 * 1/41 = 3.12 Kbps.
        assert!(close(sp_header_allowance(128.0, 120.0, 40.0), 96.0, 1e-12));
        assert!(close(sp_header_allowance(128.0, 40.0, 40.0), 64.0, 1e-12));
        let one = sp_header_allowance(128.0, 1.0, 40.0);
        assert!((one - 3.12).abs() < 0.005, "{one}");
    }

    #[test]
    fn sp_params_validation() {
        let ok = SmallPacketParams::new(1460, 40, SP_MIN_INTERVAL, ShortIntervalRule::Step);
        assert_eq!(ok, Ok(SmallPacketParams::rfc4828()));
        assert!(matches!(
            SmallPacketParams::new(1461, 40, SP_MIN_INTERVAL, ShortIntervalRule::Step),
            Err(ConfigError::OutOfRange {
                param: "nominal_segment",
                ..
            })
        ));
        assert!(matches!(
            SmallPacketParams::new(0, 40, SP_MIN_INTERVAL, ShortIntervalRule::Step),
            Err(ConfigError::OutOfRange {
                param: "nominal_segment",
                ..
            })
        ));
        assert!(matches!(
            SmallPacketParams::new(536, 2000, SP_MIN_INTERVAL, ShortIntervalRule::Step),
            Err(ConfigError::OutOfRange {
                param: "header",
                ..
            })
        ));
        let e = SmallPacketParams::new(
            1460,
            40,
            Duration::from_millis(9),
            ShortIntervalRule::Gradual,
        )
        .unwrap_err();
        assert!(e.to_string().contains("RFC 4828 §3"), "{e}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn equation_decreases_in_p_and_scales_in_s(
            p in 1e-7f64..1.0, dp in 1e-9f64..0.5, s in 1.0f64..9000.0, r in 1e-4f64..5.0
        ) {
            let q = (p + dp).min(1.0);
            let a = throughput(s, r, p);
            let b = throughput(s, r, q);
            proptest::prop_assert!(a.is_finite() && a > 0.0);
            proptest::prop_assert!(b <= a);
            // linear in s
            let a2 = throughput(2.0 * s, r, p);
            proptest::prop_assert!((a2 - 2.0 * a).abs() <= 1e-9 * a2);
        }
    }
}
