//! The CL ("Controlled Load") comparison scheme at a PCN-interior-node, with the parameters
//! of draft-satoh-pcn-st-marking-02 §10.5 and the algorithms of the CL references the draft
//! cites ([I-D.briscoe-tsvwg-cl-phb], [I-D.charny-pcn-single-marking],
//! [I-D.zhang-pcn-performance-evaluation]). See "Sources" below for what was checked.
//!
//! CL carries three encoding states (not marked, admission-marked AM, pre-emption-marked PM;
//! PM takes precedence over AM). Here AM is [`PcnMark::ThresholdMarked`] and PM is
//! [`PcnMark::ExcessMarked`].
//!
//! ## Admission marking ([`ClAdmissionMarker`])
//! A virtual queue drained at the PCN-admissible-rate with a linear marking ramp:
//! ```text
//! vq = max(0, vq − AR·(now − last)); last = now
//! vq = min(vq + b, limit)                        \[G\] add first, then test
//! prob = 0 if vq ≤ min; 1 if vq ≥ max; (vq − min)/(max − min) otherwise
//! if arrived NotMarked and U < prob: AM
//! ```
//! §10.5: min-marking-threshold 5 ms, max-marking-threshold 15 ms, virtual-queue-upper-limit
//! 20 ms, all at the PCN-admissible-rate ("The virtual-queue-upper-limit puts an upper bound
//! on how much the virtual queue can grow"). Choices: the instantaneous virtual queue (no
//! averaging); every PCN packet is metered whatever its mark; a random draw is made only
//! when `0 < prob < 1` and the packet arrived not marked (so the draws depend only on the
//! arrivals and their marks).
//!
//! RFC 5670 §2.3 and App. A.1 give the standard threshold-meter as a token bucket with a
//! threshold, which its App. B.5 calls a virtual queue: with `vq = BS_tm − F_tm`, App. A.1
//! ("F_tm = max(0, F_tm − packet_size)" after accrual, then "if F_tm < threshold ... mark")
//! is exactly this virtual queue with `limit = BS_tm` and a step at
//! `min = max = BS_tm − threshold` (mark iff `vq > min`). So `min == max` is allowed and gives
//! RFC 5670's threshold-meter; the draft's §10.5 ramp (5 → 15 ms) is the default. As App. A.1
//! requires, the ramp never re-marks a packet that arrived marked ("don't re-mark packets that
//! are already excess-traffic-marked"), and it meters every PCN packet, marked or not (B.5:
//! "all PCN-packets, even if already marked, are metered by the threshold-meter function").
//!
//! ## Termination marking ([`ClTerminationMarker`])
//! RFC 5670 §2.4, the excess-traffic-meter: a token bucket at the PCN-excess-rate, which
//! RFC 6661 §2 sets to the PCN-supportable-rate; depth "5 ms at the PCN-supportable-rate"
//! (§10.5). Two behaviours, [`ExcessMeter`]:
//! ```text
//! tok = min(depth, tok + SR·(now − last)); last = now        (A.2 step 1)
//! if arrived PM and !meter_already_marked: pass               (§2.4: SHOULD NOT be metered)
//! SizeIndependent (§2.4 SHOULD; App. A.2):
//!     if tok < 0: PM (no tokens removed) else tok −= b        (tok may go down to −b)
//! Classic (§2.4, the MUST when size-independent is not implemented):
//!     if tok < b: PM;  tok = max(0, tok − b)                  (B.6: "packets are marked if the
//!                                                              number of tokens ... is smaller
//!                                                              than the packet size")
//! ClPhb03 (draft-briscoe-tsvwg-cl-phb-03 §3.2, Fig. 4; the CL the draft compares with):
//!     if tok < b: PM, no tokens removed else tok −= b         (removing b "would cause a
//!                                                              negative number of tokens")
//! ```
//! `ClPhb03` is the pre-emption marker of the CL document the draft names in its abstract
//! ("CL [draft-briscoe-tsvwg-cl-phb-03]"), the one draft-zhang-pcn-performance-evaluation-02
//! §4.1 simulated ("marking all packets which find no token in the token bucket"). It differs
//! from `Classic` only for marked packets (they take no tokens, so the bucket keeps its
//! partial fill), and from `SizeIndependent` only in the test (`tok < b` instead of
//! `tok < 0`).
//! `meter_already_marked = false` (default) is RFC 5670 §2.4: "A packet SHOULD NOT be metered
//! ... if the PCN-packet is already excess-traffic-marked on arrival" (B.6: this "avoids
//! over-termination ... in the event that the PCN-traffic passes through multiple
//! bottlenecks"). Then only the excess *not yet marked upstream* is marked on each link.
//! `true` meters all packets (a meter "blind to previous packet markings", B.6).
//!
//! ## Combined ([`ClMarker`])
//! RFC 5670 Fig. 1: both meters see the packet as it arrived and the marking function
//! combines their results; RFC 6661 §2 (codepoint transitions of RFC 6660 §5.2): NM → ThM,
//! NM → ETM, ThM → ETM, never back. Here the admission stage runs first (it sees the arrived
//! mark), then the termination stage (it sees the admission stage's output, which differs
//! from the arrived mark only by NM → AM, a difference the termination stage ignores); the
//! result is the maximum, so PM takes precedence over AM. The order changes no bucket: it
//! only fixes when a random number is drawn.
//!
//! ## Sources
//! - Draft §10.5: the values (5/15/20 ms at AR; 5 ms at SR) and "the same as those in
//!   [I-D.briscoe-tsvwg-cl-phb], [I-D.charny-pcn-single-marking], and
//!   [I-D.zhang-pcn-performance-evaluation]".
//! - RFC 5670 (Eardley, "Metering and Marking Behaviour of PCN-Nodes", Nov. 2009), read in
//!   full (session 5) from a GitHub mirror of RFC texts (tex2e/rfc-translater,
//!   `html/rfc5670.html`): §2.3, §2.4, §2.5, App. A.1, A.2, B.5, B.6 as cited above.
//! - RFC 6661 (Charny et al., "PCN Boundary Node Behaviour for the Controlled Load (CL) Mode
//!   of Operation", 2012), same mirror: §2 (threshold-meter rate = PCN-admissible-rate,
//!   excess-traffic-meter rate = PCN-supportable-rate, both "according to the rules specified
//!   in [RFC5670]").
//! - draft-briscoe-tsvwg-cl-phb-03 (20 Oct 2006), the CL the draft names in its abstract, read
//!   in session 6 from the `ysoftwareab/know-your-ietf-well` mirror of IETF drafts
//!   (`draft-briscoe-tsvwg-cl-phb-03.txt`). §2.2 confirms the ramp as built: the virtual queue
//!   is "Emptied at the configured-admission-rate" and "Filled when a packet arrives ... (even
//!   if the packet is already admission or pre-emption marked)"; Fig. 2 increments the queue
//!   by the packet's size, *then* computes the probability (add-then-test); the probability
//!   is 0 below min-marking-threshold, linear between, 1 above max-marking-threshold; "A packet
//!   that is already pre-emption marked is never re-marked to the admission marked state";
//!   each decision is "made independently of the decision for the previous packet". §3.2 is
//!   the pre-emption token bucket [`ExcessMeter::ClPhb03`] (the reproduction's CL), and
//!   App. B §10.4.1 the edge model of `cl_phb_edge`. The one point §2.2 leaves open, whether
//!   the instantaneous or an averaged queue is compared, is the \[G\] instantaneous queue.

