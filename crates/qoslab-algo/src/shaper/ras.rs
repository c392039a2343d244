//! Rate adaptive shapers srRAS and trRAS (RFC 2963 §2.1–§2.4).
//!
//! "The shaper itself consists of a tail-drop FIFO queue which is emptied at a variable
//! rate" (§2.1): the shaping rate is `max(EAR(t), F(occupancy))`, with EAR the estimated
//! average rate of the incoming traffic ([`Ear`], §2.2) and F piecewise linear in the
//! buffer occupancy:
//!
//! ```text
//! srRAS (§2.3):  F = CIR below CIR_th, linear CIR→MIR on [CIR_th, MIR_th), MIR from MIR_th
//! trRAS (§2.5):  F = CIR below CIR_th, linear CIR→PIR on [CIR_th, PIR_th),
//!                linear PIR→MIR on [PIR_th, MIR_th), MIR from MIR_th
//! ```
//!
//! The srRAS is the trRAS with the PIR breakpoint merged into the MIR one, and both share
//! one type.
//!
//! ## Choices the text leaves open, and what is done here
//! - **Occupancy** is the number of bytes in the FIFO *including the head packet* (the one
//!   whose release is being timed): it still occupies the buffer and counts against the
//!   buffer size for tail drop. "Below CIR_th" is `occupancy < CIR_th`; "reaches MIR_th" is
//!   `occupancy >= MIR_th`; between breakpoints F is linear and rounded *down* to a whole
//!   bit/s (computed in u128, exact otherwise). With `CIR_th == MIR_th` F is a step.
//! - **The shaping rate is clamped to MIR**: `rate = min(MIR, max(EAR, F))`. The text's
//!   `max(EAR, F)` could exceed the *Maximum* Information Rate when EAR does (e.g. a burst
//!   of simultaneous arrivals); MIR is "typically the line rate of the output link" and the
//!   rate figure saturates there, so the shaper never emits faster than MIR. Hence the rate
//!   is always in [CIR, MIR].
//! - **When the rate is evaluated and how the release instant follows** ("emptied at a
//!   variable rate"; "instantaneous occupancy"): the head packet is *served* like a fluid at
//!   the current shaping rate, and the rate is re-evaluated at every event that can change
//!   it — each arrival (EAR and occupancy change) and each release (occupancy changes).
//!   The head's remaining work is kept exactly (in 10⁻⁹ bit) and its release instant is
//!   `t_last + ceil(remaining / rate)`. A packet reaching the head at `h` (its arrival if the
//!   FIFO was empty, else the previous release) therefore leaves after `L/rate` if nothing
//!   changes, and earlier if arrivals push the rate up meanwhile (later if a long gap makes
//!   EAR fall). Why not latch the rate when the packet reaches the head: then a green RAS
//!   could release *later* than its plain RAS (an early green release leaves the next head
//!   facing a lower occupancy and a latched low rate); with re-evaluation the served work
//!   of a G-RAS never falls behind that of the plain RAS, so it never releases later
//!   (property-tested in this crate). The rate is constant between events, so the schedule
//!   is exact and independent of extra re-evaluations.
//! - **A packet of size 0** leaves as soon as it reaches the head.
//! - **EAR is fed every arrival**, including packets then refused by a full buffer: it
//!   estimates "the average rate of the incoming traffic" (§2.2). EAR's first-packet and
//!   `T = 0` rules are in [`ear`](super::ear).
//! - **Parameters**: rates are [`Rate`] (bit/s; the RFC's bytes/s × 8); thresholds and the
//!   buffer are bytes. MIR is required (the RFC's "SHOULD be configurable" — pass the line
//!   rate for its suggested default), as are the thresholds. `line_rate` is only used to
//!   check §2.2/§2.4's relation.
//!
//! The release instant of the head is a pure function of the state, so
//! [`Ras::next_release`] needs no `now`; see the caller contract in [`shaper`](super).

