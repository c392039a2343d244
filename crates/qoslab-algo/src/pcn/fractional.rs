//! Fractional marking: draft-satoh-pcn-st-marking-02 Appendix E (§14), "Admission control
//! using fractional marking".
//!
//! Two token buckets, updated independently of each other (§14: "The additions and removals
//! in one token bucket are independent of the other token bucket"):
//! - **FrTB** (rate AR): while `FrTB.fill < FrTB.threshold`, 1/N of the traffic *by size* is
//!   marked with the byte counter `Cnt`: `IF (Cnt < 0) THEN mark; Cnt = Cnt + N·size;`
//!   then `Cnt = Cnt − size`.
//! - **ThTB** (rate SR): `IF (ThTB.fill < ThTB.threshold) mark` — every packet.
//! - Tokens are removed from both buckets for every packet.
//!
//! The target is the two-step function of Fig. E.1: 0 below AR, 1/N between AR and SR, 1
//! above SR.
//!
//! Choices the text leaves open (map §1.3):
//! - Sizes and thresholds are not given; [`FractionalParams::draft_like`] reuses the §10.4
//!   SwTB values (20 ms / 10 ms at AR) for FrTB and the MkTB values (10 ms / 8 ms at SR) for
//!   ThTB, with N = 3.
//! - `Cnt` is "a byte counter"; qoslab counts bits (the same ratio: it only ever compares
//!   with 0 and adds `N·size`). Initial `Cnt = 0`, so the first packet that finds FrTB
//!   below its threshold is not marked (`Cnt < 0` is false) and drives `Cnt` negative; the
//!   next one is marked.
//! - `Cnt` is an `i64` in bits and saturates (cannot overflow for any realistic packet).
//! - Both buckets start full; arrived marks are kept (result `max(arrived, ThresholdMarked)`).
//! - The FrTB test and the ThTB test both use the fill after accrual and before removal,
//!   exactly as printed.

use super::{
    ar_below_sr, bits_at, positive_bits, positive_rate, threshold_le_size, u, Fill, MarkCounters,
    MarkReason, PcnMark,
};
use crate::error::ConfigError;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Settings of the §14 fractional marker. Sizes in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FractionalParams {
    /// FrTB.rate = PCN-admissible-rate.
    pub admissible_rate: Rate,
    /// ThTB.rate = PCN-supportable-rate.
    pub supportable_rate: Rate,
    pub frtb_size_bits: u64,
    pub frtb_threshold_bits: u64,
    pub thtb_size_bits: u64,
    pub thtb_threshold_bits: u64,
    /// 1/N of the traffic is marked between AR and SR.
    pub n: u32,
}

impl FractionalParams {
    /// \[G\] FrTB = 20 ms / 10 ms at AR, ThTB = 10 ms / 8 ms at SR, N = 3 (the §10.4 SwTB/MkTB
    /// values; §14 gives none).
    pub fn draft_like(ar: Rate, sr: Rate) -> FractionalParams {
        FractionalParams {
            admissible_rate: ar,
            supportable_rate: sr,
            frtb_size_bits: bits_at(ar, Duration::from_millis(20)),
            frtb_threshold_bits: bits_at(ar, Duration::from_millis(10)),
            thtb_size_bits: bits_at(sr, Duration::from_millis(10)),
            thtb_threshold_bits: bits_at(sr, Duration::from_millis(8)),
            n: 3,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        positive_rate("admissible_rate", self.admissible_rate)?;
        positive_rate("supportable_rate", self.supportable_rate)?;
        ar_below_sr(self.admissible_rate, self.supportable_rate)?;
        positive_bits("frtb_size_bits", self.frtb_size_bits)?;
        positive_bits("thtb_size_bits", self.thtb_size_bits)?;
        threshold_le_size(
            "FrTB.threshold <= FrTB.size",
            "draft-satoh-pcn-st-marking-02 §14",
            self.frtb_threshold_bits,
            self.frtb_size_bits,
        )?;
        threshold_le_size(
            "ThTB.threshold <= ThTB.size",
            "draft-satoh-pcn-st-marking-02 §14",
            self.thtb_threshold_bits,
            self.thtb_size_bits,
        )?;
        if self.n == 0 {
            return Err(ConfigError::out_of_range(
                "n",
                0,
                ">= 1 (1/N of the traffic is marked, §14)",
            ));
        }
        Ok(())
    }
}

/// The §14 fractional marker of one metered link.
#[derive(Clone, Debug)]
pub struct FractionalMarker {
    params: FractionalParams,
    fr: Fill,
    th: Fill,
    fr_threshold: u128,
    th_threshold: u128,
    cnt: i64,
    last_update: Time,
    counters: MarkCounters,
}

impl FractionalMarker {
    pub fn new(p: FractionalParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(FractionalMarker {
            params: p,
            fr: Fill::full(p.admissible_rate, p.frtb_size_bits),
            th: Fill::full(p.supportable_rate, p.thtb_size_bits),
            fr_threshold: u(p.frtb_threshold_bits),
            th_threshold: u(p.thtb_threshold_bits),
            cnt: 0,
            last_update: Time::ZERO,
            counters: MarkCounters::default(),
        })
    }
    pub fn params(&self) -> &FractionalParams {
        &self.params
    }
    pub fn counters(&self) -> &MarkCounters {
        &self.counters
    }
    /// The signed counter `Cnt`, in bits.
    pub fn cnt_bits(&self) -> i64 {
        self.cnt
    }
    pub fn frtb_fill_units(&self) -> u128 {
        self.fr.fill
    }
    pub fn thtb_fill_units(&self) -> u128 {
        self.th.fill
    }

    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        let dt = now.saturating_since(self.last_update);
        self.fr.accrue(dt);
        self.th.accrue(dt);
        if now > self.last_update {
            self.last_update = now;
        }
        let size = bits.min(i64::MAX as u64) as i64;
        let mut reason = None;
        // "IF (FrTB.fill < FrTB.threshold) THEN IF (Cnt < 0) THEN packet.mark = M;
        //  Cnt = Cnt + N*packet.size; ENDIF Cnt = Cnt - packet.size; ENDIF"
        if self.fr.fill < self.fr_threshold {
            self.counters.switch_on_packets += 1;
            self.counters.switch_on_bits += bits;
            if self.cnt < 0 {
                reason = Some(MarkReason::PartialZone);
                self.cnt = self
                    .cnt
                    .saturating_add(size.saturating_mul(self.params.n as i64));
            }
            self.cnt = self.cnt.saturating_sub(size);
        }
        // "IF (ThTB.fill < ThTB.threshold) packet.mark = M;"
        if self.th.fill < self.th_threshold {
            reason = Some(MarkReason::FullZone);
        }
        self.fr.remove(bits);
        self.th.remove(bits);
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