use super::{bits_at, positive_bits, positive_rate, u, MarkCounters, MarkReason, PcnMark};
use crate::error::ConfigError;
use crate::rng::RandomSource;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Settings of the CL admission marker (virtual queue at AR with a ramp). Bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClAdmissionParams {
    /// Virtual-queue drain rate = PCN-admissible-rate.
    pub admissible_rate: Rate,
    pub min_threshold_bits: u64,
    pub max_threshold_bits: u64,
    /// Virtual-queue-upper-limit.
    pub limit_bits: u64,
}

impl ClAdmissionParams {
    /// §10.5: 5 ms / 15 ms / 20 ms at the PCN-admissible-rate.
    pub fn draft_defaults(ar: Rate) -> ClAdmissionParams {
        ClAdmissionParams {
            admissible_rate: ar,
            min_threshold_bits: bits_at(ar, Duration::from_millis(5)),
            max_threshold_bits: bits_at(ar, Duration::from_millis(15)),
            limit_bits: bits_at(ar, Duration::from_millis(20)),
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        positive_rate("admissible_rate", self.admissible_rate)?;
        // min == max is RFC 5670's step threshold-meter (module docs); min > max has no ramp.
        if !(self.min_threshold_bits <= self.max_threshold_bits
            && self.max_threshold_bits <= self.limit_bits)
        {
            return Err(ConfigError::relation(
                "min-marking-threshold <= max-marking-threshold <= virtual-queue-upper-limit",
                "draft-satoh-pcn-st-marking-02 §10.5; RFC 5670 §2.3 (min = max)",
                format!(
                    "min = {} bit, max = {} bit, limit = {} bit",
                    self.min_threshold_bits, self.max_threshold_bits, self.limit_bits
                ),
            ));
        }
        Ok(())
    }
}

/// CL admission marking: a virtual queue drained at AR with a linear ramp (module docs).
#[derive(Clone, Debug)]
pub struct ClAdmissionMarker {
    params: ClAdmissionParams,
    /// Virtual-queue length in bit·ns.
    vq: u128,
    min: u128,
    max: u128,
    limit: u128,
    last: Time,
    counters: MarkCounters,
}

impl ClAdmissionMarker {
    pub fn new(p: ClAdmissionParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClAdmissionMarker {
            params: p,
            vq: 0,
            min: u(p.min_threshold_bits),
            max: u(p.max_threshold_bits),
            limit: u(p.limit_bits),
            last: Time::ZERO,
            counters: MarkCounters::default(),
        })
    }
    pub fn params(&self) -> &ClAdmissionParams {
        &self.params
    }
    pub fn counters(&self) -> &MarkCounters {
        &self.counters
    }
    /// Virtual-queue length in bit·ns after the last packet.
    pub fn vq_units(&self) -> u128 {
        self.vq
    }
    /// Marking probability for a virtual queue of `vq` units (the ramp).
    pub fn probability(&self, vq: u128) -> f64 {
        if vq <= self.min {
            0.0
        } else if vq >= self.max {
            1.0
        } else {
            (vq - self.min) as f64 / (self.max - self.min) as f64
        }
    }

