//! Queue management: the hard buffer limit (drop-tail), RED, Adaptive RED and RIO.
//!
//! | file | algorithm | source |
//! |---|---|---|
//! | [`limit`] | [`QueueLimit`]: the buffer size in packets or bytes; drop-tail is just this | ns-2 `DropTail` |
//! | [`red`] | [`Red`]: Random Early Detection, gentle variant, byte mode, ECN | Floyd & Jacobson 1993; ns-2 `red.cc` |
//! | [`adaptive_red`] | [`AdaptiveRed`]: RED whose `max_p` follows an AIMD rule | Floyd, Gummadi & Shenker 2001; ns-2 `red.cc` |
//! | [`rio`] | [`Rio`]: RED with In/Out (2 precedences) or green/yellow/red (3), coupled or decoupled | Clark & Fang 1998; RFC 2963 App. A; Hori, Ikenaga & Oie 2001 |
//!
//! # How an engine uses them
//! Every algorithm is a sans-IO state machine over a FIFO whose occupancy the caller keeps
//! as a [`QueueView`] (packets waiting, excluding the one on the link):
//!
//! 1. on each arrival, call `on_arrival(now, &pkt, &q_before, &mut rng)`; if the verdict is
//!    [`Verdict::Enqueue`] or [`Verdict::Mark`], check the [`QueueLimit`]; if it refuses,
//!    drop the packet as [`DropReason::Overflow`](crate::DropReason::Overflow) and
//!    optionally call `on_overflow(&pkt)` (ns-2 resets RED's count on such drops);
//! 2. on each departure from the queue, call `on_departure(now, &q_after)`; a departure
//!    that leaves the queue empty starts an idle period, over which the averages decay.
//!
//! The simulator holds one [`Aqm`] per output queue; the enum dispatches by `match`, so the
//! per-packet path has no dynamic dispatch, no allocation and no hashing.

pub mod adaptive_red;
pub mod limit;
pub mod red;
pub mod rio;

pub use adaptive_red::{AdaptiveRed, AdaptiveRedConfig, AdaptiveRedParams};
pub use limit::QueueLimit;
pub use red::{Ecn, QueueUnit, Red, RedConfig, RedParams};
pub use rio::{AvgSampling, Coupling, Rio, RioConfig, RioLevel, RioLevels, RioParams};

use crate::{Color, PacketView, QueueView, RandomSource, Time, Verdict};

/// Early and forced drops and marks of a queue-management algorithm, per colour of the
/// packet concerned (indexed by [`Color::index`]). Overflow drops are the caller's and are
/// not counted here.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct AqmStats {
    /// Probabilistic drops (RED's early and gentle regions).
    pub early_drops: [u64; 3],
    /// Deterministic drops (average above `max_th`, or `2·max_th` when gentle).
    pub forced_drops: [u64; 3],
    /// Probabilistic decisions turned into ECN marks.
    pub early_marks: [u64; 3],
    /// Forced decisions turned into ECN marks ([`Ecn::MarkAll`]).
    pub forced_marks: [u64; 3],
}

impl AqmStats {
    /// All early drops.
    pub fn early(&self) -> u64 {
        self.early_drops.iter().sum()
    }
    /// All forced drops.
    pub fn forced(&self) -> u64 {
        self.forced_drops.iter().sum()
    }
    /// All marks, early and forced.
    pub fn marked(&self) -> u64 {
        self.early_marks.iter().chain(&self.forced_marks).sum()
    }
    /// Drops (early and forced) of packets of colour `c`.
    pub fn drops_of(&self, c: Color) -> u64 {
        self.early_drops[c.index()] + self.forced_drops[c.index()]
    }
}

/// The queue-management algorithm of one output queue.
///
/// The size difference between variants does not matter: an engine holds one per queue.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Aqm {
    /// No active management: every arrival is accepted and only the caller's
    /// [`QueueLimit`] drops.
    DropTail,
    Red(Red),
    AdaptiveRed(AdaptiveRed),
    Rio(Rio),
}

impl Aqm {
    /// Decides on an arriving packet; `q` is the occupancy before it is added. The buffer
    /// limit is the caller's (see the module documentation). Inlined, so that drop-tail
    /// queues (most queues of a topology) cost their callers no call on the per-packet path.
    #[inline]
    pub fn on_arrival<R: RandomSource>(
        &mut self,
        now: Time,
        pkt: &PacketView,
        q: &QueueView,
        rng: &mut R,
    ) -> Verdict {
        match self {
            Aqm::DropTail => Verdict::Enqueue,
            Aqm::Red(r) => r.on_arrival(now, pkt, q, rng),
            Aqm::AdaptiveRed(r) => r.on_arrival(now, pkt, q, rng),
            Aqm::Rio(r) => r.on_arrival(now, pkt, q, rng),
        }
    }

