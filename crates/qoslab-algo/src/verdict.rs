//! Typed decisions of queue-management algorithms, with the reason for each drop or mark.

/// Why a packet was dropped (or marked, with ECN) by a queue discipline.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DropReason {
    /// The buffer limit (packets or bytes) would be exceeded ("overflow", ns-2 "forced" by limit).
    Overflow,
    /// A probabilistic early drop (RED: avg between min_th and max_th, or the gentle region).
    Early,
    /// A deterministic drop because the average is above max_th (2·max_th in gentle mode).
    Forced,
    /// A policer found the packet out of profile.
    Policed,
    /// A configured random loss (lossy link).
    Loss,
}

impl DropReason {
    pub const ALL: [DropReason; 5] = [
        DropReason::Overflow,
        DropReason::Early,
        DropReason::Forced,
        DropReason::Policed,
        DropReason::Loss,
    ];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Overflow => "overflow",
            DropReason::Early => "early",
            DropReason::Forced => "forced",
            DropReason::Policed => "policed",
            DropReason::Loss => "loss",
        }
    }
}

/// The decision of a queue discipline for an arriving packet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Accept the packet into the queue.
    Enqueue,
    /// Accept it with ECN Congestion Experienced set (instead of an early or forced drop).
    Mark(DropReason),
    /// Discard it.
    Drop(DropReason),
}
