//! The discrete-event engine: builds a network from a [`Scenario`] and runs it.
//!
//! A run is a pure function of (scenario, seed): all state lives in flat tables indexed by
//! typed integer ids, events are ordered by (time, insertion sequence), and every random
//! decision draws from a named per-component stream (`Rng::stream(seed, name)`).
//!
//! Events per packet per hop: one `Deliver` at the far end, plus one `LinkFree` while the
//! link has a backlog (see [`crate::net::link`]). Agents (sources, transports) expose a
//! deadline; the engine arms one `Agent` event for the earliest and re-arms lazily.

use qoslab_algo::{Color, Duration, QueueView, Rng, Time};

use crate::arena::{Arena, IpEcn, Packet, PktId};
pub use crate::build::{build_aqm, tcp_config, tfrc_pair};
use crate::event::{Event, EventQueue};
use crate::measure::delay::{self, DelayMeasure};
use crate::net::link::{Conditioner, Link, ListCursor};
use crate::net::ring::Ring;
use crate::net::routing::{Routes, NO_ROUTE};
use crate::result::{self, RunResult};
use crate::scenario::spec::{FlowKind, LossSpec, Scenario};
use crate::stats::{FlowCounters, QueueCounters, QueueLengthStats, TfrcOscillation};
use crate::traffic::udp::UdpSource;
use crate::traffic::web::WebTraffic;

mod condition;
mod hop;
mod ns2_path;
mod run;
mod web;
use crate::transport::tcp::{App, Segment, TcpReceiver, TcpSender};
use crate::transport::WireHeader;
use qoslab_algo::tfrc;
pub use web::{WebPool, WebTag};

/// Something attached to a node that sends or receives packets.
///
/// The TCP sender (560 bytes), TCP receiver (184) and TFRC sender (496) are held in place,
/// next to the agent's addressing, so a delivery or timer reaches their state without a
/// pointer load (issue 13); the TFRC receiver (2,544 bytes, its loss history) stays boxed,
/// or every agent would grow to its size.
pub enum AgentKind {
    Udp(UdpSource),
    /// Receives packets; the engine counts them.
    Sink,
    /// A TCP sender; `start`: when its application starts, `stop`: when it stops sending.
    TcpSender {
        tcp: TcpSender,
        wire: TcpWire,
        start: Time,
        stop: Time,
        started: bool,
    },
    /// A TCP receiver.
    TcpReceiver {
        tcp: TcpReceiver,
        ack_size: u32,
    },
    /// A TFRC sender (created when its application starts).
    TfrcSender {
        tfrc: tfrc::Sender,
        header: u32,
        start: Time,
        stop: Time,
        started: bool,
    },
    /// A TFRC receiver.
    TfrcReceiver {
        tfrc: Box<tfrc::Receiver>,
        feedback_size: u32,
    },
    /// A free slot (a finished web transfer's).
    Free,
}

/// A sender's next deadline: its start time until it has started, none once stopped,
/// else its transport's own deadline.
#[inline]
fn sender_deadline(
    started: bool,
    start: Time,
    stop: Time,
    now: Time,
    transport: impl FnOnce() -> Option<Time>,
) -> Option<Time> {
    if !started {
        Some(start)
    } else if now >= stop {
        None
    } else {
        transport()
    }
}

/// Wire sizes of a TCP connection's packets.
#[derive(Clone, Copy, Debug)]
pub struct TcpWire {
    pub header: u32,
}

pub struct Agent {
    pub node: u32,
    pub flow: u32,
    /// Where this agent's packets go.
    pub peer_node: u32,
    pub peer_agent: u32,
    pub kind: AgentKind,
    /// Time of the earliest pending `Agent` event for this agent (NEVER: none).
    armed: Time,
    /// Generation of the slot (bumped when a web transfer's slot is freed for reuse).
    gen: u32,
    /// The web object this (transfer) agent carries, if any.
    web: Option<WebTag>,
}

/// Where an agent's packets come from and go to: enough to build every packet it sends.
#[derive(Clone, Copy, Debug)]
struct Addr {
    node: u32,
    flow: u32,
    peer_node: u32,
    peer_agent: u32,
    gen: u32,
}

impl Addr {
    /// A packet of `size` wire bytes from this agent to its peer, sent at `now`.
    #[inline]
    fn packet(self, now: Time, size: u32, hdr: WireHeader) -> Packet {
        Packet {
            flow: self.flow,
            size,
            color: Color::Green,
            // RFC 3168 §6.1.5: an ECN sender's new data is ECT; ACKs (§6.1.4), retransmissions
            // and every other transport are Not-ECT.
            ecn: match hdr {
                WireHeader::TcpData(seg) if seg.ect => IpEcn::Ect,
                _ => IpEcn::NotEct,
            },
            src_node: self.node,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            dst_gen: self.gen,
            sent_at: now,
            queue_at: now,
            queued_ns: 0,
            hdr,
        }
    }
}

