//! The event set of the PCN engine: a timing wheel ordered by (time, payload) (see
//! [`Queue`]), so a run is a pure function of (scenario, seed).
//!
//! The payload is one packed `u64` (see [`Ev`]); there is no per-event allocation. Most
//! events are packet arrivals at a link or at the egress; a PCN link's departure time is
//! computed at arrival as max(arrival, busy_until) + transmission (the links are never
//! congested enough to need a queue event), so a packet costs one event per hop.

use std::collections::BinaryHeap;

use qoslab_algo::Time;

/// Event kinds (low 4 bits of the payload).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// A flow's next packet emission (or its end): `a` = flow slot.
    FlowGen = 0,
    /// A packet reaches hop `hop` of its IEA's path (`hop == hops` = the egress).
    Hop = 1,
    /// A call request arrives at ingress `iea` (Poisson).
    CallArrival = 2,
    /// The response to pending call `a` reaches its ingress.
    Response = 3,
    /// Egress signal `a` (report or cancel) reaches its ingress.
    Signal = 4,
    /// Ingress state machine wake-up for IEA `iea`.
    IngressTimer = 5,
    /// Egress state machine wake-up for IEA `iea`.
    EgressTimer = 6,
}

/// A packed event payload:
/// bits 0–3 kind, 4–5 mark, 6 request, 7–11 hop, 12–31 IEA, 32–63 `a` (slot or id).
///
/// For a `Hop` event, `a` is: the flow slot of a data packet on its way from the source to
/// the ingress (`hop == AT_INGRESS`); the pending call of a request; and, for a data
/// packet inside the domain, the time (ns, saturating at `u32::MAX`) it has waited in
/// PCN-link FIFOs so far — the flow is not needed past the ingress, and the one-way delay
/// at the egress is the IEA's fixed path time plus this sum (`measure.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ev(pub u64);

impl Ev {
    #[inline]
    pub fn new(kind: Kind, iea: u32, a: u32) -> Ev {
        Ev(kind as u64 | (u64::from(iea) << 12) | (u64::from(a) << 32))
    }
    #[inline]
    pub fn packet(iea: u32, hop: u32, mark: u8, request: bool, a: u32) -> Ev {
        Ev(Kind::Hop as u64
            | (u64::from(mark) << 4)
            | (u64::from(request) << 6)
            | (u64::from(hop) << 7)
            | (u64::from(iea) << 12)
            | (u64::from(a) << 32))
    }
    #[inline]
    pub fn kind(self) -> Kind {
        match self.0 & 0xF {
            0 => Kind::FlowGen,
            1 => Kind::Hop,
            2 => Kind::CallArrival,
            3 => Kind::Response,
            4 => Kind::Signal,
            5 => Kind::IngressTimer,
            _ => Kind::EgressTimer,
        }
    }
    #[inline]
    pub fn mark(self) -> u8 {
        ((self.0 >> 4) & 3) as u8
    }
    #[inline]
    pub fn request(self) -> bool {
        (self.0 >> 6) & 1 == 1
    }
    #[inline]
    pub fn hop(self) -> u32 {
        ((self.0 >> 7) & 0x1F) as u32
    }
    #[inline]
    pub fn iea(self) -> u32 {
        ((self.0 >> 12) & 0xF_FFFF) as u32
    }
    #[inline]
    pub fn a(self) -> u32 {
        (self.0 >> 32) as u32
    }
    /// The same packet at hop `hop` with mark `mark` and `a` = `a`.
    #[inline]
    pub fn with_hop_mark_a(self, hop: u32, mark: u8, a: u32) -> Ev {
        Ev((self.with_hop_mark(hop, mark).0 & 0xFFFF_FFFF) | (u64::from(a) << 32))
    }
    #[inline]
    pub fn with_hop_mark(self, hop: u32, mark: u8) -> Ev {
        Ev((self.0 & !((0x1F << 7) | (3 << 4))) | (u64::from(hop) << 7) | (u64::from(mark) << 4))
    }
}

/// Largest IEA index an event can carry.
pub const MAX_IEAS: usize = 1 << 20;
/// Largest hop count of a path.
pub const MAX_HOPS: usize = 30;

/// log2 of the bucket width in ns (16.4 µs).
const SHIFT: u32 = 14;
/// Number of buckets (a power of two): the wheel covers 2^13 × 16.4 µs = 134 ms ahead.
const NB: usize = 1 << 13;

/// The event queue: a timing wheel of [`NB`] buckets of 2^[`SHIFT`] ns over the next
/// 134 ms, a binary heap for later events, and the current bucket kept sorted.
///
/// Order: by (time, payload). Two events with equal time and equal payload are the same
/// event for the engine (same kind, IEA, hop, mark and id), so this order is total in
/// effect and needs no insertion counter; it is deterministic because it depends on
/// nothing but the events.
pub struct Queue {
    buckets: Vec<Vec<u128>>,
    /// Absolute index (time >> SHIFT) of the current bucket.
    cur: u64,
    /// The current bucket's events, sorted descending (the next event is last).
    sorted: Vec<u128>,
    /// Events in `buckets` (not counting `sorted` and `overflow`).
    in_buckets: usize,
    /// Events at or beyond bucket cur + NB when inserted.
    overflow: BinaryHeap<std::cmp::Reverse<u128>>,
    pub processed: u64,
}

