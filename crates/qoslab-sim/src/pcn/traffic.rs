//! Micro-flow sources (§10.2, map §2): CBR voice, on-off VBR voice, on-off SVD video.
//!
//! A source only knows when it emits its next packet; the engine asks it lazily (one
//! pending event per flow). Each flow draws from its own stream
//! `pcn/iea{i}/flow{k}` (k counts the flows of IEA i), so adding a flow, or a flow of
//! another IEA, leaves its draws unchanged.

use qoslab_algo::{Duration, Rng, Time};

use super::spec::{BurstModel, TrafficSpec};

/// What the flow slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowState {
    Free,
    Active,
    /// Holding time over; the slot is freed at `release`.
    Ended,
    /// Terminated by its ingress; the slot is freed at `release`.
    Terminated,
}

/// One micro-flow.
#[derive(Clone, Debug)]
pub struct Source {
    pub iea: u32,
    pub state: FlowState,
    /// Time of the next packet emission (or of the end, whichever is first).
    pub next: Time,
    /// End of the holding time (`Time::NEVER` for infinite flows).
    pub end: Time,
    /// When an ended or terminated flow's slot may be reused: after its last packet can
    /// have reached the ingress (end or termination + the randomization bound), so a
    /// packet still on its way from the source never finds another flow in its slot.
    pub release: Time,
    /// Packets left in the current burst (on-off, NS2 model) or end of the ON period
    /// (continuous model, in ns).
    burst_left: u32,
    on_end: u64,
    /// Index in the IEA's active list.
    pub active_idx: u32,
    pub rng: Rng,
}

impl Source {
    /// A flow that starts at `start`: ON at once ([G §5.16], `stationary = false`), or in the
    /// on-off process's stationary state (`stationary = true`: ON with probability
    /// on/(on+off), else first a silence of Exp(off) — memoryless, so the residual periods
    /// have the same laws). CBR flows send their first packet at `start` either way.
    pub fn new(
        iea: u32,
        start: Time,
        end: Time,
        mut rng: Rng,
        t: &TrafficSpec,
        stationary: bool,
    ) -> Source {
        let mut start = start;
        if let (Some(oo), true) = (t.on_off, stationary) {
            let (on, off) = (oo.on_mean.as_nanos() as f64, oo.off_mean.as_nanos() as f64);
            if !rng.bernoulli(on / (on + off)) {
                start += Duration(libm::round(rng.exponential(off)) as u64);
            }
        }
        let mut s = Source {
            iea,
            state: FlowState::Active,
            next: start,
            end,
            release: Time::NEVER,
            burst_left: 0,
            on_end: 0,
            active_idx: 0,
            rng,
        };
        s.start_burst(start, t);
        s
    }

    fn start_burst(&mut self, at: Time, t: &TrafficSpec) {
        let Some(oo) = t.on_off else { return };
        let on = self.rng.exponential(oo.on_mean.as_nanos() as f64);
        match oo.burst {
            // NS2 Application/Traffic/Exponential: burst length in packets =
            // round(on / interval), at least one packet.
            BurstModel::Ns2 => {
                let n = libm::round(on / t.interval.as_nanos() as f64);
                self.burst_left = if n < 1.0 {
                    1
                } else {
                    n.min(u32::MAX as f64) as u32
                };
            }
            BurstModel::Continuous => {
                self.on_end = at.as_nanos().saturating_add(libm::round(on) as u64);
            }
        }
    }

    /// Called when the packet at `self.next` has been emitted: moves `next` on.
    #[inline]
    pub fn advance(&mut self, t: &TrafficSpec) {
        let now = self.next;
        let Some(oo) = t.on_off else {
            self.next = now + t.interval;
            return;
        };
        match oo.burst {
            BurstModel::Ns2 => {
                self.burst_left -= 1;
                if self.burst_left > 0 {
                    self.next = now + t.interval;
                } else {
                    // The silence follows the last packet's slot (NS2: interval + off).
                    let off = self.rng.exponential(oo.off_mean.as_nanos() as f64);
                    let start = now + t.interval + Duration(libm::round(off) as u64);
                    self.next = start;
                    self.start_burst(start, t);
                }
            }
            BurstModel::Continuous => {
                let cand = now + t.interval;
                if cand.as_nanos() < self.on_end {
                    self.next = cand;
                } else {
                    let off = self.rng.exponential(oo.off_mean.as_nanos() as f64);
                    let start = Time(self.on_end) + Duration(libm::round(off) as u64);
                    self.next = start;
                    self.start_burst(start, t);
                }
            }
        }
    }

    /// The extra source delay of the next packet: U(0, randomize) ([G §5.17]).
    #[inline]
    pub fn jitter(&mut self, t: &TrafficSpec) -> Duration {
        if t.randomize.as_nanos() == 0 {
            Duration::ZERO
        } else {
            Duration(self.rng.below(t.randomize.as_nanos()))
        }
    }
}