use super::ear::{Ear, EarParams};
use super::fifo::{served, time_to_serve, units, HeldFifo};
use super::{Dropped, ShaperStats};
use crate::error::ConfigError;
use crate::packet::PacketView;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Single-rate (srRAS, RFC 2963 §2.2) or two-rate (trRAS, §2.4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RasKind {
    SingleRate,
    TwoRate,
}

/// srRAS settings as written (RFC 2963 §2.2), before validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrRasConfig {
    /// Committed Information Rate (the downstream srTCM's CIR, typically).
    pub cir: Rate,
    /// Maximum Information Rate (the line rate, typically).
    pub mir: Rate,
    /// Rate of the shaper's output link.
    pub line_rate: Rate,
    /// Occupancy (bytes) from which F rises above CIR.
    pub cir_th: u64,
    /// Occupancy (bytes) from which F is MIR.
    pub mir_th: u64,
    /// Buffer size of the shaper (bytes).
    pub buffer: u64,
    /// EAR averaging constant K.
    pub ear_window: Duration,
}

/// trRAS settings as written (RFC 2963 §2.4), before validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrRasConfig {
    pub cir: Rate,
    /// Peak Information Rate (the downstream trTCM's PIR, typically).
    pub pir: Rate,
    pub mir: Rate,
    pub line_rate: Rate,
    pub cir_th: u64,
    /// Occupancy (bytes) at which F reaches PIR.
    pub pir_th: u64,
    pub mir_th: u64,
    pub buffer: u64,
    pub ear_window: Duration,
}

const SR_RATES: &str = "CIR <= MIR <= line rate";
const SR_THRESHOLDS: &str = "CIR_th <= MIR_th <= buffer size";
const TR_RATES: &str = "CIR <= PIR <= MIR <= line rate";
const TR_THRESHOLDS: &str = "CIR_th <= PIR_th <= MIR_th <= buffer size";
const SR_SOURCE: &str = "RFC 2963 §2.2";
const TR_SOURCE: &str = "RFC 2963 §2.4";

/// Validated settings of a [`Ras`] (srRAS or trRAS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RasParams {
    kind: RasKind,
    cir: Rate,
    /// For an srRAS, equal to `mir` (the PIR breakpoint merged into the MIR one).
    pir: Rate,
    mir: Rate,
    line_rate: Rate,
    cir_th: u64,
    /// For an srRAS, equal to `mir_th`.
    pir_th: u64,
    mir_th: u64,
    buffer: u64,
    ear: EarParams,
}

impl RasParams {
    /// An srRAS. Refuses CIR = 0, buffer = 0, K = 0 and, naming the rule,
    /// "RFC 2963 §2.2: CIR <= MIR <= line rate" and
    /// "RFC 2963 §2.2: CIR_th <= MIR_th <= buffer size".
    pub fn single_rate(c: &SrRasConfig) -> Result<Self, ConfigError> {
        let ear = common_checks(c.cir, c.buffer, c.ear_window)?;
        // RFC 2963 §2.2: "the srRAS MUST ensure that ... CIR <= MIR <= line rate"
        if !(c.cir <= c.mir && c.mir <= c.line_rate) {
            let d = format!(
                "CIR = {} bit/s, MIR = {} bit/s, line rate = {} bit/s",
                c.cir.bps(),
                c.mir.bps(),
                c.line_rate.bps()
            );
            return Err(ConfigError::relation(SR_RATES, SR_SOURCE, d));
        }
        // RFC 2963 §2.2: "CIR_th <= MIR_th <= buffer size of the shaper"
        if !(c.cir_th <= c.mir_th && c.mir_th <= c.buffer) {
            let d = format!(
                "CIR_th = {} B, MIR_th = {} B, buffer = {} B",
                c.cir_th, c.mir_th, c.buffer
            );
            return Err(ConfigError::relation(SR_THRESHOLDS, SR_SOURCE, d));
        }
        Ok(RasParams {
            kind: RasKind::SingleRate,
            cir: c.cir,
            pir: c.mir,
            mir: c.mir,
            line_rate: c.line_rate,
            cir_th: c.cir_th,
            pir_th: c.mir_th,
            mir_th: c.mir_th,
            buffer: c.buffer,
            ear,
        })
    }

