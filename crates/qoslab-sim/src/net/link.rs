//! A unidirectional point-to-point link with its egress FIFO and queue discipline.
//!
//! Transmission model: a packet accepted by the discipline starts serialising at once if the
//! link is idle, otherwise it waits in the FIFO. The link's serialisation end is known when
//! transmission starts (`busy_until`), so an idle, uncongested hop costs one event per packet
//! (the arrival at the far end); a `LinkFree` event is scheduled only while packets wait.
//! Queue lengths exclude the packet being serialised (as ns-2 and Linux count them).
//! Configured random loss (RFC 4828 App. B.1/B.2) is decided when a packet starts
//! serialising: a lost packet occupies the link (corruption on the wire) and never arrives.

use std::collections::VecDeque;

use qoslab_algo::queue::{Aqm, QueueLimit};
use qoslab_algo::{QueueView, Rate, Rng, Time};

use crate::arena::PktId;
use crate::scenario::spec::LossSpec;
use crate::stats::{QueueCounters, QueueLengthStats};

pub struct Link {
    pub name: String,
    pub from: u32,
    pub to: u32,
    pub rate: Rate,
    pub delay: qoslab_algo::Duration,
    pub fifo: VecDeque<PktId>,
    pub view: QueueView,
    pub aqm: Aqm,
    pub limit: QueueLimit,
    pub loss: Option<LossSpec>,
    /// Stream for the discipline's random decisions.
    pub aqm_rng: Rng,
    /// Stream for configured loss.
    pub loss_rng: Rng,
    /// End of the current serialisation.
    pub busy_until: Time,
    /// A LinkFree event is pending.
    pub free_pending: bool,
    pub counters: QueueCounters,
    pub qlen: QueueLengthStats,
    /// Whether this link's queue is reported (monitor list or any activity).
    pub monitored: bool,
}

impl Link {
    /// Whether a packet of `size` bytes is lost on the wire (configured loss).
    #[inline]
    pub fn wire_loss(&mut self, size: u32) -> bool {
        match self.loss {
            None => false,
            Some(LossSpec::Packet { p }) => self.loss_rng.bernoulli(p),
            Some(LossSpec::Byte { b }) => {
                // 1 − (1 − b)^N  (RFC 4828 App. B.2)
                let p = 1.0 - libm::pow(1.0 - b, size as f64);
                self.loss_rng.bernoulli(p)
            }
        }
    }
}
