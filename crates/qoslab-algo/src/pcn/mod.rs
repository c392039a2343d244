//! Pre-Congestion Notification (PCN): the single-threshold marking scheme (STM) of
//! D. Satoh, H. Ueno, Y. Maeda, O. Phanachet, "Single PCN Threshold Marking by using PCN
//! baseline encoding for both admission and termination controls",
//! draft-satoh-pcn-st-marking-02 (10 Sep 2009), and the CL scheme it is compared with.
//! "§x" is a section of that draft (Appendix A = §10, B = §11, C = §12, D = §13, E = §14).
//!
//! ## Layer map
//! | file | what | source |
//! |---|---|---|
//! | `mod.rs` | [`PcnMark`], [`MarkCounters`], [`bits_at`], [`admit`] | §3, §10.1, §10.4 |
//! | [`stm`] | STM interior-node meter/marker (SwTB + MkTB), the rewritten pseudo-code | §3.1 |
//! | [`stm_oracle`] | the *first* §3.1 pseudo-code (with `lastUpdate` fixed), a test oracle | §3.1 |
//! | [`fractional`] | fractional marking (FrTB + ThTB), the two-step function | §14 (App. E) |
//! | [`cl`] | CL admission marking (virtual queue + ramp), termination (RFC 5670 excess-traffic-meter), combined | §10.5 + RFC 5670 |
//! | [`cle`] | per-packet EWMA congestion-level estimate | §3.2.1, §11.1 |
//! | [`stm_egress`] | STM egress: receive rate, reports after L marks, cancel after M unmarked | §3.2.2, §10.4 |
//! | [`stm_ingress`] | STM ingress: 100 ms sending-rate rounds, terminate S − (1−y)·min(R_min, S) | §3.3.2, §10.4 |
//! | [`cl_edge`] | CL egress (NM/ThM/ETM rates per T_meas) and Decision Point (terminate PCN-sent-rate − SAR) | §10.3, §12 + RFC 6661 §3 |
//! | [`cl_phb_edge`] | CL egress/ingress as the draft's CL references simulated them (SAR interval from the first PM packet, then the sending-rate interval; no wait) | §10.3, §12 + cl-phb-03 §10.4.1 |
//!
//! ## Units (an open choice, documented)
//! The draft keeps every bucket and virtual-queue quantity in bits ("tokens are removed equal
//! to the bit-size of the metered packet", §3.1; "t ms at rate R", §10.4/§10.5), although §3.1
//! also calls `packet.size` "the byte of an arrived packet". qoslab uses **bits**, and keeps
//! every fill level in **bit·ns** (`u128`) so that `Δ` ns at `r` bit/s add exactly `Δ·r` units
//! with no rounding (as `meter/token_bucket.rs` does with byte·8·ns). A packet of `b` bits is
//! `b·10⁹` units; a threshold of `θ` bits is `θ·10⁹` units. Parameters are given in whole bits;
//! [`bits_at`] converts "t at rate r" exactly, rounding down when `t·r` is not a whole bit.
//!
//! ## Marks
//! [`PcnMark`] is a 2-bit mark. STM and fractional marking only ever set
//! [`PcnMark::ThresholdMarked`] (the baseline encoding's "PCN-marked"). CL uses three states
//! (not marked, admission-marked AM, pre-emption/termination-marked PM); PM takes precedence
//! over AM, so the enum is ordered and a marker returns `max(arrived, new)`: no marker ever
//! clears or downgrades a mark.
//!
//! ## Deviations from the agreed API
//! None in names or signatures. Additions: [`MarkReason`] and per-reason counters in
//! [`MarkCounters`]; `*_units` accessors; `ClEgress`/`ClIngress` as named in [`cl_edge`]
//! (`ClIngress::on_report` takes a [`ClReport`]); [`FirstReport`] with
//! [`StmEgress::with_first_report`] and [`RoundStart`] with
//! [`StmIngress::with_round_start`] (the agreed params structs are unchanged);
//! [`StmIngressParams::check_with_egress`] for the §3.2.2 rule "report interval < measuring
//! interval", which spans two parameter sets and so is not checked by either `new`.
//!
//! The edge state machines ([`stm_egress`], [`stm_ingress`], [`cl_edge`]) only take `now` and
//! return what to send or do; the engine owns the event queue (calls `poll(now)` at
//! `next_wakeup()`), chooses victims and models signalling delays.

