//! The ATM engine: edge routers (TCP ends, AAL5 segmentation and reassembly), cell links,
//! switches with a shared FIFO cell buffer per output port, and the run loop.
//!
//! # Model
//! * A link is two ports (one per direction). A port sends one cell per slot at its line
//!   rate: slot `k` ends at `⌊k·424·10⁹ / rate⌋` ns after the port became busy (an exact
//!   remainder carried from cell to cell, so the long-run cell rate is the line rate
//!   exactly). No SONET overhead: the cell stream gets the whole 51.84 Mb/s (see
//!   [`super::cell`] for why the published totals rule SONET framing out).
//! * An edge router's output port holds an unbounded FIFO of frames (the TCP windows bound
//!   it: 5 × 65 535 B per VC) and segments the head frame cell by cell; all cells leave
//!   CLP=0. Frames of one port are sent whole, in FIFO order.
//! * A switch output port holds a FIFO of cells; admission is asked of the port's policy
//!   ([`super::buffer`]) at each arrival; a cell leaves the buffer (on_departure) when its
//!   transmission starts.
//! * F-GCRA tagging at the UNI: each channel's [`qoslab_algo::atm::FGcra`] (GFR.2) judges
//!   its cells as they arrive at the input of the first switch of the path; the cells of an
//!   ineligible frame get CLP=1 (counted as tagged); a non-conforming cell (beyond MFS) is
//!   dropped there (reason `fgcra-nonconforming`). Choice: the switch's UNI, not the edge
//!   router, because GFR.2 tagging is the network's act on the user's cells (I.371.1 §6.3.4
//!   UPC/NPC actions; TM 4.1 GFR.2).
//!   Off with `tagging = false` (every cell then stays CLP=0).
//! * PCR check at the UNI (a VC with `cdvt`): GCRA(1/PCR, CDVT) judges every cell of the
//!   channel (CLP=0+1, ITU-T I.371.1 §6.3.1) before the F-GCRA; a non-conforming cell is
//!   discarded there (reason `pcr-nonconforming`; I.371.1 §6.3.4 lets the UPC discard
//!   cells that fail the PCR check, and GFR's only tagging is the F-GCRA's, of whole
//!   frames). Its frame then fails reassembly like any frame with a lost cell. Verdicts are
//!   counted per channel ([`super::result::PcrCheckResult`]).
//! * Queue samples (off by default; [`AtmSim::with_queue_samples`]): every `interval` the
//!   occupancy of each switch port, in total and per VC, is recorded (events that only
//!   read state: the run's results are the same with or without them, except `events`).
//! * Reassembly at the far edge: cells of a channel arrive in order (FIFO everywhere), and
//!   the PDU ends at a cell with the end-of-PDU bit. A PDU is delivered iff it holds
//!   exactly its frame's cells: a frame with a lost cell fails the CRC/length check; the
//!   cells left by a frame whose last cell was lost merge with the next frame, which is then
//!   discarded too (AAL5 has no other delimiter).
//! * TCP: [`crate::transport::tcp`] unchanged, driven as `sim.rs` does (poll_transmit after
//!   every event, timers at poll_timeout). A segment of `len` bytes is a frame of
//!   `len + header` bytes; an ACK a frame of `ack_size` bytes on the VC's reverse channel.
//!
//! Randomness: connection start times U[0, start_jitter) (stream `"start/<vc>/<k>"`) and
//! the buffer policy's draws (stream `"buffer/<port>"`); nothing else is random.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use qoslab_algo::{Rng, Time};

use qoslab_algo::atm::{CellView, FGcra, FGcraVerdict, Gcra, GcraVerdict, GfrBuffer};

use super::buffer::{admit, new_buffer, new_fgcra, new_pcr_gcra, DropCause, DROP_REASONS};
use super::cell::{Cell, Framing, CELL_BITS, CELL_BYTES};
use super::result::{
    fairness_index, AtmResult, ChannelResult, PcrCheckResult, PortResult, QueueSeries, VcResult,
    VcWindowResult,
};
use super::spec::{AtmNodeKind, AtmScenario};
use crate::sim::tcp_config;
use crate::transport::tcp::{Ack, App, Segment, TcpReceiver, TcpSender};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    PortFree(u32),
    Arrive(u32),
    Sender(u32),
    Receiver(u32),
    Warmup,
    Sample,
}

