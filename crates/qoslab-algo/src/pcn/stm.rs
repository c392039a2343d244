//! STM PCN-interior-node meter/marker: draft-satoh-pcn-st-marking-02 §3.1, the second
//! ("It can be rewritten as follows") pseudo-code, with the §10.4 parameters.
//!
//! Two token buckets per metered link, updated independently of each other (§3.1 "These
//! additions and removals are independent of MkTB/SwTB"):
//! - **SwTB** (rate AR) is only a switch: marking is possible iff
//!   `!((SwTB.fill − packet.size) ≥ SwTB.threshold)`.
//! - **MkTB** (rate SR) marks: if `MkTB.fill < MkTB.size` the packet counts in `markCnt`;
//!   if moreover `MkTB.fill < MkTB.threshold` it is marked (full zone, marking.frequency 1,
//!   `markCnt = 0`); otherwise it is marked when `markCnt == N` (1/N zone).
//! - Tokens are removed from **both** buckets for **every** PCN packet, whether the switch
//!   is ON or OFF and whether or not the packet was marked (§3.1: "Regardless of the marking
//!   switch being ON or OFF, tokens of MkTB are ... removed").
//!
//! Choices the text leaves open (map §1.2, §5):
//! - Units: bits, kept as bit·ns (see the module docs of [`crate::pcn`]).
//! - Initial state: both buckets full, `markCnt = 0`, `lastUpdate = 0` (network idle).
//! - A packet that arrives marked stays marked and is metered normally (neither pseudo-code
//!   tests the incoming mark); the result is `max(arrived, ThresholdMarked)` when marked.
//! - `markCnt` counts the packets that found `MkTB.fill < MkTB.size` since the last mark,
//!   while the switch was ON ("Note that one-Nth arrived packets are not marked"): it is not
//!   reset while the switch is OFF or while MkTB is full. The draft calls it "the number of
//!   marked packets"; the pseudo-code makes it the count just described.
//! - `MkTB.threshold` reading ([`MkThresholdReading`], map §8): `Literal` (default) takes
//!   the pseudo-code at its word, full zone iff `MkTB.fill < MkTB.threshold`; `Deficit`
//!   reads the threshold as a token deficit below the size, full zone iff
//!   `MkTB.fill < MkTB.size − MkTB.threshold`. With the §10.4 values (10 ms / 8 ms at SR)
//!   the full zone starts 8 ms (Literal) or 2 ms (Deficit) of tokens below the size.
//! - `N`: §10.4 "Marking.frequency = 1/3 and 1" is read as `N = 3` in the partial zone and
//!   1 in the full zone ([`StmParams::draft_defaults`]).
//! - A `now` earlier than `lastUpdate` accrues nothing and leaves the clock unchanged.

use super::{
    ar_below_sr, bits_at, positive_bits, positive_rate, threshold_le_size, u, Fill, MarkCounters,
    MarkReason, PcnMark,
};
use crate::error::ConfigError;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// How `MkTB.threshold` is read (map §8 "MkTB hang-over").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MkThresholdReading {
    /// Full zone when `MkTB.fill < MkTB.threshold` (the pseudo-code as written; default).
    #[default]
    Literal,
    /// Full zone when `MkTB.fill < MkTB.size − MkTB.threshold`.
    Deficit,
}

impl MkThresholdReading {
    pub fn name(self) -> &'static str {
        match self {
            MkThresholdReading::Literal => "literal",
            MkThresholdReading::Deficit => "deficit",
        }
    }
}

/// STM settings (§3.1 names; §10.4 values in [`StmParams::draft_defaults`]). Sizes in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmParams {
    /// SwTB.rate = PCN-admissible-rate (AR).
    pub admissible_rate: Rate,
    /// MkTB.rate = PCN-supportable-rate (SR, = PCN-threshold-rate).
    pub supportable_rate: Rate,
    pub swtb_size_bits: u64,
    pub swtb_threshold_bits: u64,
    /// MkTB.size (TBthreshold.max).
    pub mktb_size_bits: u64,
    /// MkTB.threshold (TBthreshold.threshold).
    pub mktb_threshold_bits: u64,
    /// The denominator of marking.frequency 1/N in the partial zone.
    pub n: u32,
    pub mk_threshold_reading: MkThresholdReading,
}

