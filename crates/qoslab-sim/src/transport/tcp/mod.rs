//! # TCP Reno, NewReno and SACK as sans-IO state machines
//!
//! One-way bulk TCP in the manner of ns-2's `Agent/TCP/{Reno,Newreno,Sack1}` + `TCPSink`:
//! byte sequence numbers starting at 0, no handshake, no payload carried, no FIN. The
//! sender and receiver never read a clock or schedule anything; the engine drives them:
//!
//! ```text
//! sender:   after every event: while let Some(seg) = s.poll_transmit(now) { send seg }
//!           ACK arrives:       s.on_ack(now, &ack)
//!           timer:             at s.poll_timeout(): s.on_timeout(now)
//! receiver: segment arrives:   if let Some(ack) = r.on_segment(now, &seg) { send ack }
//!           timer:             at r.poll_timeout(): if let Some(ack) = r.on_timeout(now) { send ack }
//! ```
//!
//! | file | what it implements |
//! |---|---|
//! | [`config`] | [`TcpParams`] (settings and their defaults) validated into [`TcpConfig`] |
//! | [`rtt`] | RFC 6298 SRTT/RTTVAR/RTO, clock granularity, backoff |
//! | [`sender`] | RFC 5681 congestion control, Reno / RFC 6582 NewReno / RFC 6675 SACK recovery, RFC 3042 |
//! | [`scoreboard`] | the sender's per-segment SACK scoreboard (preallocated ring) |
//! | [`receiver`] | cumulative ACK, reassembly, RFC 2018 SACK blocks, delayed ACK, ECN-Echo, TS.Recent |
//!
//! Wire sizes: a data segment is `len + header` bytes ([`TcpConfig::segment_wire_size`]),
//! an ACK is `ack_size` bytes whatever its SACK blocks ([`TcpConfig::ack_wire_size`]).
//! The RFC 7323 timestamp option adds no bytes (see [`TcpParams::timestamps`]).
//!
//! ECN (RFC 3168, [`TcpParams::ecn`]): the sender marks its segments ECN-capable
//! ([`Segment::ect`], the IP codepoint the engine puts on the packet) and sets
//! [`Segment::cwr`]; the engine tells the receiver whether a segment arrived with CE
//! ([`TcpReceiver::on_segment_ce`]), and the receiver echoes it in [`Ack::ece`]. The IP
//! ECN field itself lives on the engine's packet, not in these TCP headers.

use qoslab_algo::Time;

pub mod config;
pub mod receiver;
pub mod rtt;
pub mod scoreboard;
pub mod sender;

#[cfg(test)]
mod tests;

pub use config::{RtoSsthresh, SackPipe, TcpConfig, TcpParams, Variant};
pub use receiver::{TcpReceiver, TcpReceiverStats};
pub use rtt::RttEstimator;
pub use sender::{App, TcpSender, TcpSenderStats};

/// SACK blocks carried per ACK (RFC 2018 §3: at most 4; 3 when a timestamp option is
/// present, and ns-2's `maxSackBlocks_` default).
pub const MAX_SACK_BLOCKS: usize = 3;

/// A data segment as the sender puts it on the wire (`len + header` bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// Sequence number of the first payload byte (the stream starts at 0).
    pub seq: u64,
    /// Payload bytes, 1..=MSS.
    pub len: u32,
    /// True if some byte of it was sent before.
    pub retransmission: bool,
    /// Send as ECN-capable (ECT in the IP header): an ECN sender's new data only (RFC 3168
    /// §6.1.5: retransmissions MUST NOT be ECT).
    pub ect: bool,
    /// The CWR flag (RFC 3168 §6.1.2): the first new segment after a window reduction.
    pub cwr: bool,
    /// RFC 7323 TSval: the sender's clock when it sent this segment (also when timestamps are
    /// off, when nothing reads it).
    pub ts_val: Time,
}

impl Segment {
    /// One past the last payload byte.
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}

/// One SACK block: the bytes `[start, end)` are held by the receiver (RFC 2018 §3, whose
/// "right edge" is `end`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// An acknowledgment (`ack_size` bytes on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ack {
    /// Cumulative acknowledgment: the next byte expected.
    pub ack: u64,
    /// SACK blocks, valid in `sack[..n_sack]`, the first containing the most recent segment.
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    pub n_sack: u8,
    /// The ECN-Echo flag (RFC 3168 §6.1.3).
    pub ece: bool,
    /// RFC 7323 TSecr: the `TS.Recent` the receiver echoes (zero when timestamps are off).
    pub ts_ecr: Time,
}

impl Ack {
    /// A plain cumulative ACK.
    pub fn cumulative(ack: u64) -> Ack {
        Ack {
            ack,
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            n_sack: 0,
            ece: false,
            ts_ecr: Time::ZERO,
        }
    }
    /// The valid SACK blocks.
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..(self.n_sack as usize).min(MAX_SACK_BLOCKS)]
    }
}
