//! Rates and sizes as integers.
//!
//! A [`Rate`] is bits per second (u64). Serialisation time of `n` bytes at rate `r` is
//! `ceil(8 n 1e9 / r)` ns, computed in u128 so it is exact for every packet size and rate;
//! rounding up means a link never delivers faster than its configured rate.

use crate::time::Duration;

/// A data rate in bits per second.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Rate(pub u64);

impl Rate {
    pub const fn from_bps(bps: u64) -> Self {
        Rate(bps)
    }
    pub const fn from_kbps(k: u64) -> Self {
        Rate(k * 1_000)
    }
    pub const fn from_mbps(m: u64) -> Self {
        Rate(m * 1_000_000)
    }
    pub const fn bps(self) -> u64 {
        self.0
    }
    /// Bytes per second as a float (for the averaging formulas that are defined in floats).
    pub fn bytes_per_sec(self) -> f64 {
        self.0 as f64 / 8.0
    }
    /// Time to serialise `bytes` at this rate, rounded up to the next nanosecond.
    /// A zero rate gives `Duration::MAX`.
    pub fn tx_time(self, bytes: u64) -> Duration {
        if self.0 == 0 {
            return Duration::MAX;
        }
        let num = bytes as u128 * 8 * 1_000_000_000;
        let d = num.div_ceil(self.0 as u128);
        Duration(d.min(u64::MAX as u128) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_time_exact_and_rounded_up() {
        // 500 B at 70 Mb/s = 4000 bits / 70e6 = 57142.857 ns -> 57143
        assert_eq!(Rate::from_mbps(70).tx_time(500), Duration(57_143));
        assert_eq!(Rate::from_mbps(100).tx_time(1500), Duration(120_000));
        assert_eq!(Rate(0).tx_time(1), Duration::MAX);
    }
}