#[derive(Clone, Copy, Debug)]
enum Payload {
    Data(Segment),
    Ack(Ack),
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    in_use: bool,
    ch: u32,
    flow: u32,
    /// Per-channel sequence number (reassembly compares these, never slot indices).
    seq: u64,
    n_cells: u32,
    /// Cells emitted and not yet delivered or dropped.
    live: u32,
    /// A cell of it was dropped.
    corrupt: bool,
    /// Its fate is decided (its last cell was delivered or dropped).
    resolved: bool,
    payload: Payload,
}

enum Source {
    /// Edge router: frames waiting, the one being segmented and its next cell.
    Edge {
        frames: VecDeque<u32>,
        cur: u32,
        next: u32,
    },
    /// Switch: the FIFO of cells and the admission policy.
    Switch {
        fifo: VecDeque<Cell>,
        adm: Box<GfrBuffer>,
        rng: Rng,
    },
}

struct Port {
    name: String,
    rate: u64,
    delay: u64,
    /// Remainder of ns·rate carried between slots.
    acc: u64,
    busy: bool,
    /// Cells on the wire with their arrival times (the head's Arrive event is scheduled).
    pipe: VecDeque<(Time, Cell)>,
    src: Source,
    arrived: u64,
    sent: u64,
    /// `sent` when the warm-up ended.
    sent_at_warmup: u64,
    dropped_clp: [u64; 2],
    dropped_by: Vec<u64>,
    max_occ: u32,
    /// Occupancy integral (cell·ns) since warmup, and the time of its last update.
    occ_area: u128,
    occ_at: Time,
}

#[derive(Default, Clone)]
struct ChanStats {
    cells_sent: u64,
    cells_delivered: u64,
    cells_dropped_clp: [u64; 2],
    cells_tagged: u64,
    dropped_by: Vec<u64>,
    frames_sent: u64,
    frames_delivered: u64,
    frames_lost: u64,
    frames_discard_own: u64,
    frames_discard_merged: u64,
}

struct Channel {
    vc: u32,
    /// Ports along the path.
    ports: Vec<u32>,
    next_seq: u64,
    /// Sequence number of the frame whose first cell opened the PDU being reassembled.
    asm_seq: Option<u64>,
    mixed: bool,
    /// F-GCRA at the UNI (None: tagging off).
    fgcra: Option<FGcra>,
    /// PCR check GCRA(1/PCR, CDVT) at the UNI (None: the VC has no `cdvt`).
    pcr: Option<Gcra>,
    st: ChanStats,
}

struct Flow {
    vc: u32,
    snd: TcpSender,
    rcv: TcpReceiver,
    s_armed: Time,
    r_armed: Time,
    start: Time,
    at_warmup: u64,
    /// Counters when the warm-up ended: sender [timeouts, retransmits], receiver
    /// [segments, duplicates].
    snd_at_warmup: [u64; 2],
    rcv_at_warmup: [u64; 2],
}

/// A built ATM network, ready to run.
pub struct AtmSim {
    sc: AtmScenario,
    now: Time,
    end: Time,
    heap: BinaryHeap<Reverse<(Time, u64, Ev)>>,
    seq: u64,
    events: u64,
    cell_hops: u64,
    ports: Vec<Port>,
    chans: Vec<Channel>,
    flows: Vec<Flow>,
    frames: Vec<Frame>,
    free_frames: Vec<u32>,
    header: u32,
    ack_size: u32,
    framing: Framing,
    warm: bool,
    /// Queue sampling interval in ns (0: off) and the series, one per switch port.
    sample_every: u64,
    series: Vec<QueueSeries>,
}

