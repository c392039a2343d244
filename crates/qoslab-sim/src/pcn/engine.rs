//! The PCN domain engine: call dynamics, signalling, packet forwarding with metering at
//! each PCN link, egress/ingress state machines, termination, measurement and the
//! conservation check. A run is a pure function of (spec, seed): [`run`].
//!
//! Per packet: one event per PCN hop plus one at the egress (and one at the ingress when
//! the traffic is randomized). A PCN link meters a packet at its arrival, in true
//! arrival-time order (events are popped in time order), then computes its departure as
//! max(arrival, busy_until) + transmission time: the FIFO of §10.1 (80,000 packets at rate
//! C) needs no queue event because it is served in arrival order; its occupancy is
//! (busy_until − now)/tx packets and an arrival that finds it full is dropped and counted
//! (the draft's scenarios should never do this; the result reports it).

use qoslab_algo::pcn::cle::Cle;
use qoslab_algo::pcn::{admit, PcnMark};
use qoslab_algo::stats::{DelayVariation, LogHistogram, Quantiles};
use qoslab_algo::{Duration, Rng, Time};

use super::edge::{Egress, Ingress, Signal};
use super::events::{Ev, Kind, Queue, MAX_HOPS, MAX_IEAS};
use super::marking::LinkMarker;
use super::measure::{
    over_admission, Bins, ClassDelay, DelayStats, IeaDelay, IeaResult, LinkResult, OverTermination,
    PcnResult, TerminationEvent, TerminationTime,
};
use super::spec::{ExtraSplit, PcnSpec, RunKind, Scheme};
use super::topology::{self, Topology};
use super::traffic::{FlowState, Source};

/// The hop value of a randomized packet on its way from the source to the ingress.
const AT_INGRESS: u32 = 31;

struct Link {
    delay: u64,
    tx: u64,
    busy_until: u64,
    fifo_ns: u64,
    marker: LinkMarker,
    rng: Rng,
    arrived: u64,
    forwarded: u64,
    dropped: u64,
    max_backlog_ns: u64,
    out_marks: [u64; 3],
    requests: u64,
    /// Active flows crossing the link (nominal rate = active × nominal_bps).
    active: u64,
    bins: Bins,
    oa_admitted_bits: u64,
    oa_rejected_req_bits: u64,
    ot_bits: u64,
    static_pkts: u64,
    static_marks: [u64; 3],
    static_bits: u64,
    term_first: Option<Time>,
    term_done: Option<Time>,
    active_at_ot_from: Option<u64>,
    /// FIFO sojourn of data packets (delay measurement).
    sojourn: LogHistogram,
}

struct Iea {
    hop0: usize,
    nhops: u32,
    post_delay: u64,
    /// Reverse-path delay of responses (propagation + transmission per link, no queueing).
    response_delay: u64,
    /// Forward path time of a data packet that never waits: propagation ingress → egress
    /// plus one transmission per PCN link (the fixed part of its one-way delay).
    prop_tx: u64,
    /// Egress → ingress delay of reports and cancels (propagation only).
    signal_delay: u64,
    active: Vec<u32>,
    flows_created: u32,
    offered: u64,
    admitted: u64,
    blocked: u64,
    sent: u64,
    delivered: u64,
    dropped: u64,
    requests_sent: u64,
    discarded_at_ingress: u64,
    terminated_flows: u64,
    cle: Cle,
    egress: Option<Egress>,
    ingress: Option<Ingress>,
    egress_wake: Time,
    ingress_wake: Time,
    calls: Rng,
    victims: Rng,
    term_first: Option<Time>,
    term_done: Option<Time>,
    reports: u64,
    cancels: u64,
    fair_bins: Option<Bins>,
    /// FIFO waiting time (ns) of delivered data packets (one-way delay − `prop_tx`), its
    /// variation, and how many waited longer than the event can carry.
    delay: LogHistogram,
    dv: DelayVariation,
    saturated: u64,
}

struct Pending {
    iea: u32,
    admitted: bool,
    /// Hops (path indices) crossed inside the over-admission window.
    in_window: u32,
}

struct SignalMsg {
    iea: u32,
    sig: Signal,
}

/// The state of one run.
pub struct Domain<'s> {
    spec: &'s PcnSpec,
    seed: u64,
    topo: Topology,
    links: Vec<Link>,
    hops: Vec<(u64, u32)>,
    ieas: Vec<Iea>,
    flows: Vec<Source>,
    free_flows: Vec<u32>,
    pending: Vec<Pending>,
    free_pending: Vec<u32>,
    signals: Vec<SignalMsg>,
    free_signals: Vec<u32>,
    q: Queue,
    bits: u64,
    nominal: f64,
    /// RFC 6661 §3.3.2 victim selection by upper rate limits (`[pcn.cl] victims =
    /// "upper-limit"`, CL only): each flow's upper rate limit (its peak rate), else 0.
    upper_limit: f64,
    sr: f64,
    terminations: Vec<TerminationEvent>,
    now: Time,
    /// Delay samples from this time (ns); `u64::MAX` when delay measurement is off.
    delay_from: u64,
    /// Jitter and IPDV per IEA on (`[pcn.measure] delay_variation`).
    dv_on: bool,
}

