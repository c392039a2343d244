//! The per-hop path of a packet (issue 13): a link's egress queue (discipline verdict, FIFO)
//! and the start of its serialisation, as free functions on the simulator's tables split
//! once per event (the link, the packet's arena slot, the event queue, the delay
//! measurement), so a hop indexes the link table and the arena once each and runs as one
//! straight-line body without a call per stage. A drop is returned to the caller, which
//! frees the packet and counts it (`Simulator::drop_packet`): the only step that needs the
//! flow table.
//!
//! Behaviour is exactly the engine's earlier `enqueue` / `transmit` / `on_link_free`
//! methods (every counter, hook and event push in the same order), so runs are
//! byte-identical; only the way the tables are reached changed.

use qoslab_algo::{DropReason, Time, Verdict};

use crate::arena::{IpEcn, Packet, PktId};
use crate::event::{Event, EventQueue};
use crate::measure::delay::DelayMeasure;
use crate::net::link::Link;
use crate::net::routing::NO_ROUTE;

use super::Simulator;

/// The losses decided when a packet enters link `l`, before its queue (only called when the
/// link has a configured loss): a scripted drop list (ns-2's `errormodule`), and random loss
/// with `loss_at_entry` (ns-2's `$ns lossmodel`, an error module at the link's head): such a
/// packet never occupies the link. Both are counted as wire losses; an ECN-capable packet
/// under `loss_marks_ect` is marked CE instead and goes on. True if the packet is dropped.
#[inline(never)]
fn entry_loss(l: &mut Link, p: &mut Packet) -> bool {
    if l.has_drop_list() {
        if l.listed_drop(p.flow) {
            l.counters.wire_losses += 1;
            return true;
        }
        return false;
    }
    if !l.loss_at_entry || !l.wire_loss(p.size, p.flow) {
        return false;
    }
    if l.loss_marks_ect && p.ecn != IpEcn::NotEct {
        p.ecn = IpEcn::Ce;
        l.counters.marks[p.color.index()] += 1;
        return false;
    }
    l.counters.wire_losses += 1;
    true
}

/// Packet `p` (id `id`) arrives at link `li`'s egress queue at `now`. Returns the reason if
/// the packet is dropped (by the discipline, the buffer limit or configured loss); it is then
/// still in the arena, for the caller to free and count.
#[inline(always)]
pub(super) fn enqueue(
    now: Time,
    li: u32,
    l: &mut Link,
    p: &mut Packet,
    id: PktId,
    events: &mut EventQueue,
    delay: &mut DelayMeasure,
) -> Option<DropReason> {
    // One test of `loss` on the common path (no configured loss); the two losses decided
    // before the queue are out of line.
    if l.loss.is_some() && entry_loss(l, p) {
        return Some(DropReason::Loss);
    }
    let view = p.view();
    l.counters.arrivals += 1;
    l.counters.arrival_bytes += view.size as u64;
    l.counters.arrivals_by_color[view.color.index()] += 1;
    l.qlen.on_arrival(l.view.pkts);
    let verdict = l.aqm_arrival(now, &view);
    let ect = p.ecn != IpEcn::NotEct;
    let verdict = match verdict {
        Verdict::Enqueue | Verdict::Mark(_) if !l.limit.admits(&l.view, view.size) => {
            Verdict::Drop(DropReason::Overflow)
        }
        // RFC 3168 §5: only ECN-capable packets are marked; where the discipline would
        // mark a Not-ECT packet, it is dropped (as an early drop; the discipline's own
        // statistics still count a mark).
        Verdict::Mark(_) if !ect => Verdict::Drop(DropReason::Early),
        v => v,
    };
    match verdict {
        Verdict::Drop(r) => {
            if r == DropReason::Overflow {
                if let Some(a) = l.aqm.as_deref_mut() {
                    a.on_overflow(&view);
                }
            }
            Some(r)
        }
        Verdict::Enqueue | Verdict::Mark(_) => {
            if let Verdict::Mark(_) = verdict {
                // An ECT (or already CE) packet: it leaves with CE.
                l.counters.marks[view.color.index()] += 1;
                p.ecn = IpEcn::Ce;
            }
            if l.busy_until <= now && l.fifo.is_empty() {
                // Idle link, empty FIFO: sent at once, a sojourn of 0 (monitored only).
                if l.monitored {
                    delay.on_sojourn(li, view.color, 0);
                }
                transmit(now, li, l, p, id, events)
            } else {
                p.queue_at = now; // the sojourn starts (`measure::delay`)
                l.fifo.push_back(id);
                l.view.push(view.size, view.color);
                l.qlen.on_change(now, l.view.pkts);
                if !l.free_pending {
                    l.free_pending = true;
                    let at = l.busy_until.max(now);
                    events.push(at, Event::LinkFree { link: li });
                }
                None
            }
        }
    }
}