impl AtmSim {
    /// Builds the network; `seed` overrides the scenario's.
    pub fn new(sc: AtmScenario, seed: u64) -> Result<AtmSim, String> {
        sc.check()?;
        let cfg = tcp_config(&sc.tcp).map_err(|e| format!("tcp: {e}"))?;
        let mut sc = sc;
        sc.seed = seed;
        let mut ports = Vec::with_capacity(sc.links.len() * 2);
        for l in &sc.links {
            for (a, b) in [(l.from, l.to), (l.to, l.from)] {
                let name = format!("{}->{}", sc.nodes[a].name, sc.nodes[b].name);
                let src = match sc.nodes[a].kind {
                    AtmNodeKind::Edge => Source::Edge {
                        frames: VecDeque::with_capacity(512),
                        cur: NONE,
                        next: 0,
                    },
                    AtmNodeKind::Switch => Source::Switch {
                        fifo: VecDeque::with_capacity(sc.buffer.size as usize),
                        adm: Box::new(
                            new_buffer(&sc.buffer, &sc.vcs, sc.c_gfr)
                                .map_err(|e| format!("port {name}: {e}"))?,
                        ),
                        rng: Rng::stream(seed, &format!("buffer/{name}")),
                    },
                };
                ports.push(Port {
                    name,
                    rate: l.rate.0,
                    delay: l.delay.0,
                    acc: 0,
                    busy: false,
                    pipe: VecDeque::with_capacity(64),
                    src,
                    arrived: 0,
                    sent: 0,
                    sent_at_warmup: 0,
                    dropped_clp: [0; 2],
                    dropped_by: vec![0; DROP_REASONS.len()],
                    max_occ: 0,
                    occ_area: 0,
                    occ_at: Time::ZERO,
                });
            }
        }
        let port_of = |a: usize, b: usize| -> u32 {
            let (li, fwd) = sc.link_between(a, b).expect("checked");
            (2 * li + usize::from(!fwd)) as u32
        };
        let mut chans = Vec::new();
        let mut flows = Vec::new();
        for (v, vc) in sc.vcs.iter().enumerate() {
            for dir in 0..2 {
                let mut path = vc.path.clone();
                if dir == 1 {
                    path.reverse();
                }
                chans.push(Channel {
                    vc: v as u32,
                    ports: path.windows(2).map(|w| port_of(w[0], w[1])).collect(),
                    next_seq: 0,
                    asm_seq: None,
                    mixed: false,
                    fgcra: if sc.tagging {
                        Some(new_fgcra(vc)?)
                    } else {
                        None
                    },
                    pcr: new_pcr_gcra(vc)?,
                    st: ChanStats {
                        dropped_by: vec![0; DROP_REASONS.len()],
                        ..ChanStats::default()
                    },
                });
            }
            for k in 0..vc.connections {
                let mut rng = Rng::stream(seed, &format!("start/{}/{k}", vc.name));
                let jitter = if sc.start_jitter.0 == 0 {
                    0
                } else {
                    rng.below(sc.start_jitter.0)
                };
                flows.push(Flow {
                    vc: v as u32,
                    snd: TcpSender::new(&cfg, App::Bulk),
                    rcv: TcpReceiver::new(&cfg),
                    s_armed: Time::NEVER,
                    r_armed: Time::NEVER,
                    start: Time(jitter),
                    at_warmup: 0,
                    snd_at_warmup: [0; 2],
                    rcv_at_warmup: [0; 2],
                });
            }
        }
        let mut sim = AtmSim {
            now: Time::ZERO,
            end: Time(sc.duration.0),
            heap: BinaryHeap::with_capacity(1024),
            seq: 0,
            events: 0,
            cell_hops: 0,
            ports,
            chans,
            flows,
            frames: Vec::with_capacity(4096),
            free_frames: Vec::with_capacity(4096),
            header: sc.tcp.header,
            ack_size: sc.tcp.ack_size,
            framing: sc.framing,
            warm: sc.warmup.0 == 0,
            sample_every: 0,
            series: Vec::new(),
            sc,
        };
        for f in 0..sim.flows.len() {
            let at = sim.flows[f].start;
            sim.flows[f].s_armed = at;
            sim.push(at, Ev::Sender(f as u32));
        }
        if !sim.warm {
            sim.push(Time(sim.sc.warmup.0), Ev::Warmup);
        }
        Ok(sim)
    }

    /// Records every switch port's occupancy (total and per VC) at times 0, `interval`,
    /// 2·`interval`, … before the end (an interval of 0 turns sampling off).
    pub fn with_queue_samples(mut self, interval: qoslab_algo::Duration) -> Self {
        self.sample_every = interval.0;
        self.series.clear();
        if interval.0 == 0 {
            return self;
        }
        let n_vcs = self.sc.vcs.len();
        let cap = (self.end.0 / interval.0 + 1) as usize;
        for p in &self.ports {
            if matches!(p.src, Source::Switch { .. }) {
                self.series.push(QueueSeries {
                    port: p.name.clone(),
                    interval_s: interval.as_secs_f64(),
                    total: Vec::with_capacity(cap),
                    per_vc: vec![Vec::with_capacity(cap); n_vcs],
                });
            }
        }
        self.push(Time::ZERO, Ev::Sample);
        self
    }

    fn on_sample(&mut self) {
        let mut k = 0;
        for p in &self.ports {
            if let Source::Switch { adm, .. } = &p.src {
                let s = &mut self.series[k];
                s.total.push(adm.occupancy());
                for (v, col) in s.per_vc.iter_mut().enumerate() {
                    col.push(adm.vc_occupancy(v as u32));
                }
                k += 1;
            }
        }
        let next = Time(self.now.0 + self.sample_every);
        self.push(next, Ev::Sample);
    }