    /// A trRAS. Refuses CIR = 0, buffer = 0, K = 0 and, naming the rule,
    /// "RFC 2963 §2.4: CIR <= PIR <= MIR <= line rate" and
    /// "RFC 2963 §2.4: CIR_th <= PIR_th <= MIR_th <= buffer size".
    pub fn two_rate(c: &TrRasConfig) -> Result<Self, ConfigError> {
        let ear = common_checks(c.cir, c.buffer, c.ear_window)?;
        // RFC 2963 §2.4: "the trRAS MUST ensure that ... CIR <= PIR <= MIR <= line rate"
        if !(c.cir <= c.pir && c.pir <= c.mir && c.mir <= c.line_rate) {
            let d = format!(
                "CIR = {} bit/s, PIR = {} bit/s, MIR = {} bit/s, line rate = {} bit/s",
                c.cir.bps(),
                c.pir.bps(),
                c.mir.bps(),
                c.line_rate.bps()
            );
            return Err(ConfigError::relation(TR_RATES, TR_SOURCE, d));
        }
        // RFC 2963 §2.4: "CIR_th <= PIR_th <= MIR_th <= buffer size of the shaper"
        if !(c.cir_th <= c.pir_th && c.pir_th <= c.mir_th && c.mir_th <= c.buffer) {
            let d = format!(
                "CIR_th = {} B, PIR_th = {} B, MIR_th = {} B, buffer = {} B",
                c.cir_th, c.pir_th, c.mir_th, c.buffer
            );
            return Err(ConfigError::relation(TR_THRESHOLDS, TR_SOURCE, d));
        }
        Ok(RasParams {
            kind: RasKind::TwoRate,
            cir: c.cir,
            pir: c.pir,
            mir: c.mir,
            line_rate: c.line_rate,
            cir_th: c.cir_th,
            pir_th: c.pir_th,
            mir_th: c.mir_th,
            buffer: c.buffer,
            ear,
        })
    }

    pub fn kind(&self) -> RasKind {
        self.kind
    }
    pub fn cir(&self) -> Rate {
        self.cir
    }
    /// PIR (trRAS); equal to MIR for an srRAS.
    pub fn pir(&self) -> Rate {
        self.pir
    }
    pub fn mir(&self) -> Rate {
        self.mir
    }
    pub fn line_rate(&self) -> Rate {
        self.line_rate
    }
    pub fn cir_th(&self) -> u64 {
        self.cir_th
    }
    /// PIR_th (trRAS); equal to MIR_th for an srRAS.
    pub fn pir_th(&self) -> u64 {
        self.pir_th
    }
    pub fn mir_th(&self) -> u64 {
        self.mir_th
    }
    pub fn buffer(&self) -> u64 {
        self.buffer
    }
    pub fn ear(&self) -> &EarParams {
        &self.ear
    }

    /// F(occupancy) of RFC 2963 §2.3 (srRAS) / §2.5 (trRAS), rounded down to a bit/s.
    pub fn f(&self, occupancy: u64) -> Rate {
        let q = occupancy;
        if q < self.cir_th {
            // "The first piece is between zero and CIR_th where F is equal to CIR."
            self.cir
        } else if q < self.pir_th {
            // "between CIR_th and PIR_th ... F increases linearly from CIR to PIR"
            // (srRAS: from CIR to MIR, since PIR_th = MIR_th and PIR = MIR)
            lerp(
                self.cir,
                self.pir,
                q - self.cir_th,
                self.pir_th - self.cir_th,
            )
        } else if q < self.mir_th {
            // "from PIR_th to MIR_th where F increases linearly from PIR to the MIR"
            lerp(
                self.pir,
                self.mir,
                q - self.pir_th,
                self.mir_th - self.pir_th,
            )
        } else {
            // "when the buffer occupancy is above MIR_th, the shaping rate remains
            // constant at the MIR"
            self.mir
        }
    }

