//! The event queue: a binary min-heap ordered by (time, insertion sequence).
//!
//! Ties in time are broken by insertion order (NeXosim's rule), so a run is a deterministic
//! function of its inputs. The key (time, seq) is packed into one u128 so a comparison is a
//! single integer compare; an entry is 32 bytes. The heap is a plain `Vec` that is reused, so
//! scheduling allocates nothing once the pending set has reached its high-water mark.

use qoslab_algo::Time;

/// What happens when an event fires. Ids are indices into the simulator's flat tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Packet `pkt` arrives at node `node` (end of a link's propagation).
    Arrive { node: u32, pkt: u32 },
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

#[derive(Default)]
pub struct EventQueue {
    heap: Vec<Entry>,
    seq: u64,
    /// Events ever scheduled (for the events/s benchmark figure).
    pub scheduled: u64,
}

impl EventQueue {
    pub fn with_capacity(n: usize) -> Self {
        EventQueue {
            heap: Vec::with_capacity(n),
            seq: 0,
            scheduled: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    #[inline]
    pub fn push(&mut self, at: Time, ev: Event) {
        let key = ((at.0 as u128) << 64) | self.seq as u128;
        self.seq += 1;
        self.scheduled += 1;
        self.heap.push(Entry { key, ev });
        // sift up
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[parent].key <= key {
                break;
            }
            self.heap.swap(i, parent);
            i = parent;
        }
    }

    /// Time of the earliest event.
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.first().map(|e| Time((e.key >> 64) as u64))
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        let n = self.heap.len();
        if n == 0 {
            return None;
        }
        let top = self.heap.swap_remove(0);
        let n = n - 1;
        if n > 1 {
            // sift down (hole method)
            let moving = self.heap[0];
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                if l >= n {
                    break;
                }
                let r = l + 1;
                let c = if r < n && self.heap[r].key < self.heap[l].key {
                    r
                } else {
                    l
                };
                if self.heap[c].key >= moving.key {
                    break;
                }
                self.heap[i] = self.heap[c];
                i = c;
            }
            self.heap[i] = moving;
        }
        Some((Time((top.key >> 64) as u64), top.ev))
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
}