    #[inline]
    fn push(&mut self, at: Time, ev: Ev) {
        self.heap.push(Reverse((at, self.seq, ev)));
        self.seq += 1;
    }

    /// Runs to the end; checks conservation; returns the results.
    pub fn run(mut self) -> Result<AtmResult, String> {
        self.run_until(self.end);
        self.finish()
    }

    /// The end of the run (the scenario's duration).
    pub fn end(&self) -> Time {
        self.end
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.events
    }

    /// Processes every event before `until` (capped at the end), in order: a driver may
    /// run the simulation in slices and the result is that of [`AtmSim::run`].
    pub fn run_until(&mut self, until: Time) {
        let until = until.min(self.end);
        while let Some(&Reverse((t, _, _))) = self.heap.peek() {
            if t >= until {
                break;
            }
            let Reverse((t, _, ev)) = self.heap.pop().expect("peeked");
            self.now = t;
            self.events += 1;
            match ev {
                Ev::PortFree(p) => {
                    self.ports[p as usize].busy = false;
                    self.try_start(p as usize);
                }
                Ev::Arrive(p) => self.on_arrive(p as usize),
                Ev::Sender(f) => self.on_sender_timer(f as usize),
                Ev::Receiver(f) => self.on_receiver_timer(f as usize),
                Ev::Warmup => self.on_warmup(),
                Ev::Sample => self.on_sample(),
            }
        }
    }

    /// Runs what is left, checks conservation and returns the results.
    pub fn finish(mut self) -> Result<AtmResult, String> {
        self.run_until(self.end);
        self.now = self.end;
        self.check_conservation()?;
        Ok(self.result())
    }

    fn on_warmup(&mut self) {
        self.warm = true;
        for f in &mut self.flows {
            f.at_warmup = f.rcv.delivered();
            let (s, r) = (f.snd.stats(), f.rcv.stats());
            f.snd_at_warmup = [s.timeouts, s.retransmits];
            f.rcv_at_warmup = [r.segments, r.duplicates];
        }
        let now = self.now;
        for p in &mut self.ports {
            p.occ_area = 0;
            p.occ_at = now;
            p.sent_at_warmup = p.sent;
        }
    }

    // ----- ports -----

    /// Starts the next cell on port `p` if it is idle and has one.
    fn try_start(&mut self, p: usize) {
        let now = self.now;
        let warm = self.warm;
        let port = &mut self.ports[p];
        if port.busy {
            return;
        }
        let cell = match &mut port.src {
            Source::Edge { frames, cur, next } => {
                if *cur == NONE {
                    match frames.pop_front() {
                        Some(f) => {
                            *cur = f;
                            *next = 0;
                        }
                        None => return,
                    }
                }
                let fr = &mut self.frames[*cur as usize];
                let c = Cell {
                    ch: fr.ch,
                    frame: *cur,
                    hop: 0,
                    clp: false,
                    first: *next == 0,
                    last: *next + 1 == fr.n_cells,
                };
                fr.live += 1;
                self.chans[fr.ch as usize].st.cells_sent += 1;
                port.arrived += 1;
                *next += 1;
                if c.last {
                    *cur = NONE;
                }
                c
            }
            Source::Switch { fifo, adm, .. } => {
                let Some(c) = fifo.pop_front() else { return };
                if warm {
                    port.occ_area += (fifo.len() as u128 + 1) * (now.0 - port.occ_at.0) as u128;
                    port.occ_at = now;
                }
                adm.on_departure(now, self.chans[c.ch as usize].vc);
                c
            }
        };
        // One slot: 424 bits at the line rate, remainder carried.
        let num = CELL_BITS as u128 * 1_000_000_000 + port.acc as u128;
        let tx = (num / port.rate as u128) as u64;
        port.acc = (num % port.rate as u128) as u64;
        port.busy = true;
        port.sent += 1;
        self.cell_hops += 1;
        let arrival = Time(now.0 + tx + port.delay);
        let was_empty = port.pipe.is_empty();
        port.pipe.push_back((arrival, cell));
        self.push(Time(now.0 + tx), Ev::PortFree(p as u32));
        if was_empty {
            self.push(arrival, Ev::Arrive(p as u32));
        }
    }

