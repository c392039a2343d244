//! The validated, resolved form of a scenario: what the engine builds a network from.
//!
//! `parse.rs` turns a TOML file into a [`Scenario`]; every name is resolved to an index,
//! every quantity converted to integer units and every rule checked there, so building the
//! network from a `Scenario` cannot fail. A `Scenario` is plain data (serialisable), so a
//! run is a pure function of (scenario, seed).

use qoslab_algo::meter::srtcm::SrTcmParams;
use qoslab_algo::meter::token_bucket::TbPolicerParams;
use qoslab_algo::meter::trtcm::TrTcmParams;
use qoslab_algo::meter::tsw::Tsw2cmParams;
use qoslab_algo::meter::tsw3cm::Tsw3cmParams;
use qoslab_algo::shaper::ShaperParams;
use qoslab_algo::{Duration, Rate};
use serde::Serialize;

/// A whole experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    pub name: String,
    /// Master seed (overridable on the command line).
    pub seed: u64,
    /// Simulated time to run.
    pub duration: Duration,
    /// Statistics (goodput, queue-length distribution) exclude [0, warmup).
    pub warmup: Duration,
    pub nodes: Vec<NodeSpec>,
    /// Unidirectional links; a duplex link in the file becomes two entries here.
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
    /// Web-traffic pools (ns-2 WebTraf-style sessions of pages of objects over short TCP transfers).
    pub webs: Vec<WebSpec>,
    pub output: OutputSpec,
}

/// A pool of web sessions: each session picks a client, each page a server; every object is
/// a TCP transfer of the object's size from the server to the client (see `traffic::web`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WebSpec {
    pub name: String,
    pub params: crate::traffic::web::WebTrafficParams,
    /// Client and server nodes (indices), chosen uniformly by the model.
    pub clients: Vec<usize>,
    pub servers: Vec<usize>,
    /// The TCP of every transfer (`bytes` is set per object).
    pub tcp: TcpSpec,
}

/// What a node is for. Both kinds forward packets and both may be a flow's endpoint: the
/// parser checks reachability over all links whatever the kinds (as in ns-2, where every
/// node routes and can host agents). The kind records intent (edge host or router).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Host,
    Router,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeSpec {
    pub name: String,
    pub kind: NodeKind,
}

/// One direction of a point-to-point link with its egress queue.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkSpec {
    /// "A->B"
    pub name: String,
    pub from: usize,
    pub to: usize,
    pub rate: Rate,
    pub delay: Duration,
    pub queue: QueueSpec,
    pub loss: Option<LossSpec>,
    /// The configured loss marks ECN-capable packets with CE instead of dropping them
    /// (`ecn = true` in the loss table); Not-ECT packets are still lost.
    pub loss_marks_ect: bool,
    /// The configured random loss is decided when a packet enters the link, before its
    /// queue (`at = "entry"`: ns-2's `$ns lossmodel`, an error module at the link's head), so
    /// a lost packet does not occupy the link; default (`"wire"`): when it starts
    /// serialising, a lost packet occupying the link.
    pub loss_at_entry: bool,
    /// Ingress conditioning of packets entering this link (before its queue).
    pub conditioner: Option<ConditionerSpec>,
}

/// A traffic-conditioning chain applied to packets as they enter a link, before its queue:
/// at most one shaper, first, then meters/markers/policers in order (RFC 2963 Figs. 1 and 4:
/// shaper → meter → marker; the RIO seed's per-interface TSW taggers). Parameters are the
/// algorithms' own validated types, so building the chain cannot fail.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConditionerSpec {
    /// Stage kinds as written (for display).
    pub kinds: Vec<String>,
    #[serde(skip)]
    pub shaper: Option<ShaperParams>,
    #[serde(skip)]
    pub meters: Vec<MeterSpec>,
}