    /// The shaping rate `min(MIR, max(EAR, F(occupancy)))` (the MIR clamp is this
    /// implementation's choice, see the module docs).
    pub fn shaping_rate(&self, ear: Rate, occupancy: u64) -> Rate {
        // RFC 2963 §2.3: "the output rate of the shaper is computed as the maximum of the
        // EAR(t) and a linear function F of the buffer occupancy"
        ear.max(self.f(occupancy)).min(self.mir)
    }
}

fn common_checks(cir: Rate, buffer: u64, k: Duration) -> Result<EarParams, ConfigError> {
    if cir.bps() == 0 {
        return Err(ConfigError::out_of_range("cir", cir.bps(), "> 0 bit/s"));
    }
    if buffer == 0 {
        return Err(ConfigError::out_of_range("buffer", buffer, ">= 1 byte"));
    }
    EarParams::new(k)
}

/// `a + (b − a)·num/den` rounded down, for `a <= b`, `num < den`.
fn lerp(a: Rate, b: Rate, num: u64, den: u64) -> Rate {
    let step = (b.bps() - a.bps()) as u128 * num as u128 / den as u128;
    Rate(a.bps() + step as u64)
}

/// A rate adaptive shaper, srRAS or trRAS (see the module docs).
#[derive(Clone, Debug)]
pub struct Ras {
    params: RasParams,
    fifo: HeldFifo,
    ear: Ear,
    /// Current shaping rate (bit/s), in [CIR, MIR].
    rate: Rate,
    /// The head's remaining work (10⁻⁹ bit) as of `t_last`.
    rem: u128,
    t_last: Time,
    /// When the current head reached the head of the FIFO.
    head_since: Time,
}

impl Ras {
    pub fn new(params: RasParams) -> Self {
        Ras {
            params,
            fifo: HeldFifo::new(params.buffer),
            ear: Ear::new(params.ear),
            rate: params.cir,
            rem: 0,
            t_last: Time::ZERO,
            head_since: Time::ZERO,
        }
    }

    pub fn params(&self) -> &RasParams {
        &self.params
    }
    pub fn kind(&self) -> RasKind {
        self.params.kind
    }
    /// The rate estimator.
    pub fn ear(&self) -> &Ear {
        &self.ear
    }
    /// The current shaping rate, `min(MIR, max(EAR, F(occupancy)))`, as of the last event.
    pub fn shaping_rate(&self) -> Rate {
        self.rate
    }

