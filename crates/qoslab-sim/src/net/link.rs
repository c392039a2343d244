//! A unidirectional point-to-point link with its egress FIFO and queue discipline.
//!
//! Transmission model: a packet accepted by the discipline starts serialising at once if the
//! link is idle, otherwise it waits in the FIFO. The link's serialisation end is known when
//! transmission starts (`busy_until`), so an idle, uncongested hop costs one event per packet
//! (the arrival at the far end); a `LinkFree` event is scheduled only while packets wait.
//! Queue lengths exclude the packet being serialised (as ns-2 and Linux count them).
//! Configured random loss (RFC 4828 App. B.1/B.2) is decided when a packet starts
//! serialising: a lost packet occupies the link (corruption on the wire) and never arrives.
//! With `loss_marks_ect` the same draw marks an ECN-capable packet CE instead, and it is
//! delivered (RFC 4828 App. B.1 "randomly drop or mark packets"); it is counted in the
//! queue's `marks`, not as a loss.
//! With `loss_at_entry` (`at = "entry"`, ns-2's `$ns lossmodel`: an error module at the
//! link's head) the random loss is decided when the packet enters the link instead, before
//! its queue: a lost packet neither queues nor occupies the link.
//! A scripted drop list ([`LossSpec::DropList`], ns-2's `ErrorModel/List`) is decided
//! earlier, when a packet enters the link, before its queue (`Link::listed_drop`): a listed
//! packet neither queues nor occupies the link, as in ns-2; it is counted as a wire loss too.
//! Packets in propagation wait in the link's `pipe`; one `Deliver` event per link is pending
//! at a time, for the head of the pipe.

use qoslab_algo::meter::Meter;
use qoslab_algo::queue::{Aqm, QueueLimit};
use qoslab_algo::shaper::{GreenOracle, Shaper};
use qoslab_algo::{PacketView, QueueView, Rate, Rng, Time, Verdict};

use crate::arena::PktId;
use crate::net::ring::Ring;
use crate::scenario::spec::{ConditionerSpec, LossSpec, MeterSpec};
use crate::stats::{QueueCounters, QueueLengthStats};

/// Field order is the memory layout (`repr(C)`, issue 13 session 8): what every hop reads
/// and writes first (timing, pipe, FIFO, conditioner, discipline, loss, serialisation
/// cache, queue view and limit: the first 224 bytes), then the queue-length statistics and
/// the counters; what only active disciplines, set-up and reports read comes last. Rust's
/// default layout orders fields by size and alignment, which spread a hop's fields over the
/// whole struct. Measured at 10,000 flows (40,002 links): 3.7 % fewer simulated D1 misses in
/// the loop; at 20 flows no change.
///
/// The discipline's state is boxed, and absent for drop-tail (session 14): `Aqm` is 512
/// bytes (RIO's three parameter and state sets), which every link carried in place although
/// most links of a topology are drop-tail (40,001 of 40,002 at 10,000 flows: 19 MB of a
/// 185 MB process; `Link` 1,248 -> 784 bytes), and a drop-tail hop read the enum's tag
/// from its own cache line.
#[repr(C)]
pub struct Link {
    // Hot: every hop.
    /// End of the current serialisation.
    pub busy_until: Time,
    pub delay: qoslab_algo::Duration,
    /// Packets propagating on the link, with their arrival times at the far end. Arrival
    /// times of one link never decrease (FIFO serialisation, constant delay), so only the
    /// head needs an event: the heap holds one entry per busy link, not per packet.
    pub pipe: Ring<(Time, PktId)>,
    pub fifo: Ring<PktId>,
    /// Ingress conditioning (shaper → meters) before the queue.
    pub cond: Option<Box<Conditioner>>,
    /// The active queue discipline (RED, Adaptive RED, RIO); `None` for drop-tail
    /// ([`Link::discipline`] builds it from an [`Aqm`]).
    pub aqm: Option<Box<Aqm>>,
    pub to: u32,
    /// A LinkFree event is pending.
    pub free_pending: bool,
    /// Whether this link's queue is reported (monitor list or any activity).
    pub monitored: bool,
    /// The configured loss marks ECT packets CE instead of dropping them.
    pub loss_marks_ect: bool,
    /// The configured random loss is decided at the link's entry, before the queue (ns-2's
    /// `$ns lossmodel`), not when the packet starts serialising.
    pub loss_at_entry: bool,
    pub loss: Option<LossSpec>,
    /// Serialisation times of the last two packet sizes seen (size, time; size 0 = empty):
    /// `Rate::tx_time` is a u128 division, and a link carries few distinct sizes (data and
    /// ACKs). The cached value is the division's result, so timing is unchanged.
    pub tx_cache: [(u32, qoslab_algo::Duration); 2],
    pub view: QueueView,
    pub limit: QueueLimit,
    pub qlen: QueueLengthStats,
    pub counters: QueueCounters,
    // Active disciplines only.
    /// Stream for the discipline's random decisions.
    pub aqm_rng: Rng,
    // Configured loss only, set-up and reports.
    /// Streams for configured loss, one per flow (indexed by flow id; empty without loss):
    /// a flow's losses on this link do not depend on which packets other flows send, so
    /// adding a flow leaves every other flow's loss pattern unchanged.
    pub loss_rngs: Vec<Rng>,
    /// A drop list's cursor per flow (indexed by flow id; empty without a drop list).
    pub loss_list: Vec<ListCursor>,
    pub rate: Rate,
    pub from: u32,
    pub name: String,
}