/// A meter, marker or policer stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MeterSpec {
    SrTcm(SrTcmParams),
    TrTcm(TrTcmParams),
    Tsw2cm(Tsw2cmParams),
    Tsw3cm(Tsw3cmParams),
    Policer(TbPolicerParams),
}

/// Configured loss on a link: random (RFC 4828 App. B.1/B.2) or scripted.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LossSpec {
    /// Each packet lost with probability `p`.
    Packet { p: f64 },
    /// Each byte lost with probability `b`: a packet of N bytes with 1-(1-b)^N.
    Byte { b: f64 },
    /// Scripted drops, as ns-2.35's `ErrorModel/List` in packet units (`droplist_`) installed
    /// with `SimpleLink errormodule` (`tcl/lib/ns-link.tcl`: "insert an error module BEFORE
    /// the queue"), which ns-2's test suites (`test-suite-newreno.tcl`, `test-suite-sack.tcl`
    /// via `drop_pkts`) use to drop chosen segments. `packets` holds positions, strictly
    /// increasing, in the sequence of packets of one flow that enter the link; position 0 is
    /// that flow's first packet. ns-2's rule (`ListErrorModel::corrupt`, `queue/errmodel.cc`):
    /// its counter `cnt_` starts at 0 and counts every packet reaching the model; a packet is
    /// dropped when `droplist_[cur_] == cnt_`, and `cur_` then moves to the next entry.
    /// Choices where ns-2 leaves freedom or differs:
    ///  - the list is counted per flow (each flow's packets on this link have their own
    ///    counter and cursor, as the per-flow random streams): ns-2's suites bind the model
    ///    to one flow id through `ErrorModule Fid`, so in a one-flow scenario both agree;
    ///  - the drop is decided where ns-2 decides it, when the packet enters the link, before
    ///    the queue discipline (after an ingress conditioner, which ns-2's suites do not
    ///    use): a listed packet never queues nor occupies the link, and packets later lost
    ///    to the queue still count (they passed the model in ns-2 too); the random variants
    ///    instead decide at the start of serialisation (a corrupted packet occupies the link);
    ///  - ns-2 sorts the list and refuses duplicates; here it must be written strictly
    ///    increasing (an unsorted list is more likely a typo than a wish), and `ecn = true`
    ///    (marking instead of dropping) is refused, as nothing in ns-2's suites uses it.
    #[serde(rename = "drop_list")]
    DropList { packets: Box<DropPositions> },
}

/// The positions of a drop list, strictly increasing. Boxed in [`LossSpec::DropList`] so
/// that `Option<LossSpec>` stays 16 bytes: a link keeps it among the fields every hop reads
/// (`net::link::Link`), and the list itself is read only on links that have one.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct DropPositions(pub Box<[u64]>);

/// Limit of a queue, in packets or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "lowercase")]
pub enum Limit {
    Packets(u32),
    Bytes(u64),
}

/// Units in which RED measures the queue (independent of packet/byte drop mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QueueUnit {
    Packets,
    Bytes,
}

/// RED parameters as written in a scenario (thresholds in the queue's unit: packets,
/// or bytes when `queue_unit` is `Bytes`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RedSpec {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    /// ns-2's `wait_` (ns-3 RedQueueDisc `Wait`): after a drop, drop gaps uniform on
    /// `[1/p_b, 2/p_b]` instead of `[1, 1/p_b]` (see `qoslab_algo::queue::red`). Default
    /// false; ns-2 and ns-3 default to true.
    pub wait: bool,
    /// Byte mode: drop probability scaled by size / mean_pkt_size.
    pub byte_mode: bool,
    pub queue_unit: QueueUnit,
    /// Mean packet size in bytes (for byte mode and for the idle-time decay).
    pub mean_pkt_size: u32,
    pub ecn: bool,
    /// Adaptive RED (Floyd, Gummadi, Shenker 2001): max_p adapted every 0.5 s.
    pub adaptive: bool,
    /// ns-2.35's default `use_mark_p_ true`: no forced drops from the average (see
    /// `qoslab_algo::queue::red`). Default false (the RED paper).
    pub ns2_use_mark_p: bool,
    /// ns-2's gentle line for Adaptive RED from the initial max_p (see
    /// `qoslab_algo::queue::red`). Default false.
    pub ns2_gentle_initial_max_p: bool,
}