    fn on_arrive(&mut self, p: usize) {
        let port = &mut self.ports[p];
        let (_, mut cell) = port.pipe.pop_front().expect("an Arrive event has a cell");
        if let Some(&(t, _)) = port.pipe.front() {
            self.push(t, Ev::Arrive(p as u32));
        }
        cell.hop += 1;
        let ch = &self.chans[cell.ch as usize];
        let hop = cell.hop as usize;
        if hop == ch.ports.len() {
            self.reassemble(cell);
            return;
        }
        let q = ch.ports[hop] as usize;
        let vc = ch.vc;
        let now = self.now;
        if hop == 1 {
            let ch = &mut self.chans[cell.ch as usize];
            // The UNI: first the PCR check GCRA(1/PCR, CDVT) on every cell (I.371.1 §6.3.1);
            // a non-conforming cell is discarded (§6.3.4; our choice among the UPC actions).
            if let Some(g) = &mut ch.pcr {
                if g.on_cell(now) == GcraVerdict::NonConforming {
                    self.ports[q].arrived += 1;
                    self.ports[q].dropped_clp[usize::from(cell.clp)] += 1;
                    self.ports[q].dropped_by[DropCause::PCR_NONCONFORMING.0 as usize] += 1;
                    self.drop_cell(cell, DropCause::PCR_NONCONFORMING);
                    return;
                }
            }
            // Then the F-GCRA (GFR.2) on the cell as it enters the first switch.
            if let Some(g) = &mut ch.fgcra {
                let view = CellView {
                    vc,
                    clp: cell.clp,
                    first_of_frame: cell.first,
                    last_of_frame: cell.last,
                };
                match g.on_cell(now, view) {
                    FGcraVerdict::Eligible | FGcraVerdict::Ineligible => {}
                    FGcraVerdict::Tag => {
                        if !cell.clp {
                            cell.clp = true;
                            ch.st.cells_tagged += 1;
                        }
                    }
                    FGcraVerdict::NonConforming => {
                        self.ports[q].arrived += 1;
                        self.ports[q].dropped_clp[usize::from(cell.clp)] += 1;
                        self.ports[q].dropped_by[DropCause::NONCONFORMING.0 as usize] += 1;
                        self.drop_cell(cell, DropCause::NONCONFORMING);
                        return;
                    }
                }
            }
        }
        let warm = self.warm;
        let port = &mut self.ports[q];
        port.arrived += 1;
        let Source::Switch { fifo, adm, rng } = &mut port.src else {
            unreachable!("a path's inner nodes are switches (checked)")
        };
        let view = CellView {
            vc,
            clp: cell.clp,
            first_of_frame: cell.first,
            last_of_frame: cell.last,
        };
        match admit(adm, now, view, rng) {
            Ok(()) => {
                if warm {
                    port.occ_area += fifo.len() as u128 * (now.0 - port.occ_at.0) as u128;
                    port.occ_at = now;
                }
                fifo.push_back(cell);
                port.max_occ = port.max_occ.max(fifo.len() as u32);
                self.try_start(q);
            }
            Err(cause) => {
                port.dropped_clp[usize::from(cell.clp)] += 1;
                port.dropped_by[cause.0 as usize] += 1;
                self.drop_cell(cell, cause);
            }
        }
    }

    fn drop_cell(&mut self, cell: Cell, cause: DropCause) {
        let st = &mut self.chans[cell.ch as usize].st;
        st.cells_dropped_clp[usize::from(cell.clp)] += 1;
        st.dropped_by[cause.0 as usize] += 1;
        let fr = &mut self.frames[cell.frame as usize];
        fr.live -= 1;
        fr.corrupt = true;
        if cell.last {
            fr.resolved = true;
            st.frames_lost += 1;
        }
        self.maybe_free(cell.frame);
    }

    #[inline]
    fn maybe_free(&mut self, f: u32) {
        let fr = &mut self.frames[f as usize];
        if fr.resolved && fr.live == 0 {
            fr.in_use = false;
            self.free_frames.push(f);
        }
    }

    // ----- edge routers -----