impl Addr {
    /// Builds a packet (`packet`) in the arena and queues it in the outbox at this node.
    #[inline(always)]
    fn put(
        self,
        arena: &mut Arena,
        outbox: &mut Vec<(u32, PktId)>,
        now: Time,
        size: u32,
        hdr: WireHeader,
    ) {
        outbox.push((self.node, arena.alloc(self.packet(now, size, hdr))));
    }
}

impl Agent {
    fn addr(&self) -> Addr {
        Addr {
            node: self.node,
            flow: self.flow,
            peer_node: self.peer_node,
            peer_agent: self.peer_agent,
            gen: self.gen,
        }
    }
}

/// Per-flow bookkeeping.
pub struct FlowState {
    pub name: String,
    pub kind: &'static str,
    pub src: u32,
    pub dst: u32,
    pub counters: FlowCounters,
    pub at_warmup: FlowCounters,
    /// Timeouts and fast recoveries of this flow's finished transfers (web pools).
    closed_timeouts: u64,
    closed_fast_recoveries: u64,
    /// TFRC flows: the oscillation statistics of the sender's p and X, sampled after each
    /// feedback received in the measurement window (None for other flows).
    pub tfrc: Option<TfrcOscillation>,
}

/// A TFRC sender's state right after it processed a feedback packet (`output.tfrc_series`).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct TfrcSample {
    pub t_ns: u64,
    pub flow: u32,
    /// Loss event rate p the sender holds.
    pub p: f64,
    /// Allowed rate X, bytes/s (TFRC-SP: on-wire bytes, before the header allowance).
    pub x: f64,
    /// Smoothed RTT estimate R in ns.
    pub rtt_ns: u64,
}

/// A time-series sample of one TCP sender.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct TcpSample {
    pub t_ns: u64,
    pub flow: u32,
    pub cwnd: u64,
    pub ssthresh: u64,
    /// Smoothed RTT in ns (0 before the first sample).
    pub srtt_ns: u64,
}

/// A time-series sample of one monitored queue.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct QueueSample {
    pub t_ns: u64,
    pub link: u32,
    pub pkts: u32,
    pub bytes: u64,
    /// The discipline's average queue (RED: avg; RIO: the least-preferred colour's average,
    /// which for coupled RIO counts every packet); 0 for drop-tail.
    pub avg: f64,
}

pub struct Simulator {
    pub scenario: Scenario,
    pub seed: u64,
    now: Time,
    end: Time,
    warmup: Time,
    events: EventQueue,
    arena: Arena,
    pub links: Vec<Link>,
    links_at_warmup: Vec<QueueCounters>,
    routes: Routes,
    pub agents: Vec<Agent>,
    pub flows: Vec<FlowState>,
    pub webs: Vec<WebPool>,
    /// Free agent-slot pairs (sender slot index; the receiver is the next slot).
    free_pairs: Vec<u32>,
    sample_interval: Option<Duration>,
    pub samples: Vec<QueueSample>,
    /// Per-flow cumulative goodput bytes at each sample instant (flow-major within a sample).
    pub flow_samples: Vec<(u64, u32, u64)>,
    /// TCP sender state at each sample instant (`output.tcp_series`).
    pub tcp_samples: Vec<TcpSample>,
    /// TFRC sender state after every feedback (`output.tfrc_series`).
    pub tfrc_samples: Vec<TfrcSample>,
    outbox: Vec<(u32, PktId)>, // packets the agents made (in the arena), at their nodes
    events_processed: u64,
    /// Delay measurement (`measure::delay`).
    pub delay: DelayMeasure,
    /// Per-flow delay at each sample instant (`output.delay_series`).
    pub delay_samples: Vec<delay::DelaySample>,
}