    const NM: PcnMark = PcnMark::NotMarked;
    const M: PcnMark = PcnMark::ThresholdMarked;

    fn marker(n: u32) -> FractionalMarker {
        // FrTB 100/90 at 1 bit/s (below threshold after the first 11+ bits, stays there),
        // ThTB 10_000/10 at 2 bit/s (never below its threshold in these tests).
        FractionalMarker::new(FractionalParams {
            admissible_rate: Rate(1),
            supportable_rate: Rate(2),
            frtb_size_bits: 100,
            frtb_threshold_bits: 90,
            thtb_size_bits: 10_000,
            thtb_threshold_bits: 10,
            n,
        })
        .unwrap()
    }

    #[test]
    fn counter_marks_one_nth_by_size() {
        let mut m = marker(3);
        // First packet finds FrTB full (100 ≥ 90): no counting. FrTB → 80.
        assert_eq!(m.on_packet(Time(0), 20, NM), NM);
        assert_eq!(m.cnt_bits(), 0);
        // Cnt = 0: not < 0 → not marked; Cnt = −10.
        assert_eq!(m.on_packet(Time(0), 10, NM), NM);
        assert_eq!(m.cnt_bits(), -10);
        // Cnt < 0 → marked, Cnt = −10 + 3·10 − 10 = 10.
        assert_eq!(m.on_packet(Time(0), 10, NM), M);
        assert_eq!(m.cnt_bits(), 10);
        // Two unmarked (10 → 0 → −10), then marked.
        assert_eq!(m.on_packet(Time(0), 10, NM), NM);
        assert_eq!(m.on_packet(Time(0), 10, NM), NM);
        assert_eq!(m.on_packet(Time(0), 10, NM), M);
        assert_eq!(
            m.counters().by_reason_packets[MarkReason::PartialZone as usize],
            2
        );
    }

    #[test]
    fn thtb_marks_everything_below_its_threshold() {
        let mut m = FractionalMarker::new(FractionalParams {
            admissible_rate: Rate(1),
            supportable_rate: Rate(2),
            frtb_size_bits: 10_000,
            frtb_threshold_bits: 0,
            thtb_size_bits: 100,
            thtb_threshold_bits: 50,
            n: 3,
        })
        .unwrap();
        assert_eq!(m.on_packet(Time(0), 60, NM), NM); // ThTB 100 ≥ 50
        assert_eq!(m.on_packet(Time(0), 1, NM), M); // ThTB 40 < 50
        assert_eq!(m.on_packet(Time(0), 1, NM), M);
        assert_eq!(
            m.counters().by_reason_packets[MarkReason::FullZone as usize],
            2
        );
        assert_eq!(m.counters().switch_on_packets, 0);
        assert_eq!(m.thtb_fill_units(), u(38));
    }

    #[test]
    fn params_are_validated() {
        let good = FractionalParams::draft_like(Rate::from_mbps(64), Rate::from_mbps(128));
        assert!(FractionalMarker::new(good).is_ok());
        let mut p = good;
        p.n = 0;
        assert!(FractionalMarker::new(p).is_err());
        let mut p = good;
        p.admissible_rate = Rate::from_mbps(200);
        assert!(FractionalMarker::new(p)
            .unwrap_err()
            .to_string()
            .contains("admissible-rate"));
        let mut p = good;
        p.thtb_threshold_bits = p.thtb_size_bits + 1;
        assert!(FractionalMarker::new(p)
            .unwrap_err()
            .to_string()
            .contains("ThTB"));
    }
}