    /// A cell reached the far edge of its channel: AAL5 reassembly.
    fn reassemble(&mut self, cell: Cell) {
        let ch = &mut self.chans[cell.ch as usize];
        ch.st.cells_delivered += 1;
        let fr = &mut self.frames[cell.frame as usize];
        fr.live -= 1;
        match ch.asm_seq {
            None => ch.asm_seq = Some(fr.seq),
            Some(s) if s != fr.seq => ch.mixed = true,
            Some(_) => {}
        }
        if !cell.last {
            return;
        }
        // End of PDU: the length/CRC check passes iff the PDU is exactly this frame.
        let ok = !ch.mixed && !fr.corrupt;
        ch.asm_seq = None;
        let mixed = std::mem::take(&mut ch.mixed);
        fr.resolved = true;
        let (flow, payload) = (fr.flow, fr.payload);
        if ok {
            ch.st.frames_delivered += 1;
        } else if fr.corrupt {
            ch.st.frames_discard_own += 1;
        } else {
            debug_assert!(mixed);
            ch.st.frames_discard_merged += 1;
        }
        self.maybe_free(cell.frame);
        if ok {
            match payload {
                Payload::Data(seg) => self.on_segment(flow as usize, seg),
                Payload::Ack(ack) => self.on_ack(flow as usize, ack),
            }
        }
    }

    fn send_frame(&mut self, ch: u32, flow: u32, payload: Payload, bytes: u32) {
        let n_cells = self.framing.cells_per_frame(bytes);
        let c = &mut self.chans[ch as usize];
        let fr = Frame {
            in_use: true,
            ch,
            flow,
            seq: c.next_seq,
            n_cells,
            live: 0,
            corrupt: false,
            resolved: false,
            payload,
        };
        c.next_seq += 1;
        c.st.frames_sent += 1;
        let port = c.ports[0] as usize;
        let f = match self.free_frames.pop() {
            Some(f) => {
                self.frames[f as usize] = fr;
                f
            }
            None => {
                self.frames.push(fr);
                (self.frames.len() - 1) as u32
            }
        };
        let Source::Edge { frames, .. } = &mut self.ports[port].src else {
            unreachable!("a channel starts at an edge router (checked)")
        };
        frames.push_back(f);
        self.try_start(port);
    }

    fn flush_sender(&mut self, f: usize) {
        let now = self.now;
        if now < self.flows[f].start {
            return;
        }
        while let Some(seg) = self.flows[f].snd.poll_transmit(now) {
            let ch = 2 * self.flows[f].vc;
            self.send_frame(ch, f as u32, Payload::Data(seg), seg.len + self.header);
        }
        let d = self.flows[f].snd.poll_timeout();
        self.arm_sender(f, d);
    }

    fn arm_sender(&mut self, f: usize, d: Option<Time>) {
        if let Some(d) = d {
            let at = d.max(self.now);
            if at < self.flows[f].s_armed {
                self.flows[f].s_armed = at;
                self.push(at, Ev::Sender(f as u32));
            }
        }
    }

    fn arm_receiver(&mut self, f: usize) {
        if let Some(d) = self.flows[f].rcv.poll_timeout() {
            let at = d.max(self.now);
            if at < self.flows[f].r_armed {
                self.flows[f].r_armed = at;
                self.push(at, Ev::Receiver(f as u32));
            }
        }
    }

    fn on_sender_timer(&mut self, f: usize) {
        let now = self.now;
        let fl = &mut self.flows[f];
        if fl.s_armed <= now {
            fl.s_armed = Time::NEVER;
        }
        if now >= fl.start {
            fl.snd.on_timeout(now);
        }
        self.flush_sender(f);
    }

    fn on_receiver_timer(&mut self, f: usize) {
        let now = self.now;
        let fl = &mut self.flows[f];
        if fl.r_armed <= now {
            fl.r_armed = Time::NEVER;
        }
        if let Some(ack) = fl.rcv.on_timeout(now) {
            let ch = 2 * fl.vc + 1;
            self.send_frame(ch, f as u32, Payload::Ack(ack), self.ack_size);
        }
        self.arm_receiver(f);
    }

    fn on_segment(&mut self, f: usize, seg: Segment) {
        let now = self.now;
        let fl = &mut self.flows[f];
        if let Some(ack) = fl.rcv.on_segment(now, &seg) {
            let ch = 2 * fl.vc + 1;
            self.send_frame(ch, f as u32, Payload::Ack(ack), self.ack_size);
        }
        self.arm_receiver(f);
    }

    fn on_ack(&mut self, f: usize, ack: Ack) {
        let now = self.now;
        self.flows[f].snd.on_ack(now, &ack);
        self.flush_sender(f);
    }

    // ----- end of run -----