impl Simulator {
    /// Builds the network. The scenario has been validated by the parser, so this cannot
    /// fail except for an unroutable flow built by hand (reported as an error).
    pub fn new(scenario: Scenario, seed: u64) -> Result<Simulator, String> {
        let n = scenario.nodes.len();
        let pairs: Vec<(usize, usize)> = scenario.links.iter().map(|l| (l.from, l.to)).collect();
        let routes = Routes::compute(n, &pairs);
        let mut links = Vec::with_capacity(scenario.links.len());
        for l in &scenario.links {
            let (aqm, limit) =
                build_aqm(&l.queue, l.rate).map_err(|e| format!("link `{}` queue: {e}", l.name))?;
            links.push(Link {
                name: l.name.clone(),
                from: l.from as u32,
                to: l.to as u32,
                rate: l.rate,
                delay: l.delay,
                fifo: Ring::new(),
                view: QueueView::EMPTY,
                aqm: Link::discipline(aqm),
                limit,
                loss: l.loss.clone(),
                loss_marks_ect: l.loss_marks_ect,
                loss_at_entry: l.loss_at_entry,
                aqm_rng: Rng::stream(seed, &format!("queue/{}", l.name)),
                // One loss stream per flow, named by link and flow (flow ids: the scenario's
                // flows, then its web pools, as below).
                loss_rngs: if matches!(
                    l.loss,
                    Some(LossSpec::Packet { .. } | LossSpec::Byte { .. })
                ) {
                    scenario
                        .flows
                        .iter()
                        .map(|f| &f.name)
                        .chain(scenario.webs.iter().map(|w| &w.name))
                        .map(|f| Rng::stream(seed, &format!("loss/{}/{f}", l.name)))
                        .collect()
                } else {
                    Vec::new()
                },
                // A drop list's position and count per flow (same flow ids).
                loss_list: if let Some(LossSpec::DropList { .. }) = l.loss {
                    vec![ListCursor::default(); scenario.flows.len() + scenario.webs.len()]
                } else {
                    Vec::new()
                },
                busy_until: Time::ZERO,
                tx_cache: [(0, qoslab_algo::Duration(0)); 2],
                free_pending: false,
                pipe: Ring::new(),
                counters: QueueCounters::default(),
                qlen: QueueLengthStats::default(),
                monitored: scenario.output.monitor.is_empty(),
                cond: l.conditioner.as_ref().map(|c| {
                    Box::new(Conditioner::new(
                        c,
                        Rng::stream(seed, &format!("conditioner/{}", l.name)),
                    ))
                }),
            });
        }
        for &m in &scenario.output.monitor {
            links[m].monitored = true;
        }
        let end = Time::ZERO + scenario.duration;
        let warmup = Time::ZERO + scenario.warmup;
        let mut sim = Simulator {
            seed,
            now: Time::ZERO,
            end,
            warmup,
            events: EventQueue::for_links(links.len()),
            arena: Arena::with_capacity(4096),
            links_at_warmup: vec![QueueCounters::default(); links.len()],
            links,
            routes,
            agents: Vec::new(),
            flows: Vec::new(),
            webs: Vec::new(),
            free_pairs: Vec::new(),
            sample_interval: scenario.output.sample_interval,
            samples: Vec::new(),
            flow_samples: Vec::new(),
            tcp_samples: Vec::new(),
            tfrc_samples: Vec::new(),
            outbox: Vec::with_capacity(64),
            events_processed: 0,
            delay: DelayMeasure::default(),
            delay_samples: Vec::new(),
            scenario: Scenario { ..scenario },
        };
        let flows = sim.scenario.flows.clone();
        for (fi, f) in flows.iter().enumerate() {
            let (src, dst) = (f.src as u32, f.dst as u32);
            if sim.routes.next(src, dst) == NO_ROUTE {
                return Err(format!(
                    "flow `{}`: no route from its source to its destination",
                    f.name
                ));
            }
            let mut rng = Rng::stream(seed, &format!("flow/{}", f.name));
            let jitter = if f.start_jitter.0 > 0 {
                rng.below(f.start_jitter.0)
            } else {
                0
            };
            let start = Time::ZERO + f.start + Duration(jitter);
            let stop = f.stop.map(|s| Time::ZERO + s).unwrap_or(Time::NEVER);
            let src_agent = sim.agents.len() as u32;
            let dst_agent = src_agent + 1;
            // A TFRC flow's path in ns-2's doubles, for its `ns2_compat` sender and receiver
            // (options 26 and 27): walked once per flow, at set-up.
            let tfrc_ns2_path = match &f.kind {
                FlowKind::Tfrc(t) if t.ns2_compat => ns2_path::ns2_path_delays(
                    &sim.routes,
                    &sim.links,
                    (src, dst),
                    (t.size + t.header, t.feedback_size),
                ),
                _ => None,
            };
            let (kind, label) = match &f.kind {
                FlowKind::Cbr { rate, size } => (
                    AgentKind::Udp(UdpSource::cbr(*rate, *size, start, stop, rng)),
                    "cbr",
                ),
                FlowKind::Poisson { rate, size } => (
                    AgentKind::Udp(UdpSource::poisson(*rate, *size, start, stop, rng)),
                    "poisson",
                ),
                FlowKind::Tcp(t) => {
                    if sim.routes.next(dst, src) == NO_ROUTE {
                        return Err(format!(
                            "flow `{}`: no route for ACKs from its destination back to its source",
                            f.name
                        ));
                    }
                    let cfg = tcp_config(t).map_err(|e| format!("flow `{}`: {e}", f.name))?;
                    let app = t.bytes.map(App::Bytes).unwrap_or(App::Bulk);
                    let snd = AgentKind::TcpSender {
                        tcp: TcpSender::new(&cfg, app),
                        wire: TcpWire { header: t.header },
                        start,
                        stop,
                        started: false,
                    };
                    (snd, "tcp")
                }
                FlowKind::Tfrc(t) => {
                    if sim.routes.next(dst, src) == NO_ROUTE {
                        return Err(format!("flow `{}`: no route for feedback from its destination back to its source", f.name));
                    }
                    let (mut snd, _) =
                        tfrc_pair(t, start).map_err(|e| format!("flow `{}`: {e}", f.name))?;
                    if let Some(p) = tfrc_ns2_path {
                        snd.set_ns2_path(p);
                    }
                    let label = if t.small_packet { "tfrc-sp" } else { "tfrc" };
                    (
                        AgentKind::TfrcSender {
                            tfrc: snd,
                            header: t.header,
                            start,
                            stop,
                            started: false,
                        },
                        label,
                    )
                }
            };
            let sink = match &f.kind {
                FlowKind::Tcp(t) => {
                    let cfg = tcp_config(t).map_err(|e| format!("flow `{}`: {e}", f.name))?;
                    AgentKind::TcpReceiver {
                        tcp: TcpReceiver::new(&cfg),
                        ack_size: t.ack_size,
                    }
                }
                FlowKind::Tfrc(t) => {
                    let (_, mut rcv) =
                        tfrc_pair(t, start).map_err(|e| format!("flow `{}`: {e}", f.name))?;
                    if let Some(p) = tfrc_ns2_path {
                        rcv.set_ns2_path(p);
                    }
                    AgentKind::TfrcReceiver {
                        tfrc: Box::new(rcv),
                        feedback_size: t.feedback_size,
                    }
                }
                _ => AgentKind::Sink,
            };
            sim.agents.push(Agent {
                node: src,
                flow: fi as u32,
                peer_node: dst,
                peer_agent: dst_agent,
                kind,
                armed: Time::NEVER,
                gen: 0,
                web: None,
            });
            sim.agents.push(Agent {
                node: dst,
                flow: fi as u32,
                peer_node: src,
                peer_agent: src_agent,
                kind: sink,
                armed: Time::NEVER,
                gen: 0,
                web: None,
            });
            sim.flows.push(FlowState {
                name: f.name.clone(),
                kind: label,
                src,
                dst,
                counters: FlowCounters::default(),
                at_warmup: FlowCounters::default(),
                closed_timeouts: 0,
                closed_fast_recoveries: 0,
                tfrc: matches!(f.kind, FlowKind::Tfrc(_)).then(TfrcOscillation::default),
            });
        }
        let webs = sim.scenario.webs.clone();
        for (wi, w) in webs.iter().enumerate() {
            let cfg = tcp_config(&w.tcp).map_err(|e| format!("web pool `{}`: {e}", w.name))?;
            let flow = sim.flows.len() as u32;
            sim.flows.push(FlowState {
                name: w.name.clone(),
                kind: "web",
                src: w.servers[0] as u32,
                dst: w.clients[0] as u32,
                counters: FlowCounters::default(),
                at_warmup: FlowCounters::default(),
                closed_timeouts: 0,
                closed_fast_recoveries: 0,
                tfrc: None,
            });
            sim.webs.push(WebPool {
                name: w.name.clone(),
                model: WebTraffic::new(w.params, Rng::stream(seed, &format!("web/{}", w.name))),
                clients: w.clients.iter().map(|&c| c as u32).collect(),
                servers: w.servers.iter().map(|&c| c as u32).collect(),
                cfg,
                header: w.tcp.header,
                ack_size: w.tcp.ack_size,
                flow,
                armed: Time::NEVER,
            });
            sim.arm_web(wi as u32);
        }
        let monitored: Vec<bool> = sim.links.iter().map(|l| l.monitored).collect();
        let series = sim.scenario.output.delay_series;
        sim.delay = DelayMeasure::new(sim.flows.len(), &monitored, sim.scenario.duration, series);
        for a in 0..sim.agents.len() as u32 {
            sim.arm(a);
        }
        sim.events.push(sim.warmup, Event::Warmup);
        if let Some(iv) = sim.sample_interval {
            if iv.0 > 0 {
                sim.events.push(Time::ZERO, Event::Sample);
            }
        }
        Ok(sim)
    }