    pub fn on_packet<R: RandomSource>(
        &mut self,
        now: Time,
        bits: u64,
        mark: PcnMark,
        rng: &mut R,
    ) -> PcnMark {
        let dt = now.saturating_since(self.last);
        self.vq = self
            .vq
            .saturating_sub(dt.as_nanos() as u128 * self.params.admissible_rate.bps() as u128);
        if now > self.last {
            self.last = now;
        }
        // Add the packet, capped at the upper limit, then test (RFC 5670 App. A.1:
        // "F_tm = max(0, F_tm - packet_size)" comes before "if (F_tm < threshold)").
        self.vq = self.vq.saturating_add(u(bits)).min(self.limit);
        let mut out = mark;
        let mut reason = None;
        // App. A.1: "don't re-mark packets that are already excess-traffic-marked" (nor AM ones).
        if mark == PcnMark::NotMarked {
            let hit = if self.vq <= self.min {
                false
            } else if self.vq >= self.max {
                true
            } else {
                rng.uniform() < self.probability(self.vq)
            };
            if hit {
                out = PcnMark::ThresholdMarked;
                reason = Some(MarkReason::AdmissionRamp);
            }
        }
        self.counters.record(bits, mark, out, reason);
        out
    }
}

/// RFC 5670 §2.4: which excess-traffic-meter behaviour (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExcessMeter {
    /// "packet size independent marking" (§2.4 SHOULD, App. A.2): mark iff the bucket is
    /// negative; otherwise remove the packet's tokens (the bucket may go negative).
    #[default]
    SizeIndependent,
    /// The "classic" behaviour (§2.4): mark iff fewer tokens than the packet's bits (B.6);
    /// tokens are removed from every metered packet, to a minimum of 0.
    Classic,
    /// draft-briscoe-tsvwg-cl-phb-03 §3.2: mark iff fewer tokens than the packet's bits, and
    /// then remove none; otherwise remove the packet's bits.
    ClPhb03,
}

