//! The event queue: a binary min-heap ordered by (time, insertion sequence), on std's
//! `BinaryHeap` (measured: the same instruction count as a hand-written heap on the TCP
//! dumbbell, with less code). Links keep their in-flight packets in a FIFO pipe and schedule
//! only its head, so the pending set is about one event per busy link and per agent timer,
//! not one per packet in flight.
//!
//! Ties in time are broken by insertion order (NeXosim's rule), so a run is a deterministic
//! function of its inputs. The key (time, seq) is packed into one u128 so a comparison is a
//! single integer compare; an entry is 32 bytes. The heap's storage is reused, so scheduling
//! allocates nothing once the pending set has reached its high-water mark.
//!
//! Measured alternative (issue 13): a one-level radix heap on the same u128 key (Ahuja et
//! al. 1990; keys only grow in a simulation) executed more instructions on the RED bench
//! dumbbell (1.405 G against 1.354 G for the whole run, callgrind): the pending set spans
//! microseconds (link events) to a second (RTO timers), so entries are redistributed
//! several times before they pop. A hand-written 4-ary heap of 24-byte entries also
//! executed more (1.447 G; fewer instructions per pop, more per push). The binary heap stays.
//!
//! What did pay: popping lazily. `pop` hands out the top entry but leaves it in place,
//! marked taken; the handler's first `push` then overwrites the top and sifts it down once
//! (std's `PeekMut`), instead of a full pop (sift to the bottom and back up) followed by a
//! push (sift up). Most events schedule exactly one successor (a link's next delivery, a
//! re-armed timer), so this removes about one heap operation per event. If the handler
//! pushes nothing, the next `pop` removes the taken entry first. Keys are unique, so the
//! pop order is the same as with eager pops: runs are byte-identical.

use std::collections::BinaryHeap;

use qoslab_algo::Time;

/// What happens when an event fires. Ids are indices into the simulator's flat tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet at the head of link `link`'s pipe arrives at the link's far end.
    Deliver { link: u32 },
    /// Link `link` has finished serialising; start the next queued packet.
    LinkFree { link: u32 },
    /// The shaper of link `link`'s ingress conditioner may release its head packet.
    Shaper { link: u32 },
    /// An agent's deadline (source tick, TCP timer) may be due.
    Agent { agent: u32 },
    /// A web-traffic pool's model may have requests due.
    Web { pool: u32 },
    /// Periodic sampling of the time series.
    Sample,
    /// End of the warm-up: statistics snapshot.
    Warmup,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    ev: Event,
}

// Ordered by key only, reversed so that std's max-heap pops the earliest (time, seq).
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.key.cmp(&self.key)
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    /// The heap's top has been popped already (handed out) but not yet removed.
    taken: bool,
    seq: u64,
    /// Events ever scheduled (for the events/s benchmark figure).
    pub scheduled: u64,
}

impl EventQueue {
    pub fn with_capacity(n: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(n),
            taken: false,
            seq: 0,
            scheduled: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.heap.len() - self.taken as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    pub fn push(&mut self, at: Time, ev: Event) {
        let key = ((at.0 as u128) << 64) | self.seq as u128;
        self.seq += 1;
        self.scheduled += 1;
        let e = Entry { key, ev };
        if self.taken {
            self.taken = false;
            // Overwrite the handed-out top; PeekMut sifts it down when dropped.
            *self.heap.peek_mut().expect("taken top is present") = e;
        } else {
            self.heap.push(e);
        }
    }

    /// Removes the handed-out top, if any.
    #[inline]
    fn settle(&mut self) {
        if self.taken {
            self.taken = false;
            self.heap.pop();
        }
    }

    /// Time of the earliest event.
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        let key = if self.taken {
            // The top is gone; the earliest pending entry is one of its children.
            let h = self.heap.as_slice();
            h[1..h.len().min(3)].iter().map(|e| e.key).min()?
        } else {
            self.heap.peek()?.key
        };
        Some(Time((key >> 64) as u64))
    }