    pub fn now(&self) -> Time {
        self.now
    }
    pub fn end(&self) -> Time {
        self.end
    }
    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Schedules an `Agent` event at the agent's deadline if it is earlier than the armed one.
    /// (Inlined: it runs after every packet an agent receives, and mostly finds the armed
    /// event early enough.)
    #[inline(always)]
    fn arm(&mut self, a: u32) {
        let agent = &mut self.agents[a as usize];
        let d = match &agent.kind {
            AgentKind::Udp(s) => s.deadline(),
            AgentKind::Sink => None,
            AgentKind::TcpSender {
                tcp,
                start,
                stop,
                started,
                ..
            } => sender_deadline(*started, *start, *stop, self.now, || tcp.poll_timeout()),
            AgentKind::TcpReceiver { tcp, .. } => tcp.poll_timeout(),
            AgentKind::TfrcSender {
                tfrc,
                start,
                stop,
                started,
                ..
            } => sender_deadline(*started, *start, *stop, self.now, || {
                let send = tfrc.next_send_time();
                Some(tfrc.poll_timeout().map_or(send, |t| t.min(send)))
            }),
            AgentKind::TfrcReceiver { tfrc, .. } => tfrc.poll_timeout(),
            AgentKind::Free => None,
        };
        self.events
            .arm(&mut agent.armed, d, self.now, Event::Agent { agent: a });
    }

