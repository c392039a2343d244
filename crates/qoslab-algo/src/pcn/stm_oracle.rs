//! The **first** pseudo-code of draft-satoh-pcn-st-marking-02 §3.1, kept as a test oracle
//! for [`super::stm`] (map §1.2).
//!
//! As printed it never sets `lastUpdate = now`, so every packet would accrue tokens since
//! time 0; that is a bug (map §7 item 10) and is fixed here (`lastUpdate = now` after the
//! accrual). Otherwise it follows the text:
//! ```text
//! accrue both buckets; lastUpdate = now                  (fix)
//! SwTB.fill = max(0, SwTB.fill − b); MkTB.fill = max(0, MkTB.fill − b)   (remove first)
//! IF SwTB.fill <= SwTB.threshold:                        (switch ON)
//!   IF MkTB.fill < MkTB.size − b:                        (shallow threshold, §3.1/§13)
//!     IF MkTB.fill > MkTB.threshold: markCnt++; IF markCnt mod N == 0: markCnt = 0; mark
//!     ELSE: markCnt = 0; mark                             (full zone)
//! ```
//!
//! ## Equivalence with the rewritten version (what the property test asserts)
//! Write `F` for a bucket's fill after accrual and before removal (units: bit·ns, integers)
//! and `b` for the packet size. For `F ≥ b`:
//! - switch: rewritten ON iff `F − b < θS`; oracle ON iff `F − b ≤ θS'`. Equal iff
//!   `θS' = θS − 1 unit`.
//! - 1/N zone entry: rewritten `F < size`; oracle `F − b < size − b`: identical.
//! - full zone: rewritten `F < θM`; oracle `F − b ≤ θM'`. Equal iff `θM' = θM − b − 1 unit`.
//! - `markCnt`: both count the packets in the zone and reset on every mark.
//!
//! For `F < b` (the removal floors at 0) the two agree as well when `θS ≥ 1 unit`,
//! `θM ≥ b + 1 unit` and `b < MkTB.size`.
//!
//! So: **for fixed-size packets of `b` bits, [`super::StmMarker`] with thresholds (θS, θM)
//! makes exactly the same decisions as this oracle with thresholds (θS − 1 unit,
//! θM − b − 1 unit)** (one unit = 1 bit·ns = 10⁻⁹ bit), i.e. the two pseudo-codes differ
//! only by a one-packet offset of the full-zone boundary (`b`) and the tie at the switch
//! threshold. [`StmOracle::from_units`] takes thresholds in units to express that.

use super::{u, Fill, PcnMark};
use crate::time::Time;
use crate::units::Rate;

/// The first §3.1 pseudo-code (with `lastUpdate` fixed). Thresholds and sizes in bit·ns.
#[derive(Clone, Debug)]
pub struct StmOracle {
    sw: Fill,
    mk: Fill,
    sw_threshold: u128,
    mk_threshold: i128,
    n: u32,
    mark_cnt: u32,
    last_update: Time,
}

impl StmOracle {
    /// Sizes and thresholds in bit·ns; `mk_threshold` may be negative (see the module docs).
    /// `n` must be ≥ 1 (not validated: test-only type).
    pub fn from_units(
        ar: Rate,
        sr: Rate,
        sw_size: u128,
        sw_threshold: u128,
        mk_size: u128,
        mk_threshold: i128,
        n: u32,
    ) -> StmOracle {
        StmOracle {
            sw: Fill {
                rate_bps: ar.bps(),
                size: sw_size,
                fill: sw_size,
            },
            mk: Fill {
                rate_bps: sr.bps(),
                size: mk_size,
                fill: mk_size,
            },
            sw_threshold,
            mk_threshold,
            n: n.max(1),
            mark_cnt: 0,
            last_update: Time::ZERO,
        }
    }