pub mod cl;
pub mod cl_edge;
pub mod cl_phb_edge;
pub mod cle;
pub mod fractional;
pub mod stm;
pub mod stm_egress;
pub mod stm_ingress;
pub mod stm_oracle;

#[cfg(test)]
mod loop_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod stat_tests;

pub use cl::{
    ClAdmissionMarker, ClAdmissionParams, ClMarker, ClTerminationMarker, ClTerminationParams,
    ExcessMeter,
};
pub use cl_edge::{ClEgress, ClEgressParams, ClIngress, ClIngressParams, ClReport};
pub use cl_phb_edge::{ClPhbEgress, ClPhbEgressParams, ClPhbIngress, ClPhbIngressParams};
pub use cle::Cle;
pub use fractional::{FractionalMarker, FractionalParams};
pub use stm::{MkThresholdReading, StmMarker, StmParams};
pub use stm_egress::{EgressSignal, FirstReport, ReportGating, StmEgress, StmEgressParams};
pub use stm_ingress::{RoundStart, StmIngress, StmIngressParams, Terminate};
pub use stm_oracle::StmOracle;

use crate::error::ConfigError;
use crate::time::Duration;
use crate::units::Rate;

/// The PCN mark a packet carries. Ordered: a later variant takes precedence.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum PcnMark {
    #[default]
    NotMarked = 0,
    /// STM's threshold mark (baseline encoding "PCN-marked"); CL's admission mark (AM).
    ThresholdMarked = 1,
    /// CL's excess-traffic / pre-emption mark (PM); takes precedence over AM.
    ExcessMarked = 2,
}

impl PcnMark {
    /// Any mark (`!= NotMarked`).
    pub fn is_marked(self) -> bool {
        self != PcnMark::NotMarked
    }
    /// A stable lower-case name for outputs.
    pub fn name(self) -> &'static str {
        match self {
            PcnMark::NotMarked => "not-marked",
            PcnMark::ThresholdMarked => "threshold-marked",
            PcnMark::ExcessMarked => "excess-marked",
        }
    }
    /// Parses [`PcnMark::name`] (or `0`/`1`/`2`).
    pub fn from_name(s: &str) -> Option<PcnMark> {
        match s {
            "not-marked" | "0" => Some(PcnMark::NotMarked),
            "threshold-marked" | "1" => Some(PcnMark::ThresholdMarked),
            "excess-marked" | "2" => Some(PcnMark::ExcessMarked),
            _ => None,
        }
    }
}

/// Bits for "`d` at rate `r`" (§10.4: "SwTB.size = 20 ms at PCN-admissible-rate"):
/// `r·d` exactly, rounded down to a whole bit when it is not one.
pub fn bits_at(rate: Rate, d: Duration) -> u64 {
    let b = rate.bps() as u128 * d.as_nanos() as u128 / NS_PER_S;
    b.min(u64::MAX as u128) as u64
}

/// Admission decision at the ingress: admit iff `cle < threshold` (§10.1: "If the CLE is
/// below the specified CLE threshold, the call is admitted. If otherwise, it is rejected.").
pub fn admit(cle: f64, threshold: f64) -> bool {
    cle < threshold
}

/// Why a marker set a mark (index of the per-reason counters).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkReason {
    /// STM 1/N zone (MkTB not full, above its threshold) or fractional FrTB marking.
    PartialZone = 0,
    /// STM full zone (MkTB below its threshold) or fractional ThTB marking.
    FullZone = 1,
    /// CL admission marking (virtual-queue ramp), AM.
    AdmissionRamp = 2,
    /// CL excess-rate (termination) marking, PM.
    ExcessRate = 3,
}