    fn on_agent(&mut self, a: u32) {
        let now = self.now;
        let agent = &mut self.agents[a as usize];
        EventQueue::disarm(&mut agent.armed, now);
        let addr = agent.addr();
        let node = addr.node;
        let (arena, outbox) = (&mut self.arena, &mut self.outbox);
        let mut out = |size: u32, hdr: WireHeader| {
            outbox.push((node, arena.alloc(addr.packet(now, size, hdr))));
        };
        match &mut agent.kind {
            AgentKind::Udp(src) => {
                while let Some(seq) = src.poll(now) {
                    out(src.size, WireHeader::Udp { seq });
                }
            }
            AgentKind::Sink | AgentKind::Free => {}
            AgentKind::TcpSender {
                tcp,
                wire,
                start,
                stop,
                started,
            } => {
                if now >= *start && now < *stop {
                    *started = true;
                    tcp.on_timeout(now);
                    while let Some(seg) = tcp.poll_transmit(now) {
                        out(seg.len + wire.header, WireHeader::TcpData(seg));
                    }
                }
            }
            AgentKind::TcpReceiver { tcp, ack_size } => {
                if let Some(ack) = tcp.on_timeout(now) {
                    out(*ack_size, WireHeader::TcpAck(ack));
                }
            }
            AgentKind::TfrcSender {
                tfrc,
                header,
                start,
                stop,
                started,
            } => {
                if now >= *start && now < *stop {
                    *started = true;
                    tfrc.on_timeout(now);
                    while let Some(dp) = tfrc.poll_transmit(now) {
                        out(dp.size + *header, WireHeader::TfrcData(dp));
                    }
                }
            }
            AgentKind::TfrcReceiver {
                tfrc,
                feedback_size,
            } => {
                if let Some(fb) = tfrc.on_timeout(now) {
                    out(*feedback_size, WireHeader::TfrcFeedback(fb));
                }
            }
        }
        self.flush_outbox();
        self.arm(a);
    }

    /// A TCP data segment (packet `id`, read in place; `deliver` frees it afterwards)
    /// reached its agent: the receiver processes it, its ACK (if any) is sent, and the
    /// receiver's delayed-ACK timer is armed.
    ///
    /// The delivery path tests the packet's kind once (`deliver`) and comes here for TCP
    /// data; the agent's kind is then a compare that agrees with it, not a second jump
    /// through a table (session 9: the three per-delivery jump tables, on the header, on
    /// (agent, header) and in `arm`, caused nearly all simulated indirect mispredictions).
    #[inline(always)]
    fn tcp_data(&mut self, id: PktId) {
        let now = self.now;
        let p = self.arena.get(id);
        let WireHeader::TcpData(seg) = &p.hdr else {
            return;
        };
        let a = p.dst_agent;
        let agent = &mut self.agents[a as usize];
        if agent.gen != p.dst_gen {
            return; // for a finished transfer whose slot has been reused
        }
        let addr = agent.addr();
        let AgentKind::TcpReceiver { tcp, ack_size } = &mut agent.kind else {
            return;
        };
        let before = tcp.delivered();
        let ack = tcp.on_segment_ce(now, seg, p.ecn == IpEcn::Ce);
        let fresh = tcp.delivered() - before;
        let ack_size = *ack_size;
        self.flows[addr.flow as usize].counters.goodput_bytes += fresh;
        if let Some(ack) = ack {
            // The receiver's only packet, sent after all its processing: at once, even to a
            // peer on this node (as the outbox would have sent it).
            let hdr = WireHeader::TcpAck(ack);
            let id = self.arena.alloc(addr.packet(now, ack_size, hdr));
            self.count_sent(addr.flow, ack_size, None);
            self.forward(addr.node, id);
        }
        // The deadline is read after the send (a peer on this node may have answered).
        let agent = &mut self.agents[a as usize];
        let AgentKind::TcpReceiver { tcp, .. } = &agent.kind else {
            return;
        };
        let deadline = tcp.poll_timeout();
        self.events
            .arm(&mut agent.armed, deadline, now, Event::Agent { agent: a });
    }