/// A link's ingress conditioner: an optional shaper holding packets (by arena id), then
/// meters/markers/policers applied in order when a packet leaves the shaper (or at once).
pub struct Conditioner {
    pub kinds: Vec<String>,
    pub shaper: Option<Shaper>,
    pub meters: Vec<Meter>,
    /// Stream for randomised markers (TSW taggers).
    pub rng: Rng,
    /// Time of the pending `Shaper` event (NEVER: none).
    pub armed: Time,
    pub counters: ConditionerCounters,
}

/// Cumulative counters of a conditioner.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ConditionerCounters {
    pub arrivals: u64,
    /// Packets that left the shaper (all arrivals when there is none).
    pub released: u64,
    /// Dropped by the shaper (buffer full or larger than the bucket).
    pub shaper_drops: u64,
    /// Dropped by a policer.
    pub policed: u64,
    /// Packets and bytes leaving the chain, per colour.
    pub pkts_by_color: [u64; 3],
    pub bytes_by_color: [u64; 3],
}

/// The coupled meter of a green RAS (RFC 2963 §3): the first meter of the chain.
pub struct MeterOracle<'a>(pub Option<&'a Meter>);

impl GreenOracle for MeterOracle<'_> {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        match self.0 {
            Some(m) => m.earliest_green(now, size),
            None => Time::NEVER,
        }
    }
}

impl Conditioner {
    pub fn new(spec: &ConditionerSpec, rng: Rng) -> Conditioner {
        use qoslab_algo::meter::*;
        let meters = spec
            .meters
            .iter()
            .map(|m| match *m {
                MeterSpec::SrTcm(p) => Meter::SrTcm(SrTcm::new(p)),
                MeterSpec::TrTcm(p) => Meter::TrTcm(TrTcm::new(p)),
                MeterSpec::Tsw2cm(p) => Meter::Tsw2cm(Tsw2cm::new(p)),
                MeterSpec::Tsw3cm(p) => Meter::Tsw3cm(Tsw3cm::new(p)),
                MeterSpec::Policer(p) => Meter::Policer(TbPolicer::new(p)),
            })
            .collect();
        Conditioner {
            kinds: spec.kinds.clone(),
            shaper: spec.shaper.clone().map(Shaper::new),
            meters,
            rng,
            armed: Time::NEVER,
            counters: ConditionerCounters::default(),
        }
    }

    /// When the shaper's head packet leaves, if it holds any.
    pub fn next_release(&self) -> Option<Time> {
        let sh = self.shaper.as_ref()?;
        sh.next_release(&MeterOracle(self.meters.first()))
    }
}

impl Link {
    /// The `aqm` field for a discipline: `None` for drop-tail, which decides nothing
    /// (`Aqm::DropTail`'s arrival verdict is always `Enqueue`, its departure and overflow
    /// hooks do nothing, its averages are zero).
    pub fn discipline(aqm: Aqm) -> Option<Box<Aqm>> {
        match aqm {
            Aqm::DropTail => None,
            a => Some(Box::new(a)),
        }
    }