    /// Schedules `ev` for a component's `deadline`, unless an event for it is already
    /// pending no later (`armed` holds the time of that pending event, `Time::NEVER` if none).
    /// A deadline already past is due `now`; `armed` records the time actually scheduled, so
    /// the event recognises itself when it fires (see [`EventQueue::disarm`]). Components
    /// whose deadline moves later leave a stale early event, which fires, finds nothing due,
    /// and re-arms: cheaper than removing events from the heap.
    #[inline]
    pub fn arm(&mut self, armed: &mut Time, deadline: Option<Time>, now: Time, ev: Event) {
        if let Some(d) = deadline {
            let at = d.max(now);
            if at < *armed {
                *armed = at;
                self.push(at, ev);
            }
        }
    }

    /// Called when a component's event fires at `now`: forget the pending time if it was
    /// this event (a stale earlier event leaves a later pending one in place).
    #[inline]
    pub fn disarm(armed: &mut Time, now: Time) {
        if *armed <= now {
            *armed = Time::NEVER;
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.settle();
        let e = *self.heap.peek()?;
        self.taken = true;
        Some((Time((e.key >> 64) as u64), e.ev))
    }

    /// Pops the earliest event if it is due before `until`.
    #[inline]
    pub fn pop_before(&mut self, until: Time) -> Option<(Time, Event)> {
        self.settle();
        let e = *self.heap.peek()?;
        let t = Time((e.key >> 64) as u64);
        if t >= until {
            return None;
        }
        self.taken = true;
        Some((t, e.ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pops_in_time_then_insertion_order(times in proptest::collection::vec(0u64..50, 0..200)) {
            let mut q = EventQueue::default();
            for (i, &t) in times.iter().enumerate() {
                q.push(Time(t), Event::Agent { agent: i as u32 });
            }
            let mut expect: Vec<(u64, u32)> = times.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
            expect.sort();
            let mut got = Vec::new();
            while let Some((t, Event::Agent { agent })) = q.pop() {
                got.push((t.0, agent));
            }
            prop_assert_eq!(got, expect);
        }
    }

    proptest! {
        /// Interleaved pushes and pops (pushes at or after the last popped time, as a
        /// simulation makes them, and sometimes before it) pop exactly as a sorted model.
        #[test]
        fn matches_a_sorted_model(ops in proptest::collection::vec((0u8..3, 0u64..40), 0..400)) {
            let mut q = EventQueue::default();
            let mut model: Vec<(u64, u64, u32)> = Vec::new(); // (time, seq, id)
            let (mut now, mut seq) = (0u64, 0u64);
            for (i, &(op, dt)) in ops.iter().enumerate() {
                match op {
                    0 | 1 => {
                        // op 1 with an odd dt schedules before `now`
                        let t = if op == 1 && dt % 2 == 1 { now.saturating_sub(dt) } else { now + dt };
                        q.push(Time(t), Event::Agent { agent: i as u32 });
                        model.push((t, seq, i as u32));
                        seq += 1;
                    }
                    _ => {
                        model.sort();
                        let want = if model.is_empty() { None } else { Some(model.remove(0)) };
                        prop_assert_eq!(q.peek_time(), want.map(|w| Time(w.0)));
                        let got = q.pop();
                        prop_assert_eq!(got, want.map(|w| (Time(w.0), Event::Agent { agent: w.2 })));
                        if let Some(w) = want { now = w.0; }
                    }
                }
                prop_assert_eq!(q.len(), model.len());
            }
            model.sort();
            for w in model {
                prop_assert_eq!(q.pop_before(Time(w.0 + 1)), Some((Time(w.0), Event::Agent { agent: w.2 })));
            }
            prop_assert!(q.is_empty());
            prop_assert_eq!(q.pop_before(Time::NEVER), None);
        }
    }
}