    /// A TCP ACK (packet `id`, read in place; `deliver` frees it afterwards) reached its
    /// agent: the sender processes it and sends what its windows allow, one segment at a
    /// time, then its retransmission timer is armed; a finished web transfer is closed
    /// instead.
    #[inline(always)]
    fn tcp_ack(&mut self, id: PktId) {
        let now = self.now;
        let p = self.arena.get(id);
        let WireHeader::TcpAck(ack) = &p.hdr else {
            return;
        };
        let a = p.dst_agent;
        let agent = &mut self.agents[a as usize];
        if agent.gen != p.dst_gen {
            return; // for a finished transfer whose slot has been reused
        }
        let addr = agent.addr();
        let AgentKind::TcpSender {
            tcp, start, stop, ..
        } = &mut agent.kind
        else {
            return;
        };
        let samples = tcp.stats().rtt_samples;
        tcp.on_ack(now, ack);
        if tcp.stats().rtt_samples != samples {
            if let Some(r) = tcp.rtt_estimator().last_sample() {
                self.delay.on_rtt(addr.flow, r);
            }
        }
        // A peer on this node would be delivered each segment during its send, and its ACK
        // could reach this sender before it has made all its segments: those wait in the
        // outbox (`flush_outbox`) until the sender is done, as every agent's packets did
        // before.
        let same_node = addr.peer_node == addr.node;
        if now >= *start && now < *stop {
            // The sender is looked up again after each send: nothing on the way out touches
            // agents (other than a peer on this node), so it is the same sender in the same
            // state.
            while let AgentKind::TcpSender { tcp, wire, .. } = &mut self.agents[a as usize].kind {
                let Some(seg) = tcp.poll_transmit(now) else {
                    break;
                };
                let size = seg.len + wire.header;
                let hdr = WireHeader::TcpData(seg);
                let id = self.arena.alloc(addr.packet(now, size, hdr));
                if same_node {
                    self.outbox.push((addr.node, id));
                } else {
                    self.count_sent(addr.flow, size, Some(seg));
                    self.forward(addr.node, id);
                }
            }
        }
        let agent = &self.agents[a as usize];
        let finished = agent.web.is_some()
            && matches!(&agent.kind, AgentKind::TcpSender { tcp, .. } if tcp.is_complete());
        if same_node {
            self.flush_outbox();
        }
        if finished {
            self.finish_transfer(a);
            return;
        }
        let agent = &mut self.agents[a as usize];
        let AgentKind::TcpSender {
            tcp,
            start,
            stop,
            started,
            ..
        } = &agent.kind
        else {
            return;
        };
        let d = sender_deadline(*started, *start, *stop, now, || tcp.poll_timeout());
        self.events
            .arm(&mut agent.armed, d, now, Event::Agent { agent: a });
    }

    /// Counts a packet an agent sends (`size` wire bytes; `seg`: the TCP segment it
    /// carries, if data) for its flow, as `send` does.
    #[inline(always)]
    fn count_sent(&mut self, flow: u32, size: u32, seg: Option<Segment>) {
        let fc = &mut self.flows[flow as usize].counters;
        fc.sent_pkts += 1;
        fc.sent_bytes += size as u64;
        if let Some(seg) = seg {
            fc.data_pkts += 1;
            fc.data_bytes += size as u64;
            fc.payload_bytes += seg.len as u64;
            fc.retx_pkts += seg.retransmission as u64;
        }
    }

    /// Packet `id` (UDP or TFRC) reached the agent it is addressed to. It is read in place
    /// in its arena slot (not copied out), which `deliver` frees after this returns; the
    /// borrow checker ensures every read of it comes before the agent allocates its reply.
    #[inline(never)]
    fn agent_receive(&mut self, id: PktId) {
        let now = self.now;
        let p = self.arena.get(id);
        let a = p.dst_agent;
        let agent = &mut self.agents[a as usize];
        if agent.gen != p.dst_gen {
            return; // for a finished transfer whose slot has been reused
        }
        let addr = agent.addr();
        let flow = addr.flow;
        match (&mut agent.kind, &p.hdr) {
            (
                AgentKind::TfrcReceiver {
                    tfrc,
                    feedback_size,
                },
                WireHeader::TfrcData(dp),
            ) => {
                self.flows[flow as usize].counters.goodput_bytes += dp.size as u64;
                if let Some(fb) = tfrc.on_packet(now, dp) {
                    let hdr = WireHeader::TfrcFeedback(fb);
                    addr.put(&mut self.arena, &mut self.outbox, now, *feedback_size, hdr);
                }
            }
            (AgentKind::TfrcSender { tfrc, .. }, WireHeader::TfrcFeedback(fb)) => {
                tfrc.on_feedback(now, fb);
                // RFC 4828 App. C: the loss event rate (and so X) the sender now holds; the
                // statistics cover feedbacks at times in [warmup, end], the series every one.
                let (p, x) = (tfrc.loss_event_rate(), tfrc.allowed_rate());
                if now >= self.warmup {
                    if let Some(o) = &mut self.flows[flow as usize].tfrc {
                        o.on_sample(now, p, x);
                    }
                }
                if self.scenario.output.tfrc_series {
                    self.tfrc_samples.push(TfrcSample {
                        t_ns: now.0,
                        flow,
                        p,
                        x,
                        rtt_ns: tfrc.rtt().map_or(0, |d| d.0),
                    });
                }
                // new packets, if any, go out at the next send time (armed below)
            }
            _ => return,
        }
        self.flush_outbox();
        self.arm(a);
    }