impl Default for Queue {
    fn default() -> Self {
        Queue {
            buckets: (0..NB).map(|_| Vec::new()).collect(),
            cur: 0,
            sorted: Vec::new(),
            in_buckets: 0,
            overflow: BinaryHeap::new(),
            processed: 0,
        }
    }
}

#[inline]
fn key(t: Time, ev: Ev) -> u128 {
    (u128::from(t.as_nanos()) << 64) | u128::from(ev.0)
}

impl Queue {
    #[inline]
    pub fn push(&mut self, t: Time, ev: Ev) {
        let k = key(t, ev);
        let b = t.as_nanos() >> SHIFT;
        if b <= self.cur {
            // The current bucket (an event is never scheduled in the past, but an event at
            // the current time may land here).
            let pos = self.sorted.partition_point(|&x| x > k);
            self.sorted.insert(pos, k);
        } else if b < self.cur + NB as u64 {
            self.buckets[(b as usize) & (NB - 1)].push(k);
            self.in_buckets += 1;
        } else {
            self.overflow.push(std::cmp::Reverse(k));
        }
    }

    /// Moves to the next bucket that has events (or the next overflow event), without
    /// passing the bucket of `until`. Returns false if there is nothing up to `until`.
    fn advance(&mut self, until: Time) -> bool {
        let last = until.as_nanos() >> SHIFT;
        while self.sorted.is_empty() {
            if self.cur >= last {
                return false;
            }
            if self.in_buckets == 0 {
                // Jump straight to the first overflow event.
                match self.overflow.peek() {
                    None => return false,
                    Some(&std::cmp::Reverse(k)) => {
                        let b = ((k >> 64) as u64) >> SHIFT;
                        self.cur = b.max(self.cur + 1).min(last);
                    }
                }
            } else {
                self.cur += 1;
            }
            // Events now within the wheel's horizon leave the overflow heap.
            while let Some(&std::cmp::Reverse(k)) = self.overflow.peek() {
                let b = ((k >> 64) as u64) >> SHIFT;
                if b >= self.cur + NB as u64 {
                    break;
                }
                self.overflow.pop();
                if b <= self.cur {
                    self.sorted.push(k);
                } else {
                    self.buckets[(b as usize) & (NB - 1)].push(k);
                    self.in_buckets += 1;
                }
            }
            let slot = (self.cur as usize) & (NB - 1);
            let n = self.buckets[slot].len();
            if n > 0 {
                self.in_buckets -= n;
                self.sorted.append(&mut self.buckets[slot]);
            }
            self.sorted.sort_unstable_by(|a, b| b.cmp(a));
        }
        true
    }

    /// The next event if it is due no later than `until`.
    #[inline]
    pub fn pop_until(&mut self, until: Time) -> Option<(Time, Ev)> {
        if self.sorted.is_empty() && !self.advance(until) {
            return None;
        }
        let k = *self.sorted.last()?;
        let t = (k >> 64) as u64;
        if t > until.as_nanos() {
            return None;
        }
        self.sorted.pop();
        self.processed += 1;
        Some((Time(t), Ev(k as u64)))
    }
    pub fn len(&self) -> usize {
        self.sorted.len() + self.in_buckets + self.overflow.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Every pending event (for the conservation check at the end).
    pub fn pending(&self) -> impl Iterator<Item = Ev> + '_ {
        self.sorted
            .iter()
            .chain(self.buckets.iter().flatten())
            .copied()
            .chain(self.overflow.iter().map(|r| r.0))
            .map(|k| Ev(k as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qoslab_algo::Rng;

    /// The wheel pops exactly what a sorted list of (time, payload) gives, whatever the
    /// mix of near, far and same-bucket insertions made while popping.
    #[test]
    fn wheel_pops_in_time_then_payload_order() {
        let mut r = Rng::from_seed(7);
        let mut q = Queue::default();
        let mut model: Vec<u128> = Vec::new();
        let mut now = 0u64;
        let mut out = Vec::new();
        let mut expect = Vec::new();
        for step in 0..20_000u64 {
            let pushes = if step < 100 { 3 } else { r.below(3) };
            for _ in 0..pushes {
                let dt = match r.below(4) {
                    0 => 0,
                    1 => r.below(1 << SHIFT),
                    2 => r.below(50_000_000),
                    _ => r.below(2_000_000_000),
                };
                let ev = Ev(r.below(8));
                q.push(Time(now + dt), ev);
                model.push(key(Time(now + dt), ev));
            }
            let until = Time(now + r.below(1_000_000));
            model.sort_unstable();
            while let Some((t, ev)) = q.pop_until(until) {
                assert!(t.as_nanos() >= now);
                now = t.as_nanos();
                out.push(key(t, ev));
            }
            let n = model.partition_point(|&k| (k >> 64) as u64 <= until.as_nanos());
            expect.extend(model.drain(..n));
            assert_eq!(out, expect, "step {step}");
            assert_eq!(q.len(), model.len());
            now = until.as_nanos();
        }
        assert!(out.len() > 10_000);
    }
}
