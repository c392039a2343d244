//! Integer simulation time.
//!
//! `Time` is an instant and `Duration` a span, both in integer nanoseconds (u64: ~584 years).
//! Integer time keeps event order exact and results byte-identical across machines; no
//! floating-point time exists anywhere in qoslab. Arithmetic saturates instead of wrapping,
//! and `Time::NEVER` (u64::MAX) stands for "no deadline" (e.g. G-RAS's T2 = infinity).

use core::fmt;
use core::ops::{Add, AddAssign, Sub};

/// An instant, nanoseconds since the start of a run (or of a trace).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub u64);

/// A span of time in nanoseconds.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    /// "Never": later than every real instant.
    pub const NEVER: Time = Time(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Self {
        Time(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        Time(us.saturating_mul(1_000))
    }
    pub const fn from_millis(ms: u64) -> Self {
        Time(ms.saturating_mul(1_000_000))
    }
    pub const fn from_secs(s: u64) -> Self {
        Time(s.saturating_mul(1_000_000_000))
    }
    /// Rounds to the nearest nanosecond; negative and NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Self {
        Time(secs_to_nanos(s))
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Time elapsed since `earlier`, zero if `earlier` is later.
    pub const fn saturating_since(self, earlier: Time) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
    pub const fn is_never(self) -> bool {
        self.0 == u64::MAX
    }
}

impl Duration {
    pub const ZERO: Duration = Duration(0);
    pub const MAX: Duration = Duration(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Self {
        Duration(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        Duration(us.saturating_mul(1_000))
    }
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms.saturating_mul(1_000_000))
    }
    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1_000_000_000))
    }
    /// Rounds to the nearest nanosecond; negative and NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Self {
        Duration(secs_to_nanos(s))
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Seconds as the `f64` nearest the exact value, for reported figures: a correctly
    /// rounded division, so 30 s is `30.0` and not `as_secs_f64`'s `30.000000000000004`
    /// (multiplying by the inexact `1e-9` can be one ulp off). The hot paths keep the
    /// multiplication.
    pub fn as_secs_f64_exact(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub const fn saturating_mul(self, k: u64) -> Duration {
        Duration(self.0.saturating_mul(k))
    }
    pub const fn saturating_sub(self, d: Duration) -> Duration {
        Duration(self.0.saturating_sub(d.0))
    }
}

fn secs_to_nanos(s: f64) -> u64 {
    if s.is_nan() || s <= 0.0 {
        0
    } else if s >= u64::MAX as f64 * 1e-9 {
        u64::MAX
    } else {
        libm::round(s * 1e9) as u64
    }
}

impl Add<Duration> for Time {
    type Output = Time;
    fn add(self, d: Duration) -> Time {
        Time(self.0.saturating_add(d.0))
    }
}
impl AddAssign<Duration> for Time {
    fn add_assign(&mut self, d: Duration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub<Time> for Time {
    type Output = Duration;
    /// Saturating: an earlier minus a later instant is zero.
    fn sub(self, t: Time) -> Duration {
        Duration(self.0.saturating_sub(t.0))
    }
}
impl Add for Duration {
    type Output = Duration;
    fn add(self, d: Duration) -> Duration {
        Duration(self.0.saturating_add(d.0))
    }
}
impl AddAssign for Duration {
    fn add_assign(&mut self, d: Duration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub for Duration {
    type Output = Duration;
    fn sub(self, d: Duration) -> Duration {
        Duration(self.0.saturating_sub(d.0))
    }
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_never() {
            write!(f, "Time(never)")
        } else {
            write!(
                f,
                "Time({}.{:09}s)",
                self.0 / 1_000_000_000,
                self.0 % 1_000_000_000
            )
        }
    }
}
/// The instant in seconds, as users write it (`0.500000000s`, or `never`): messages meant
/// for people use this, not the `Time(..)` debug form (issue 12).
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_never() {
            write!(f, "never")
        } else {
            write!(f, "{}", Duration(self.0))
        }
    }
}
impl fmt::Debug for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{:09}s",
            self.0 / 1_000_000_000,
            self.0 % 1_000_000_000
        )
    }
}
impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn display_is_for_people_debug_names_the_type() {
        use super::*;
        let t = Time::ZERO + Duration::from_millis(500);
        assert_eq!(t.to_string(), "0.500000000s");
        assert_eq!(format!("{t:?}"), "Time(0.500000000s)");
    }

    use super::*;

    #[test]
    fn reported_seconds_carry_no_float_noise() {
        // 30 s · 1e-9 is one ulp above 30; the division is exact.
        assert_ne!(Duration::from_secs(30).as_secs_f64(), 30.0);
        assert_eq!(Duration::from_secs(30).as_secs_f64_exact(), 30.0);
        assert_eq!(Duration::from_millis(100).as_secs_f64_exact(), 0.1);
        assert_eq!(Duration::from_nanos(1).as_secs_f64_exact(), 1e-9);
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Time::NEVER + Duration::from_secs(1), Time::NEVER);
        assert_eq!(Time::from_secs(1) - Time::from_secs(2), Duration::ZERO);
        assert_eq!(
            Time::from_millis(5) + Duration::from_micros(3),
            Time(5_003_000)
        );
    }

    #[test]
    fn float_conversion_rounds_and_clamps() {
        assert_eq!(Time::from_secs_f64(0.0000000015), Time(2));
        assert_eq!(Duration::from_secs_f64(-1.0), Duration::ZERO);
        assert_eq!(Duration::from_secs_f64(f64::NAN), Duration::ZERO);
        assert_eq!(Duration::from_secs_f64(1e30), Duration::MAX);
    }
}
