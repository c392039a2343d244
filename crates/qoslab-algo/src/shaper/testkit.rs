//! Test helpers: a tiny committed-rate meter acting as a green oracle, and an event-loop
//! driver that feeds a shaper a list of arrivals and polls it exactly at its deadlines.

use super::{GreenOracle, Shaper};
use crate::packet::PacketView;
use crate::time::{Duration, Time};

/// A single token bucket (rate in bytes/s, depth CBS in bytes, full at 0), like the
/// committed bucket of an srTCM. Tokens are kept exactly in 10⁻⁹ byte.
#[derive(Clone, Debug)]
pub(crate) struct TestMeter {
    rate: u64,
    cbs: u64,
    tokens: u128,
    t: Time,
}

impl TestMeter {
    pub fn new(rate_bytes_per_sec: u64, cbs: u64) -> Self {
        TestMeter {
            rate: rate_bytes_per_sec,
            cbs,
            tokens: cbs as u128 * 1_000_000_000,
            t: Time::ZERO,
        }
    }

    fn tokens_at(&self, t: Time) -> u128 {
        let acc = t.saturating_since(self.t).0 as u128 * self.rate as u128;
        (self.tokens + acc).min(self.cbs as u128 * 1_000_000_000)
    }

    pub fn is_green(&self, t: Time, size: u32) -> bool {
        self.tokens_at(t) >= size as u128 * 1_000_000_000
    }

    /// Meters a packet at `t`: takes its size if green. Returns whether it was green.
    pub fn meter(&mut self, t: Time, size: u32) -> bool {
        let t = t.max(self.t);
        self.tokens = self.tokens_at(t);
        self.t = t;
        let need = size as u128 * 1_000_000_000;
        let green = self.tokens >= need;
        if green {
            self.tokens -= need;
        }
        green
    }
}

impl GreenOracle for TestMeter {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        if size as u64 > self.cbs {
            return Time::NEVER;
        }
        let have = self.tokens_at(now);
        let need = size as u128 * 1_000_000_000;
        if have >= need {
            now
        } else if self.rate == 0 {
            Time::NEVER
        } else {
            let ns = (need - have).div_ceil(self.rate as u128);
            now.max(self.t) + Duration(ns.min(u64::MAX as u128) as u64)
        }
    }
}

/// What happened to each packet (indexed by id = position in the arrival list).
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    pub arrival: Vec<Time>,
    pub size: Vec<u32>,
    pub departure: Vec<Option<Time>>,
    pub dropped: Vec<bool>,
    /// Ids in release order.
    pub order: Vec<u64>,
}

/// Feeds `arrivals` (nondecreasing times) to `shaper`, releasing exactly at each
/// `next_release` (arrivals at the same instant first), metering every release with `meter`.
/// `check` runs after every event.
pub(crate) fn drive(
    shaper: &mut Shaper,
    arrivals: &[(Time, u32)],
    meter: &mut TestMeter,
    mut check: impl FnMut(&Shaper),
) -> Trace {
    let n = arrivals.len();
    let mut tr = Trace {
        arrival: arrivals.iter().map(|a| a.0).collect(),
        size: arrivals.iter().map(|a| a.1).collect(),
        departure: vec![None; n],
        dropped: vec![false; n],
        order: vec![],
    };
    let mut i = 0;
    loop {
        let due = shaper.next_release(&*meter);
        let next_arrival = arrivals.get(i).map(|a| a.0);
        match (next_arrival, due) {
            (None, None) => break,
            (Some(ta), d) if d.is_none_or(|d| ta <= d) => {
                let res = shaper.on_arrival(ta, i as u64, PacketView::new(arrivals[i].1));
                if let Err(d) = res {
                    assert_eq!(d.id, i as u64);
                    tr.dropped[i] = true;
                }
                i += 1;
            }
            (_, Some(d)) => {
                assert!(!d.is_never(), "a held packet is never released");
                let (id, pkt) = shaper.release(d, &*meter).expect("due at its deadline");
                meter.meter(d, pkt.size);
                tr.departure[id as usize] = Some(d);
                tr.order.push(id);
            }
            (Some(_), None) => unreachable!(),
        }
        check(shaper);
    }
    tr
}