impl MarkReason {
    pub const COUNT: usize = 4;
    pub const ALL: [MarkReason; 4] = [
        MarkReason::PartialZone,
        MarkReason::FullZone,
        MarkReason::AdmissionRamp,
        MarkReason::ExcessRate,
    ];
    pub fn name(self) -> &'static str {
        match self {
            MarkReason::PartialZone => "partial-zone",
            MarkReason::FullZone => "full-zone",
            MarkReason::AdmissionRamp => "admission-ramp",
            MarkReason::ExcessRate => "excess-rate",
        }
    }
}

/// Per-marker counters. `marked_*` counts packets that *leave* the marker with any mark
/// (including those that arrived marked); `by_reason_*` counts the marks this marker set
/// itself (a packet whose mark the marker raised; a packet already carrying that mark or a
/// higher one is not counted again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkCounters {
    pub packets: u64,
    pub bits: u64,
    pub marked_packets: u64,
    pub marked_bits: u64,
    /// Packets that arrived already carrying a mark.
    pub arrived_marked_packets: u64,
    /// Packets that took part in no metering (CL termination: already-PM packets when
    /// `meter_already_marked` is off).
    pub not_metered_packets: u64,
    /// STM / fractional: packets that found the marking switch ON (SwTB below its
    /// threshold, or FrTB below its threshold).
    pub switch_on_packets: u64,
    pub switch_on_bits: u64,
    pub by_reason_packets: [u64; MarkReason::COUNT],
    pub by_reason_bits: [u64; MarkReason::COUNT],
}

impl MarkCounters {
    /// Records one packet: its size, the mark it arrived with and the mark it leaves with;
    /// `reason` is what raised it, if this marker raised it.
    #[inline]
    pub(crate) fn record(
        &mut self,
        bits: u64,
        arrived: PcnMark,
        out: PcnMark,
        reason: Option<MarkReason>,
    ) {
        self.packets += 1;
        self.bits += bits;
        if arrived.is_marked() {
            self.arrived_marked_packets += 1;
        }
        if out.is_marked() {
            self.marked_packets += 1;
            self.marked_bits += bits;
        }
        if let Some(r) = reason {
            if out > arrived {
                self.by_reason_packets[r as usize] += 1;
                self.by_reason_bits[r as usize] += bits;
            }
        }
    }

    /// Fraction of packets leaving marked (0 when no packet was seen).
    pub fn marked_fraction(&self) -> f64 {
        if self.packets == 0 {
            0.0
        } else {
            self.marked_packets as f64 / self.packets as f64
        }
    }
    /// Fraction of bits leaving marked.
    pub fn marked_bit_fraction(&self) -> f64 {
        if self.bits == 0 {
            0.0
        } else {
            self.marked_bits as f64 / self.bits as f64
        }
    }
}

/// Nanoseconds per second.
pub(crate) const NS_PER_S: u128 = 1_000_000_000;

/// The rate of `bits` sent over `span_ns` nanoseconds: bits × 10⁹ / span, rounded down and
/// saturated at `u64::MAX` b/s (how every PCN edge turns a window's bits into a rate).
#[inline]
pub(crate) fn rate_bps(bits: u128, span_ns: u64) -> u64 {
    (bits * NS_PER_S / span_ns as u128).min(u64::MAX as u128) as u64
}

/// Units (bit·ns) for `bits` bits.
#[inline]
pub(crate) const fn u(bits: u64) -> u128 {
    bits as u128 * NS_PER_S
}

/// A fill level in bit·ns with continuous exact accrual at `rate`, capped at `size`.
/// The clock (`lastUpdate`) is kept by the owning marker: the draft's buckets share one
/// `lastUpdate` (§3.1, §14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fill {
    pub rate_bps: u64,
    pub size: u128,
    pub fill: u128,
}

