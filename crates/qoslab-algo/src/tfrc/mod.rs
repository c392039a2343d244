//! # TFRC and TFRC-SP as sans-IO state machines
//!
//! TCP-Friendly Rate Control (RFC 5348, which obsoletes RFC 3448) and its Small-Packet
//! variant TFRC-SP (RFC 4828). A [`Sender`] emits [`DataPacket`]s at its allowed rate and
//! reacts to [`Feedback`]; a [`Receiver`] turns arriving data packets into the loss event
//! rate and the receive rate and says when to send feedback. Neither reads a clock or knows
//! about links: the caller carries packets and feedback and owns the event queue.
//!
//! | file | what | source |
//! |---|---|---|
//! | [`equation`] | TCP throughput equation, its inverse, TFRC-SP settings and header allowance | RFC 5348 §3.1, RFC 4828 §3 |
//! | [`loss_history`] | loss detection, loss events, loss intervals, `I_mean`, TFRC-SP short intervals | RFC 5348 §5, RFC 3448 §5, RFC 4828 §3 and App. C |
//! | [`receiver`] | receive rate, feedback timer, first-loss seeding | RFC 5348 §6, RFC 4828 §1/§4.6 |
//! | [`sender`] | allowed rate, slow start, X_recv_set, nofeedback timer, Min Interval | RFC 5348 §4 and §8.2.1, RFC 4828 §3 |
//! | [`response`] | RFC 4828 Tables 1–4 computed from the equation | RFC 4828 §4.1 |
//! | [`ns2`] | non-default ns-2 behaviours ([`Ns2Compat`]) and why they matter at high loss | ns-2 `tfrc.cc`, `tfrc-sink.cc`, `formula.h` |
//!
//! ## Driving a sender/receiver pair
//! 1. `Sender::new(params, now)`. Call `poll_transmit(t)` at `t = next_send_time()`; each
//!    call that returns a packet also moves `next_send_time()`. Re-read `next_send_time()`
//!    and `poll_timeout()` after *every* call (feedback and timeouts change the rate).
//! 2. Deliver each data packet to `Receiver::on_packet(arrival, &pkt)`; a returned
//!    [`Feedback`] goes back to the sender, `Sender::on_feedback(arrival, &fb)`.
//!    Also call `Receiver::on_timeout(t)` at `t = Receiver::poll_timeout()`.
//! 3. Call `Sender::on_timeout(t)` at `t = Sender::poll_timeout()` (the nofeedback timer).
//!
//! ## Units
//! Time is integer nanoseconds ([`Time`](crate::Time), [`Duration`](crate::Duration)).
//! Rates are `f64` bytes per second, the unit of the equation (the formulas are defined in
//! reals and are evaluated per feedback, not per packet). `DataPacket::size` is the data
//! segment size (without network/transport headers, RFC 5348 §3.1 "s"); the simulator adds
//! its header bytes on the wire.

pub mod equation;
pub mod loss_history;
pub mod ns2;
pub mod receiver;
pub mod response;
pub mod sender;

pub use equation::{ShortIntervalRule, SmallPacketParams};
pub use loss_history::{LossHistory, LossHistoryParams, LossTimeBase};
pub use ns2::{Ns2Compat, Ns2PathDelays, Ns2Rto};
pub use receiver::{Receiver, ReceiverParams, ReceiverStats};
pub use response::{response_tables, ResponseRow, ResponseTable};
pub use sender::{InitialRate, Sender, SenderParams, SenderStats, OSCILLATION_Q2};

use crate::time::{Duration, Time};

/// Standard TFRC or TFRC-SP.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    /// RFC 5348: `s` in the equation is the actual segment size.
    Standard,
    /// RFC 4828: nominal segment size, header allowance, Min Interval, short loss intervals.
    SmallPacket(SmallPacketParams),
}

/// A data packet as a TFRC sender sends it (RFC 5348 §3.2.1: "a sequence number, a
/// timestamp ..., the sender's current estimate of the round trip time").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataPacket {
    /// Sequence number, +1 per packet from 0.
    pub seq: u64,
    /// Data bytes (segment size, headers excluded).
    pub size: u32,
    /// Sender timestamp (the sender's `now` when it sent the packet).
    pub send_time: Time,
    /// The sender's RTT estimate (`None` before its first feedback).
    pub rtt: Option<Duration>,
    /// The t_RTO of the sender's throughput equation (RFC 5348 §3.1: 4R; ns-2's `tzero_`
    /// with [`Ns2Compat::tcp_rto_in_equation`]); zero before its first feedback (ns-2's
    /// `tzero_` is 0 then too). Not in RFC 5348's header; ns-2 carries `tzero_` and only
    /// [`Ns2Compat::first_seed_by_b_to_p`] reads it (the receiver's seed of the first loss
    /// interval). A plain `Duration`, not an `Option`, so that [`DataPacket::ns2_frac`] fits
    /// in the engine's 128-byte packet slot.
    pub t_rto: Duration,
    /// ECN Congestion Experienced, set by the network (the sender sends `false`).
    pub ecn_ce: bool,
    /// The sender's feedback round: feedback packets received plus nofeedback-timer
    /// expiries before this packet was sent. Not in RFC 5348; ns-2 carries it
    /// (`round_id`) and only [`Ns2Compat::loss_event_needs_new_round`] reads it.
    pub round: u64,
    /// ns-2's `UrgentFlag`: set from a nofeedback expiry until the next feedback (and before
    /// the first). Not in RFC 5348; only [`Ns2Compat::report_at_arrival`] reads it (the
    /// receiver then reports at this packet's arrival).
    pub urgent: bool,
    /// ns-2 option [`Ns2Compat::double_clock_report_ties`]: the parts below the nanosecond of
    /// the send instant's and the RTT's doubles as ns-2 computes them (zero when the option
    /// is off). Not in RFC 5348's header.
    pub ns2_frac: Ns2Frac,
}

/// The sub-nanosecond parts of two doubles a [`DataPacket`] carries for
/// [`Ns2Compat::double_clock_report_ties`]: `x − n/10⁹` for the double `x` whose nearest
/// nanosecond `n` the packet carries (`send`: [`DataPacket::send_time`], the sender's
/// send-timer shadow of [`Ns2Compat::double_clock_ties`]; `rtt`: [`DataPacket::rtt`], the
/// sender's R), in units of 2⁻⁶⁰ s ([`ns2::frac_of`], [`ns2::with_frac`]): exact for any
/// double of at least 2⁻⁸ s (3.9 ms), whose ulp is a multiple of the unit. Two `i32`s, not
/// two `f64`s, so the packet slot stays 128 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ns2Frac {
    pub send: i32,
    pub rtt: i32,
}

/// A feedback packet (RFC 5348 §3.2.2): "the timestamp of the last data packet received
/// (t_recvdata)", "the amount of time elapsed between the receipt of the last data packet
/// at the receiver, and the generation of this feedback report (t_delay)", "the rate at
/// which the receiver estimates that data was received since the last feedback report was
/// sent (X_recv)" and "the receiver's current estimate of the loss event rate (p)".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feedback {
    pub t_recvdata: Time,
    pub t_delay: Duration,
    /// Bytes per second of data (segment bytes, as `DataPacket::size` counts them).
    pub x_recv: f64,
    pub p: f64,
}

#[cfg(test)]
mod loop_tests;
#[cfg(test)]
mod ns2_tests;
