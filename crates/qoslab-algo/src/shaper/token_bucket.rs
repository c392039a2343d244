//! Token-bucket shaper: a FIFO whose head leaves as soon as the bucket holds its size.
//!
//! The classical shaper of RFC 2475 §2.3.3.3 ("delay some or all of the packets in a
//! traffic stream in order to bring the stream into compliance with a traffic profile")
//! with a token-bucket profile (rate `r`, depth `b`), and a byte-limited tail-drop buffer.
//! The output conforms to (r, b): over any interval [s, t] the bytes released are at most
//! `b + r·(t − s)`.
//!
//! Choices the classical description leaves open, and what is done here:
//! - **Accrual**: continuous and exact. Tokens are counted in 10⁻⁹ bit
//!   ([`UNITS_PER_BYTE`](super::UNITS_PER_BYTE) per byte) and `elapsed_ns × rate_bps`
//!   of them accrue, capped at the depth. No per-byte or per-tick quantisation.
//! - **Initial state**: the bucket is full at `Time::ZERO`.
//! - **Release instant**: the head leaves at the first whole nanosecond `t >= head_since`
//!   with `tokens(t) >= size` (rounded *up*, so the output never exceeds the profile), where
//!   `head_since` is when it reached the head (`max(its arrival, previous release)`); its
//!   size is then taken from the bucket. A later packet never overtakes the head (FIFO),
//!   even if it is smaller and would conform earlier.
//! - **Packets larger than the depth** could never conform: they are refused at arrival
//!   with [`DropCause::Oversize`](super::DropCause::Oversize) (as Linux `tbf` does), instead
//!   of blocking the FIFO forever.
//! - **Late polls**: the tokens are taken at the scheduled instant, not at the (later)
//!   `now` of `release`, so the schedule does not depend on polling lateness.

use super::fifo::{served, time_to_serve, units, HeldFifo};
use super::{Dropped, ShaperStats};
use crate::error::ConfigError;
use crate::packet::PacketView;
use crate::time::Time;
use crate::units::Rate;

/// Validated settings of a [`TokenBucketShaper`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenBucketParams {
    rate: Rate,
    depth: u64,
    buffer: u64,
}

impl TokenBucketParams {
    /// `rate` (bit/s) > 0, `depth` (bytes) >= 1, `buffer` (bytes) >= 1.
    pub fn new(rate: Rate, depth: u64, buffer: u64) -> Result<Self, ConfigError> {
        if rate.bps() == 0 {
            return Err(ConfigError::out_of_range("rate", rate.bps(), "> 0 bit/s"));
        }
        if depth == 0 {
            return Err(ConfigError::out_of_range("depth", depth, ">= 1 byte"));
        }
        if buffer == 0 {
            return Err(ConfigError::out_of_range("buffer", buffer, ">= 1 byte"));
        }
        Ok(TokenBucketParams {
            rate,
            depth,
            buffer,
        })
    }
    pub fn rate(&self) -> Rate {
        self.rate
    }
    /// Bucket depth in bytes.
    pub fn depth(&self) -> u64 {
        self.depth
    }
    /// Buffer (FIFO) limit in bytes.
    pub fn buffer(&self) -> u64 {
        self.buffer
    }
}

/// A token-bucket shaper (see the module docs).
#[derive(Clone, Debug)]
pub struct TokenBucketShaper {
    params: TokenBucketParams,
    fifo: HeldFifo,
    /// Tokens (10⁻⁹ bit) at `t_tokens`.
    tokens: u128,
    t_tokens: Time,
    /// When the current head reached the head of the FIFO.
    head_since: Time,
}

impl TokenBucketShaper {
    pub fn new(params: TokenBucketParams) -> Self {
        TokenBucketShaper {
            params,
            fifo: HeldFifo::new(params.buffer),
            tokens: units(params.depth),
            t_tokens: Time::ZERO,
            head_since: Time::ZERO,
        }
    }

    pub fn params(&self) -> &TokenBucketParams {
        &self.params
    }

    /// Tokens in 10⁻⁹ bit (divide by [`UNITS_PER_BYTE`](super::UNITS_PER_BYTE) for bytes)
    /// the bucket would hold at `t` (`>=` the last release) if nothing left before.
    pub fn tokens_at(&self, t: Time) -> u128 {
        let accrued = served(t.saturating_since(self.t_tokens), self.params.rate.bps());
        self.tokens
            .saturating_add(accrued)
            .min(units(self.params.depth))
    }