    /// Cells sent = delivered + dropped + in flight, per channel and per port; frames sent
    /// = delivered + lost + discarded + in flight, per channel; policy occupancy = FIFO.
    fn check_conservation(&self) -> Result<(), String> {
        let n = self.chans.len();
        let mut cells_in_flight = vec![0u64; n];
        for p in &self.ports {
            for (_, c) in &p.pipe {
                cells_in_flight[c.ch as usize] += 1;
            }
            if let Source::Switch { fifo, adm, .. } = &p.src {
                for c in fifo {
                    cells_in_flight[c.ch as usize] += 1;
                }
                let bc = adm.counters();
                let t = bc.total();
                let ours: u64 = p.dropped_by[..DropCause::NONCONFORMING.0 as usize]
                    .iter()
                    .sum();
                if t.dropped_total() != ours
                    || t.departed_cells != p.sent
                    || bc.spurious_departures != 0
                {
                    return Err(format!(
                        "conservation: port {}: policy counted {} drops, {} departures ({} spurious); engine {} drops, {} sent",
                        p.name,
                        t.dropped_total(),
                        t.departed_cells,
                        bc.spurious_departures,
                        ours,
                        p.sent
                    ));
                }
                if adm.occupancy() as usize != fifo.len() {
                    return Err(format!(
                        "conservation: port {}: policy occupancy {} != FIFO length {}",
                        p.name,
                        adm.occupancy(),
                        fifo.len()
                    ));
                }
            }
            let queued = match &p.src {
                Source::Switch { fifo, .. } => fifo.len() as u64,
                Source::Edge { .. } => 0,
            };
            let dropped: u64 = p.dropped_by.iter().sum();
            if p.arrived != p.sent + dropped + queued
                || dropped != p.dropped_clp[0] + p.dropped_clp[1]
            {
                return Err(format!(
                    "conservation: port {}: arrived {} != sent {} + dropped {} + queued {}",
                    p.name, p.arrived, p.sent, dropped, queued
                ));
            }
        }
        let mut frames_in_flight = vec![0u64; n];
        let mut live = vec![0u64; n];
        for fr in self.frames.iter().filter(|f| f.in_use) {
            live[fr.ch as usize] += fr.live as u64;
            if !fr.resolved {
                frames_in_flight[fr.ch as usize] += 1;
            }
        }
        for (i, c) in self.chans.iter().enumerate() {
            let s = &c.st;
            let dropped = s.cells_dropped_clp[0] + s.cells_dropped_clp[1];
            if s.cells_sent != s.cells_delivered + dropped + cells_in_flight[i]
                || live[i] != cells_in_flight[i]
                || dropped != s.dropped_by.iter().sum::<u64>()
            {
                return Err(format!(
                    "conservation: channel {i}: cells sent {} != delivered {} + dropped {} + in flight {} (live {})",
                    s.cells_sent, s.cells_delivered, dropped, cells_in_flight[i], live[i]
                ));
            }
            let resolved =
                s.frames_delivered + s.frames_lost + s.frames_discard_own + s.frames_discard_merged;
            if s.frames_sent != resolved + frames_in_flight[i] {
                return Err(format!(
                    "conservation: channel {i}: frames sent {} != resolved {} + in flight {}",
                    s.frames_sent, resolved, frames_in_flight[i]
                ));
            }
        }
        Ok(())
    }

    fn chan_result(&self, i: usize) -> ChannelResult {
        let s = &self.chans[i].st;
        let mut in_flight = 0u64;
        let mut frames_in_flight = 0u64;
        for fr in self
            .frames
            .iter()
            .filter(|f| f.in_use && f.ch as usize == i)
        {
            in_flight += fr.live as u64;
            frames_in_flight += u64::from(!fr.resolved);
        }
        ChannelResult {
            cells_sent: s.cells_sent,
            cells_delivered: s.cells_delivered,
            cells_dropped_clp0: s.cells_dropped_clp[0],
            cells_dropped_clp1: s.cells_dropped_clp[1],
            cells_in_flight: in_flight,
            cells_tagged: s.cells_tagged,
            cells_dropped_by_reason: reasons(&s.dropped_by),
            frames_sent: s.frames_sent,
            frames_delivered: s.frames_delivered,
            frames_lost_in_network: s.frames_lost,
            frames_discarded_own_loss: s.frames_discard_own,
            frames_discarded_merged: s.frames_discard_merged,
            frames_in_flight,
            pcr_check: self.chans[i].pcr.as_ref().map(|g| {
                let c = g.counters();
                PcrCheckResult {
                    cells: c.cells,
                    conforming: c.conforming,
                    nonconforming: c.nonconforming,
                }
            }),
        }
    }

