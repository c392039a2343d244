//! Ingress conditioning of a link (its shaper, then its meters / markers / policers in
//! order; `net::link::Conditioner`) between a packet's arrival at a node and the link's egress queue
//! (`hop`): the `Shaper` event and the meters' verdicts. Moved out of `sim.rs` unchanged
//! (issue 13, session 10).

use qoslab_algo::meter::MeterVerdict;

use super::Simulator;
use crate::arena::PktId;
use crate::event::{Event, EventQueue};
use crate::measure::delay;
use crate::net::link::{Conditioner, MeterOracle};

impl Simulator {
    /// A packet enters link `li`'s conditioner.
    #[inline(never)]
    pub(super) fn condition(&mut self, li: u32, id: PktId) {
        let now = self.now;
        let p = self.arena.get(id);
        let view = p.view();
        let c = self.links[li as usize]
            .cond
            .as_mut()
            .expect("has a conditioner");
        c.counters.arrivals += 1;
        let Some(sh) = c.shaper.as_mut() else {
            c.counters.released += 1;
            self.mark_and_enqueue(li, id);
            return;
        };
        self.arena.get_mut(id).queue_at = now;
        if sh.on_arrival(now, id as u64, view).is_err() {
            c.counters.shaper_drops += 1;
            self.discard(id);
            return;
        }
        self.arm_shaper(li);
    }

    /// Schedules the conditioner's `Shaper` event if its release is earlier than the armed one.
    fn arm_shaper(&mut self, li: u32) {
        let now = self.now;
        let c = self.links[li as usize]
            .cond
            .as_mut()
            .expect("has a conditioner");
        let next = c.next_release();
        self.events
            .arm(&mut c.armed, next, now, Event::Shaper { link: li });
    }

    pub(super) fn on_shaper(&mut self, li: u32) {
        let now = self.now;
        loop {
            let c = self.links[li as usize]
                .cond
                .as_mut()
                .expect("has a conditioner");
            EventQueue::disarm(&mut c.armed, now);
            let Conditioner {
                shaper,
                meters,
                counters,
                ..
            } = &mut **c;
            let Some(sh) = shaper.as_mut() else { return };
            let Some((id, _)) = sh.release(now, &MeterOracle(meters.first())) else {
                break;
            };
            counters.released += 1;
            delay::on_shaper_release(self.arena.get_mut(id as PktId), now);
            self.mark_and_enqueue(li, id as PktId);
        }
        self.arm_shaper(li);
    }

    /// Runs the conditioner's meters over a packet leaving its shaper (or arriving, when
    /// there is none), then hands it to the queue.
    fn mark_and_enqueue(&mut self, li: u32, id: PktId) {
        let now = self.now;
        let p = self.arena.get_mut(id);
        let mut view = p.view();
        let c = self.links[li as usize]
            .cond
            .as_mut()
            .expect("has a conditioner");
        for m in &mut c.meters {
            match m.mark(now, &view, &mut c.rng) {
                MeterVerdict::Pass(color) => view.color = color,
                MeterVerdict::Drop(_) => {
                    c.counters.policed += 1;
                    self.discard(id);
                    return;
                }
            }
        }
        c.counters.pkts_by_color[view.color.index()] += 1;
        c.counters.bytes_by_color[view.color.index()] += view.size as u64;
        p.color = view.color;
        let fc = &mut self.flows[p.flow as usize].counters;
        if p.hdr.is_data() {
            fc.bytes_by_color[view.color.index()] += view.size as u64;
        }
        self.enqueue(li, id);
    }
}