    /// The discipline's average queue sizes by colour ([`Aqm::averages`]; zero for
    /// drop-tail).
    pub fn aqm_averages(&self) -> [f64; 3] {
        self.aqm.as_deref().map_or([0.0; 3], Aqm::averages)
    }

    /// `self.rate.tx_time(size)`, through the two-entry cache.
    #[inline]
    pub fn tx_time(&mut self, size: u32) -> qoslab_algo::Duration {
        if self.tx_cache[0].0 == size && size != 0 {
            return self.tx_cache[0].1;
        }
        if self.tx_cache[1].0 == size && size != 0 {
            self.tx_cache.swap(0, 1);
            return self.tx_cache[0].1;
        }
        let d = self.rate.tx_time(size as u64);
        self.tx_cache[1] = self.tx_cache[0];
        self.tx_cache[0] = (size, d);
        d
    }

    /// The discipline's verdict on a packet arriving at this link's queue
    /// ([`Aqm::on_arrival`], inlined: drop-tail costs no call).
    #[inline(always)]
    pub fn aqm_arrival(&mut self, now: Time, pkt: &PacketView) -> Verdict {
        // Drop-tail decided here: the compiler does not always inline `Aqm::on_arrival`
        // into the fused hop (`sim::hop`), and a call per hop for a constant is measurable.
        match self.aqm.as_deref_mut() {
            None => Verdict::Enqueue,
            Some(a) => a.on_arrival(now, pkt, &self.view, &mut self.aqm_rng),
        }
    }

    /// The link goes idle at `at` with an empty queue ([`Aqm::on_departure`]).
    #[inline(always)]
    pub fn aqm_departure(&mut self, at: Time) {
        if let Some(a) = self.aqm.as_deref_mut() {
            a.on_departure(at, &self.view);
        }
    }

    /// Whether the configured random loss hits a packet of `size` bytes of flow `flow` (lost
    /// on the wire, or marked when `loss_marks_ect` and the packet is ECN-capable). One draw
    /// per packet from the flow's own stream, whatever its ECN field, so marking does not
    /// shift the loss stream. A drop list draws nothing here: it is decided at the link's
    /// entry ([`Link::listed_drop`]).
    #[inline]
    pub fn wire_loss(&mut self, size: u32, flow: u32) -> bool {
        let Some(rng) = self.loss_rngs.get_mut(flow as usize) else {
            return false;
        };
        match self.loss {
            None | Some(LossSpec::DropList { .. }) => false,
            Some(LossSpec::Packet { p }) => rng.bernoulli(p),
            Some(LossSpec::Byte { b }) => {
                // 1 − (1 − b)^N  (RFC 4828 App. B.2)
                let p = 1.0 - libm::pow(1.0 - b, size as f64);
                rng.bernoulli(p)
            }
        }
    }

    /// Whether this link has a drop list (read on every arrival: the `loss` field is with
    /// the hot fields, the cursors are not).
    #[inline(always)]
    pub fn has_drop_list(&self) -> bool {
        matches!(self.loss, Some(LossSpec::DropList { .. }))
    }

    /// Whether the drop list takes the packet of flow `flow` now entering the link, and the
    /// flow's count moves on ([`LossSpec::DropList`]). As ns-2.35's `ListErrorModel::corrupt`
    /// in packet units: a packet is dropped when the list's next entry equals the number of
    /// packets seen before it (counted from 0), and the list then moves to its next entry;
    /// every packet adds one to the count. The same here, per flow. No allocation: the
    /// sorted list and a cursor into it.
    #[cold]
    #[inline(never)]
    pub fn listed_drop(&mut self, flow: u32) -> bool {
        let (Some(LossSpec::DropList { packets }), Some(c)) =
            (&self.loss, self.loss_list.get_mut(flow as usize))
        else {
            return false;
        };
        let hit = packets.0.get(c.next as usize) == Some(&c.count);
        if hit {
            c.next += 1;
        }
        c.count += 1;
        hit
    }
}

/// One flow's place in a link's drop list: packets of the flow that entered the link so
/// far, and the index of the next listed position.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListCursor {
    pub count: u64,
    pub next: u32,
}