    fn result(&self) -> AtmResult {
        let sc = &self.sc;
        let window = (sc.duration.0 - sc.warmup.0) as f64 * 1e-9;
        let mss = sc.tcp.mss;
        let cells = self.framing.cells_per_frame(mss + sc.tcp.header);
        let eff = mss as f64 / (cells * CELL_BYTES) as f64;
        let w = sc.weights();
        let mut vcs = Vec::new();
        for (v, vc) in sc.vcs.iter().enumerate() {
            let conn: Vec<f64> = self
                .flows
                .iter()
                .filter(|f| f.vc as usize == v)
                .map(|f| (f.rcv.delivered() - f.at_warmup) as f64 * 8.0 / window / 1e6)
                .collect();
            let goodput: f64 = conn.iter().sum();
            let (mut to, mut rx) = (0, 0);
            let mut win = VcWindowResult::default();
            for f in self.flows.iter().filter(|f| f.vc as usize == v) {
                let (s, r) = (f.snd.stats(), f.rcv.stats());
                to += s.timeouts;
                rx += s.retransmits;
                win.tcp_timeouts += s.timeouts - f.snd_at_warmup[0];
                win.tcp_retransmits += s.retransmits - f.snd_at_warmup[1];
                win.segments_received += r.segments - f.rcv_at_warmup[0];
                win.duplicate_segments += r.duplicates - f.rcv_at_warmup[1];
            }
            let mcr_mbps = vc.mcr.0 as f64 / 1e6;
            vcs.push(VcResult {
                name: vc.name.clone(),
                mcr_mbps,
                weight_mbps: w[v] / 1e6,
                ideal_goodput_mbps: w[v] * eff / 1e6,
                mcr_goodput_mbps: mcr_mbps * eff,
                goodput_mbps: goodput,
                mcr_met: goodput >= mcr_mbps * eff,
                connection_goodput_mbps: conn,
                tcp_timeouts: to,
                tcp_retransmits: rx,
                window: win,
                data: self.chan_result(2 * v),
                acks: self.chan_result(2 * v + 1),
            });
        }
        let x: Vec<f64> = vcs.iter().map(|v| v.goodput_mbps).collect();
        let f: Vec<f64> = vcs.iter().map(|v| v.ideal_goodput_mbps).collect();
        let ports = self
            .ports
            .iter()
            .filter(|p| matches!(p.src, Source::Switch { .. }) && p.arrived > 0)
            .map(|p| {
                let (queued, bc) = match &p.src {
                    Source::Switch { fifo, adm, .. } => (fifo.len(), adm.counters().total()),
                    Source::Edge { .. } => (0, Default::default()),
                };
                let frames_refused_by_reason = bc
                    .refused_frames
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n[0] + n[1] > 0)
                    .map(|(k, n)| (DROP_REASONS[k].to_string(), *n))
                    .collect();
                let area = p.occ_area + queued as u128 * (self.now.0 - p.occ_at.0) as u128;
                let sent_window = p.sent - p.sent_at_warmup;
                // Cell slots in the window: window · rate / 424 bits.
                let slots = window * p.rate as f64 / CELL_BITS as f64;
                PortResult {
                    name: p.name.clone(),
                    cells_arrived: p.arrived,
                    cells_sent: p.sent,
                    cells_dropped_clp0: p.dropped_clp[0],
                    cells_dropped_clp1: p.dropped_clp[1],
                    cells_dropped_by_reason: reasons(&p.dropped_by),
                    cells_queued_at_end: queued as u64,
                    frames_refused_by_reason,
                    frames_partially_lost: bc.partially_lost_frames,
                    frames_complete: bc.complete_frames,
                    max_occupancy: p.max_occ,
                    mean_occupancy: area as f64 / (window * 1e9),
                    cells_sent_window: sent_window,
                    utilization: sent_window as f64 / slots,
                }
            })
            .collect();
        AtmResult {
            name: sc.name.clone(),
            seed: sc.seed,
            duration_s: sc.duration.as_secs_f64_exact(),
            warmup_s: sc.warmup.as_secs_f64_exact(),
            policy: sc.buffer.policy.name().to_string(),
            total_goodput_mbps: x.iter().sum(),
            fairness_index: fairness_index(&x, &f),
            all_mcr_met: vcs.iter().all(|v| v.mcr_met),
            vcs,
            ports,
            payload_efficiency: eff,
            cell_hops: self.cell_hops,
            events: self.events,
            queue_series: self.series.clone(),
        }
    }
}

fn reasons(v: &[u64]) -> BTreeMap<String, u64> {
    DROP_REASONS
        .iter()
        .zip(v)
        .filter(|(_, &n)| n > 0)
        .map(|(k, &n)| (k.to_string(), n))
        .collect()
}