    /// The oracle with the same bit values as `p` (no threshold shift).
    pub fn from_params(p: &super::StmParams) -> StmOracle {
        StmOracle::from_units(
            p.admissible_rate,
            p.supportable_rate,
            u(p.swtb_size_bits),
            u(p.swtb_threshold_bits),
            u(p.mktb_size_bits),
            u(p.mktb_threshold_bits) as i128,
            p.n,
        )
    }

    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        let dt = now.saturating_since(self.last_update);
        self.sw.accrue(dt);
        self.mk.accrue(dt);
        if now > self.last_update {
            self.last_update = now; // the fix: the printed pseudo-code omits this line
        }
        self.sw.remove(bits);
        self.mk.remove(bits);
        let mut marked = false;
        if self.sw.fill <= self.sw_threshold {
            let shallow = self.mk.size as i128 - u(bits) as i128;
            let fill = self.mk.fill as i128;
            if fill < shallow {
                if fill > self.mk_threshold {
                    self.mark_cnt += 1;
                    if self.mark_cnt.is_multiple_of(self.n) {
                        self.mark_cnt = 0;
                        marked = true;
                    }
                } else {
                    self.mark_cnt = 0;
                    marked = true;
                }
            }
        }
        if marked {
            mark.max(PcnMark::ThresholdMarked)
        } else {
            mark
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MkThresholdReading, StmMarker, StmParams};
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The equivalence stated in the module docs, on random fixed-size packet trains.
        #[test]
        fn rewritten_equals_oracle_with_shifted_thresholds(
            ar in 1_000u64..1_000_000,
            sr_extra in 1u64..1_000_000,
            b in 1u64..400,
            sw_size in 1u64..5_000,
            sw_thr_frac in 0.0f64..1.0,
            mk_size_extra in 1u64..5_000,
            mk_thr_frac in 0.0f64..1.0,
            n in 1u32..5,
            gaps in prop::collection::vec(0u64..2_000_000, 1..400),
        ) {
            let sr = ar + sr_extra;
            let mk_size = b + mk_size_extra; // b < MkTB.size
            let sw_thr = ((sw_size as f64 * sw_thr_frac) as u64).max(1); // θS ≥ 1 unit
            // θM ≥ b + 1 unit and ≤ size: pick in [b+1 bit, size].
            let mk_thr = (b + 1 + ((mk_size - b - 1) as f64 * mk_thr_frac) as u64).min(mk_size);
            prop_assume!(sw_thr <= sw_size);
            let p = StmParams {
                admissible_rate: Rate(ar),
                supportable_rate: Rate(sr),
                swtb_size_bits: sw_size,
                swtb_threshold_bits: sw_thr,
                mktb_size_bits: mk_size,
                mktb_threshold_bits: mk_thr,
                n,
                mk_threshold_reading: MkThresholdReading::Literal,
            };
            let mut stm = StmMarker::new(p).unwrap();
            let mut oracle = StmOracle::from_units(
                Rate(ar), Rate(sr), u(sw_size), u(sw_thr) - 1, u(mk_size),
                u(mk_thr) as i128 - u(b) as i128 - 1, n);
            let mut t = 0u64;
            for (i, g) in gaps.iter().enumerate() {
                t += g;
                let a = stm.on_packet(Time(t), b, PcnMark::NotMarked);
                let o = oracle.on_packet(Time(t), b, PcnMark::NotMarked);
                prop_assert_eq!(a, o, "packet {} at t = {} ns", i, t);
            }
        }
    }

    #[test]
    fn unshifted_oracle_differs_only_near_the_boundaries() {
        // With the same bit values the oracle's full zone is wider by b: a packet that finds
        // MkTB exactly at θM (rewritten: partial zone) is full-zone in the oracle.
        let p = StmParams {
            admissible_rate: Rate(1),
            supportable_rate: Rate(2),
            swtb_size_bits: 1000,
            swtb_threshold_bits: 999,
            mktb_size_bits: 100,
            mktb_threshold_bits: 80,
            n: 100,
            mk_threshold_reading: MkThresholdReading::Literal,
        };
        let mut stm = StmMarker::new(p).unwrap();
        let mut oracle = StmOracle::from_params(&p);
        // 20 bits: MkTB 100 → 80 in both.
        assert_eq!(
            stm.on_packet(Time(0), 20, PcnMark::NotMarked),
            PcnMark::NotMarked
        );
        assert_eq!(
            oracle.on_packet(Time(0), 20, PcnMark::NotMarked),
            PcnMark::NotMarked
        );
        // Next 5 bits finds F = 80: rewritten 80 < 80 false → partial (N = 100, no mark);
        // oracle 75 ≤ 80 → full zone → mark.
        assert_eq!(
            stm.on_packet(Time(0), 5, PcnMark::NotMarked),
            PcnMark::NotMarked
        );
        assert_eq!(
            oracle.on_packet(Time(0), 5, PcnMark::NotMarked),
            PcnMark::ThresholdMarked
        );
    }
}
