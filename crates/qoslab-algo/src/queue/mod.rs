//! Queue management (temporary drop-tail-only placeholder; replaced by the queue work).
use crate::{Color, DropReason, PacketView, QueueView, RandomSource, Time, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    Packets(u32),
    Bytes(u64),
}
impl QueueLimit {
    pub fn admits(&self, q: &QueueView, size: u32) -> bool {
        match *self {
            QueueLimit::Packets(n) => q.pkts < n,
            QueueLimit::Bytes(b) => q.bytes + size as u64 <= b,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Aqm {
    DropTail,
}
#[derive(Clone, Debug, Default)]
pub struct AqmStats {
    pub drops: [[u64; 3]; 5],
}
impl Aqm {
    pub fn on_arrival<R: RandomSource>(&mut self, _now: Time, _pkt: &PacketView, _q: &QueueView, _rng: &mut R) -> Verdict {
        Verdict::Enqueue
    }
    pub fn on_departure(&mut self, _now: Time, _q: &QueueView) {}
    pub fn averages(&self) -> [f64; 3] {
        [0.0; 3]
    }
    pub fn stats(&self) -> AqmStats {
        let _ = (Color::Green, DropReason::Early);
        AqmStats::default()
    }
}