    /// The packet joins the FIFO (tail drop if `occupancy + size > buffer`); EAR, the
    /// occupancy and hence the shaping rate are updated.
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), Dropped> {
        let now = self.fifo.clock(now);
        // The head was served at the old rate until now.
        self.advance(now);
        self.fifo.count_arrival(pkt);
        // RFC 2963 §2.2: EAR over all incoming traffic (refused packets included).
        self.ear.on_arrival(now, pkt.size);
        let was_empty = self.fifo.is_empty();
        let res = self.fifo.try_push(now, id, pkt);
        if res.is_ok() && was_empty {
            self.start_head(now);
        }
        self.update_rate();
        res
    }

    /// The instant the head leaves if nothing else happens before (None if empty).
    pub fn next_release(&self) -> Option<Time> {
        self.fifo.head()?;
        Some(self.t_last + time_to_serve(self.rem, self.rate.bps()))
    }

    /// Pops the head if its release instant is `<= now`.
    pub fn release(&mut self, now: Time) -> Option<(u64, PacketView)> {
        let at = self.next_release()?;
        if at > now {
            return None;
        }
        self.release_at(at, now, false)
    }

    /// Pops the head at the scheduled instant `at` (`t_last <= at <= now`), starts the
    /// next head there (or at its arrival, if later) and re-evaluates the rate.
    /// `green`: released at T2 < T1 by a green RAS.
    pub(crate) fn release_at(
        &mut self,
        at: Time,
        now: Time,
        green: bool,
    ) -> Option<(u64, PacketView)> {
        debug_assert!(self.t_last <= at);
        self.fifo.clock(now);
        let head = self.fifo.pop(at, green)?;
        if let Some(next) = self.fifo.head() {
            let h = at.max(next.arrival);
            self.start_head(h);
        }
        self.update_rate();
        Some((head.id, head.pkt))
    }

    /// When the current head reached the head of the FIFO (meaningless when empty).
    pub(crate) fn head_since(&self) -> Time {
        self.head_since
    }
    pub(crate) fn head_size(&self) -> Option<u32> {
        self.fifo.head().map(|h| h.pkt.size)
    }
    pub(crate) fn last_now(&self) -> Time {
        self.fifo.last_now()
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }
    /// The occupancy: bytes held, head packet included.
    pub fn bytes(&self) -> u64 {
        self.fifo.bytes()
    }
    pub fn stats(&self) -> &ShaperStats {
        self.fifo.stats()
    }

    /// Serves the head at the current rate from `t_last` to `t` (capped at its release
    /// instant, so an overdue head is left due at its scheduled instant).
    fn advance(&mut self, t: Time) {
        let Some(due) = self.next_release() else {
            return;
        };
        let t = t.min(due);
        if t > self.t_last {
            let done = served(t - self.t_last, self.rate.bps());
            self.rem = self.rem.saturating_sub(done);
            self.t_last = t;
        }
    }

    fn start_head(&mut self, h: Time) {
        let size = self.fifo.head().map_or(0, |p| p.pkt.size);
        self.head_since = h;
        self.t_last = h;
        self.rem = units(size as u64);
    }

    fn update_rate(&mut self) {
        // RFC 2963 §2.1: "The shaping rate ... is a function of the occupancy of the FIFO
        // queue" and "of the average rate of the incoming traffic".
        self.rate = self.params.shaping_rate(self.ear.rate(), self.fifo.bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // CIR = 1000 B/s, MIR = 4000 B/s (line rate 10 000 B/s), CIR_th = 1000 B,
    // MIR_th = 3000 B, buffer 10 000 B, K = 1 s.
    pub(crate) fn sr_config() -> SrRasConfig {
        SrRasConfig {
            cir: Rate(8_000),
            mir: Rate(32_000),
            line_rate: Rate(80_000),
            cir_th: 1000,
            mir_th: 3000,
            buffer: 10_000,
            ear_window: Duration::from_secs(1),
        }
    }

    // CIR = 1000 B/s, PIR = 2000 B/s, MIR = 5000 B/s; CIR_th = 1000 B, PIR_th = 2000 B,
    // MIR_th = 4000 B, buffer 6000 B.
    fn tr_config() -> TrRasConfig {
        TrRasConfig {
            cir: Rate(8_000),
            pir: Rate(16_000),
            mir: Rate(40_000),
            line_rate: Rate(40_000),
            cir_th: 1000,
            pir_th: 2000,
            mir_th: 4000,
            buffer: 6000,
            ear_window: Duration::from_secs(1),
        }
    }

    #[test]
    fn f_single_rate_at_and_between_thresholds() {
        let p = RasParams::single_rate(&sr_config()).unwrap();
        assert_eq!(p.f(0), Rate(8_000));
        assert_eq!(p.f(999), Rate(8_000)); // below CIR_th
        assert_eq!(p.f(1000), Rate(8_000)); // F(CIR_th) = CIR
                                            // 8000 + 24 000 · 1000/2000 = 20 000
        assert_eq!(p.f(2000), Rate(20_000));
        // 8000 + 24 000 · 1/2000 = 8012
        assert_eq!(p.f(1001), Rate(8_012));
        // 8000 + floor(24 000 · 1999/2000) = 8000 + floor(23 988) = 31 988
        assert_eq!(p.f(2999), Rate(31_988));
        assert_eq!(p.f(3000), Rate(32_000)); // F(MIR_th) = MIR
        assert_eq!(p.f(10_000), Rate(32_000));
    }

    #[test]
    fn f_two_rate_at_and_between_thresholds() {
        let p = RasParams::two_rate(&tr_config()).unwrap();
        assert_eq!(p.f(999), Rate(8_000));
        assert_eq!(p.f(1000), Rate(8_000)); // F(CIR_th) = CIR
        assert_eq!(p.f(1500), Rate(12_000)); // 8000 + 8000 · 500/1000
        assert_eq!(p.f(2000), Rate(16_000)); // F(PIR_th) = PIR
        assert_eq!(p.f(3000), Rate(28_000)); // 16 000 + 24 000 · 1000/2000
                                             // 8000 + floor(8000 · 333/1000) = 8000 + 2664
        assert_eq!(p.f(1333), Rate(10_664));
        assert_eq!(p.f(4000), Rate(40_000)); // F(MIR_th) = MIR
        assert_eq!(p.f(6000), Rate(40_000));
    }

    #[test]
    fn step_when_thresholds_coincide() {
        let p = RasParams::single_rate(&SrRasConfig {
            cir_th: 2000,
            mir_th: 2000,
            ..sr_config()
        })
        .unwrap();
        assert_eq!(p.f(1999), Rate(8_000));
        assert_eq!(p.f(2000), Rate(32_000));
    }

    #[test]
    fn shaping_rate_is_max_of_ear_and_f_clamped_to_mir() {
        let p = RasParams::single_rate(&sr_config()).unwrap();
        assert_eq!(p.shaping_rate(Rate(5_000), 0), Rate(8_000)); // F = CIR wins
        assert_eq!(p.shaping_rate(Rate(25_000), 2000), Rate(25_000)); // EAR > F = 20 000
        assert_eq!(p.shaping_rate(Rate(90_000), 0), Rate(32_000)); // clamped to MIR
    }

    #[test]
    fn three_back_to_back_packets_into_an_sr_ras() {
        // Three 1000 B packets at t = 0 (sr_config: CIR 8000, MIR 32 000 bit/s, thresholds
        // 1000/3000 B, K = 1 s). A packet is 1000·8e9 = 8e12 work units.
        // Arrival #1: EAR = 0 (first packet), q = 1000 → F = CIR = 8000 → due 8e12/8000 = 1 s.
        // Arrival #2 (T = 0): EAR = 0 + L/K = 1000 B/s = 8000 bit/s; q = 2000 → F = 20 000
        //   → rate 20 000; nothing served yet (Δ = 0) → due 8e12/20 000 = 0.4 s.
        // Arrival #3 (T = 0): EAR = 2000 B/s = 16 000 bit/s; q = 3000 → F = MIR = 32 000
        //   → due 8e12/32 000 = 0.25 s.
        // Release #1 at 0.25 s; #2 at the head: q = 2000 → F = 20 000 > EAR 16 000
        //   → due 0.25 + 0.4 = 0.65 s.
        // Release #2 at 0.65 s; #3: q = 1000 → F = 8000 < EAR 16 000 → rate 16 000
        //   → due 0.65 + 8e12/16 000 s = 0.65 + 0.5 = 1.15 s.
        let mut s = Ras::new(RasParams::single_rate(&sr_config()).unwrap());
        s.on_arrival(Time(0), 1, PacketView::new(1000)).unwrap();
        assert_eq!(s.next_release(), Some(Time::from_secs(1)));
        s.on_arrival(Time(0), 2, PacketView::new(1000)).unwrap();
        assert_eq!(s.next_release(), Some(Time::from_millis(400)));
        s.on_arrival(Time(0), 3, PacketView::new(1000)).unwrap();
        assert_eq!(s.shaping_rate(), Rate(32_000));
        let mut out = vec![];
        while let Some(t) = s.next_release() {
            assert!(s.release(Time(t.0 - 1)).is_none());
            out.push((s.release(t).unwrap().0, t));
        }
        assert_eq!(
            out,
            vec![
                (1, Time::from_millis(250)),
                (2, Time::from_millis(650)),
                (3, Time::from_millis(1150))
            ]
        );
        // Delays 0.25 + 0.65 + 1.15 s.
        assert_eq!(s.stats().delay_sum_ns, 2_050_000_000);
    }

    #[test]
    fn two_back_to_back_packets_into_a_tr_ras() {
        // tr_config: CIR 8000, PIR 16 000, MIR 40 000 bit/s; thresholds 1000/2000/4000 B;
        // K = 1 s. Two 1500 B packets (12e12 work units each) at t = 0.
        // #1: EAR 0; q = 1500 → F = 8000 + 8000·500/1000 = 12 000 → due 1 s.
        // #2 (T = 0): EAR = 1500 B/s = 12 000 bit/s; q = 3000 → F = 16 000 + 24 000·1000/2000
        //   = 28 000 → #1 due ceil(12e12/28 000) = ceil(428 571 428.57) = 428 571 429 ns.
        // Release #1 there; #2: q = 1500 → F = 12 000 = EAR → due + 12e12/12 000 ns = +1 s.
        let mut s = Ras::new(RasParams::two_rate(&tr_config()).unwrap());
        s.on_arrival(Time(0), 1, PacketView::new(1500)).unwrap();
        assert_eq!(s.next_release(), Some(Time::from_secs(1)));
        s.on_arrival(Time(0), 2, PacketView::new(1500)).unwrap();
        assert_eq!(s.shaping_rate(), Rate(28_000));
        let t1 = Time(428_571_429);
        assert_eq!(s.next_release(), Some(t1));
        assert!(s.release(Time(t1.0 - 1)).is_none());
        assert_eq!(s.release(t1).unwrap().0, 1);
        assert_eq!(s.shaping_rate(), Rate(12_000));
        assert_eq!(s.next_release(), Some(Time(1_428_571_429)));
    }

    #[test]
    fn arrival_during_service_speeds_up_the_head() {
        // K = 1 s. #1 (1000 B) at 0: rate CIR = 8000, due 1 s.
        // #2 (2000 B) at 0.5 s: #1 has 0.5 s · 8000 = 4000 bit left (4e12 units).
        //   EAR: T = 0.5 s, (1 − e^(−0.5))·2000/0.5 + e^(−0.5)·0 = 4000·0.393 469 34
        //   = 1573.877 B/s → 12 591 bit/s; q = 3000 → F = MIR = 32 000 → rate 32 000
        //   → #1 due 0.5 + 4e12/32 000 ns = 0.5 + 0.125 = 0.625 s.
        // Release #1 at 0.625 s: q = 2000 → F = 20 000 → #2 due 0.625 + 16e12/20 000 ns
        //   = 0.625 + 0.8 = 1.425 s.
        let mut s = Ras::new(RasParams::single_rate(&sr_config()).unwrap());
        s.on_arrival(Time(0), 1, PacketView::new(1000)).unwrap();
        s.on_arrival(Time::from_millis(500), 2, PacketView::new(2000))
            .unwrap();
        assert_eq!(s.ear().rate(), Rate(12_591));
        assert_eq!(s.next_release(), Some(Time::from_millis(625)));
        assert_eq!(s.release(Time::from_millis(625)).unwrap().0, 1);
        assert_eq!(s.next_release(), Some(Time::from_millis(1425)));
    }

    #[test]
    fn tail_drop_when_the_buffer_is_full() {
        // buffer 10 000 B: ten 1000 B packets fit, the eleventh does not.
        let mut s = Ras::new(RasParams::single_rate(&sr_config()).unwrap());
        for id in 0..10 {
            s.on_arrival(Time(0), id, PacketView::new(1000)).unwrap();
        }
        let d = s
            .on_arrival(Time(0), 10, PacketView::new(1000))
            .unwrap_err();
        assert_eq!((d.id, d.cause), (10, super::super::DropCause::BufferFull));
        assert_eq!((s.len(), s.bytes()), (10, 10_000));
        assert_eq!(s.stats().drops_buffer_full, 1);
        // A 1-byte packet fits no more either (10 001 > 10 000).
        assert!(s.on_arrival(Time(0), 11, PacketView::new(1)).is_err());
    }

    fn relation_of(e: ConfigError) -> (&'static str, &'static str) {
        match e {
            ConfigError::Relation { rule, source, .. } => (rule, source),
            other => panic!("expected a relation error, got {other}"),
        }
    }

    #[test]
    fn single_rate_rules_are_refused_by_name() {
        let c = sr_config();
        for bad in [
            SrRasConfig {
                mir: Rate(7_999),
                ..c
            }, // CIR > MIR
            SrRasConfig {
                line_rate: Rate(31_999),
                ..c
            }, // MIR > line rate
        ] {
            let e = RasParams::single_rate(&bad).unwrap_err();
            assert!(e.to_string().contains("RFC 2963 §2.2"), "{e}");
            assert_eq!(relation_of(e), ("CIR <= MIR <= line rate", "RFC 2963 §2.2"));
        }
        for bad in [
            SrRasConfig { cir_th: 3001, ..c }, // CIR_th > MIR_th
            SrRasConfig { buffer: 2999, ..c }, // MIR_th > buffer
        ] {
            let e = RasParams::single_rate(&bad).unwrap_err();
            assert_eq!(
                relation_of(e),
                ("CIR_th <= MIR_th <= buffer size", "RFC 2963 §2.2")
            );
        }
        // Equalities are allowed.
        let ok = SrRasConfig {
            mir: Rate(8_000),
            line_rate: Rate(8_000),
            cir_th: 10_000,
            mir_th: 10_000,
            ..c
        };
        assert!(RasParams::single_rate(&ok).is_ok());
        assert!(RasParams::single_rate(&SrRasConfig { cir: Rate(0), ..c }).is_err());
        assert!(RasParams::single_rate(&SrRasConfig {
            ear_window: Duration::ZERO,
            ..c
        })
        .is_err());
    }

    #[test]
    fn two_rate_rules_are_refused_by_name() {
        let c = tr_config();
        for bad in [
            TrRasConfig {
                pir: Rate(7_999),
                ..c
            }, // CIR > PIR
            TrRasConfig {
                pir: Rate(40_001),
                mir: Rate(40_000),
                ..c
            }, // PIR > MIR
            TrRasConfig {
                line_rate: Rate(39_999),
                ..c
            }, // MIR > line rate
        ] {
            let e = RasParams::two_rate(&bad).unwrap_err();
            assert!(e.to_string().contains("RFC 2963 §2.4"), "{e}");
            assert_eq!(
                relation_of(e),
                ("CIR <= PIR <= MIR <= line rate", "RFC 2963 §2.4")
            );
        }
        for bad in [
            TrRasConfig { cir_th: 2001, ..c }, // CIR_th > PIR_th
            TrRasConfig { pir_th: 4001, ..c }, // PIR_th > MIR_th
            TrRasConfig { buffer: 3999, ..c }, // MIR_th > buffer
        ] {
            let e = RasParams::two_rate(&bad).unwrap_err();
            assert_eq!(
                relation_of(e),
                ("CIR_th <= PIR_th <= MIR_th <= buffer size", "RFC 2963 §2.4")
            );
        }
    }
}