impl<'s> Domain<'s> {
    pub fn new(spec: &'s PcnSpec, seed: u64) -> Result<Domain<'s>, String> {
        let topo = topology::build(spec, seed);
        if topo.ieas.len() > MAX_IEAS {
            return Err(format!("{} IEAs; at most {MAX_IEAS}", topo.ieas.len()));
        }
        let bits = u64::from(spec.traffic.packet_bytes) * 8;
        let tx = spec
            .link_rate
            .tx_time(u64::from(spec.traffic.packet_bytes))
            .as_nanos();
        let dur = spec.duration;
        let mut links = Vec::with_capacity(topo.links.len());
        for (j, l) in topo.links.iter().enumerate() {
            links.push(Link {
                delay: l.delay.as_nanos(),
                tx,
                busy_until: 0,
                fifo_ns: tx.saturating_mul(u64::from(spec.fifo_packets)),
                marker: LinkMarker::new(spec).map_err(|e| format!("link {}: {e}", l.name))?,
                rng: Rng::stream(seed, &format!("pcn/link{j}/marker")),
                arrived: 0,
                forwarded: 0,
                dropped: 0,
                max_backlog_ns: 0,
                out_marks: [0; 3],
                requests: 0,
                active: 0,
                bins: Bins::new(spec.measure.series_bin, dur),
                oa_admitted_bits: 0,
                oa_rejected_req_bits: 0,
                ot_bits: 0,
                static_pkts: 0,
                static_marks: [0; 3],
                static_bits: 0,
                term_first: None,
                term_done: None,
                active_at_ot_from: None,
                sojourn: LogHistogram::new(dur.as_nanos()),
            });
        }
        let mut hops = Vec::new();
        let mut ieas = Vec::with_capacity(topo.ieas.len());
        let parking = matches!(spec.topology, super::spec::TopologySpec::ParkingLot { .. });
        for (i, ia) in topo.ieas.iter().enumerate() {
            if ia.hops.is_empty() || ia.hops.len() > MAX_HOPS {
                return Err(format!("IEA {}: {} PCN hops", ia.name, ia.hops.len()));
            }
            let hop0 = hops.len();
            for h in &ia.hops {
                hops.push((h.pre_delay.as_nanos(), h.link));
            }
            let prop = ia.propagation(&topo.links).as_nanos();
            let terminate = spec.edge.terminate;
            ieas.push(Iea {
                hop0,
                nhops: ia.hops.len() as u32,
                post_delay: ia.post_delay.as_nanos(),
                response_delay: prop + tx * ia.hops.len() as u64,
                prop_tx: prop + tx * ia.hops.len() as u64,
                signal_delay: prop,
                active: Vec::new(),
                flows_created: 0,
                offered: 0,
                admitted: 0,
                blocked: 0,
                sent: 0,
                delivered: 0,
                dropped: 0,
                requests_sent: 0,
                discarded_at_ingress: 0,
                terminated_flows: 0,
                cle: Cle::new(spec.edge.ewma_weight).map_err(|e| format!("CLE: {e}"))?,
                egress: if terminate {
                    Some(Egress::new(spec)?)
                } else {
                    None
                },
                ingress: if terminate {
                    Some(Ingress::new(spec, Duration(prop))?)
                } else {
                    None
                },
                egress_wake: Time::NEVER,
                ingress_wake: Time::NEVER,
                calls: Rng::stream(seed, &format!("pcn/iea{i}/calls")),
                victims: Rng::stream(seed, &format!("pcn/iea{i}/victims")),
                term_first: None,
                term_done: None,
                reports: 0,
                cancels: 0,
                fair_bins: if parking && i <= 1 {
                    Some(Bins::new(spec.measure.fairness_bin, dur))
                } else {
                    None
                },
                delay: LogHistogram::new(dur.as_nanos()),
                dv: DelayVariation::default(),
                saturated: 0,
            });
        }
        let mut d = Domain {
            spec,
            seed,
            topo,
            links,
            hops,
            ieas,
            flows: Vec::new(),
            free_flows: Vec::new(),
            pending: Vec::new(),
            free_pending: Vec::new(),
            signals: Vec::new(),
            free_signals: Vec::new(),
            q: Queue::default(),
            bits,
            nominal: spec.traffic.nominal_bps,
            upper_limit: if spec.scheme == Scheme::Cl && spec.cl.victims == "upper-limit" {
                // [G] A flow's upper rate limit "known ... from resource signaling" is the
                // peak rate of its traffic model: packet size / packet interval (CBR 64 kb/s;
                // VBR 64 kb/s while ON; SVD 12 Mb/s).
                spec.traffic.packet_bytes as f64 * 8.0 / spec.traffic.interval.as_secs_f64()
            } else {
                0.0
            },
            sr: spec.supportable_rate.bps() as f64,
            terminations: Vec::new(),
            now: Time::ZERO,
            delay_from: if spec.measure.delay {
                spec.measure.delay_from.as_nanos()
            } else {
                u64::MAX
            },
            dv_on: spec.measure.delay && spec.measure.delay_variation,
        };
        d.setup();
        Ok(d)
    }

    /// Initial events: call processes (admission) or the flow population (termination,
    /// static).
    fn setup(&mut self) {
        let spec = self.spec;
        match spec.kind {
            RunKind::Admission => {
                let mean = spec.admission.call_interval.as_nanos() as f64;
                for i in 0..self.ieas.len() {
                    let t = Time(libm::round(self.ieas[i].calls.exponential(mean)) as u64);
                    self.q.push(t, Ev::new(Kind::CallArrival, i as u32, 0));
                }
            }
            RunKind::Termination | RunKind::Static => {
                let p = &spec.population;
                let n = self.ieas.len();
                let base = split_population(&self.topo, p.base_flows);
                let fin = if spec.kind == RunKind::Termination {
                    match p.extra_split {
                        ExtraSplit::Even => split_population(&self.topo, p.final_flows),
                        ExtraSplit::OneIea => {
                            let mut v = base.clone();
                            v[0] += p.final_flows.saturating_sub(p.base_flows);
                            v
                        }
                    }
                } else {
                    base.clone()
                };
                let spread = p.start_spread.as_nanos();
                for i in 0..n {
                    let mut r = Rng::stream(self.seed, &format!("pcn/iea{i}/starts"));
                    for k in 0..fin[i].max(base[i]) {
                        let at = if k < base[i] {
                            0
                        } else {
                            p.extra_at.as_nanos()
                        };
                        let off = if spread > 0 { r.below(spread) } else { 0 };
                        let st = p.start_state == "stationary";
                        self.start_flow(i as u32, Time(at + off), Time::NEVER, st);
                    }
                }
            }
        }
    }

    /// A new active flow of IEA `i` emitting from `start` until `end`.
    fn start_flow(&mut self, i: u32, start: Time, end: Time, stationary: bool) {
        let ia = &mut self.ieas[i as usize];
        let k = ia.flows_created;
        ia.flows_created += 1;
        let rng = Rng::stream(self.seed, &format!("pcn/iea{i}/flow{k}"));
        let mut f = Source::new(i, start, end, rng, &self.spec.traffic, stationary);
        f.active_idx = ia.active.len() as u32;
        let slot = match self.free_flows.pop() {
            Some(s) => {
                self.flows[s as usize] = f;
                s
            }
            None => {
                self.flows.push(f);
                (self.flows.len() - 1) as u32
            }
        };
        ia.active.push(slot);
        let (h0, nh) = (ia.hop0, ia.nhops as usize);
        for h in h0..h0 + nh {
            self.links[self.hops[h].1 as usize].active += 1;
        }
        self.q.push(start.min(end), Ev::new(Kind::FlowGen, i, slot));
    }

    /// Removes an active flow from its IEA's list and its links' counts.
    fn deactivate(&mut self, slot: u32) {
        let f = &self.flows[slot as usize];
        let (i, idx) = (f.iea as usize, f.active_idx as usize);
        let ia = &mut self.ieas[i];
        ia.active.swap_remove(idx);
        if idx < ia.active.len() {
            let moved = ia.active[idx];
            self.flows[moved as usize].active_idx = idx as u32;
        }
        let (h0, nh) = (ia.hop0, ia.nhops as usize);
        for h in h0..h0 + nh {
            self.links[self.hops[h].1 as usize].active -= 1;
        }
    }

    pub fn run_until(&mut self, until: Time) {
        while let Some((t, ev)) = self.q.pop_until(until) {
            self.now = t;
            match ev.kind() {
                Kind::Hop => self.on_hop(t, ev),
                Kind::FlowGen => self.on_flow_gen(t, ev.a()),
                Kind::CallArrival => self.on_call(t, ev.iea()),
                Kind::Response => self.on_response(t, ev.a()),
                Kind::Signal => self.on_signal(t, ev.a()),
                Kind::IngressTimer => self.on_ingress_timer(t, ev.iea()),
                Kind::EgressTimer => self.on_egress_timer(t, ev.iea()),
            }
        }
        self.now = until;
    }

    fn on_flow_gen(&mut self, now: Time, slot: u32) {
        let traffic = &self.spec.traffic;
        let f = &mut self.flows[slot as usize];
        match f.state {
            FlowState::Terminated | FlowState::Ended => {
                if now < f.release {
                    let (r, i) = (f.release, f.iea);
                    self.q.push(r, Ev::new(Kind::FlowGen, i, slot));
                } else {
                    f.state = FlowState::Free;
                    self.free_flows.push(slot);
                }
                return;
            }
            FlowState::Free => unreachable!("an event of a free flow slot"),
            FlowState::Active => {}
        }
        if now >= f.end {
            self.deactivate(slot);
            let f = &mut self.flows[slot as usize];
            f.state = FlowState::Ended;
            f.release = now + traffic.randomize;
            let (r, i) = (f.release, f.iea);
            self.q.push(r, Ev::new(Kind::FlowGen, i, slot));
            return;
        }
        let jitter = f.jitter(traffic);
        f.advance(traffic);
        let next = f.next.min(f.end);
        let i = f.iea;
        self.q.push(next, Ev::new(Kind::FlowGen, i, slot));
        self.ieas[i as usize].sent += 1;
        if jitter.as_nanos() == 0 {
            self.at_ingress(now, i, false, slot);
        } else {
            self.q
                .push(now + jitter, Ev::packet(i, AT_INGRESS, 0, false, slot));
        }
    }

    /// A packet enters the PCN domain at its ingress.
    /// `a` is the flow slot of a data packet, the pending call of a request.
    fn at_ingress(&mut self, now: Time, i: u32, request: bool, a: u32) {
        let ia = &mut self.ieas[i as usize];
        if !request
            && self.spec.edge.discard_terminated
            && self.flows[a as usize].state == FlowState::Terminated
        {
            // A packet of a terminated flow still on its way from the source (randomized
            // traffic): the ingress that terminated the flow no longer forwards it.
            ia.dropped += 1;
            ia.discarded_at_ingress += 1;
            return;
        }
        if !request {
            if let Some(ing) = ia.ingress.as_mut() {
                ing.on_send(now, self.bits);
            }
        }
        let pre = self.hops[ia.hop0].0;
        // Past the ingress a data packet's `a` is its FIFO waiting time so far (events.rs);
        // it enters the domain now, and this is the "send" of its one-way delay.
        let ev = Ev::packet(i, 0, 0, request, if request { a } else { 0 });
        if pre == 0 {
            self.at_link(now, ev);
        } else {
            self.q.push(Time(now.as_nanos() + pre), ev);
        }
    }

    fn on_hop(&mut self, now: Time, ev: Ev) {
        let h = ev.hop();
        if h == AT_INGRESS {
            self.at_ingress(now, ev.iea(), ev.request(), ev.a());
            return;
        }
        let ia = &self.ieas[ev.iea() as usize];
        if h > 0 {
            let l = self.hops[ia.hop0 + h as usize - 1].1;
            self.links[l as usize].forwarded += 1;
        }
        if h == ia.nhops {
            self.at_egress(now, ev);
        } else {
            self.at_link(now, ev);
        }
    }

    /// Arrival at the PCN link of hop `ev.hop()`: meter (mark), then the FIFO.
    #[inline]
    fn at_link(&mut self, now: Time, ev: Ev) {
        let spec = self.spec;
        let (i, h) = (ev.iea() as usize, ev.hop());
        let ia = &self.ieas[i];
        let nhops = ia.nhops;
        let li = self.hops[ia.hop0 + h as usize].1 as usize;
        let next_pre = if h + 1 < nhops {
            self.hops[ia.hop0 + h as usize + 1].0
        } else {
            ia.post_delay
        };
        let bits = self.bits;
        let t = now.as_nanos();
        let l = &mut self.links[li];
        l.arrived += 1;
        // Metering point: at arrival to the output interface, before the FIFO [G §1.2].
        let mark = l
            .marker
            .on_packet(now, bits, mark_of(ev.mark()), &mut l.rng) as u8;
        l.out_marks[mark as usize] += 1;
        l.bins.add(t, bits);
        let m = &spec.measure;
        if t >= m.static_from.as_nanos() {
            l.static_pkts += 1;
            l.static_bits += bits;
            l.static_marks[mark as usize] += 1;
        }
        if let Some(fb) = self.ieas[i].fair_bins.as_mut() {
            if li == 0 {
                fb.add(t, bits);
            }
        }
        let l = &mut self.links[li];
        if ev.request() {
            // Signalling: metered, not queued; transmission time only [G §5.7].
            l.requests += 1;
            if t >= m.oa_from.as_nanos() && t < m.oa_to.as_nanos() {
                self.pending[ev.a() as usize].in_window |= 1 << h;
            }
            let next_t = t + l.tx + l.delay + next_pre;
            self.q.push(Time(next_t), ev.with_hop_mark(h + 1, mark));
        } else {
            if t >= m.oa_from.as_nanos() && t < m.oa_to.as_nanos() {
                l.oa_admitted_bits += bits;
            }
            if t >= m.ot_from.as_nanos() && t < m.ot_to.as_nanos() {
                l.ot_bits += bits;
            }
            let backlog = l.busy_until.saturating_sub(t);
            if backlog >= l.fifo_ns {
                l.dropped += 1;
                self.ieas[i].dropped += 1;
                return;
            }
            l.max_backlog_ns = l.max_backlog_ns.max(backlog);
            // Sojourn = the backlog found: the packet starts transmission when the FIFO
            // ahead of it has drained (FIFO, served in arrival order).
            if t >= self.delay_from {
                l.sojourn.record(backlog);
            }
            let depart = t + backlog + l.tx;
            l.busy_until = depart;
            let next_t = depart + l.delay + next_pre;
            let waited = ev
                .a()
                .saturating_add(u32::try_from(backlog).unwrap_or(u32::MAX));
            self.q
                .push(Time(next_t), ev.with_hop_mark_a(h + 1, mark, waited));
        }
    }

    fn at_egress(&mut self, now: Time, ev: Ev) {
        let i = ev.iea() as usize;
        let mark = mark_of(ev.mark());
        let spec = self.spec;
        let ia = &mut self.ieas[i];
        ia.delivered += 1;
        if ev.request() {
            if spec.edge.request_updates_cle {
                ia.cle.update(mark.is_marked());
            }
            // §10.1: "If the CLE is below the specified CLE threshold, the call is admitted".
            let ok = admit(ia.cle.value(), spec.edge.cle_threshold);
            let p = ev.a();
            self.pending[p as usize].admitted = ok;
            let t = Time(now.as_nanos() + ia.response_delay);
            self.q.push(t, Ev::new(Kind::Response, i as u32, p));
            return;
        }
        if now.as_nanos() >= self.delay_from {
            // One-way delay = the IEA's fixed path time + the FIFO waiting carried in the
            // event. The waiting time is what is recorded (the fixed part is added when the
            // figures are read: exact for count, mean, min, max, and the delay differences of
            // jitter and IPDV are the waiting-time differences); a zero costs a counter.
            let waited = ev.a();
            ia.saturated += u64::from(waited == u32::MAX);
            ia.delay.record(u64::from(waited));
            if self.dv_on {
                ia.dv.on_packet(u64::from(waited));
            }
        }
        ia.cle.update(mark.is_marked());
        let sig = match ia.egress.as_mut() {
            Some(e) => e.on_packet(now, self.bits, mark),
            None => return,
        };
        if let Some(s) = sig {
            self.send_signal(now, i, s);
        }
        self.arm_egress(now, i);
    }

    fn send_signal(&mut self, now: Time, i: usize, sig: Signal) {
        let msg = SignalMsg { iea: i as u32, sig };
        let id = match self.free_signals.pop() {
            Some(s) => {
                self.signals[s as usize] = msg;
                s
            }
            None => {
                self.signals.push(msg);
                (self.signals.len() - 1) as u32
            }
        };
        match sig {
            Signal::Report { .. } | Signal::ClReport(_) => self.ieas[i].reports += 1,
            Signal::Cancel => self.ieas[i].cancels += 1,
        }
        let t = Time(now.as_nanos() + self.ieas[i].signal_delay);
        self.q.push(t, Ev::new(Kind::Signal, i as u32, id));
    }

    fn arm_egress(&mut self, now: Time, i: usize) {
        let ia = &mut self.ieas[i];
        let Some(w) = ia.egress.as_ref().and_then(|e| e.next_wakeup()) else {
            return;
        };
        let w = w.max(now);
        if w < ia.egress_wake || ia.egress_wake < now {
            ia.egress_wake = w;
            self.q.push(w, Ev::new(Kind::EgressTimer, i as u32, 0));
        }
    }

    fn arm_ingress(&mut self, now: Time, i: usize) {
        let ia = &mut self.ieas[i];
        let Some(w) = ia.ingress.as_ref().and_then(|e| e.next_wakeup()) else {
            return;
        };
        let w = w.max(now);
        if w < ia.ingress_wake || ia.ingress_wake < now {
            ia.ingress_wake = w;
            self.q.push(w, Ev::new(Kind::IngressTimer, i as u32, 0));
        }
    }

    fn on_egress_timer(&mut self, now: Time, i: u32) {
        let i = i as usize;
        if self.ieas[i].egress_wake != now {
            return; // superseded
        }
        self.ieas[i].egress_wake = Time::NEVER;
        let sig = self.ieas[i].egress.as_mut().and_then(|e| e.poll(now));
        if let Some(s) = sig {
            self.send_signal(now, i, s);
        }
        self.arm_egress(now, i);
    }

    fn on_signal(&mut self, now: Time, id: u32) {
        let SignalMsg { iea, sig } = self.signals[id as usize];
        self.free_signals.push(id);
        let i = iea as usize;
        if let Some(ing) = self.ieas[i].ingress.as_mut() {
            ing.on_signal(now, sig);
        }
        self.arm_ingress(now, i);
    }

    fn on_ingress_timer(&mut self, now: Time, i: u32) {
        let i = i as usize;
        if self.ieas[i].ingress_wake != now {
            return;
        }
        self.ieas[i].ingress_wake = Time::NEVER;
        let order = self.ieas[i].ingress.as_mut().and_then(|e| e.poll(now));
        if let Some((rate, s, r)) = order {
            self.terminate(now, i, rate, s, r);
        }
        self.arm_ingress(now, i);
    }

    /// Terminates flows of IEA `i` chosen uniformly at random among its active flows until
    /// their cumulative nominal rate reaches `rate_bps` [G §5.12: random victims, ceil]; or,
    /// with `upper_limit > 0`, RFC 6661 §3.3.2: "select a set of PCN-flows whose sum of upper
    /// rate limits is up to the traffic rate to be terminated" (the most whole flows whose
    /// peak rates sum to at most `rate_bps`).
    fn terminate(&mut self, now: Time, i: usize, rate_bps: u64, s_bps: u64, r_bps: u64) {
        let mut cum = 0.0;
        let mut n = 0u64;
        let (step, upto) = if self.upper_limit > 0.0 {
            (self.upper_limit, true)
        } else {
            (self.nominal, false)
        };
        while !self.ieas[i].active.is_empty()
            && if upto {
                cum + step <= rate_bps as f64
            } else {
                cum < rate_bps as f64
            }
        {
            let ia = &mut self.ieas[i];
            let k = ia.victims.below(ia.active.len() as u64) as usize;
            let slot = ia.active[k];
            self.deactivate(slot);
            let f = &mut self.flows[slot as usize];
            f.state = FlowState::Terminated;
            f.release = now + self.spec.traffic.randomize;
            cum += step;
            n += 1;
        }
        let ia = &mut self.ieas[i];
        ia.terminated_flows += n;
        self.terminations.push(TerminationEvent {
            t_s: now.as_secs_f64(),
            iea: i as u32,
            amount_bps: rate_bps,
            sending_bps: s_bps,
            reported_bps: r_bps,
            flows: n,
        });
        // Termination time bookkeeping (§12): "PCN rate < SR" tested with nominal rates.
        ia.term_first.get_or_insert(now);
        let (h0, nh) = (ia.hop0, ia.nhops as usize);
        let mut all_below = true;
        for h in h0..h0 + nh {
            let l = &mut self.links[self.hops[h].1 as usize];
            l.term_first.get_or_insert(now);
            let below = (l.active as f64) * self.nominal < self.sr;
            if below && l.term_done.is_none() {
                l.term_done = Some(now);
            }
            all_below &= below;
        }
        let ia = &mut self.ieas[i];
        if all_below && ia.term_done.is_none() {
            ia.term_done = Some(now);
        }
    }

    fn on_call(&mut self, now: Time, i: u32) {
        let spec = self.spec;
        let ia = &mut self.ieas[i as usize];
        let mean = spec.admission.call_interval.as_nanos() as f64;
        let next = now + Duration(libm::round(ia.calls.exponential(mean)) as u64);
        self.q.push(next, Ev::new(Kind::CallArrival, i, 0));
        ia.requests_sent += 1;
        ia.sent += 1;
        let p = Pending {
            iea: i,
            admitted: false,
            in_window: 0,
        };
        let id = match self.free_pending.pop() {
            Some(s) => {
                self.pending[s as usize] = p;
                s
            }
            None => {
                self.pending.push(p);
                (self.pending.len() - 1) as u32
            }
        };
        self.at_ingress(now, i, true, id);
    }

    fn on_response(&mut self, now: Time, id: u32) {
        let Pending {
            iea,
            admitted,
            in_window,
        } = self.pending[id as usize];
        self.free_pending.push(id);
        let i = iea as usize;
        let bits = self.bits;
        {
            let ia = &self.ieas[i];
            for h in 0..ia.nhops {
                if in_window & (1 << h) != 0 {
                    let l = &mut self.links[self.hops[ia.hop0 + h as usize].1 as usize];
                    if admitted {
                        l.oa_admitted_bits += bits;
                    } else {
                        l.oa_rejected_req_bits += bits;
                    }
                }
            }
        }
        let ia = &mut self.ieas[i];
        ia.offered += 1;
        if admitted {
            ia.admitted += 1;
            let k = ia.flows_created;
            // The holding time comes from the flow's own stream.
            let mut r = Rng::stream(self.seed, &format!("pcn/iea{i}/flow{k}/holding"));
            let hold = r.exponential(self.spec.admission.holding_mean.as_nanos() as f64);
            let end = now + Duration(libm::round(hold).max(1.0) as u64);
            // A new call: its source starts ON [G §5.16].
            self.start_flow(iea, now, end, false);
        } else {
            ia.blocked += 1;
        }
    }

    /// Snapshot hooks for the OT window (nominal rate at its start).
    fn note_ot_start(&mut self) {
        for l in &mut self.links {
            l.active_at_ot_from = Some(l.active);
        }
    }

    /// Runs to the end with a stop at the OT window start, then checks conservation.
    pub fn finish(mut self) -> Result<PcnResult, String> {
        let end = Time(self.spec.duration.as_nanos());
        if self.now < end {
            self.run_until(end);
        }
        self.result()
    }

    /// Checks conservation (per IEA: sent = delivered + dropped + in flight; per link:
    /// arrived = forwarded + dropped + in flight, in flight counted from the pending events)
    /// and builds the result.
    fn result(self) -> Result<PcnResult, String> {
        let spec = self.spec;
        let mut iea_fly = vec![0u64; self.ieas.len()];
        let mut link_fly = vec![0u64; self.links.len()];
        for ev in self.q.pending() {
            if ev.kind() != Kind::Hop {
                continue;
            }
            let i = ev.iea() as usize;
            iea_fly[i] += 1;
            let h = ev.hop();
            if h != AT_INGRESS && h > 0 {
                link_fly[self.hops[self.ieas[i].hop0 + h as usize - 1].1 as usize] += 1;
            }
        }
        for (i, ia) in self.ieas.iter().enumerate() {
            if ia.sent != ia.delivered + ia.dropped + iea_fly[i] {
                return Err(format!(
                    "conservation failed for IEA {}: sent {} != delivered {} + dropped {} + in flight {}",
                    self.topo.ieas[i].name, ia.sent, ia.delivered, ia.dropped, iea_fly[i]
                ));
            }
        }
        for (j, l) in self.links.iter().enumerate() {
            if l.arrived != l.forwarded + l.dropped + link_fly[j] {
                return Err(format!(
                    "conservation failed for link {}: arrived {} != forwarded {} + dropped {} + in flight {}",
                    self.topo.links[j].name, l.arrived, l.forwarded, l.dropped, link_fly[j]
                ));
            }
        }
        let m = &spec.measure;
        let dur = spec.duration.as_nanos();
        let ar = spec.admissible_rate.bps() as f64;
        let sr = self.sr;
        let extra = match spec.scheme {
            Scheme::Cl => 0.2,
            _ => 0.1,
        };
        let tt = |first: Option<Time>, done: Option<Time>| -> TerminationTime {
            let raw = match (first, done) {
                (Some(a), Some(b)) => Some((b - a).as_secs_f64()),
                _ => None,
            };
            TerminationTime {
                first_s: first.map(Time::as_secs_f64),
                done_s: done.map(Time::as_secs_f64),
                raw_s: raw,
                table_s: raw.map(|r| r + extra),
            }
        };
        let oa_on = spec.kind == RunKind::Admission && m.oa_to.as_nanos() <= dur;
        let ot_on = spec.kind == RunKind::Termination && m.ot_to.as_nanos() <= dur;
        let static_on = spec.kind == RunKind::Static && m.static_from.as_nanos() < dur;
        let mut packet_hops = 0;
        let links = self
            .links
            .iter()
            .enumerate()
            .map(|(j, l)| {
                packet_hops += l.arrived;
                let nominal_to = l.active as f64 * self.nominal;
                let static_s = (dur - m.static_from.as_nanos().min(dur)) as f64 * 1e-9;
                LinkResult {
                    name: self.topo.links[j].name.clone(),
                    arrived: l.arrived,
                    forwarded: l.forwarded,
                    dropped: l.dropped,
                    in_flight: link_fly[j],
                    requests: l.requests,
                    out_marks: l.out_marks,
                    fifo_overflows: l.dropped,
                    max_backlog_packets: l.max_backlog_ns as f64 / l.tx.max(1) as f64,
                    over_admission: oa_on.then(|| {
                        let w = (m.oa_to - m.oa_from).as_secs_f64();
                        over_admission(l.oa_admitted_bits, l.oa_rejected_req_bits, w, ar)
                    }),
                    over_termination: ot_on.then(|| {
                        let w = (m.ot_to - m.ot_from).as_secs_f64();
                        let rate = l.ot_bits as f64 / w;
                        let nf = l.active_at_ot_from.unwrap_or(l.active) as f64 * self.nominal;
                        OverTermination {
                            rate_bps: rate,
                            ot_pct: 100.0 * (sr - rate) / sr,
                            nominal_from_bps: nf,
                            nominal_to_bps: nominal_to,
                            ot_nominal_pct: 100.0 * (sr - nominal_to) / sr,
                        }
                    }),
                    termination_time: (spec.kind == RunKind::Termination)
                        .then(|| tt(l.term_first, l.term_done)),
                    static_rate_bps: static_on.then(|| l.static_bits as f64 / static_s),
                    static_marked_fraction: static_on.then(|| {
                        let n = l.static_pkts.max(1) as f64;
                        [l.static_marks[1] as f64 / n, l.static_marks[2] as f64 / n]
                    }),
                    series_bin_s: l.bins.width_s(),
                    rate_series_bps: l.bins.rates(),
                    sojourn: m.delay.then(|| DelayStats::from(l.sojourn.summary())),
                }
            })
            .collect();
        let ieas = self
            .ieas
            .iter()
            .enumerate()
            .map(|(i, ia)| IeaResult {
                name: self.topo.ieas[i].name.clone(),
                offered: ia.offered,
                admitted: ia.admitted,
                blocked: ia.blocked,
                sent: ia.sent,
                delivered: ia.delivered,
                dropped: ia.dropped,
                discarded_at_ingress: ia.discarded_at_ingress,
                in_flight: iea_fly[i],
                active_at_end: ia.active.len() as u64,
                terminated_flows: ia.terminated_flows,
                reports: ia.reports,
                cancels: ia.cancels,
                termination_time: (spec.kind == RunKind::Termination)
                    .then(|| tt(ia.term_first, ia.term_done)),
                delay: m.delay.then(|| iea_delay(ia, m.delay_variation)),
            })
            .collect();
        let class_delay = m.delay.then(|| {
            // Every IEA on the same fixed path time: merge the waiting times and shift
            // (within 0.78 %); otherwise each IEA's shifted into one (within 1.56 %).
            let fixed = self.ieas[0].prop_tx;
            let mut all = LogHistogram::new(dur);
            let one_way = if self.ieas.iter().all(|ia| ia.prop_tx == fixed) {
                for ia in &self.ieas {
                    all.merge(&ia.delay);
                }
                shifted(all.summary(), fixed)
            } else {
                for ia in &self.ieas {
                    all.merge_shifted(&ia.delay, ia.prop_tx);
                }
                all.summary().into()
            };
            ClassDelay {
                traffic: spec.traffic.model.clone(),
                from_s: m.delay_from.as_secs_f64(),
                one_way,
            }
        });
        let fairness = match (
            self.ieas.first().and_then(|x| x.fair_bins.as_ref()),
            self.ieas.get(1).and_then(|x| x.fair_bins.as_ref()),
        ) {
            (Some(long), Some(short)) => super::measure::fairness(short, long),
            _ => Vec::new(),
        };
        Ok(PcnResult {
            name: spec.name.clone(),
            seed: self.seed,
            kind: spec.kind,
            scheme: spec.scheme,
            duration_s: spec.duration.as_secs_f64_exact(),
            events: self.q.processed,
            packet_hops,
            links,
            ieas,
            terminations: self.terminations,
            fairness,
            delay: class_delay,
            conservation: "ok",
        })
    }
}

/// Runs `spec` with master seed `seed` (a pure function of both); the run stops once at
/// the OT window start to record the nominal link rates there.
pub fn run(spec: &PcnSpec, seed: u64) -> Result<PcnResult, String> {
    let mut d = Domain::new(spec, seed)?;
    let ot_from = Time(spec.measure.ot_from.as_nanos());
    if ot_from < Time(spec.duration.as_nanos()) {
        d.run_until(ot_from);
        d.note_ot_start();
    }
    d.finish()
}

/// [`run`] in `slices` equal slices of simulated time, asking `keep_going(fraction done)`
/// after each: `Ok(None)` when it says stop (a caller's Ctrl-C), else the very result of
/// [`run`]. The slices only bound `run_until` calls, which pop the same events in the same
/// order, and the OT-window snapshot is taken at exactly `ot_from` as in [`run`], so the
/// result is identical (tested: `a_sliced_run_equals_a_one_shot_run`).
pub fn run_driven(
    spec: &PcnSpec,
    seed: u64,
    slices: u32,
    mut keep_going: impl FnMut(f64) -> bool,
) -> Result<Option<PcnResult>, String> {
    let mut d = Domain::new(spec, seed)?;
    let end = spec.duration.as_nanos();
    let ot_from = spec.measure.ot_from.as_nanos();
    let mut ot_noted = ot_from >= end;
    let slices = u64::from(slices.max(1));
    for k in 1..=slices {
        let b = (u128::from(end) * u128::from(k) / u128::from(slices)) as u64;
        if !ot_noted && ot_from <= b {
            d.run_until(Time(ot_from));
            d.note_ot_start();
            ot_noted = true;
        }
        d.run_until(Time(b));
        if k < slices && !keep_going(k as f64 / slices as f64) {
            return Ok(None);
        }
    }
    d.finish().map(Some)
}

/// Waiting-time figures `q` turned into one-way delay figures: `fixed` added to each (all
/// zero without samples).
fn shifted(q: Quantiles, fixed: u64) -> DelayStats {
    if q.count == 0 {
        return DelayStats::default();
    }
    DelayStats {
        samples: q.count,
        mean_ns: q.mean + fixed as f64,
        min_ns: q.min + fixed,
        p50_ns: q.p50 + fixed,
        p90_ns: q.p90 + fixed,
        p99_ns: q.p99 + fixed,
        max_ns: q.max + fixed,
    }
}

/// The delay figures of one IEA (`measure.rs`).
fn iea_delay(ia: &Iea, dv: bool) -> IeaDelay {
    let q = ia.delay.summary();
    let fixed = ia.prop_tx;
    IeaDelay {
        one_way: shifted(q, fixed),
        prop_tx_ns: fixed,
        queueing_mean_ns: q.mean,
        queueing_max_ns: q.max,
        queueing_saturated: ia.saturated,
        jitter_rfc3550_ns: dv.then(|| ia.dv.jitter.value()),
        ipdv_mean_abs_ns: dv.then(|| ia.dv.ipdv.mean_abs()),
        ipdv_max_abs_ns: dv.then(|| ia.dv.ipdv.max_abs()),
        pdv_p99_ns: q.p99 - q.min,
    }
}

#[inline]
fn mark_of(m: u8) -> PcnMark {
    match m {
        0 => PcnMark::NotMarked,
        1 => PcnMark::ThresholdMarked,
        _ => PcnMark::ExcessMarked,
    }
}

/// Whole flows per IEA for a per-link population of `flows`. The IEAs are grouped by their
/// first PCN link; a group's flows are round(flows × Σ shares) (RTT and single link: all
/// of them; parking lot: the long-haul's half rides on link 1), split by share with the
/// floors first and the remainder to the first IEAs of the group (deterministic).
fn split_population(topo: &Topology, flows: u32) -> Vec<u32> {
    let n = topo.ieas.len();
    let mut out = vec![0u32; n];
    for link in 0..topo.links.len() as u32 {
        let members: Vec<usize> = (0..n)
            .filter(|&i| topo.ieas[i].hops[0].link == link)
            .collect();
        if members.is_empty() {
            continue;
        }
        let total: f64 = members.iter().map(|&i| topo.ieas[i].share).sum();
        let target = libm::round(f64::from(flows) * total) as u32;
        let mut given = 0u32;
        for &i in &members {
            let x = libm::floor(f64::from(flows) * topo.ieas[i].share) as u32;
            out[i] = x;
            given += x;
        }
        let mut k = 0;
        while given < target {
            out[members[k % members.len()]] += 1;
            given += 1;
            k += 1;
        }
    }
    out
}