    /// Notes a departure; `q_after` is the occupancy once the packet has left (inlined, as
    /// [`Aqm::on_arrival`]).
    #[inline]
    pub fn on_departure(&mut self, now: Time, q_after: &QueueView) {
        match self {
            Aqm::DropTail => {}
            Aqm::Red(r) => r.on_departure(now, q_after),
            Aqm::AdaptiveRed(r) => r.on_departure(now, q_after),
            Aqm::Rio(r) => r.on_departure(now, q_after),
        }
    }

    /// The caller dropped `pkt` for lack of buffer after this algorithm admitted it.
    /// Optional; resets the count since the last drop as ns-2 does on overflow.
    pub fn on_overflow(&mut self, pkt: &PacketView) {
        match self {
            Aqm::DropTail => {}
            Aqm::Red(r) => r.on_overflow(),
            Aqm::AdaptiveRed(r) => r.on_overflow(),
            Aqm::Rio(r) => r.on_overflow(pkt),
        }
    }

    /// Early/forced drops and marks per colour (all zero for drop-tail).
    pub fn stats(&self) -> AqmStats {
        match self {
            Aqm::DropTail => AqmStats::default(),
            Aqm::Red(r) => *r.stats(),
            Aqm::AdaptiveRed(r) => *r.stats(),
            Aqm::Rio(r) => *r.stats(),
        }
    }

    /// For monitoring: the average queue against which a packet of each colour (indexed by
    /// [`Color::index`]) is judged, as of the last arrival that updated it. RED and Adaptive
    /// RED have one average for all colours; in two-precedence RIO red packets are judged as
    /// Out (yellow). Drop-tail has no average and reports zeros.
    pub fn averages(&self) -> [f64; 3] {
        match self {
            Aqm::DropTail => [0.0; 3],
            Aqm::Red(r) => [r.avg(); 3],
            Aqm::AdaptiveRed(r) => [r.avg(); 3],
            Aqm::Rio(r) => Color::ALL.map(|c| r.avg(c)),
        }
    }

    /// The current `max_p` of RED and Adaptive RED (which adapts it); `None` otherwise.
    pub fn max_p(&self) -> Option<f64> {
        match self {
            Aqm::Red(r) => Some(r.max_p()),
            Aqm::AdaptiveRed(r) => Some(r.max_p()),
            Aqm::DropTail | Aqm::Rio(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ScriptedUniform;
    use crate::{DropReason, Duration};

    #[test]
    fn drop_tail_always_enqueues() {
        let mut a = Aqm::DropTail;
        let mut q = QueueView::EMPTY;
        for _ in 0..1000 {
            q.push(1500, Color::Red);
        }
        let mut rng = ScriptedUniform::new(&[0.0]);
        let v = a.on_arrival(
            Time::ZERO,
            &PacketView::with_color(1500, Color::Red),
            &q,
            &mut rng,
        );
        assert_eq!(v, Verdict::Enqueue);
        assert_eq!(a.stats(), AqmStats::default());
        assert_eq!(a.averages(), [0.0; 3]);
        assert_eq!(a.max_p(), None);
    }

    #[test]
    fn dispatch_reaches_red_and_reports_its_stats() {
        // w_q = 1: the average is the instantaneous queue. 25 packets > max_th 20: forced.
        let cfg = RedConfig::new(10.0, 20.0, 0.1, 1.0, Duration::from_millis(1));
        let mut a = Aqm::Red(Red::new(RedParams::new(cfg).unwrap()));
        let mut q = QueueView::EMPTY;
        for _ in 0..25 {
            q.push(500, Color::Yellow);
        }
        let mut rng = ScriptedUniform::new(&[0.5]);
        let v = a.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, Color::Yellow),
            &q,
            &mut rng,
        );
        assert_eq!(v, Verdict::Drop(DropReason::Forced));
        assert_eq!(a.averages(), [25.0; 3]);
        assert_eq!(a.stats().forced_drops, [0, 1, 0]);
        assert_eq!(a.stats().forced(), 1);
        assert_eq!(a.stats().drops_of(Color::Yellow), 1);
        assert_eq!(a.max_p(), Some(0.1));
    }

    #[test]
    fn stats_totals() {
        let s = AqmStats {
            early_drops: [1, 2, 3],
            forced_drops: [4, 0, 0],
            early_marks: [0, 5, 0],
            forced_marks: [0, 0, 6],
        };
        assert_eq!((s.early(), s.forced(), s.marked()), (6, 4, 11));
        assert_eq!(s.drops_of(Color::Green), 5);
    }
}