    /// Sends every packet the agents produced.
    #[inline]
    fn flush_outbox(&mut self) {
        if self.outbox.is_empty() {
            return;
        }
        let mut out = std::mem::take(&mut self.outbox);
        for &(node, id) in &out {
            self.send(node, id);
        }
        out.clear();
        self.outbox = out;
    }

    /// Puts a packet from an agent on the network at `node`.
    #[inline]
    fn send(&mut self, node: u32, id: PktId) {
        let p = self.arena.get(id);
        let fc = &mut self.flows[p.flow as usize].counters;
        fc.sent_pkts += 1;
        fc.sent_bytes += p.size as u64;
        match p.hdr {
            WireHeader::Udp { .. } | WireHeader::TcpData(_) | WireHeader::TfrcData(_) => {
                fc.data_pkts += 1;
                fc.data_bytes += p.size as u64;
                fc.payload_bytes += match p.hdr {
                    WireHeader::TcpData(seg) => seg.len as u64,
                    WireHeader::TfrcData(dp) => dp.size as u64,
                    _ => p.size as u64,
                };
                if let WireHeader::TcpData(seg) = p.hdr {
                    fc.retx_pkts += seg.retransmission as u64;
                }
            }
            WireHeader::TcpAck(_) | WireHeader::TfrcFeedback(_) => {}
        }
        self.forward(node, id);
    }

    /// A packet reached its destination node.
    #[inline(never)]
    fn deliver(&mut self, id: PktId) {
        let p = self.arena.get(id);
        let fc = &mut self.flows[p.flow as usize].counters;
        fc.delivered_pkts += 1;
        fc.delivered_bytes += p.size as u64;
        // One test of the header's kind per delivery, as compares (TCP ACK, TCP data, the
        // rest), not a jump table; the TCP paths are inlined here.
        if let WireHeader::TcpAck(_) = p.hdr {
            self.tcp_ack(id);
        } else if let WireHeader::TcpData(_) = p.hdr {
            fc.delivered_by_color[p.color.index()] += p.size as u64;
            self.delay.on_deliver(p, self.now);
            self.tcp_data(id);
        } else {
            self.deliver_other(id);
        }
        // Freed once read (the agent read it in place); no result depends on which slot
        // the agent's reply took.
        self.arena.free(id);
    }

    /// `deliver` for UDP and TFRC packets.
    #[inline(never)]
    fn deliver_other(&mut self, id: PktId) {
        let p = self.arena.get(id);
        if p.hdr.is_data() {
            self.delay.on_deliver(p, self.now);
        }
        let fc = &mut self.flows[p.flow as usize].counters;
        match p.hdr {
            WireHeader::Udp { .. } => {
                fc.goodput_bytes += p.size as u64;
                fc.delivered_by_color[p.color.index()] += p.size as u64;
            }
            WireHeader::TfrcData(_) => {
                fc.delivered_by_color[p.color.index()] += p.size as u64;
                self.agent_receive(id);
            }
            WireHeader::TfrcFeedback(_) => self.agent_receive(id),
            WireHeader::TcpData(_) | WireHeader::TcpAck(_) => unreachable!("TCP: `deliver`"),
        }
    }

    /// Frees a packet that will never arrive, counting it as dropped for its flow.
    #[inline]
    fn discard(&mut self, id: PktId) {
        let p = self.arena.get(id);
        let fc = &mut self.flows[p.flow as usize].counters;
        fc.dropped_pkts += 1;
        fc.dropped_bytes += p.size as u64;
        fc.data_dropped += p.hdr.is_data() as u64;
        self.arena.free(id);
    }