impl StmParams {
    /// §10.4: SwTB.size = 20 ms at AR, SwTB.threshold = 10 ms at AR, MkTB.size = 10 ms at SR,
    /// MkTB.threshold = 8 ms at SR, marking.frequency 1/3 (N = 3), Literal threshold reading.
    pub fn draft_defaults(ar: Rate, sr: Rate) -> StmParams {
        StmParams {
            admissible_rate: ar,
            supportable_rate: sr,
            swtb_size_bits: bits_at(ar, Duration::from_millis(20)),
            swtb_threshold_bits: bits_at(ar, Duration::from_millis(10)),
            mktb_size_bits: bits_at(sr, Duration::from_millis(10)),
            mktb_threshold_bits: bits_at(sr, Duration::from_millis(8)),
            n: 3,
            mk_threshold_reading: MkThresholdReading::Literal,
        }
    }

    /// Checks every rule; [`StmMarker::new`] calls it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        positive_rate("admissible_rate", self.admissible_rate)?;
        positive_rate("supportable_rate", self.supportable_rate)?;
        ar_below_sr(self.admissible_rate, self.supportable_rate)?;
        positive_bits("swtb_size_bits", self.swtb_size_bits)?;
        positive_bits("mktb_size_bits", self.mktb_size_bits)?;
        threshold_le_size(
            "SwTB.threshold <= SwTB.size",
            "draft-satoh-pcn-st-marking-02 §3.1",
            self.swtb_threshold_bits,
            self.swtb_size_bits,
        )?;
        threshold_le_size(
            "MkTB.threshold <= MkTB.size (TBthreshold.threshold <= TBthreshold.max)",
            "draft-satoh-pcn-st-marking-02 §3.1",
            self.mktb_threshold_bits,
            self.mktb_size_bits,
        )?;
        if self.n == 0 {
            return Err(ConfigError::out_of_range(
                "n",
                0,
                ">= 1 (marking.frequency 1/N, §3.1)",
            ));
        }
        Ok(())
    }
}

/// The STM marker of one metered link.
#[derive(Clone, Debug)]
pub struct StmMarker {
    params: StmParams,
    sw: Fill,
    mk: Fill,
    /// MkTB full-zone bound in units, from the threshold reading.
    mk_full_below: u128,
    sw_threshold: u128,
    last_update: Time,
    mark_cnt: u32,
    counters: MarkCounters,
}

impl StmMarker {
    pub fn new(p: StmParams) -> Result<Self, ConfigError> {
        p.validate()?;
        let mk_full_below = match p.mk_threshold_reading {
            MkThresholdReading::Literal => u(p.mktb_threshold_bits),
            MkThresholdReading::Deficit => u(p.mktb_size_bits - p.mktb_threshold_bits),
        };
        Ok(StmMarker {
            params: p,
            sw: Fill::full(p.admissible_rate, p.swtb_size_bits),
            mk: Fill::full(p.supportable_rate, p.mktb_size_bits),
            mk_full_below,
            sw_threshold: u(p.swtb_threshold_bits),
            last_update: Time::ZERO,
            mark_cnt: 0,
            counters: MarkCounters::default(),
        })
    }

    pub fn params(&self) -> &StmParams {
        &self.params
    }
    pub fn counters(&self) -> &MarkCounters {
        &self.counters
    }
    /// SwTB.fill in bit·ns, as of the last packet.
    pub fn swtb_fill_units(&self) -> u128 {
        self.sw.fill
    }
    /// MkTB.fill in bit·ns, as of the last packet.
    pub fn mktb_fill_units(&self) -> u128 {
        self.mk.fill
    }
    pub fn mark_cnt(&self) -> u32 {
        self.mark_cnt
    }

