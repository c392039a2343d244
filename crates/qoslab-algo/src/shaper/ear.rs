//! Estimated Average Rate (EAR) of Stoica, Shenker & Zhang, "Core-stateless fair
//! queueing", SIGCOMM'98 §2.3 (the arrival-rate estimator), as RFC 2963 §2.2 suggests for
//! the rate adaptive shapers:
//!
//! ```text
//! EAR_new = (1 − e^(−T/K)) · L/T + e^(−T/K) · EAR_old
//! ```
//!
//! with `L` the size of the arriving packet, `T` the time since the previous arrival and
//! `K` a constant (the averaging window).
//!
//! Choices the text leaves open, and what is done here:
//! - **Units**: EAR is kept in bytes per second as `f64` (the formula is defined on reals);
//!   [`Ear::rate`] converts it to a [`Rate`] in bit/s, rounded *down* to a whole bit/s
//!   (saturating), which is the only place it meets the shapers' integer arithmetic.
//! - **Initial value and first packet**: EAR starts at 0. The first arrival has no previous
//!   arrival; it is treated as the limit `T → ∞` of the formula, which gives
//!   `EAR_new = 0` (`e^(−∞) = 0` and `L/T → 0`): it only records its arrival time.
//! - **Simultaneous arrivals (`T = 0`)**: the formula is 0/0; the limit `T → 0` is used:
//!   `(1 − e^(−T/K))/T → 1/K` and `e^(−T/K) → 1`, so `EAR_new = EAR_old + L/K`.
//! - **Precision**: `1 − e^(−T/K)` is computed as `−expm1(−T/K)` (`libm`), which keeps full
//!   precision when `T ≪ K` (e.g. 1 ns against 100 ms), where `1 − exp(..)` would cancel.
//! - **Between arrivals** EAR is constant (it is only updated at arrivals, as in CSFQ).
//! - **Dropped packets**: the estimator sees every arrival; whether the caller's buffer then
//!   admits the packet is not its business (the RAS feeds it all arrivals, see
//!   [`ras`](super::ras)).
//! - **Time going backwards** (an arrival earlier than the previous one) is taken as `T = 0`.

