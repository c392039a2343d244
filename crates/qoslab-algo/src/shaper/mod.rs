//! # Shapers: hold packets and say when the head packet may leave
//!
//! A shaper here is a sans-IO state machine that *holds* packets (as an opaque caller id
//! `u64` plus their [`PacketView`]) in a byte-limited tail-drop FIFO and computes the
//! instant at which the head packet may leave. It never reads a clock and never schedules
//! anything: the caller owns the event queue.
//!
//! | file | algorithm | source |
//! |---|---|---|
//! | [`token_bucket`] | plain token-bucket shaper (rate, depth, buffer) | classical; RFC 2475 §2.3.3.3 "shapers" |
//! | [`ear`] | Estimated Average Rate of Stoica, Shenker & Zhang (SIGCOMM'98) | RFC 2963 §2.2 |
//! | [`ras`] | srRAS and trRAS, rate adaptive shapers | RFC 2963 §2.1–§2.4 |
//! | [`green_ras`] | G-srRAS and G-trRAS, coupled with the downstream meter | RFC 2963 §3 |
//!
//! ## Common interface
//! Every shaper (and the [`Shaper`] enum over all of them) offers
//! - `on_arrival(now, id, pkt) -> Result<(), Dropped>`: the packet joins the tail of the
//!   FIFO, or is refused ([`DropCause::BufferFull`]: `occupancy + size > buffer`, bytes;
//!   [`DropCause::Oversize`]: token bucket only, a packet larger than the bucket depth,
//!   which could never conform);
//! - `next_release() -> Option<Time>`: the instant the head packet leaves (None: empty);
//! - `release(now) -> Option<(id, pkt)>`: pops the head if its release instant is `<= now`;
//! - occupancy (`len`, `bytes`, `is_empty`) and [`ShaperStats`] counters.
//!
//! The green RAS needs to know the state of the downstream meter; it asks a
//! [`GreenOracle`] passed by reference to `next_release`/`release` (static dispatch; pass
//! [`NoOracle`] where there is no meter).
//!
//! ## Caller contract (how to drive a shaper)
//! 1. Deliver arrivals and releases in nondecreasing `now`. A `now` earlier than the
//!    latest one seen is treated as that latest instant (time never goes backwards).
//! 2. After *every* `on_arrival` and `release`, query `next_release` again and re-arm the
//!    timer: the answer can move earlier or later (an arrival changes the occupancy and the
//!    estimated rate of a RAS, which change the shaping rate of the head).
//!    For a green RAS also re-query after every event that changes the meter (every packet
//!    that passes through it, including the ones this shaper releases): T2 depends on the
//!    meter's tokens.
//! 3. Call `release(t)` at the instant `t = next_release()`, before delivering any arrival
//!    later than `t`. Arrivals at the same instant may be delivered before or after the
//!    release; an arrival delivered first counts in the occupancy that sets the next head's
//!    rate. A stale timer is harmless: `release` returns `None` when the head is not due.
//! 4. Release instants are *scheduled* instants: a late `release(now)` pops the head as of
//!    its scheduled instant (`<= now`), and the next head's schedule starts from there, so
//!    the schedule does not depend on how late the caller polls (delays in [`ShaperStats`]
//!    are measured to the scheduled instant too). If the caller is late *and* delivered
//!    arrivals after the scheduled instant in between (breaking 3.), those arrivals already
//!    count in the occupancy that sets the next head's rate.
//!
//! ## Units
//! Sizes and thresholds are bytes; rates are [`Rate`](crate::Rate) in bit/s (RFC 2963 states
//! CIR/PIR/MIR in bytes per second: multiply by 8). Internally, work and tokens are counted
//! in units of 10⁻⁹ bit (`bytes × 8·10⁹`), so that `elapsed_ns × rate_bps` is an exact
//! amount of them: no rounding anywhere except the final `ceil` to a whole nanosecond of a
//! release instant (a shaper never releases earlier than its rate allows).

pub mod ear;
mod fifo;
pub mod green_ras;
pub mod ras;
pub mod token_bucket;

#[cfg(test)]
mod proptests;
#[cfg(test)]
pub(crate) mod testkit;

pub use ear::{Ear, EarParams};
pub use fifo::UNITS_PER_BYTE;
pub use green_ras::GreenRas;
pub use ras::{Ras, RasKind, RasParams, SrRasConfig, TrRasConfig};
pub use token_bucket::{TokenBucketParams, TokenBucketShaper};

use crate::packet::PacketView;
use crate::time::{Duration, Time};
use crate::verdict::DropReason;

/// What a green RAS asks of the meter downstream of it (RFC 2963 §3.3/§3.5).
///
/// `earliest_green(now, size)` is the earliest instant `>= now` at which the meter, left
/// alone from its current state, would colour a packet of `size` bytes green;
/// [`Time::NEVER`] means never (e.g. `size > CBS`). For an srTCM this is RFC 2963 §3.3's
/// `T2 = max(t, t + (B - Tc(t))/CIR)`, for a trTCM §3.5's
/// `max(t, t + (B - Tc(t))/CIR, t + (B - Tp(t))/PIR)`.
///
/// The answer depends on the meter's state, which changes whenever a packet passes the
/// meter; the shaper never caches it (see the caller contract in the module docs).
pub trait GreenOracle {
    fn earliest_green(&self, now: Time, size: u32) -> Time;
}

/// The oracle of "no meter": nothing is ever green, so a green RAS behaves as its plain RAS.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOracle;

impl GreenOracle for NoOracle {
    fn earliest_green(&self, _now: Time, _size: u32) -> Time {
        Time::NEVER
    }
}

