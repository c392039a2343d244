//! The hard buffer limit of a FIFO queue. Drop-tail is just this limit.
//!
//! The limit is applied by the caller *after* a queue-management algorithm returned
//! [`Verdict::Enqueue`](crate::Verdict::Enqueue) (or a `Mark`): RED, Adaptive RED and RIO never
//! look at the buffer size themselves.
//!
//! Open choice: in bytes, a packet is admitted only if it fits entirely
//! (`bytes + size <= limit`), as ns-2's `DropTail` does with `queue_in_bytes_`. ns-2's
//! `REDQueue` in byte mode instead drops when the queue *before* the arrival already holds
//! `limit` bytes or more, so it can overshoot by one packet; we use the drop-tail rule
//! everywhere so that the limit is a true bound.
//!
//! ns-2 counts differently (measured with ns-2.35, `bench/ns2/seeds/probes/droptail_limit.tcl`:
//! a 50-packet burst into an idle link). Its `DropTail` drops an arrival when
//! `length + 1 >= limit_` (in bytes: `byteLength + size >= limit_ · mean_pktsize_`), so
//! `limit_ N` holds N − 1 waiting packets besides the one on the wire: a burst delivers N.
//! Its diffserv `dsRED` queue drops when `length >= limit_`, so `limit_ N` holds N waiting,
//! like ours. Hence our `Packets(n)` is ns-2 DropTail's `limit_ n + 1` and dsRED's `limit_ n`;
//! our `Bytes(b)` is DropTail's byte limit `b + 1`. A scenario matched to an ns-2 script must
//! translate the limit accordingly (the ns-2 scripts under `bench/ns2/seeds/` do).

use crate::QueueView;

/// The capacity of a queue's buffer, in packets or in bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum QueueLimit {
    /// At most this many packets may be queued (ns-2 `limit_` in packets).
    Packets(u32),
    /// At most this many bytes may be queued.
    Bytes(u64),
}

impl QueueLimit {
    /// Whether a packet of `size` bytes fits into a queue whose occupancy before the
    /// arrival is `q`. A queue counts the packets waiting, not the one on the link.
    pub fn admits(&self, q: &QueueView, size: u32) -> bool {
        match *self {
            // At most n waiting: admitted if fewer than n wait (ns-2 DropTail `limit_` n + 1,
            // dsRED `limit_` n; module docs).
            QueueLimit::Packets(n) => q.pkts < n,
            // Admitted if the whole packet fits (ns-2 DropTail in bytes: byteLength + size
            // must stay below its byte limit, i.e. our b + 1; module docs).
            QueueLimit::Bytes(b) => q.bytes.saturating_add(size as u64) <= b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    fn queue(sizes: &[u32]) -> QueueView {
        let mut q = QueueView::EMPTY;
        for &s in sizes {
            q.push(s, Color::Green);
        }
        q
    }

    #[test]
    fn packet_limit_admits_up_to_n_packets() {
        let l = QueueLimit::Packets(3);
        assert!(l.admits(&queue(&[]), 1500));
        assert!(l.admits(&queue(&[100, 100]), 1500)); // 2 queued + 1 = 3 <= 3
        assert!(!l.admits(&queue(&[100, 100, 100]), 40)); // 3 + 1 = 4 > 3
        assert!(!QueueLimit::Packets(0).admits(&queue(&[]), 1));
    }

    /// Packets delivered from a burst of `burst` back-to-back packets into an idle link much
    /// slower than the arrivals: the first goes straight to the wire, the rest wait or drop.
    fn burst_delivered(l: QueueLimit, size: u32, burst: u32) -> u32 {
        let mut q = QueueView::EMPTY;
        let mut delivered = 1; // the first packet finds the link idle
        for _ in 1..burst {
            if l.admits(&q, size) {
                q.push(size, Color::Green);
                delivered += 1;
            }
        }
        delivered
    }

    #[test]
    fn ns2_limits_map_to_ours() {
        // ns-2.35, bench/ns2/seeds/probes/droptail_limit.tcl, 50 packets of 100 B:
        // (limit_, delivered) for DropTail in packets, DropTail in bytes (mean_pktsize_ 100)
        // and dsRED.
        let droptail = [(2, 2), (5, 5), (10, 10)];
        let droptail_bytes = [(5, 5), (10, 10)];
        let dsred = [(1, 2), (2, 3), (5, 6), (10, 11)];
        for (n, d) in droptail {
            assert_eq!(burst_delivered(QueueLimit::Packets(n - 1), 100, 50), d);
        }
        for (n, d) in droptail_bytes {
            let b = n as u64 * 100 - 1;
            assert_eq!(burst_delivered(QueueLimit::Bytes(b), 100, 50), d);
        }
        for (n, d) in dsred {
            assert_eq!(burst_delivered(QueueLimit::Packets(n), 100, 50), d);
        }
    }

    #[test]
    fn byte_limit_admits_only_whole_packets_that_fit() {
        let l = QueueLimit::Bytes(3000);
        // 1500 + 1500 = 3000 <= 3000: fits exactly.
        assert!(l.admits(&queue(&[1500]), 1500));
        // 1500 + 1501 = 3001 > 3000.
        assert!(!l.admits(&queue(&[1500]), 1501));
        // A packet larger than the whole buffer never fits, even into an empty queue.
        assert!(!l.admits(&queue(&[]), 3001));
    }
}