    /// The packet joins the FIFO; refused if larger than the depth or if the buffer is full.
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), Dropped> {
        let now = self.fifo.clock(now);
        self.fifo.count_arrival(pkt);
        if pkt.size as u64 > self.params.depth {
            return Err(self.fifo.reject(id, pkt, super::DropCause::Oversize));
        }
        let was_empty = self.fifo.is_empty();
        self.fifo.try_push(now, id, pkt)?;
        if was_empty {
            self.head_since = now;
        }
        Ok(())
    }

    /// The first instant `>= head_since` at which the bucket holds the head's size.
    pub fn next_release(&self) -> Option<Time> {
        let head = self.fifo.head()?;
        let need = units(head.pkt.size as u64);
        // The cap is monotone and need <= depth, so the first instant the uncapped count
        // reaches `need` is the first instant the capped one does.
        let have = self.tokens_at(self.head_since);
        if have >= need {
            Some(self.head_since)
        } else {
            Some(self.head_since + time_to_serve(need - have, self.params.rate.bps()))
        }
    }

    /// Pops the head if its release instant is `<= now`, taking its size from the bucket at
    /// that (scheduled) instant.
    pub fn release(&mut self, now: Time) -> Option<(u64, PacketView)> {
        let at = self.next_release()?;
        if at > now {
            return None;
        }
        self.fifo.clock(now);
        let head = self.fifo.pop(at, false)?;
        self.tokens = self.tokens_at(at) - units(head.pkt.size as u64);
        self.t_tokens = at;
        if let Some(next) = self.fifo.head() {
            self.head_since = at.max(next.arrival);
        }
        Some((head.id, head.pkt))
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }
    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.fifo.bytes()
    }
    pub fn stats(&self) -> &ShaperStats {
        self.fifo.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shaper::DropCause;
    use crate::time::Duration;

    fn shaper() -> TokenBucketShaper {
        // 1000 B/s = 8000 bit/s, depth 1500 B, buffer 10 000 B.
        TokenBucketShaper::new(TokenBucketParams::new(Rate(8000), 1500, 10_000).unwrap())
    }

    #[test]
    fn three_back_to_back_packets() {
        // Three 1000 B packets at t = 0, bucket full (1500 B):
        //  #1 leaves at 0, bucket 1500 - 1000 = 500 B;
        //  #2 needs 500 B more at 1000 B/s: 0.5 s, bucket 0;
        //  #3 needs 1000 B: 1 s later, at 1.5 s.
        let mut s = shaper();
        for id in 1..=3 {
            s.on_arrival(Time(0), id, PacketView::new(1000)).unwrap();
        }
        let mut out = vec![];
        while let Some(t) = s.next_release() {
            if t.0 > 0 {
                assert!(s.release(Time(t.0 - 1)).is_none(), "not due 1 ns early");
            }
            s.release(t).unwrap();
            out.push(t);
        }
        assert_eq!(out, vec![Time(0), Time(500_000_000), Time(1_500_000_000)]);
        assert_eq!(s.stats().delay_max, Duration(1_500_000_000));
        assert_eq!(s.stats().delay_sum_ns, 2_000_000_000);
    }

    #[test]
    fn idle_bucket_refills_only_to_its_depth() {
        // #1 (1000 B) at 0 leaves at 0 (bucket 500 B). At 10 s the bucket is full again
        // (capped at 1500 B, not 500 + 10 000): #2 (1500 B) leaves at once, #3 (600 B)
        // waits 600 B / 1000 B/s = 0.6 s.
        let mut s = shaper();
        s.on_arrival(Time(0), 1, PacketView::new(1000)).unwrap();
        assert_eq!(s.release(Time(0)).unwrap().0, 1);
        let t = Time::from_secs(10);
        s.on_arrival(t, 2, PacketView::new(1500)).unwrap();
        s.on_arrival(t, 3, PacketView::new(600)).unwrap();
        assert_eq!(s.next_release(), Some(t));
        assert_eq!(s.release(t).unwrap().0, 2);
        assert_eq!(s.next_release(), Some(t + Duration::from_millis(600)));
    }

    #[test]
    fn late_poll_does_not_change_the_schedule() {
        // #1, #2 (1000 B each) at 0: #2 due at 0.5 s. Polled at 2 s, it is taken at 0.5 s,
        // so #3 arriving at 2 s finds 1.5 s × 1000 B/s = 1500 B (capped) and leaves at once.
        let mut s = shaper();
        s.on_arrival(Time(0), 1, PacketView::new(1000)).unwrap();
        s.on_arrival(Time(0), 2, PacketView::new(1000)).unwrap();
        s.release(Time(0)).unwrap();
        let t2 = Time::from_secs(2);
        assert_eq!(s.release(t2).unwrap().0, 2);
        s.on_arrival(t2, 3, PacketView::new(1500)).unwrap();
        assert_eq!(s.next_release(), Some(t2));
        assert_eq!(s.stats().delay_max, Duration::from_millis(500));
    }

    #[test]
    fn drops_oversize_and_buffer_full() {
        let mut s = TokenBucketShaper::new(TokenBucketParams::new(Rate(8000), 1500, 3000).unwrap());
        let d = s.on_arrival(Time(0), 1, PacketView::new(1501)).unwrap_err();
        assert_eq!(d.cause, DropCause::Oversize);
        s.on_arrival(Time(0), 2, PacketView::new(1500)).unwrap();
        s.on_arrival(Time(0), 3, PacketView::new(1500)).unwrap(); // 3000 <= 3000
        let d = s.on_arrival(Time(0), 4, PacketView::new(100)).unwrap_err();
        assert_eq!((d.id, d.cause), (4, DropCause::BufferFull));
        let st = s.stats();
        assert_eq!(
            (st.drops_oversize, st.drops_buffer_full, st.dropped_bytes),
            (1, 1, 1601)
        );
        assert_eq!(s.bytes(), 3000);
    }

    #[test]
    fn rejects_nonsense() {
        assert!(TokenBucketParams::new(Rate(0), 1, 1).is_err());
        assert!(TokenBucketParams::new(Rate(1), 0, 1).is_err());
        assert!(TokenBucketParams::new(Rate(1), 1, 0).is_err());
    }
}