/// Per-precedence RED parameters of RIO.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RioPrecedenceSpec {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RioCoupling {
    /// Each colour's average counts its own and the more-preferred colours (Clark & Fang).
    Coupled,
    /// Each colour's average counts only its own packets.
    Decoupled,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum QueueSpec {
    DropTail {
        limit: Limit,
    },
    Red {
        limit: Limit,
        red: RedSpec,
    },
    /// RIO (two precedences, In = green, Out = yellow) or three-colour RIO
    /// (green, yellow, red), per `precedences.len()` (2 or 3).
    Rio {
        limit: Limit,
        precedences: Vec<RioPrecedenceSpec>,
        coupling: RioCoupling,
        gentle: bool,
        queue_unit: QueueUnit,
        mean_pkt_size: u32,
        /// ns-2's `wait_` spreading of early drops (as RED's `wait`); default false.
        wait: bool,
        /// ns-2.35 `queue/rio.cc`: averages sampled on In arrivals only
        /// (`qoslab_algo::queue::AvgSampling::Ns2InArrivalsOnly`); default false.
        ns2_avg_on_in_arrivals: bool,
        /// ns-2.35 `queue/rio.cc`: an Out forced drop leaves the Out count as it is
        /// (`qoslab_algo::queue::RioConfig::ns2_out_forced_keeps_count`); default false.
        ns2_out_forced_keeps_count: bool,
    },
}

impl QueueSpec {
    pub fn limit(&self) -> Limit {
        match self {
            QueueSpec::DropTail { limit }
            | QueueSpec::Red { limit, .. }
            | QueueSpec::Rio { limit, .. } => *limit,
        }
    }
}

/// A traffic source from `src` to `dst`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowSpec {
    pub name: String,
    pub src: usize,
    pub dst: usize,
    /// Start time; `start_jitter` adds U[0, jitter) drawn from the flow's own stream.
    pub start: Duration,
    pub start_jitter: Duration,
    /// Stop time (None: until the end of the run).
    pub stop: Option<Duration>,
    pub kind: FlowKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum FlowKind {
    /// Constant bit rate: packets of `size` bytes (on the wire) every size*8/rate.
    Cbr { rate: Rate, size: u32 },
    /// Poisson arrivals of `size`-byte packets with mean rate `rate`.
    Poisson { rate: Rate, size: u32 },
    /// A TCP connection (see `transport::tcp`).
    Tcp(TcpSpec),
    /// A TFRC or TFRC-SP flow (RFC 5348, RFC 4828; see `qoslab_algo::tfrc`).
    Tfrc(TfrcSpec),
}

