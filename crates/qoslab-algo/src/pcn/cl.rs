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
//! ## Termination marking ([`ClTerminationMarker`])
//! Excess-rate marking with a token bucket at the PCN-supportable-rate, depth "5 ms at the
//! PCN-supportable-rate" (§10.5):
//! ```text
//! tok = min(depth, tok + SR·(now − last)); last = now
//! if arrived PM and !meter_already_marked: pass  (not metered)
//! elif tok ≥ b: tok −= b                          (conforming)
//! else: PM                                        (excess; takes no tokens)
//! ```
//! `meter_already_marked = false` (default) keeps already-PM packets out of the meter: then
//! only the excess *not yet marked upstream* is marked on each link, which is what makes CL
//! marks accumulate along a multi-bottleneck path (§5.2, §12.3). `true` meters all packets.
//!
//! ## Combined ([`ClMarker`])
//! The admission stage runs first (it sees the arrived mark), then the termination stage;
//! the result is the maximum, so PM takes precedence over AM. Both stages meter every packet
//! (except already-PM packets in the termination stage by default), so the order changes
//! neither bucket: it only fixes when a random number is drawn.
//!
//! ## Sources (what could and could not be checked)
//! - The §10.5 values (5/15/20 ms at AR; 5 ms at SR) are stated in the draft, which also
//!   says the virtual-queue parameters "were the same as those in [I-D.briscoe-tsvwg-cl-phb],
//!   [I-D.charny-pcn-single-marking], and [I-D.zhang-pcn-performance-evaluation]".
//! - RFC 5670 (Eardley, "Metering and Marking Behaviour of PCN-Nodes", Nov. 2009), abstract,
//!   found with the search tool: "Excess-traffic-metering and -marking marks a proportion of
//!   PCN-packets, such that the amount marked equals the rate of PCN-traffic in excess of a
//!   configured rate" — the termination stage here marks exactly the bits that find too few
//!   tokens, i.e. the excess over SR (tested in `excess_bucket_boundary`). RFC 5670's own
//!   pseudo-code (App. A) and its rule on already-marked packets could **not** be retrieved
//!   through the search tool (only the openings of the pages were returned; errata 1968
//!   confirms the App. A.2 variables F_etm, BS_etm, lastUpdate).
//! - draft-briscoe-tsvwg-cl-phb (-01, March 2006, found; body not retrievable) and
//!   draft-charny-pcn-single-marking-03 (Nov. 2007, found; body not retrievable): the ramp
//!   shape, add-then-test order, instantaneous virtual queue and "already-PM not metered"
//!   could not be verified. They remain the reading map's \[X\]/\[G\] choices, each behind a
//!   switch or documented here: `meter_already_marked` (default false); add-then-test is
//!   fixed in code (documented above).
//! - CL's three-state encoding with PM over AM: consistent with the 3-in-1 encoding draft's
//!   abstract (draft-ietf-pcn-3-in-1-encoding: not-marked, threshold-marked,
//!   excess-traffic-marked), found with the search tool.

use super::{bits_at, positive_bits, positive_rate, u, Fill, MarkCounters, MarkReason, PcnMark};
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
        if !(self.min_threshold_bits < self.max_threshold_bits
            && self.max_threshold_bits <= self.limit_bits)
        {
            return Err(ConfigError::relation(
                "min-marking-threshold < max-marking-threshold <= virtual-queue-upper-limit",
                "draft-satoh-pcn-st-marking-02 §10.5",
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
        // Add the packet, capped at the upper limit, then test.
        self.vq = self.vq.saturating_add(u(bits)).min(self.limit);
        let mut out = mark;
        let mut reason = None;
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

/// Settings of the CL termination (excess-rate) marker. Bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClTerminationParams {
    pub supportable_rate: Rate,
    pub depth_bits: u64,
    /// false (default) = packets that arrive PM are not metered.
    pub meter_already_marked: bool,
}

impl ClTerminationParams {
    /// §10.5: depth = 5 ms at the PCN-supportable-rate; already-PM packets not metered.
    pub fn draft_defaults(sr: Rate) -> ClTerminationParams {
        ClTerminationParams {
            supportable_rate: sr,
            depth_bits: bits_at(sr, Duration::from_millis(5)),
            meter_already_marked: false,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        positive_rate("supportable_rate", self.supportable_rate)?;
        positive_bits("depth_bits", self.depth_bits)?;
        Ok(())
    }
}

/// CL termination marking: excess-rate token bucket at SR (module docs).
#[derive(Clone, Debug)]
pub struct ClTerminationMarker {
    params: ClTerminationParams,
    tb: Fill,
    last: Time,
    counters: MarkCounters,
}

impl ClTerminationMarker {
    pub fn new(p: ClTerminationParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClTerminationMarker {
            params: p,
            tb: Fill::full(p.supportable_rate, p.depth_bits),
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
    pub fn tokens_units(&self) -> u128 {
        self.tb.fill
    }

    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        self.tb.accrue(now.saturating_since(self.last));
        if now > self.last {
            self.last = now;
        }
        let mut out = mark;
        let mut reason = None;
        if mark == PcnMark::ExcessMarked && !self.params.meter_already_marked {
            self.counters.not_metered_packets += 1;
        } else if self.tb.fill >= u(bits) {
            self.tb.remove(bits);
        } else {
            out = PcnMark::ExcessMarked;
            reason = Some(MarkReason::ExcessRate);
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

    fn term(meter_all: bool) -> ClTerminationMarker {
        ClTerminationMarker::new(ClTerminationParams {
            supportable_rate: Rate(1000),
            depth_bits: 100,
            meter_already_marked: meter_all,
        })
        .unwrap()
    }

    #[test]
    fn excess_bucket_boundary() {
        let mut t = term(false);
        // tokens 100 ≥ 100: conforming, bucket empties.
        assert_eq!(t.on_packet(Time(0), 100, NM), NM);
        assert_eq!(t.tokens_units(), 0);
        // 10 ms at 1000 bit/s = 10 bits; an 11-bit packet is excess and takes nothing.
        assert_eq!(t.on_packet(Time::from_millis(10), 11, NM), PM);
        assert_eq!(t.tokens_units(), u(10));
        // Exactly 10 bits conforms.
        assert_eq!(t.on_packet(Time::from_millis(10), 10, AM), AM);
        assert_eq!(t.tokens_units(), 0);
        // An excess AM packet becomes PM.
        assert_eq!(t.on_packet(Time::from_millis(10), 1, AM), PM);
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            2
        );
    }

    #[test]
    fn already_pm_is_not_metered_unless_switched() {
        let mut t = term(false);
        assert_eq!(t.on_packet(Time(0), 60, PM), PM);
        assert_eq!(t.tokens_units(), u(100));
        assert_eq!(t.counters().not_metered_packets, 1);
        // So a following 100-bit unmarked packet still conforms.
        assert_eq!(t.on_packet(Time(0), 100, NM), NM);

        let mut t = term(true);
        assert_eq!(t.on_packet(Time(0), 60, PM), PM);
        assert_eq!(t.tokens_units(), u(40));
        assert_eq!(t.counters().not_metered_packets, 0);
        assert_eq!(t.on_packet(Time(0), 100, NM), PM);
        // A PM packet finding no tokens stays PM and is not counted as newly marked.
        assert_eq!(t.on_packet(Time(0), 100, PM), PM);
        assert_eq!(
            t.counters().by_reason_packets[MarkReason::ExcessRate as usize],
            1
        );
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
        assert_eq!(m.termination.tokens_units(), u(20));
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