/// Why a shaper refused a packet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DropCause {
    /// Tail drop: `occupancy + size > buffer` (bytes).
    BufferFull,
    /// Token bucket only: `size > bucket depth`, the packet could never conform.
    Oversize,
}

impl DropCause {
    /// The queue-discipline reason this corresponds to.
    pub const fn reason(self) -> DropReason {
        match self {
            DropCause::BufferFull => DropReason::Overflow,
            DropCause::Oversize => DropReason::Policed,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            DropCause::BufferFull => "buffer-full",
            DropCause::Oversize => "oversize",
        }
    }
}

/// A refused packet, handed back to the caller.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Dropped {
    pub id: u64,
    pub pkt: PacketView,
    pub cause: DropCause,
}

/// Counters of a shaper. Bytes are conserved:
/// `arrived_bytes == released_bytes + dropped_bytes + held bytes`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ShaperStats {
    pub arrivals: u64,
    pub arrived_bytes: u64,
    pub releases: u64,
    pub released_bytes: u64,
    /// Green RAS only: releases at T2 < T1, i.e. earlier than the rate schedule because the
    /// meter would colour the packet green.
    pub green_releases: u64,
    pub drops_buffer_full: u64,
    pub drops_oversize: u64,
    pub dropped_bytes: u64,
    /// Sum over released packets of (scheduled release − arrival), in ns.
    pub delay_sum_ns: u128,
    /// Largest (scheduled release − arrival) of a released packet.
    pub delay_max: Duration,
}

impl ShaperStats {
    pub const fn drops(&self) -> u64 {
        self.drops_buffer_full + self.drops_oversize
    }
    /// Mean holding delay of released packets (truncated to the ns), None before any release.
    pub fn mean_delay(&self) -> Option<Duration> {
        if self.releases == 0 {
            None
        } else {
            Some(Duration((self.delay_sum_ns / self.releases as u128) as u64))
        }
    }
}

/// Which algorithm a [`Shaper`] runs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ShaperKind {
    TokenBucket,
    SrRas,
    TrRas,
    GSrRas,
    GTrRas,
}

/// Validated settings of any shaper.
#[derive(Clone, Debug, PartialEq)]
pub enum ShaperParams {
    TokenBucket(TokenBucketParams),
    /// srRAS or trRAS (per [`RasParams::kind`]).
    Ras(RasParams),
    /// G-srRAS or G-trRAS (per [`RasParams::kind`]).
    GreenRas(RasParams),
}

/// Any shaper, with uniform methods and static dispatch.
///
/// The single- and two-rate RAS share one type ([`Ras`], resp. [`GreenRas`]) because they
/// differ only in the breakpoints of F, which their [`RasParams`] carry; [`Shaper::kind`]
/// tells the five algorithms apart.
#[derive(Clone, Debug)]
pub enum Shaper {
    TokenBucket(TokenBucketShaper),
    Ras(Ras),
    GreenRas(GreenRas),
}

impl Shaper {
    pub fn new(params: ShaperParams) -> Self {
        match params {
            ShaperParams::TokenBucket(p) => Shaper::TokenBucket(TokenBucketShaper::new(p)),
            ShaperParams::Ras(p) => Shaper::Ras(Ras::new(p)),
            ShaperParams::GreenRas(p) => Shaper::GreenRas(GreenRas::new(p)),
        }
    }

    pub fn kind(&self) -> ShaperKind {
        match self {
            Shaper::TokenBucket(_) => ShaperKind::TokenBucket,
            Shaper::Ras(s) => match s.kind() {
                RasKind::SingleRate => ShaperKind::SrRas,
                RasKind::TwoRate => ShaperKind::TrRas,
            },
            Shaper::GreenRas(s) => match s.kind() {
                RasKind::SingleRate => ShaperKind::GSrRas,
                RasKind::TwoRate => ShaperKind::GTrRas,
            },
        }
    }

    /// See the module docs; tail drop when the buffer is full.
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), Dropped> {
        match self {
            Shaper::TokenBucket(s) => s.on_arrival(now, id, pkt),
            Shaper::Ras(s) => s.on_arrival(now, id, pkt),
            Shaper::GreenRas(s) => s.on_arrival(now, id, pkt),
        }
    }

    /// When the head leaves (None if empty). `oracle` is only consulted by a green RAS.
    pub fn next_release<O: GreenOracle + ?Sized>(&self, oracle: &O) -> Option<Time> {
        match self {
            Shaper::TokenBucket(s) => s.next_release(),
            Shaper::Ras(s) => s.next_release(),
            Shaper::GreenRas(s) => s.next_release(oracle),
        }
    }

    /// Pops the head if its release instant is `<= now`.
    pub fn release<O: GreenOracle + ?Sized>(
        &mut self,
        now: Time,
        oracle: &O,
    ) -> Option<(u64, PacketView)> {
        match self {
            Shaper::TokenBucket(s) => s.release(now),
            Shaper::Ras(s) => s.release(now),
            Shaper::GreenRas(s) => s.release(now, oracle),
        }
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        match self {
            Shaper::TokenBucket(s) => s.len(),
            Shaper::Ras(s) => s.len(),
            Shaper::GreenRas(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held (the occupancy, head packet included).
    pub fn bytes(&self) -> u64 {
        match self {
            Shaper::TokenBucket(s) => s.bytes(),
            Shaper::Ras(s) => s.bytes(),
            Shaper::GreenRas(s) => s.bytes(),
        }
    }

    pub fn stats(&self) -> &ShaperStats {
        match self {
            Shaper::TokenBucket(s) => s.stats(),
            Shaper::Ras(s) => s.stats(),
            Shaper::GreenRas(s) => s.stats(),
        }
    }
}