    /// Meters one PCN packet of `bits` bits arriving at `now` with mark `mark`; returns the
    /// mark it leaves with.
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        // "add tokens to the two token buckets ... lastUpdate = now;"
        let dt = now.saturating_since(self.last_update);
        self.sw.accrue(dt);
        self.mk.accrue(dt);
        if now > self.last_update {
            self.last_update = now;
        }
        let b = u(bits);
        // "markOpe = ((SwTB.fill - packet.size) >= SwTB.Threshold) ? false : true;"
        // (fill − b ≥ θ  ⟺  fill ≥ θ + b, no negative intermediate)
        let mark_ope = self.sw.fill < self.sw_threshold + b;
        let mut reason = None;
        if mark_ope {
            self.counters.switch_on_packets += 1;
            self.counters.switch_on_bits += bits;
            // "IF (MkTB.fill < MkTB.size) THEN markCnt++;"
            if self.mk.fill < self.mk.size {
                self.mark_cnt = self.mark_cnt.saturating_add(1);
                if self.mk.fill < self.mk_full_below {
                    // "IF (MkTB.fill < MkTB.Threshold) THEN packet.mark = TM; markCnt = 0;"
                    reason = Some(MarkReason::FullZone);
                    self.mark_cnt = 0;
                } else if self.mark_cnt >= self.params.n {
                    // "ELSE IF (markCnt == N) THEN packet.mark = TM; markCnt = 0;"
                    // (`>=` only matters if N were lowered mid-run; params are immutable.)
                    reason = Some(MarkReason::PartialZone);
                    self.mark_cnt = 0;
                }
            }
        }
        // "remove tokens from each token bucket" — for every packet.
        self.sw.remove(bits);
        self.mk.remove(bits);
        let out = if reason.is_some() {
            mark.max(PcnMark::ThresholdMarked)
        } else {
            mark
        };
        self.counters.record(bits, mark, out, reason);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small numbers: AR = 1000 bit/s, SR = 2000 bit/s; SwTB 100/50 bit, MkTB 100/80 bit.
    fn small(n: u32, reading: MkThresholdReading) -> StmMarker {
        StmMarker::new(StmParams {
            admissible_rate: Rate(1000),
            supportable_rate: Rate(2000),
            swtb_size_bits: 100,
            swtb_threshold_bits: 50,
            mktb_size_bits: 100,
            mktb_threshold_bits: 80,
            n,
            mk_threshold_reading: reading,
        })
        .unwrap()
    }

    const NM: PcnMark = PcnMark::NotMarked;
    const TM: PcnMark = PcnMark::ThresholdMarked;

    #[test]
    fn draft_defaults_are_the_10_4_values() {
        let p = StmParams::draft_defaults(Rate::from_mbps(64), Rate::from_mbps(128));
        assert_eq!(p.swtb_size_bits, 1_280_000);
        assert_eq!(p.swtb_threshold_bits, 640_000);
        assert_eq!(p.mktb_size_bits, 1_280_000);
        assert_eq!(p.mktb_threshold_bits, 1_024_000);
        assert_eq!(p.n, 3);
        assert!(StmMarker::new(p).is_ok());
    }

    #[test]
    fn switch_boundary_is_fill_minus_b_ge_threshold() {
        // SwTB full (100). A 50-bit packet: 100 − 50 = 50 ≥ 50 → switch OFF.
        let mut m = small(1, MkThresholdReading::Literal);
        // Keep MkTB in its partial zone first: it is full, so no packet counts anyway.
        assert_eq!(m.on_packet(Time::ZERO, 50, NM), NM);
        assert_eq!(m.counters().switch_on_packets, 0);
        // SwTB now 50, MkTB 50. A 1-bit packet: 50 − 1 = 49 < 50 → ON; MkTB 50 < 80 → full zone.
        assert_eq!(m.on_packet(Time::ZERO, 1, NM), TM);
        assert_eq!(m.counters().switch_on_packets, 1);
        assert_eq!(
            m.counters().by_reason_packets[MarkReason::FullZone as usize],
            1
        );
        assert_eq!(m.swtb_fill_units(), u(49));
        assert_eq!(m.mktb_fill_units(), u(49));
    }

