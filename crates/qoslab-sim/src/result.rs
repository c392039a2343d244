//! The results of a run: what `summary.json` holds. Deterministic: no wall-clock figures.

use qoslab_algo::Time;
use serde::Serialize;

use crate::measure::delay::{FlowDelaySummary, SojournSummary};
use crate::net::link::ConditionerCounters;
use crate::sim::Simulator;
use crate::stats::{
    jain_index, FlowCounters, QueueCounters, QueueLengthSummary, TfrcOscillationSummary,
};

#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub scenario: String,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    /// Length of the measurement window [warmup, end) in seconds.
    pub measured_s: f64,
    pub events: u64,
    pub flows: Vec<FlowResult>,
    pub queues: Vec<QueueResult>,
    /// Ingress conditioners (whole run, warm-up included).
    pub conditioners: Vec<ConditionerResult>,
    /// Web-traffic pools (whole run): the model's counters. Their traffic is the flow of the
    /// same name in `flows`.
    pub webs: Vec<WebResult>,
    pub aggregate: Aggregate,
}

#[derive(Clone, Debug, Serialize)]
pub struct WebResult {
    pub name: String,
    pub stats: crate::traffic::web::WebStats,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConditionerResult {
    pub link: String,
    pub stages: Vec<String>,
    pub counters: ConditionerCounters,
    /// Packets still held by the shaper at the end.
    pub held: u64,
    /// Mean and maximum time in the shaper, seconds (0 without a shaper).
    pub shaper_mean_delay_s: f64,
    pub shaper_max_delay_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct FlowResult {
    pub name: String,
    pub kind: String,
    pub src: String,
    pub dst: String,
    /// Unique application bytes delivered per second in the measurement window.
    pub goodput_bps: f64,
    /// Every byte the source put on the wire per second (retransmissions included),
    /// RFC 4828's "send rate".
    pub send_rate_bps: f64,
    /// Payload bytes sent per second (headers excluded, retransmissions included): the
    /// "send rate" of RFC 4828's TCP columns (its TFRC columns count headers).
    pub send_payload_bps: f64,
    /// Fraction of the flow's data packets dropped in the window.
    pub drop_rate: f64,
    /// Counters over the measurement window.
    pub measured: FlowCounters,
    /// Counters over the whole run.
    pub total: FlowCounters,
    /// TFRC flows only (absent from the JSON otherwise): how the loss event rate p and the
    /// allowed rate X the sender held after each feedback in the measurement window
    /// oscillated (RFC 4828 App. C; see [`crate::stats::TfrcOscillation`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tfrc: Option<TfrcOscillationSummary>,
    /// One-way delay of the data packets delivered in the window, its queueing and
    /// propagation + transmission parts, jitter, delay variation and (TCP) RTT samples, in
    /// ns ([`crate::measure::delay`]).
    pub delay: FlowDelaySummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct QueueResult {
    pub link: String,
    /// Fraction of the measurement window the link spent serialising.
    pub utilisation: f64,
    /// Bits per second that left the queue in the window.
    pub throughput_bps: f64,
    pub measured: QueueCounters,
    pub total: QueueCounters,
    pub length: QueueLengthSummary,
    /// Histogram of the queue length (packets) seen by arrivals in the window.
    pub length_hist: Vec<u64>,
    /// Sojourn time (waiting before transmission starts) of the packets that left the queue
    /// in the window, all and by colour, in ns ([`crate::measure::delay`]).
    pub sojourn: SojournSummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct Aggregate {
    pub goodput_bps: f64,
    pub jain_index: f64,
}

pub(crate) fn assemble(sim: &Simulator, at_warmup: &[QueueCounters], end: Time) -> RunResult {
    let sc = &sim.scenario;
    let window = end.saturating_since(sim.warmup()).as_secs_f64().max(1e-12);
    let names = |i: u32| sc.nodes[i as usize].name.clone();
    let flows: Vec<FlowResult> = sim
        .flows
        .iter()
        .zip(&sim.delay.flows)
        .map(|(f, d)| {
            let m = f.counters.since(&f.at_warmup);
            FlowResult {
                name: f.name.clone(),
                kind: f.kind.to_string(),
                src: names(f.src),
                dst: names(f.dst),
                goodput_bps: m.goodput_bytes as f64 * 8.0 / window,
                send_rate_bps: m.data_bytes as f64 * 8.0 / window,
                send_payload_bps: m.payload_bytes as f64 * 8.0 / window,
                drop_rate: if m.data_pkts == 0 {
                    0.0
                } else {
                    m.data_dropped as f64 / m.data_pkts as f64
                },
                measured: m,
                total: f.counters,
                tfrc: f.tfrc.as_ref().map(|o| o.summary()),
                delay: d.summary(matches!(f.kind, "tcp" | "web")),
            }
        })
        .collect();
    let queues = sim
        .links
        .iter()
        .zip(at_warmup)
        .zip(&sim.delay.queues)
        .map(|((l, w), d)| (l, w, d))
        .filter(|(l, _, _)| {
            l.monitored
                && (!sc.output.monitor.is_empty()
                    || l.counters.total_drops() > 0
                    || l.qlen.n > 0 && l.qlen.sum > 0)
        })
        .map(|(l, w, d)| {
            let m = l.counters.since(w);
            QueueResult {
                link: l.name.clone(),
                utilisation: m.busy_ns as f64 * 1e-9 / window,
                throughput_bps: m.departure_bytes as f64 * 8.0 / window,
                measured: m,
                total: l.counters,
                length: l.qlen.summary(),
                length_hist: l.qlen.hist.clone(),
                sojourn: d.summary(),
            }
        })
        .collect();
    let conditioners = sim
        .links
        .iter()
        .filter_map(|l| {
            let c = l.cond.as_ref()?;
            let st = c.shaper.as_ref().map(|s| s.stats());
            Some(ConditionerResult {
                link: l.name.clone(),
                stages: c.kinds.clone(),
                counters: c.counters,
                held: c.shaper.as_ref().map_or(0, |s| s.len() as u64),
                shaper_mean_delay_s: st
                    .and_then(|s| s.mean_delay())
                    .map_or(0.0, |d| d.as_secs_f64()),
                shaper_max_delay_s: st.map_or(0.0, |s| s.delay_max.as_secs_f64()),
            })
        })
        .collect();
    let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_bps).collect();
    RunResult {
        scenario: sc.name.clone(),
        seed: sim.seed,
        duration_s: sc.duration.as_secs_f64_exact(),
        warmup_s: sc.warmup.as_secs_f64_exact(),
        measured_s: window,
        events: sim.events_processed(),
        aggregate: Aggregate {
            goodput_bps: goodputs.iter().sum(),
            jain_index: jain_index(&goodputs),
        },
        flows,
        queues,
        conditioners,
        webs: sim
            .webs
            .iter()
            .map(|w| WebResult {
                name: w.name.clone(),
                stats: *w.model.stats(),
            })
            .collect(),
    }
}
