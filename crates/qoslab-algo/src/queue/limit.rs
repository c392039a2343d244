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
            // ns-2 DropTail: the arrival is dropped if the queue would exceed limit_ packets.
            QueueLimit::Packets(n) => q.pkts < n,
            // ns-2 DropTail (queue_in_bytes_): dropped if byteLength + size > limit.
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
