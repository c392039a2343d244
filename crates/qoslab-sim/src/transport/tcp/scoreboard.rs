//! The sender's SACK scoreboard (RFC 6675 §3 "Update()"), one bit per segment.
//!
//! The sender cuts its byte stream into segments at fixed boundaries: segment `k` is
//! `[k·MSS, min((k+1)·MSS, end of data))`, for new data and retransmissions alike, so
//! "which octets are SACKed" is exactly "which segments are SACKed". The scoreboard is a
//! ring of flags over the segments from the one containing `SND.UNA` up to `HighData`,
//! allocated once for the largest window the receiver allows (`ceil(rwnd/MSS) + 2`
//! segments); the per-ACK path never allocates. A SACK block marks only the segments it
//! covers entirely (a partial cover cannot happen with our receiver, whose blocks always
//! start and end on segment boundaries).

/// Flags for the segments `[base, base + len)`.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    sacked: Vec<bool>,
    head: usize,
    /// Segment index of `sacked[head]`.
    base: u64,
    /// Number of SACKed segments at or above `base`.
    n_sacked: u64,
    /// One past the highest SACKed octet (0 when nothing was ever SACKed).
    high_sacked_end: u64,
}

impl Scoreboard {
    /// A scoreboard for windows of up to `segments` segments (0 for non-SACK senders).
    pub fn new(segments: usize) -> Self {
        Scoreboard {
            sacked: vec![false; segments],
            head: 0,
            base: 0,
            n_sacked: 0,
            high_sacked_end: 0,
        }
    }

    fn slot(&self, k: u64) -> Option<usize> {
        let off = k.checked_sub(self.base)?;
        if off >= self.sacked.len() as u64 {
            return None;
        }
        Some((self.head + off as usize) % self.sacked.len())
    }

    /// Is segment `k` SACKed? Segments outside the ring are not.
    pub fn is_sacked(&self, k: u64) -> bool {
        self.slot(k).is_some_and(|i| self.sacked[i])
    }

    /// Marks segment `k` SACKed; returns true if it was not already. Segments outside the
    /// ring are ignored (they cannot be outstanding).
    pub fn mark(&mut self, k: u64, end: u64) -> bool {
        match self.slot(k) {
            Some(i) if !self.sacked[i] => {
                self.sacked[i] = true;
                self.n_sacked += 1;
                self.high_sacked_end = self.high_sacked_end.max(end);
                true
            }
            _ => false,
        }
    }

    /// Forgets every segment below `new_base` (cumulatively acknowledged).
    pub fn advance(&mut self, new_base: u64) {
        if self.sacked.is_empty() || new_base <= self.base {
            return;
        }
        let n = (new_base - self.base).min(self.sacked.len() as u64) as usize;
        if self.n_sacked > 0 {
            for j in 0..n {
                let i = (self.head + j) % self.sacked.len();
                if self.sacked[i] {
                    self.sacked[i] = false;
                    self.n_sacked -= 1;
                }
            }
        }
        self.head = (self.head + n) % self.sacked.len();
        self.base = new_base;
    }

    /// Forgets all SACK information (after a retransmission timeout, RFC 2018 §8).
    pub fn clear(&mut self) {
        if self.n_sacked > 0 {
            self.sacked.iter_mut().for_each(|s| *s = false);
        }
        self.n_sacked = 0;
        self.high_sacked_end = 0;
    }

    /// Number of SACKed segments at or above the base.
    pub fn n_sacked(&self) -> u64 {
        self.n_sacked
    }

    /// One past the highest octet covered by any SACK block received (RFC 6675 NextSeg
    /// (1.b)); 0 when none, or when cleared.
    pub fn high_sacked_end(&self) -> u64 {
        if self.n_sacked == 0 {
            0
        } else {
            self.high_sacked_end
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_marks_advances_and_wraps() {
        let mut sb = Scoreboard::new(4);
        assert!(sb.mark(1, 200));
        assert!(!sb.mark(1, 200));
        assert!(sb.mark(3, 400));
        assert!(!sb.mark(4, 500)); // outside the ring
        assert_eq!((sb.n_sacked(), sb.high_sacked_end()), (2, 400));
        sb.advance(2); // drops segment 1
        assert_eq!(sb.n_sacked(), 1);
        assert!(sb.is_sacked(3) && !sb.is_sacked(1) && !sb.is_sacked(2));
        assert!(sb.mark(5, 600)); // wrapped slot
        assert!(sb.is_sacked(5) && !sb.is_sacked(4));
        sb.advance(10);
        assert_eq!((sb.n_sacked(), sb.high_sacked_end()), (0, 0));
        assert!(sb.mark(12, 1300));
        sb.clear();
        assert!(!sb.is_sacked(12));
    }
}