impl ExcessMeter {
    pub fn name(self) -> &'static str {
        match self {
            ExcessMeter::SizeIndependent => "size-independent",
            ExcessMeter::Classic => "classic",
            ExcessMeter::ClPhb03 => "cl-phb-03",
        }
    }
    pub fn from_name(s: &str) -> Option<ExcessMeter> {
        match s {
            "size-independent" => Some(ExcessMeter::SizeIndependent),
            "classic" => Some(ExcessMeter::Classic),
            "cl-phb-03" => Some(ExcessMeter::ClPhb03),
            _ => None,
        }
    }
}

/// Settings of the CL termination (excess-traffic) marker. Bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClTerminationParams {
    /// PCN-excess-rate = PCN-supportable-rate (RFC 6661 §2).
    pub supportable_rate: Rate,
    /// BS_etm.
    pub depth_bits: u64,
    /// false (default, RFC 5670 §2.4) = packets that arrive PM are not metered.
    pub meter_already_marked: bool,
    pub meter: ExcessMeter,
}

impl ClTerminationParams {
    /// §10.5: depth = 5 ms at the PCN-supportable-rate; RFC 5670 §2.4's SHOULDs: already-PM
    /// packets not metered, packet-size-independent marking.
    pub fn draft_defaults(sr: Rate) -> ClTerminationParams {
        ClTerminationParams {
            supportable_rate: sr,
            depth_bits: bits_at(sr, Duration::from_millis(5)),
            meter_already_marked: false,
            meter: ExcessMeter::SizeIndependent,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        positive_rate("supportable_rate", self.supportable_rate)?;
        positive_bits("depth_bits", self.depth_bits)?;
        Ok(())
    }
}

/// CL termination marking: RFC 5670 §2.4 excess-traffic-meter at SR (module docs).
#[derive(Clone, Debug)]
pub struct ClTerminationMarker {
    params: ClTerminationParams,
    /// F_etm in bit·ns; negative only with [`ExcessMeter::SizeIndependent`] (≥ −max packet).
    tok: i128,
    depth: i128,
    last: Time,
    counters: MarkCounters,
}

impl ClTerminationMarker {
    pub fn new(p: ClTerminationParams) -> Result<Self, ConfigError> {
        p.validate()?;
        let depth = u(p.depth_bits) as i128;
        Ok(ClTerminationMarker {
            params: p,
            // Network idle at time 0: the bucket starts full (map §5 item 2).
            tok: depth,
            depth,
            last: Time::ZERO,
            counters: MarkCounters::default(),
        })
    }
    pub fn params(&self) -> &ClTerminationParams {
        &self.params
    }
    pub fn counters(&self) -> &MarkCounters {
        &self.counters
    }
    /// F_etm in bit·ns (negative: a size-independent bucket in debt).
    pub fn tokens_units(&self) -> i128 {
        self.tok
    }

    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        // A.2: "F_etm = min(BS_etm, F_etm + (now - lastUpdate) * PCN-excess-rate)".
        let dt = now.saturating_since(self.last).as_nanos() as i128;
        let add = dt * self.params.supportable_rate.bps() as i128;
        self.tok = self.tok.saturating_add(add).min(self.depth);
        if now > self.last {
            self.last = now;
        }
        let b = u(bits) as i128;
        let mut out = mark;
        let mut reason = None;
        if mark == PcnMark::ExcessMarked && !self.params.meter_already_marked {
            // §2.4: "A packet SHOULD NOT be metered ... if the PCN-packet is already
            // excess-traffic-marked on arrival at the PCN-node."
            self.counters.not_metered_packets += 1;
        } else {
            let excess = match self.params.meter {
                // A.2: "if (F_etm < 0) then packet_mark = excess-traffic-marked;
                // else F_etm = F_etm - packet_size" — either marked or tokens removed, never both.
                ExcessMeter::SizeIndependent => {
                    let neg = self.tok < 0;
                    if !neg {
                        self.tok -= b;
                    }
                    neg
                }
                // §2.4 classic: "Tokens are removed equal to the size in bits of the
                // metered-packet, to a minimum F_etm = 0"; marked when the bucket holds fewer
                // tokens than the packet (B.6).
                ExcessMeter::Classic => {
                    let short = self.tok < b;
                    self.tok = (self.tok - b).max(0);
                    short
                }
                // cl-phb-03 §3.2: "if there are insufficient tokens (because removing them would
                // cause a negative number of tokens in the token bucket), then tokens are not
                // removed and the packet is pre-emption marked"; otherwise "the amount removed
                // is the same as the number of octets in the packet" (bits here).
                ExcessMeter::ClPhb03 => {
                    let short = self.tok < b;
                    if !short {
                        self.tok -= b;
                    }
                    short
                }
            };
            if excess {
                out = PcnMark::ExcessMarked;
                reason = Some(MarkReason::ExcessRate);
            }
        }
        self.counters.record(bits, mark, out, reason);
        out
    }
}