impl Fill {
    /// A bucket that starts full (network idle at time 0; map §5 item 2).
    pub const fn full(rate: Rate, size_bits: u64) -> Self {
        Fill {
            rate_bps: rate.bps(),
            size: u(size_bits),
            fill: u(size_bits),
        }
    }
    /// `fill = min(size, fill + rate·dt)`.
    #[inline]
    pub fn accrue(&mut self, dt: Duration) {
        let add = dt.as_nanos() as u128 * self.rate_bps as u128;
        self.fill = self.fill.saturating_add(add).min(self.size);
    }
    /// `fill = max(0, fill − b)`.
    #[inline]
    pub fn remove(&mut self, bits: u64) {
        self.fill = self.fill.saturating_sub(u(bits));
    }
}

/// Rate > 0 check shared by the params types.
pub(crate) fn positive_rate(param: &'static str, r: Rate) -> Result<(), ConfigError> {
    if r.bps() == 0 {
        return Err(ConfigError::out_of_range(
            param,
            "0 bit/s",
            "> 0 bit/s (a zero-rate bucket never refills)",
        ));
    }
    Ok(())
}

/// `AR < SR` (§3, Fig. 1: the admissible rate lies below the supportable rate).
pub(crate) fn ar_below_sr(ar: Rate, sr: Rate) -> Result<(), ConfigError> {
    if ar >= sr {
        return Err(ConfigError::relation(
            "PCN-admissible-rate < PCN-supportable-rate",
            "draft-satoh-pcn-st-marking-02 §3, Fig. 1",
            format!(
                "admissible_rate = {} bit/s, supportable_rate = {} bit/s",
                ar.bps(),
                sr.bps()
            ),
        ));
    }
    Ok(())
}

/// `threshold ≤ size` for a bucket.
pub(crate) fn threshold_le_size(
    rule: &'static str,
    source: &'static str,
    threshold: u64,
    size: u64,
) -> Result<(), ConfigError> {
    if threshold > size {
        return Err(ConfigError::relation(
            rule,
            source,
            format!("threshold = {threshold} bit > size = {size} bit"),
        ));
    }
    Ok(())
}

/// A size that must be > 0.
pub(crate) fn positive_bits(param: &'static str, v: u64) -> Result<(), ConfigError> {
    if v == 0 {
        return Err(ConfigError::out_of_range(param, "0 bit", "> 0 bit"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_at_is_exact_for_the_draft_values() {
        // §10.4 Term CBR: AR = 64 Mb/s, SR = 128 Mb/s (map §4.3).
        assert_eq!(
            bits_at(Rate::from_mbps(64), Duration::from_millis(20)),
            1_280_000
        );
        assert_eq!(
            bits_at(Rate::from_mbps(128), Duration::from_millis(8)),
            1_024_000
        );
        // Adm VBR SR = 0.9·78.336 Mb/s = 70.5024 Mb/s: 8 ms = 564,019.2 bit -> 564,019.
        assert_eq!(bits_at(Rate(70_502_400), Duration::from_millis(8)), 564_019);
        // §10.5: 5 ms at SR (Term CBR) = 640,000 bit = 500 packets of 160 B.
        assert_eq!(
            bits_at(Rate::from_mbps(128), Duration::from_millis(5)),
            500 * 1280
        );
    }

    #[test]
    fn admit_is_strict() {
        assert!(admit(0.0, 1e-6));
        assert!(!admit(1e-6, 1e-6));
        assert!(!admit(0.3, 0.05));
    }

    #[test]
    fn marks_are_ordered_and_named() {
        assert!(PcnMark::ExcessMarked > PcnMark::ThresholdMarked);
        assert!(!PcnMark::NotMarked.is_marked());
        for m in [
            PcnMark::NotMarked,
            PcnMark::ThresholdMarked,
            PcnMark::ExcessMarked,
        ] {
            assert_eq!(PcnMark::from_name(m.name()), Some(m));
            assert_eq!(PcnMark::from_name(&(m as u8).to_string()), Some(m));
        }
        assert_eq!(PcnMark::from_name("x"), None);
    }
}
