//! The byte-limited tail-drop FIFO every shaper holds its packets in, its counters, and the
//! exact work/time arithmetic the shapers share. Not an algorithm of its own.

use std::collections::VecDeque;

use super::{DropCause, Dropped, ShaperStats};
use crate::packet::PacketView;
use crate::time::{Duration, Time};

/// Work and tokens are counted in 10⁻⁹ bit: one byte is 8·10⁹ units, and `ns × bit/s`
/// units accrue in `ns` nanoseconds at `bit/s`. Exact in u128 for every size and rate.
pub const UNITS_PER_BYTE: u128 = 8 * 1_000_000_000;

/// `bytes` in work units.
pub(crate) const fn units(bytes: u64) -> u128 {
    bytes as u128 * UNITS_PER_BYTE
}

/// Units served in `d` at `rate_bps` (exact, saturating).
pub(crate) const fn served(d: Duration, rate_bps: u64) -> u128 {
    (d.0 as u128).saturating_mul(rate_bps as u128)
}

/// Smallest whole number of ns in which `rate_bps` serves `work` units: `ceil(work/rate)`,
/// saturating at `Duration::MAX`; a zero rate never serves.
pub(crate) fn time_to_serve(work: u128, rate_bps: u64) -> Duration {
    if work == 0 {
        return Duration::ZERO;
    }
    if rate_bps == 0 {
        return Duration::MAX;
    }
    let ns = work.div_ceil(rate_bps as u128);
    Duration(ns.min(u64::MAX as u128) as u64)
}

/// A held packet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    pub id: u64,
    pub pkt: PacketView,
    pub arrival: Time,
}

/// Most slots preallocated at construction (32 bytes each). Beyond this the deque grows
/// (amortised, only when a new high-water mark is reached).
const MAX_PREALLOC: u64 = 1 << 16;
/// Smallest packet assumed when preallocating (a TCP/IP ACK without options).
const PREALLOC_PKT_SIZE: u64 = 40;

#[derive(Clone, Debug)]
pub(crate) struct HeldFifo {
    q: VecDeque<Held>,
    bytes: u64,
    limit: u64,
    last_now: Time,
    stats: ShaperStats,
}

impl HeldFifo {
    pub fn new(limit: u64) -> Self {
        let cap = (limit / PREALLOC_PKT_SIZE).clamp(1, MAX_PREALLOC) as usize;
        HeldFifo {
            q: VecDeque::with_capacity(cap),
            bytes: 0,
            limit,
            last_now: Time::ZERO,
            stats: ShaperStats::default(),
        }
    }

    /// Clamps `now` to the latest instant seen (time never goes backwards) and records it.
    pub fn clock(&mut self, now: Time) -> Time {
        self.last_now = self.last_now.max(now);
        self.last_now
    }

    /// The latest instant seen in `on_arrival` or `release`.
    pub fn last_now(&self) -> Time {
        self.last_now
    }

    /// Counts an arrival (whether it is then admitted or refused).
    pub fn count_arrival(&mut self, pkt: PacketView) {
        self.stats.arrivals += 1;
        self.stats.arrived_bytes += pkt.size as u64;
    }

    /// Counts a refusal.
    pub fn reject(&mut self, id: u64, pkt: PacketView, cause: DropCause) -> Dropped {
        match cause {
            DropCause::BufferFull => self.stats.drops_buffer_full += 1,
            DropCause::Oversize => self.stats.drops_oversize += 1,
        }
        self.stats.dropped_bytes += pkt.size as u64;
        Dropped { id, pkt, cause }
    }

    /// Tail drop: refuses the packet if `occupancy + size > limit`, else appends it.
    pub fn try_push(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), Dropped> {
        if self.bytes + pkt.size as u64 > self.limit {
            return Err(self.reject(id, pkt, DropCause::BufferFull));
        }
        self.bytes += pkt.size as u64;
        self.q.push_back(Held {
            id,
            pkt,
            arrival: now,
        });
        Ok(())
    }

    pub fn head(&self) -> Option<&Held> {
        self.q.front()
    }

    /// Pops the head, released at the scheduled instant `at`.
    pub fn pop(&mut self, at: Time, green: bool) -> Option<Held> {
        let h = self.q.pop_front()?;
        self.bytes -= h.pkt.size as u64;
        let delay = at.saturating_since(h.arrival);
        let s = &mut self.stats;
        s.releases += 1;
        s.released_bytes += h.pkt.size as u64;
        s.green_releases += green as u64;
        s.delay_sum_ns += delay.0 as u128;
        s.delay_max = s.delay_max.max(delay);
        Some(h)
    }

    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn stats(&self) -> &ShaperStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_to_serve_is_exact_and_rounds_up() {
        // 1000 B at 8000 bit/s: 8e12 units / 8000 = 1e9 ns exactly.
        assert_eq!(time_to_serve(units(1000), 8000), Duration(1_000_000_000));
        // 500 B at 70 Mb/s: 4e12 / 7e7 = 57142.857.. -> 57143 (as Rate::tx_time).
        assert_eq!(time_to_serve(units(500), 70_000_000), Duration(57_143));
        assert_eq!(time_to_serve(0, 0), Duration::ZERO);
        assert_eq!(time_to_serve(1, 0), Duration::MAX);
    }

    #[test]
    fn tail_drop_at_the_byte_limit() {
        let mut f = HeldFifo::new(2500);
        assert!(f.try_push(Time(0), 1, PacketView::new(1500)).is_ok());
        assert!(f.try_push(Time(0), 2, PacketView::new(1000)).is_ok()); // 2500 <= 2500
        let d = f.try_push(Time(0), 3, PacketView::new(1)).unwrap_err(); // 2501 > 2500
        assert_eq!((d.id, d.cause), (3, DropCause::BufferFull));
        assert_eq!(f.bytes(), 2500);
        assert_eq!(f.stats().drops_buffer_full, 1);
    }
}