    #[test]
    fn tokens_are_removed_when_switch_off_and_when_unmarked() {
        let mut m = small(3, MkThresholdReading::Literal);
        // 30 bits with the switch OFF (100 − 30 ≥ 50): both buckets lose 30.
        assert_eq!(m.on_packet(Time::ZERO, 30, NM), NM);
        assert_eq!((m.swtb_fill_units(), m.mktb_fill_units()), (u(70), u(70)));
        // Removal floors at 0.
        m.on_packet(Time::ZERO, 500, NM);
        assert_eq!((m.swtb_fill_units(), m.mktb_fill_units()), (0, 0));
    }

    #[test]
    fn accrual_is_exact_and_capped() {
        let mut m = small(3, MkThresholdReading::Literal);
        m.on_packet(Time::ZERO, 100, NM); // both empty
                                          // 1 ns at 1000 bit/s = 1000 bit·ns into SwTB, 2000 into MkTB.
        m.on_packet(Time(1), 0, NM);
        assert_eq!((m.swtb_fill_units(), m.mktb_fill_units()), (1000, 2000));
        // 1 s later both are capped at their size.
        m.on_packet(Time::from_secs(1), 0, NM);
        assert_eq!((m.swtb_fill_units(), m.mktb_fill_units()), (u(100), u(100)));
    }

    #[test]
    fn one_in_n_counts_only_packets_finding_mktb_not_full() {
        // SwTB 1000/990 (the switch is ON for any packet ≥ 11 bits once ≤ 1000),
        // MkTB 100/10 (partial zone for 10 ≤ fill < 100). AR = 1, SR = 1e9 bit/s.
        let mut m = StmMarker::new(StmParams {
            admissible_rate: Rate(1),
            supportable_rate: Rate(1_000_000_000),
            swtb_size_bits: 1000,
            swtb_threshold_bits: 990,
            mktb_size_bits: 100,
            mktb_threshold_bits: 10,
            n: 3,
            mk_threshold_reading: MkThresholdReading::Literal,
        })
        .unwrap();
        // Packets of 20 bits, 20 ns apart: MkTB refills 20 bits per 20 ns, so each packet
        // finds MkTB full (not counted) unless sent back to back.
        let mut t = 0u64;
        let mut out = Vec::new();
        // Back-to-back pairs: the first finds MkTB full (100), the second finds 80 < 100.
        for _ in 0..6 {
            out.push(m.on_packet(Time(t), 20, NM)); // MkTB full: not counted
            out.push(m.on_packet(Time(t), 20, NM)); // MkTB 80: counted
            t += 1000; // refill to full
        }
        // Counted packets are the 2nd of each pair; every 3rd counted one is marked.
        let marked: Vec<usize> = out
            .iter()
            .enumerate()
            .filter(|(_, m)| m.is_marked())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(marked, vec![5, 11]);
        assert_eq!(
            m.counters().by_reason_packets[MarkReason::PartialZone as usize],
            2
        );
        assert_eq!(m.mark_cnt(), 0);
    }

    #[test]
    fn mark_cnt_survives_switch_off_and_resets_in_full_zone() {
        let mut m = StmMarker::new(StmParams {
            admissible_rate: Rate(1),
            supportable_rate: Rate(1_000_000_000),
            swtb_size_bits: 1000,
            swtb_threshold_bits: 990,
            mktb_size_bits: 100,
            mktb_threshold_bits: 10,
            n: 3,
            mk_threshold_reading: MkThresholdReading::Literal,
        })
        .unwrap();
        // Two counted packets (markCnt = 1 after the first pair, 2 after the second).
        m.on_packet(Time(0), 20, NM);
        m.on_packet(Time(0), 20, NM);
        m.on_packet(Time(1000), 20, NM);
        m.on_packet(Time(1000), 20, NM);
        assert_eq!(m.mark_cnt(), 2);
        // Full zone: drain MkTB below 10 at once: 100 − 95 = 5, next packet finds 5 < 10.
        m.on_packet(Time(2000), 95, NM); // finds full: not counted, no mark
        assert_eq!(m.mark_cnt(), 2);
        assert_eq!(m.on_packet(Time(2000), 1, NM), TM); // full zone
        assert_eq!(m.mark_cnt(), 0);
        assert_eq!(
            m.counters().by_reason_packets[MarkReason::FullZone as usize],
            1
        );
    }

