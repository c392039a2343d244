//! Open-loop UDP sources: constant bit rate and Poisson.
//!
//! CBR sends a `size`-byte packet every `size·8/rate` (rounded up to the nanosecond, so the
//! rate is never exceeded). Poisson draws exponential gaps with mean `size·8/rate` from the
//! flow's own random stream. Both start at the flow's start time and send while `t < stop`.

use qoslab_algo::{Duration, Rate, Rng, Time};

#[derive(Clone, Copy, Debug)]
pub enum Law {
    Constant(Duration),
    /// Mean gap in seconds.
    Exponential(f64),
}

#[derive(Clone, Debug)]
pub struct UdpSource {
    pub size: u32,
    pub law: Law,
    /// When the next packet is due.
    pub next: Time,
    pub stop: Time,
    pub seq: u64,
    pub rng: Rng,
}

impl UdpSource {
    pub fn cbr(rate: Rate, size: u32, start: Time, stop: Time, rng: Rng) -> Self {
        UdpSource {
            size,
            law: Law::Constant(rate.tx_time(size as u64)),
            next: start,
            stop,
            seq: 0,
            rng,
        }
    }

    pub fn poisson(rate: Rate, size: u32, start: Time, stop: Time, rng: Rng) -> Self {
        let mean = size as f64 * 8.0 / rate.0 as f64;
        UdpSource {
            size,
            law: Law::Exponential(mean),
            next: start,
            stop,
            seq: 0,
            rng,
        }
    }

    /// The next send time, if the source is still active.
    #[inline]
    pub fn deadline(&self) -> Option<Time> {
        (self.next < self.stop).then_some(self.next)
    }

    /// If a packet is due at `now`, returns its sequence number and advances the schedule.
    #[inline]
    pub fn poll(&mut self, now: Time) -> Option<u64> {
        if self.next > now || self.next >= self.stop {
            return None;
        }
        let gap = match self.law {
            Law::Constant(d) => d,
            Law::Exponential(mean) => Duration::from_secs_f64(self.rng.exponential(mean)),
        };
        self.next += gap;
        let s = self.seq;
        self.seq += 1;
        Some(s)
    }
}