/// Both CL stages on one link: admission first, then termination; PM over AM.
#[derive(Clone, Debug)]
pub struct ClMarker {
    pub admission: ClAdmissionMarker,
    pub termination: ClTerminationMarker,
}

impl ClMarker {
    pub fn new(a: ClAdmissionParams, t: ClTerminationParams) -> Result<Self, ConfigError> {
        Ok(ClMarker {
            admission: ClAdmissionMarker::new(a)?,
            termination: ClTerminationMarker::new(t)?,
        })
    }
    /// The §10.5 parameters for a link with these rates.
    pub fn draft_defaults(ar: Rate, sr: Rate) -> Result<Self, ConfigError> {
        if ar >= sr {
            super::ar_below_sr(ar, sr)?;
        }
        ClMarker::new(
            ClAdmissionParams::draft_defaults(ar),
            ClTerminationParams::draft_defaults(sr),
        )
    }
    pub fn on_packet<R: RandomSource>(
        &mut self,
        now: Time,
        bits: u64,
        mark: PcnMark,
        rng: &mut R,
    ) -> PcnMark {
        let a = self.admission.on_packet(now, bits, mark, rng);
        let t = self.termination.on_packet(now, bits, a);
        a.max(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const NM: PcnMark = PcnMark::NotMarked;
    const AM: PcnMark = PcnMark::ThresholdMarked;
    const PM: PcnMark = PcnMark::ExcessMarked;

    /// A source that always returns the same uniform value.
    struct Fixed(u64);
    impl RandomSource for Fixed {
        fn next_u64(&mut self) -> u64 {
            self.0
        }
    }
    fn uniform_of(x: f64) -> Fixed {
        Fixed(((x * (1u64 << 53) as f64) as u64) << 11)
    }

    fn adm() -> ClAdmissionMarker {
        // 1000 bit/s; min 100, max 300, limit 400 bits.
        ClAdmissionMarker::new(ClAdmissionParams {
            admissible_rate: Rate(1000),
            min_threshold_bits: 100,
            max_threshold_bits: 300,
            limit_bits: 400,
        })
        .unwrap()
    }

    #[test]
    fn ramp_is_linear_between_min_and_max() {
        let mut a = adm();
        // vq 100 (= min): probability 0, no draw needed.
        assert_eq!(a.on_packet(Time(0), 100, NM, &mut uniform_of(0.0)), NM);
        // vq 200: probability 0.5. U = 0.49 marks, U = 0.5 does not.
        assert_eq!(a.probability(u(200)), 0.5);
        let mut b = a.clone();
        assert_eq!(a.on_packet(Time(0), 100, NM, &mut uniform_of(0.49)), AM);
        assert_eq!(b.on_packet(Time(0), 100, NM, &mut uniform_of(0.5)), NM);
        // vq 300 (= max): always.
        assert_eq!(a.on_packet(Time(0), 100, NM, &mut uniform_of(0.999)), AM);
        // Capped at the limit: 300 + 500 → 400.
        a.on_packet(Time(0), 500, NM, &mut uniform_of(0.0));
        assert_eq!(a.vq_units(), u(400));
        // Drains at AR: 100 ms at 1000 bit/s = 100 bits → 300 + 10 (packet) = 310.
        a.on_packet(Time::from_millis(100), 10, NM, &mut uniform_of(0.0));
        assert_eq!(a.vq_units(), u(310));
        // Empty after long idle; floors at 0 before adding.
        a.on_packet(Time::from_secs(10), 1, NM, &mut uniform_of(0.0));
        assert_eq!(a.vq_units(), u(1));
    }

    #[test]
    fn admission_never_touches_marked_packets_but_meters_them() {
        let mut a = adm();
        assert_eq!(a.on_packet(Time(0), 350, PM, &mut uniform_of(0.0)), PM);
        assert_eq!(a.on_packet(Time(0), 10, AM, &mut uniform_of(0.0)), AM);
        assert_eq!(a.vq_units(), u(360));
        assert_eq!(
            a.counters().by_reason_packets[MarkReason::AdmissionRamp as usize],
            0
        );
    }

    fn term(meter_all: bool, meter: ExcessMeter) -> ClTerminationMarker {
        ClTerminationMarker::new(ClTerminationParams {
            supportable_rate: Rate(1000),
            depth_bits: 100,
            meter_already_marked: meter_all,
            meter,
        })
        .unwrap()
    }
    fn i(bits: i128) -> i128 {
        bits * 1_000_000_000
    }

    /// RFC 5670 App. A.2: a packet is marked iff the bucket is negative; otherwise its tokens
    /// are removed (possibly into debt); never both.
    #[test]
    fn size_independent_bucket_boundary() {
        let mut t = term(false, ExcessMeter::SizeIndependent);
        // tokens 100 ≥ 0: a 150-bit packet conforms and leaves the bucket at −50.
        assert_eq!(t.on_packet(Time(0), 150, NM), NM);
        assert_eq!(t.tokens_units(), i(-50));
        // Negative: marked whatever its size, and takes nothing.
        assert_eq!(t.on_packet(Time(0), 1, NM), PM);
        assert_eq!(t.on_packet(Time(0), 10_000, AM), PM);
        assert_eq!(t.tokens_units(), i(-50));
        // 50 ms at 1000 bit/s = 50 bits: back to exactly 0, which is not negative → conforms.
        assert_eq!(t.on_packet(Time::from_millis(50), 10_000, NM), NM);
        assert_eq!(t.tokens_units(), i(-10_000));
        // Refill is capped at the depth: after 100 s the bucket holds 100, not more.
        assert_eq!(t.on_packet(Time::from_secs(100), 100, NM), NM);
        assert_eq!(t.tokens_units(), 0);
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            2
        );
    }

    /// RFC 5670 §2.4 classic: marked iff fewer tokens than bits (B.6); every metered packet
    /// removes its bits to a minimum of 0.
    #[test]
    fn classic_bucket_boundary() {
        let mut t = term(false, ExcessMeter::Classic);
        // tokens 100 ≥ 100: conforming, bucket empties.
        assert_eq!(t.on_packet(Time(0), 100, NM), NM);
        assert_eq!(t.tokens_units(), 0);
        // 10 ms at 1000 bit/s = 10 bits; an 11-bit packet is excess, and the bucket is
        // emptied ("to a minimum F_etm = 0").
        assert_eq!(t.on_packet(Time::from_millis(10), 11, NM), PM);
        assert_eq!(t.tokens_units(), 0);
        // 10 more ms: exactly 10 bits conform.
        assert_eq!(t.on_packet(Time::from_millis(20), 10, AM), AM);
        assert_eq!(t.tokens_units(), 0);
        // An excess AM packet becomes PM.
        assert_eq!(t.on_packet(Time::from_millis(20), 1, AM), PM);
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            2
        );
    }