/// A TFRC (RFC 5348) or TFRC-SP (RFC 4828) flow sending fixed-size packets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TfrcSpec {
    /// TFRC-SP (RFC 4828 §3) instead of standard TFRC.
    pub small_packet: bool,
    /// RFC 4828 App. C: the gradual short-interval rule instead of the step rule (TFRC-SP only).
    pub gradual: bool,
    /// Data bytes per packet (headers excluded).
    pub size: u32,
    /// Header bytes added on the wire (e.g. 40 for UDP/IP + RTP-like, 32 for DCCP/IP in RFC 4828 Table 8).
    pub header: u32,
    /// The application's maximum data rate (None: always has data).
    pub app_rate: Option<Rate>,
    /// Wire size of a feedback packet.
    pub feedback_size: u32,
    /// RFC 3448's initial rate (s/R) instead of RFC 5348's (W_init/R).
    pub rfc3448_initial_rate: bool,
    /// ns-2's TFRC behaviours where they differ from RFC 5348 (`qoslab_algo::tfrc::ns2`):
    /// loss events need a new feedback round, t_RTO in 100 ms ticks, the capped timeout
    /// term, a one-packet-per-RTT floor on the receive-rate limit, ns-2's TFRC-SP short
    /// interval counting, and the rest of `Ns2Compat::ns2()` (listed there). Off (RFC
    /// behaviour) by default.
    pub ns2_compat: bool,
    /// RFC 5348 §4.5's optional oscillation prevention, with its weight q2 (None: off, the
    /// default; `qoslab_algo::tfrc::SenderParams::with_oscillation_prevention`).
    pub oscillation_q2: Option<f64>,
    /// The application's packets wait in an unbounded send buffer, so a packet the rate did
    /// not allow is sent later (`qoslab_algo::tfrc::SenderParams::with_app_backlog`; ns-2's
    /// CBR-fed `Agent/TFRC`). Off by default.
    pub app_backlog: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TcpVariant {
    Reno,
    NewReno,
    Sack,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TcpSpec {
    pub variant: TcpVariant,
    /// Segment payload size in bytes.
    pub mss: u32,
    /// TCP/IP header bytes added to each segment on the wire.
    pub header: u32,
    /// Size of a pure ACK on the wire.
    pub ack_size: u32,
    /// Receiver window in bytes.
    pub rwnd: u64,
    /// Initial window in segments.
    pub init_cwnd: u32,
    pub limited_transmit: bool,
    pub min_rto: Duration,
    pub max_rto: Duration,
    pub initial_rto: Duration,
    /// Timer granularity (RTO rounded up to a multiple of it); zero = exact.
    pub clock_granularity: Duration,
    /// Delayed-ACK timeout; None = an ACK for every segment.
    pub delayed_ack: Option<Duration>,
    /// ns-2 (2000–2001) behaviour where it differs from the RFCs: Reno's loss response and
    /// the tick-based retransmission timer (`TcpParams::ns2_compat`).
    pub ns2_compat: bool,
    /// RFC 3168 ECN-capable TCP (`TcpParams::ecn`).
    pub ecn: bool,
    /// RFC 7323 timestamps (`TcpParams::timestamps`).
    pub timestamps: bool,
    /// ssthresh at a timeout during loss recovery (`TcpParams::rto_ssthresh`).
    pub rto_ssthresh: crate::transport::tcp::RtoSsthresh,
    /// SACK recovery's pipe and segment choice (`TcpParams::sack_pipe`); left out of the
    /// serialised spec when it is the default, so that default runs' outputs do not change.
    #[serde(skip_serializing_if = "crate::transport::tcp::SackPipe::is_default")]
    pub sack_pipe: crate::transport::tcp::SackPipe,
    /// Bytes to transfer; None = bulk (infinite backlog).
    pub bytes: Option<u64>,
}

/// What to record and write.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutputSpec {
    /// Interval of the queue-length and throughput time series; None = no time series.
    pub sample_interval: Option<Duration>,
    /// Links (indices into `links`) whose queue statistics are reported; empty = all
    /// links that saw a queue (`queue_len > 0` at some arrival) or a drop.
    pub monitor: Vec<usize>,
    /// Record every long-lived TCP sender's cwnd, ssthresh and smoothed RTT at each sample
    /// (`tcp_series.csv`); needs `sample_interval`.
    pub tcp_series: bool,
    /// Record every TFRC sender's loss event rate p, allowed rate X and RTT estimate after
    /// each feedback packet it receives, over the whole run (`tfrc_series.csv`, one row per
    /// feedback); independent of `sample_interval`.
    pub tfrc_series: bool,
    /// Record, per flow and sample interval, the data packets delivered and their mean and
    /// largest one-way delay (`delay_series.csv`); needs `sample_interval`.
    pub delay_series: bool,
}