/// Starts serialising packet `p` (id `id`) on link `li` at `now` (its sojourn recorded by
/// the caller). Returns `Some(DropReason::Loss)` if configured loss takes it on the wire.
#[inline(always)]
pub(super) fn transmit(
    now: Time,
    li: u32,
    l: &mut Link,
    p: &mut Packet,
    id: PktId,
    events: &mut EventQueue,
) -> Option<DropReason> {
    let (size, color, flow) = (p.size, p.color, p.flow);
    let tx = l.tx_time(size);
    l.busy_until = now + tx;
    l.counters.departures += 1;
    l.counters.departure_bytes += size as u64;
    l.counters.busy_ns += tx.0;
    if l.fifo.is_empty() {
        // The link goes idle with an empty queue when this packet has been serialised
        // (ns-2 starts RED's idle period when the link asks for a packet and finds none).
        l.aqm_departure(l.busy_until);
    }
    if l.loss.is_some() && !l.loss_at_entry && l.wire_loss(size, flow) {
        if l.loss_marks_ect && p.ecn != IpEcn::NotEct {
            // RFC 4828 App. B.1: the configured rate marks ECN-capable packets (RFC 3168
            // §5); the packet is delivered with CE.
            p.ecn = IpEcn::Ce;
            l.counters.marks[color.index()] += 1;
        } else {
            l.counters.wire_losses += 1;
            return Some(DropReason::Loss);
        }
    }
    let at = l.busy_until + l.delay;
    l.pipe.push_back((at, id));
    if l.pipe.len() == 1 {
        events.push(at, Event::Deliver { link: li });
    }
    None
}

/// The simulator's side of a hop: a packet arriving at a node (from a link's pipe or from an
/// agent) and a link finishing a serialisation. The loop (`Simulator::run_until`) inlines
/// `on_deliver` and `on_link_free`; delivery to an agent, conditioning and drops are out of
/// line (session 8: the fused body no longer pays a call with its register saves per event).
impl Simulator {
    /// `hop_at` for packets from agents (`send`): one out-of-line copy, so the loop's own
    /// copy in `on_deliver` saves no registers per event (session 8).
    #[inline(never)]
    pub(super) fn forward(&mut self, node: u32, id: PktId) {
        self.hop_at(node, id)
    }

    /// Packet `id` is at `node`: delivered there, or queued on the link to the next node.
    #[inline(always)]
    fn hop_at(&mut self, node: u32, id: PktId) {
        let p = self.arena.get_mut(id);
        let dst = p.dst_node;
        if dst == node {
            self.deliver(id);
            return;
        }
        let li = self.routes.next_reachable(node, dst);
        debug_assert!(li != NO_ROUTE && li == self.routes.next(node, dst));
        // The link and the packet's slot are reached once for the whole hop (`hop`).
        let l = &mut self.links[li as usize];
        if l.cond.is_some() {
            self.condition(li, id);
            return;
        }
        let drop = enqueue(self.now, li, l, p, id, &mut self.events, &mut self.delay);
        if let Some(r) = drop {
            self.drop_packet(li, id, r);
        }
    }

    /// The head of a link's pipe reaches the far end; the next one (if any) is armed.
    #[inline(always)]
    pub(super) fn on_deliver(&mut self, li: u32) {
        let l = &mut self.links[li as usize];
        let Some((_, id)) = l.pipe.pop_front() else {
            return;
        };
        let to = l.to;
        if let Some(&(next, _)) = l.pipe.front() {
            self.events.push(next, Event::Deliver { link: li });
        }
        self.hop_at(to, id);
    }

    #[cold]
    #[inline(never)]
    pub(super) fn drop_packet(&mut self, link: u32, id: PktId, reason: DropReason) {
        let p = self.arena.get(id);
        let l = &mut self.links[link as usize];
        l.counters.drops[reason.index()][p.color.index()] += 1;
        l.counters.drop_bytes[reason.index()][p.color.index()] += p.size as u64;
        self.discard(id);
    }

    /// A packet arrives at a link's egress queue (`hop::enqueue`).
    #[inline]
    pub(super) fn enqueue(&mut self, li: u32, id: PktId) {
        let l = &mut self.links[li as usize];
        let p = self.arena.get_mut(id);
        let drop = enqueue(self.now, li, l, p, id, &mut self.events, &mut self.delay);
        if let Some(r) = drop {
            self.drop_packet(li, id, r);
        }
    }

    #[inline(always)]
    pub(super) fn on_link_free(&mut self, li: u32) {
        let now = self.now;
        let l = &mut self.links[li as usize];
        l.free_pending = false;
        let Some(id) = l.fifo.pop_front() else { return };
        let p = self.arena.get_mut(id);
        l.view.pop(p.size, p.color);
        l.qlen.on_change(now, l.view.pkts);
        self.delay.on_dequeue(li, p, now, l.monitored);
        let drop = transmit(now, li, l, p, id, &mut self.events);
        if !l.fifo.is_empty() {
            l.free_pending = true;
            self.events.push(l.busy_until, Event::LinkFree { link: li });
        }
        if let Some(r) = drop {
            self.drop_packet(li, id, r);
        }
    }
}