    /// draft-briscoe-tsvwg-cl-phb-03 §3.2 (Fig. 4): marked iff removing the packet's bits
    /// would make the bucket negative, and then no tokens are removed; an arrived PM packet is
    /// neither metered nor charged.
    #[test]
    fn cl_phb_03_bucket_boundary() {
        let mut t = term(false, ExcessMeter::ClPhb03);
        // 100 tokens: a 101-bit packet is marked and takes nothing.
        assert_eq!(t.on_packet(Time(0), 101, NM), PM);
        assert_eq!(t.tokens_units(), i(100));
        // Exactly 100 bits conform and empty the bucket.
        assert_eq!(t.on_packet(Time(0), 100, AM), AM);
        assert_eq!(t.tokens_units(), 0);
        // 10 ms at 1000 bit/s = 10 bits: an 11-bit packet is marked, the 10 tokens stay (the
        // classic meter would empty the bucket here).
        assert_eq!(t.on_packet(Time::from_millis(10), 11, NM), PM);
        assert_eq!(t.tokens_units(), i(10));
        assert_eq!(t.on_packet(Time::from_millis(10), 10, NM), NM);
        assert_eq!(t.tokens_units(), 0);
        // Already PM: "tokens are not removed".
        assert_eq!(t.on_packet(Time::from_millis(20), 5, PM), PM);
        assert_eq!(t.tokens_units(), i(10));
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            2
        );
        assert_eq!(
            ExcessMeter::from_name("cl-phb-03"),
            Some(ExcessMeter::ClPhb03)
        );
        assert_eq!(ExcessMeter::ClPhb03.name(), "cl-phb-03");
    }

    /// Under a steady overload the size-independent meter marks the excess over SR (the
    /// RFC 5670 abstract: "the amount marked equals the rate of PCN-traffic in excess of a
    /// configured rate") whatever the mix of packet sizes.
    #[test]
    fn size_independent_marks_the_excess_rate() {
        // SR = 1 Mb/s; 1.5 Mb/s offered for 10 s as 100- and 1900-bit packets alternating
        // every 2/3 ms (1000 bits on average).
        let mut t = ClTerminationMarker::new(ClTerminationParams {
            supportable_rate: Rate(1_000_000),
            depth_bits: 5_000,
            meter_already_marked: false,
            meter: ExcessMeter::SizeIndependent,
        })
        .unwrap();
        let (mut passed, mut total) = (0u64, 0u64);
        for k in 0..15_000u64 {
            let bits = if k % 2 == 0 { 100 } else { 1900 };
            total += bits;
            if t.on_packet(Time(k * 2_000_000 / 3), bits, NM) == NM {
                passed += bits;
            }
        }
        // Passed bits = SR·10 s + depth, within one packet.
        let expect = 10_000_000 + 5_000;
        assert!(
            (passed as i64 - expect as i64).abs() <= 1900,
            "{passed} of {total}"
        );
    }

    #[test]
    fn already_pm_is_not_metered_unless_switched() {
        for meter in [
            ExcessMeter::SizeIndependent,
            ExcessMeter::Classic,
            ExcessMeter::ClPhb03,
        ] {
            let mut t = term(false, meter);
            assert_eq!(t.on_packet(Time(0), 60, PM), PM);
            assert_eq!(t.tokens_units(), i(100));
            assert_eq!(t.counters().not_metered_packets, 1);
            // So a following 100-bit unmarked packet still conforms.
            assert_eq!(t.on_packet(Time(0), 100, NM), NM);
        }
        let mut t = term(true, ExcessMeter::Classic);
        assert_eq!(t.on_packet(Time(0), 60, PM), PM);
        assert_eq!(t.tokens_units(), i(40));
        assert_eq!(t.counters().not_metered_packets, 0);
        assert_eq!(t.on_packet(Time(0), 100, NM), PM);
        // A PM packet finding no tokens stays PM and is not counted as newly marked.
        assert_eq!(t.on_packet(Time(0), 100, PM), PM);
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            1
        );
        let mut t = term(true, ExcessMeter::SizeIndependent);
        assert_eq!(t.on_packet(Time(0), 160, PM), PM);
        assert_eq!(t.tokens_units(), i(-60));
        assert_eq!(t.on_packet(Time(0), 1, NM), PM);
    }

    #[test]
    fn step_threshold_meter_is_rfc5670_a1() {
        // BS_tm = 400 bits, threshold = 100 bits ⇔ limit 400, min = max = 300.
        let mut a = ClAdmissionMarker::new(ClAdmissionParams {
            admissible_rate: Rate(1000),
            min_threshold_bits: 300,
            max_threshold_bits: 300,
            limit_bits: 400,
        })
        .unwrap();
        let mut r = uniform_of(0.0);
        // F_tm: 400 → 100 (not < 100): not marked.
        assert_eq!(a.on_packet(Time(0), 300, NM, &mut r), NM);
        // F_tm: 100 → 99 < 100: marked.
        assert_eq!(a.on_packet(Time(0), 1, NM, &mut r), AM);
        // 2 ms at 1000 bit/s = 2 bits back: F_tm 101 → 100: not marked.
        assert_eq!(a.on_packet(Time::from_millis(2), 1, NM, &mut r), NM);
        // Never re-marks an arrived PM (A.1), but meters it: F_tm 100 → 0.
        assert_eq!(a.on_packet(Time::from_millis(2), 100, PM, &mut r), PM);
        assert_eq!(a.vq_units(), u(400));
    }

    #[test]
    fn combined_pm_takes_precedence_over_am() {
        let mut m = ClMarker::new(
            ClAdmissionParams {
                admissible_rate: Rate(1000),
                min_threshold_bits: 10,
                max_threshold_bits: 20,
                limit_bits: 400,
            },
            ClTerminationParams {
                supportable_rate: Rate(2000),
                depth_bits: 50,
                meter_already_marked: false,
                meter: ExcessMeter::Classic,
            },
        )
        .unwrap();
        let mut rng = Rng::from_seed(1);
        // 30 bits: vq 30 ≥ max → AM; tokens 50 → 20: stays AM.
        assert_eq!(m.on_packet(Time(0), 30, NM, &mut rng), AM);
        // 30 bits: AM by the ramp, and excess (20 < 30) → PM wins.
        assert_eq!(m.on_packet(Time(0), 30, NM, &mut rng), PM);
        // An arrived PM stays PM, and is not metered by the excess bucket.
        assert_eq!(m.on_packet(Time(0), 30, PM, &mut rng), PM);
        // (Classic: the excess packet emptied the bucket; the arrived PM took nothing.)
        assert_eq!(m.termination.tokens_units(), 0);
    }

    #[test]
    fn params_are_validated() {
        let p = ClAdmissionParams::draft_defaults(Rate::from_mbps(64));
        assert_eq!(
            (p.min_threshold_bits, p.max_threshold_bits, p.limit_bits),
            (320_000, 960_000, 1_280_000)
        );
        let mut q = p;
        q.max_threshold_bits = q.limit_bits + 1;
        assert!(ClAdmissionMarker::new(q)
            .unwrap_err()
            .to_string()
            .contains("virtual-queue-upper-limit"));
        let mut q = p;
        q.min_threshold_bits = q.max_threshold_bits;
        assert!(ClAdmissionMarker::new(q).is_ok()); // RFC 5670's step
        q.min_threshold_bits += 1;
        assert!(ClAdmissionMarker::new(q).is_err());
        let t = ClTerminationParams::draft_defaults(Rate::from_mbps(128));
        assert_eq!(t.depth_bits, 640_000);
        let mut q = t;
        q.depth_bits = 0;
        assert!(ClTerminationMarker::new(q).is_err());
        assert!(ClMarker::draft_defaults(Rate(10), Rate(10)).is_err());
        assert!(ClMarker::draft_defaults(Rate::from_mbps(64), Rate::from_mbps(128)).is_ok());
    }
}