    #[test]
    fn switch_off_never_marks_and_keeps_mark_cnt() {
        // SwTB threshold 0: switch ON only when fill < b.
        let mut m = StmMarker::new(StmParams {
            admissible_rate: Rate(1_000_000_000),
            supportable_rate: Rate(2_000_000_000),
            swtb_size_bits: 1000,
            swtb_threshold_bits: 0,
            mktb_size_bits: 100,
            mktb_threshold_bits: 50,
            n: 1,
            mk_threshold_reading: MkThresholdReading::Literal,
        })
        .unwrap();
        // MkTB 100 → 20 → finds 20 < 50 but SwTB 920 − 80 ≥ 0: switch OFF, no mark.
        assert_eq!(m.on_packet(Time(0), 80, NM), NM);
        assert_eq!(m.on_packet(Time(0), 80, NM), NM);
        assert_eq!(m.mark_cnt(), 0);
        assert_eq!(m.counters().switch_on_packets, 0);
    }

    #[test]
    fn deficit_reading_moves_the_full_zone_up() {
        // MkTB 100 / 80: Literal full iff fill < 80; Deficit full iff fill < 20.
        for (reading, expect) in [
            (MkThresholdReading::Literal, TM),
            (MkThresholdReading::Deficit, NM),
        ] {
            let mut m = StmMarker::new(StmParams {
                admissible_rate: Rate(1),
                supportable_rate: Rate(2),
                swtb_size_bits: 1000,
                swtb_threshold_bits: 999,
                mktb_size_bits: 100,
                mktb_threshold_bits: 80,
                n: 100,
                mk_threshold_reading: reading,
            })
            .unwrap();
            m.on_packet(Time(0), 50, NM); // MkTB → 50
            assert_eq!(m.on_packet(Time(0), 1, NM), expect, "{reading:?}");
        }
    }

    #[test]
    fn arrived_marks_are_kept_and_metered() {
        let mut m = small(3, MkThresholdReading::Literal);
        assert_eq!(m.on_packet(Time::ZERO, 10, TM), TM);
        assert_eq!(
            m.on_packet(Time::ZERO, 10, PcnMark::ExcessMarked),
            PcnMark::ExcessMarked
        );
        assert_eq!(m.mktb_fill_units(), u(80));
        assert_eq!(m.counters().arrived_marked_packets, 2);
        assert_eq!(m.counters().marked_packets, 2);
    }

    #[test]
    fn params_are_validated_with_the_rule() {
        let good = StmParams::draft_defaults(Rate(64), Rate(128));
        let bad = |f: &dyn Fn(&mut StmParams)| {
            let mut p = good;
            f(&mut p);
            StmMarker::new(p).unwrap_err().to_string()
        };
        assert!(
            bad(&|p| p.supportable_rate = Rate(64)).contains("admissible-rate < PCN-supportable")
        );
        assert!(bad(&|p| p.admissible_rate = Rate(0)).contains("admissible_rate"));
        assert!(bad(&|p| p.n = 0).contains("1/N"));
        let e = bad(&|p| {
            p.mktb_size_bits = 10;
            p.mktb_threshold_bits = 11
        });
        assert!(e.contains("MkTB.threshold <= MkTB.size"), "{e}");
        let e = bad(&|p| {
            p.swtb_size_bits = 10;
            p.swtb_threshold_bits = 11
        });
        assert!(e.contains("SwTB.threshold <= SwTB.size"), "{e}");
        assert!(bad(&|p| p.mktb_size_bits = 0).contains("mktb_size_bits"));
    }
}