use crate::error::ConfigError;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Validated settings of an [`Ear`]: the averaging constant `K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EarParams {
    k: Duration,
}

impl EarParams {
    /// `k` > 0.
    pub fn new(k: Duration) -> Result<Self, ConfigError> {
        if k == Duration::ZERO {
            return Err(ConfigError::out_of_range("ear_window (K)", k, "> 0"));
        }
        Ok(EarParams { k })
    }
    pub fn k(&self) -> Duration {
        self.k
    }
}

/// The estimator state.
#[derive(Clone, Debug, PartialEq)]
pub struct Ear {
    params: EarParams,
    /// Bytes per second.
    rate: f64,
    last_arrival: Option<Time>,
}

impl Ear {
    pub fn new(params: EarParams) -> Self {
        Ear {
            params,
            rate: 0.0,
            last_arrival: None,
        }
    }

    pub fn params(&self) -> &EarParams {
        &self.params
    }

    /// Updates the estimate with an arrival of `size` bytes at `now`; returns it (bytes/s).
    pub fn on_arrival(&mut self, now: Time, size: u32) -> f64 {
        let l = size as f64;
        let k = self.params.k.as_secs_f64();
        match self.last_arrival {
            // First arrival: T = ∞ ⇒ EAR_new = 0 (see the module docs).
            None => self.rate = 0.0,
            Some(prev) => {
                let t_ns = now.saturating_since(prev);
                if t_ns == Duration::ZERO {
                    // T = 0: lim_{T→0} of the formula = EAR_old + L/K.
                    self.rate += l / k;
                } else {
                    let t = t_ns.as_secs_f64();
                    let x = t / k;
                    // RFC 2963 §2.2: EARnew = [(1-exp(-T/K))*L/T] + exp(-T/K)*EARold
                    let w = -libm::expm1(-x);
                    self.rate = w * l / t + libm::exp(-x) * self.rate;
                }
            }
        }
        self.last_arrival = Some(self.last_arrival.map_or(now, |p| p.max(now)));
        self.rate
    }

    /// The estimate in bytes per second.
    pub fn rate_bytes_per_sec(&self) -> f64 {
        self.rate
    }

    /// The estimate in bit/s, rounded down (saturating).
    pub fn rate(&self) -> Rate {
        // `as` saturates (and maps NaN to 0, which cannot occur here).
        Rate((self.rate * 8.0) as u64)
    }

    /// The instant of the latest arrival seen.
    pub fn last_arrival(&self) -> Option<Time> {
        self.last_arrival
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ear(k_ms: u64) -> Ear {
        Ear::new(EarParams::new(Duration::from_millis(k_ms)).unwrap())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn first_packet_gives_zero_then_formula() {
        // K = 100 ms, 1000 B packets.
        let mut e = ear(100);
        assert_eq!(e.on_arrival(Time::from_millis(5), 1000), 0.0);
        // T = K = 100 ms: (1 − e⁻¹)·1000/0.1 + e⁻¹·0 = 10 000·0.632 120 558 8… = 6321.205 588 3
        let r = e.on_arrival(Time::from_millis(105), 1000);
        assert!(close(r, 6321.205588285577), "{r}");
        assert_eq!(e.rate(), Rate(50_569)); // floor(8 · 6321.2056) = floor(50 569.64)
                                            // T = 200 ms: (1 − e⁻²)·1000/0.2 + e⁻²·6321.2056
                                            //           = 5000·0.864 664 716 8 + 0.135 335 283 2·6321.205 588 3
                                            //           = 4323.323 583 8 + 855.482 148 7 = 5178.805 732 5
        let r = e.on_arrival(Time::from_millis(305), 1000);
        let expect = 5000.0 * (1.0 - (-2.0f64).exp()) + (-2.0f64).exp() * 6321.205588285577;
        assert!(close(r, expect), "{r} vs {expect}");
        assert!((r - 5178.8057325).abs() < 1e-6, "{r}");
    }

    #[test]
    fn simultaneous_arrivals_add_l_over_k() {
        // K = 1 s: each further packet at the same instant adds L/K = 1000 B/s.
        let mut e = ear(1000);
        e.on_arrival(Time(0), 1000);
        assert_eq!(e.on_arrival(Time(0), 1000), 1000.0);
        assert_eq!(e.on_arrival(Time(0), 500), 1500.0);
        assert_eq!(e.rate(), Rate(12_000));
    }

    #[test]
    fn tiny_gap_matches_the_t_to_zero_limit() {
        // T = 1 ns, K = 100 ms: EAR ≈ EAR_old + L/K = 0 + 1000/0.1 = 10 000 B/s
        // (relative error O(T/K) = 1e-8); 1 − exp() would lose ~8 digits here.
        let mut e = ear(100);
        e.on_arrival(Time(0), 1000);
        let r = e.on_arrival(Time(1), 1000);
        assert!((r - 10_000.0).abs() < 1e-3, "{r}");
    }

    #[test]
    fn steady_stream_converges_to_its_rate() {
        // 1000 B every 1 ms = 1e6 B/s. Each step EAR_new − R = e^(−T/K)·(EAR_old − R) since
        // L/T = R, so after 200 steps of T/K = 0.1 the gap is e^(−20)·1e6 ≈ 2e-3 B/s.
        let mut e = ear(10);
        for i in 0..=200 {
            e.on_arrival(Time::from_millis(i), 1000);
        }
        assert!(
            (e.rate_bytes_per_sec() - 1e6).abs() < 1.0,
            "{}",
            e.rate_bytes_per_sec()
        );
    }

    #[test]
    fn k_must_be_positive() {
        assert!(EarParams::new(Duration::ZERO).is_err());
    }
}