    fn on_sample(&mut self) {
        let t = self.now;
        for (i, l) in self.links.iter().enumerate() {
            if l.monitored {
                self.samples.push(QueueSample {
                    t_ns: t.0,
                    link: i as u32,
                    pkts: l.view.pkts,
                    bytes: l.view.bytes,
                    // The least-preferred colour's average: RED's average, or for coupled
                    // RIO the average over all packets (Out / red), as the RIO seed's Fig. 5.
                    avg: l.aqm_averages()[2],
                });
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            self.flow_samples
                .push((t.0, i as u32, f.counters.goodput_bytes));
        }
        if self.scenario.output.tcp_series {
            for a in &self.agents {
                if let (AgentKind::TcpSender { tcp, .. }, None) = (&a.kind, a.web) {
                    self.tcp_samples.push(TcpSample {
                        t_ns: t.0,
                        flow: a.flow,
                        cwnd: tcp.cwnd(),
                        ssthresh: tcp.ssthresh(),
                        srtt_ns: tcp.srtt().map_or(0, |d| d.0),
                    });
                }
            }
        }
        if self.scenario.output.delay_series {
            self.delay.sample_series(t, &mut self.delay_samples);
        }
        if let Some(iv) = self.sample_interval {
            let next = t + iv;
            if next <= self.end {
                self.events.push(next, Event::Sample);
            }
        }
    }

    /// Copies transport-internal counters into the flow counters.
    fn sync_transport_stats(&mut self) {
        for f in &mut self.flows {
            f.counters.timeouts = f.closed_timeouts;
            f.counters.fast_recoveries = f.closed_fast_recoveries;
        }
        for a in &self.agents {
            if let AgentKind::TcpSender { tcp, .. } = &a.kind {
                let c = &mut self.flows[a.flow as usize].counters;
                c.timeouts += tcp.stats().timeouts;
                c.fast_recoveries += tcp.stats().fast_recoveries;
            }
        }
    }

    fn on_warmup(&mut self) {
        self.sync_transport_stats();
        let now = self.now;
        for (i, l) in self.links.iter_mut().enumerate() {
            self.links_at_warmup[i] = l.counters;
            if l.monitored {
                l.qlen.start(now, l.view.pkts); // only these are reported (`result::assemble`)
            }
        }
        for f in &mut self.flows {
            f.at_warmup = f.counters;
        }
        self.delay.start();
    }

    /// Closes the statistics, checks conservation and assembles the results.
    pub fn finish(mut self) -> Result<RunResult, String> {
        self.sync_transport_stats();
        let end = self.now;
        for l in &mut self.links {
            let len = l.view.pkts;
            l.qlen.on_change(end, len);
        }
        for o in self.flows.iter_mut().filter_map(|f| f.tfrc.as_mut()) {
            o.close(end);
        }
        // Conservation: per flow, sent = delivered + dropped + in flight;
        // per queue, arrivals = departures + drops + waiting.
        let mut in_flight = vec![0u64; self.flows.len()];
        for p in self.arena.live_packets() {
            in_flight[p.flow as usize] += 1;
        }
        let mut errors = Vec::new();
        for (f, fl) in self.flows.iter().zip(&in_flight) {
            let c = &f.counters;
            if c.sent_pkts != c.delivered_pkts + c.dropped_pkts + fl {
                errors.push(format!(
                    "flow `{}`: sent {} != delivered {} + dropped {} + in flight {}",
                    f.name, c.sent_pkts, c.delivered_pkts, c.dropped_pkts, fl
                ));
            }
        }
        for l in &self.links {
            let c = &l.counters;
            let queue_drops = c.total_drops() - c.wire_losses;
            if c.arrivals != c.departures + queue_drops + l.fifo.len() as u64 {
                errors.push(format!(
                    "queue `{}`: arrivals {} != departures {} + drops {} + waiting {}",
                    l.name,
                    c.arrivals,
                    c.departures,
                    queue_drops,
                    l.fifo.len()
                ));
            }
            if let Some(c) = &l.cond {
                let k = &c.counters;
                let held = c.shaper.as_ref().map_or(0, |s| s.len() as u64);
                if k.arrivals != k.released + k.shaper_drops + held {
                    errors.push(format!(
                        "conditioner of `{}`: arrivals {} != released {} + shaper drops {} + held {}",
                        l.name, k.arrivals, k.released, k.shaper_drops, held
                    ));
                }
            }
            if l.fifo.len() as u32 != l.view.pkts {
                errors.push(format!(
                    "queue `{}`: FIFO holds {} but its view says {}",
                    l.name,
                    l.fifo.len(),
                    l.view.pkts
                ));
            }
        }
        if !errors.is_empty() {
            return Err(format!(
                "conservation check failed:\n  {}",
                errors.join("\n  ")
            ));
        }
        Ok(result::assemble(&self, &self.links_at_warmup, end))
    }

    pub fn warmup(&self) -> Time {
        self.warmup
    }
}
