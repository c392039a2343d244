//! The validated form of a PCN scenario file (the contract between `parse.rs` and the
//! engine). Every value here has been range- and relation-checked; building and running a
//! domain from a [`PcnSpec`] cannot fail on configuration.
//!
//! Defaults that the draft (draft-satoh-pcn-st-marking-02) leaves open are marked [G] with
//! the number of the reading map's §5 row; the scenario files write each one out.

use qoslab_algo::{Duration, Rate};
use serde::Serialize;

/// What a run exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// Poisson call arrivals per IEA, exponential holding times, admission by CLE (§10.1, §11).
    Admission,
    /// Infinite flows: a base load from t = 0 and extra flows at `extra_at` (§12); no new calls.
    Termination,
    /// A fixed set of infinite flows, no admission and no termination: measures the marking
    /// function (marked fraction vs offered rate, the draft's Fig. 2 / Fig. E.1).
    Static,
}

/// The marking scheme on every PCN link and the matching edge behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Single-threshold marking (§3.1) with the STM egress/ingress of §3.2/§3.3.
    Stm,
    /// The fractional marker of App. E (§14) with the STM edges (App. E gives no edge
    /// behaviour of its own; used for the marking-function figure).
    Fractional,
    /// The CL comparison scheme (§10.5): virtual-queue admission marking, token-bucket
    /// excess-rate termination marking, SAR-based termination.
    Cl,
}

/// One traffic type (§10.2, map §2). Every flow of a run uses it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrafficSpec {
    /// `cbr`, `vbr` or `svd` (a label; the behaviour is in the fields below).
    pub model: String,
    /// Packet size on the wire (bytes); request packets have this size too [G §5.7].
    pub packet_bytes: u32,
    /// Packet spacing while ON.
    pub interval: Duration,
    /// `None`: always ON (CBR). `Some`: ON-OFF Markov source with these exponential means.
    pub on_off: Option<OnOff>,
    /// Nominal mean rate of one flow (bit/s), used for victims, nominal link rates and
    /// "PCN rate < SR" tests [G §5.20].
    pub nominal_bps: f64,
    /// Each packet is delayed by an independent U(0, randomize) at the source [G §5.17];
    /// zero = not randomized.
    pub randomize: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OnOff {
    pub on_mean: Duration,
    pub off_mean: Duration,
    /// `ns2`: a burst is max(1, round(Exp(on)/interval)) packets, then an Exp(off) silence
    /// (NS2 Application/Traffic/Exponential); `continuous`: packets while t < Exp(on).
    pub burst: BurstModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BurstModel {
    Ns2,
    Continuous,
}

/// The PCN domain (§10.1, Figs. A.1–A.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum TopologySpec {
    /// A → B, one IEA, PCN on A→B.
    Single { delay: Duration },
    /// k ingresses → D → F; PCN only on D→F; ingress links unlimited, delays U[min, max]
    /// redrawn per seed [G §5.5].
    Rtt {
        ingresses: u32,
        ingress_delay_min: Duration,
        ingress_delay_max: Duration,
        bottleneck_delay: Duration,
    },
    /// A chain of `bottlenecks` PCN links; one long-haul IEA over all of them and one
    /// one-hop IEA per link entering and leaving through unlimited, unmetered vertical links.
    ParkingLot {
        bottlenecks: u32,
        link_delay: Duration,
        vertical_delay: Duration,
    },
}

/// STM marker parameters (§3.1, §10.4), durations "at" AR (SwTB) or SR (MkTB).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StmSpec {
    pub n: u32,
    pub swtb_size: Duration,
    pub swtb_threshold: Duration,
    pub mktb_size: Duration,
    pub mktb_threshold: Duration,
    /// `literal` (full zone when MkTB.fill < threshold) or `deficit` (fill < size − threshold).
    pub mk_threshold_reading: String,
}

/// Fractional marker parameters (App. E): no values in the draft; [G] SwTB/MkTB values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FractionalSpec {
    pub n: u32,
    pub frtb_size: Duration,
    pub frtb_threshold: Duration,
    pub thtb_size: Duration,
    pub thtb_threshold: Duration,
}

/// CL parameters (§10.5; algorithms of RFC 5670 and RFC 6661, see `qoslab_algo::pcn::cl` and
/// `qoslab_algo::pcn::cl_edge`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClSpec {
    pub vq_min: Duration,
    pub vq_max: Duration,
    pub vq_limit: Duration,
    pub tb_depth: Duration,
    /// false: already-PM packets are not metered by the termination bucket (RFC 5670 §2.4).
    pub meter_already_marked: bool,
    /// `size-independent` (RFC 5670 §2.4 SHOULD, App. A.2), `classic` (§2.4) or `cl-phb-03`
    /// (draft-briscoe-tsvwg-cl-phb-03 §3.2, the CL the draft compares with).
    pub excess_meter: String,
    /// Egress measurement period T_meas (RFC 6661 §3.2.1; 100 ms [G]); with
    /// `edge = "cl-phb-03"` the SAR measurement interval (cl-phb-03 §10.4.1: 100 ms).
    pub t_meas: Duration,
    /// PCN-sent-rate window at the ingress (RFC 6661 §3.4; 100 ms [G]); with
    /// `edge = "cl-phb-03"` the ingress interval ("the same length ... as the egress").
    pub send_window: Duration,
    /// Edge behaviour: `rfc6661` (`qoslab_algo::pcn::cl_edge`) or `cl-phb-03`
    /// (`qoslab_algo::pcn::cl_phb_edge`: cl-phb-03 §10.4.1 = zhang-02 §4.1).
    pub edge: String,
    /// cl-phb-03 §10.4.1 Error1, a fraction of SAR: pre-empt only if S > SAR·(1 + error1).
    pub error1: f64,
    /// cl-phb-03 §10.4.1 Error2, a fraction of SAR: pre-empt down to SAR·(1 − error2).
    pub error2: f64,
    /// CL victims: `ceil-mean` (random flows until their nominal mean rates reach the amount,
    /// the rule STM uses too [G map §5.12]) or `upper-limit` (RFC 6661 §3.3.2 MAY: random
    /// flows whose upper rate limits, the peak rates, sum to at most the amount).
    pub victims: String,
    /// With `edge = "cl-phb-03"`: `none` (cl-phb-03 §10.4.1: every report received while idle
    /// starts the next sending-rate interval at once) or `after-order` (RFC 6661 §3.3.2's
    /// RECOMMENDED spacing: reports of SAR intervals begun before the last order + the one-way
    /// delay are ignored; `qoslab_algo::pcn::cl_phb_edge`). The RFC 6661 edge always waits.
    pub ingress_wait: String,
}

/// Edge behaviour (§3.2, §3.3, §10.4, §11.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EdgeSpec {
    pub cle_threshold: f64,
    pub ewma_weight: f64,
    /// The request's own mark updates the IEA's CLE before the egress answers [G §5.7].
    pub request_updates_cle: bool,
    pub l_marks: u32,
    pub m_unmarked: u32,
    pub report_interval: Duration,
    pub rate_window: Duration,
    /// `while-marked-run` (Variant A, [G §5.10]) or `until-cancel` (Variant B).
    pub gating: String,
    pub measure_interval: Duration,
    pub extra_fraction: f64,
    /// Which reports make R_min at the STM ingress (§3.3.2: "it starts measuring ... It
    /// receives the packet multiple times during the measuring interval and maintains the
    /// minimum"): `during-interval` (default: the report that starts a round only starts
    /// it; R_min is over the reports received during the round) or `all` (the starting
    /// report counts too, as `qoslab_algo::pcn::StmIngress` does by itself).
    pub r_min_reports: String,
    /// STM egress first report: `at-lth-mark` (default) or `one-interval-later`
    /// (`qoslab_algo::pcn::FirstReport`).
    pub first_report: String,
    /// STM ingress round after a termination: `back-to-back` (default [G §5.11]) or
    /// `next-report` (`qoslab_algo::pcn::RoundStart`).
    pub round_start: String,
    /// Packets of a terminated flow that reach the ingress after the termination (they were
    /// on their way from the source: randomized traffic) are discarded there (default) or
    /// still forwarded (`false`). The default follows zhang-02 (whose traffic models the draft
    /// uses, §10.2): a terminated flow "sends no more packets from that time on" (§2.2), and
    /// the randomization delays the packet's "ideal departure time" (§2.3.4).
    pub discard_terminated: bool,
    /// Termination control on (termination runs) or off (admission runs, [G §5.25]).
    pub terminate: bool,
}

/// Call-level load of an admission run (§10.2, §11).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdmissionSpec {
    /// Mean time between call requests of one IEA (Poisson).
    pub call_interval: Duration,
    /// Exponential holding time mean (§10.2: 1 min).
    pub holding_mean: Duration,
}

/// How the extra flows of a termination run are placed [G §5.18].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExtraSplit {
    /// Over the IEAs of each link like the base load (RTT: evenly; PLT: half long-haul).
    Even,
    /// All to one IEA (the first), the literal "one IE-pair was generated".
    OneIea,
}

/// Flow population of termination and static runs, per bottleneck link (§12).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PopulationSpec {
    /// Flows from t = 0 on each bottleneck link (split over the link's IEAs).
    pub base_flows: u32,
    /// Flows on each bottleneck link after `extra_at` (≥ base_flows).
    pub final_flows: u32,
    pub extra_at: Duration,
    pub extra_split: ExtraSplit,
    /// Start times are uniform in [t, t + spread) ([G]: one mean packet interval).
    pub start_spread: Duration,
    /// On-off flows of the population start `stationary` (default: ON with probability
    /// on/(on+off), else after an Exp(off) silence; the base load is a steady state and the
    /// extra flows model calls rerouted after a failure, §12, i.e. calls in progress) or
    /// `on` (every flow starts with a burst, [G §5.16] as for new calls).
    pub start_state: String,
    /// Long-haul share of each parking-lot link's flows [G §5.19].
    pub long_haul_share: f64,
}

/// Measurement windows (§10.3, §11.6, §12).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasureSpec {
    /// Over-admission window [G §5.22: 200–300 s].
    pub oa_from: Duration,
    pub oa_to: Duration,
    /// Over-termination window (80–100 s).
    pub ot_from: Duration,
    pub ot_to: Duration,
    /// Fairness bin on the first link (10 s).
    pub fairness_bin: Duration,
    /// Per-link rate series bin (the rate-through-termination figure).
    pub series_bin: Duration,
    /// Marking-function window (static runs).
    pub static_from: Duration,
    /// Delay measurement on (`[pcn.measure] delay`, default true): one-way delay per IEA
    /// and for the run's traffic class, RFC 3550 jitter / RFC 3393 IPDV per IEA, FIFO
    /// sojourn per PCN link (see `measure.rs`). Off, the run's other results are identical
    /// (the queueing time is carried in the packet either way).
    pub delay: bool,
    /// RFC 3550 jitter and RFC 3393 IPDV per IEA aggregate (`[pcn.measure]
    /// delay_variation`, default false: +1.2 % instructions on top of `delay`'s ~4.4 %, and
    /// over an aggregate they mix the IEA's flows).
    pub delay_variation: bool,
    /// Delay samples are taken from this time on (egress arrivals for one-way delay, link
    /// arrivals for sojourn) to the end of the run. Default: the start of the run kind's
    /// window: `oa_from` (admission: the admitted population's steady state), 0
    /// (termination: the overload and its removal are the interesting part), `static_from`
    /// (static).
    pub delay_from: Duration,
}

/// A validated PCN scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PcnSpec {
    pub name: String,
    pub seed: u64,
    pub duration: Duration,
    pub kind: RunKind,
    pub scheme: Scheme,
    /// Physical rate C of every PCN link.
    pub link_rate: Rate,
    /// PCN-admissible-rate AR and PCN-supportable-rate SR of every PCN link.
    pub admissible_rate: Rate,
    pub supportable_rate: Rate,
    /// Physical FIFO of each PCN link, packets (§10.1: 80,000).
    pub fifo_packets: u32,
    pub traffic: TrafficSpec,
    pub topology: TopologySpec,
    pub stm: StmSpec,
    pub fractional: FractionalSpec,
    pub cl: ClSpec,
    pub edge: EdgeSpec,
    pub admission: AdmissionSpec,
    pub population: PopulationSpec,
    pub measure: MeasureSpec,
}

impl PcnSpec {
    /// Number of IEAs of the topology.
    pub fn iea_count(&self) -> usize {
        match &self.topology {
            TopologySpec::Single { .. } => 1,
            TopologySpec::Rtt { ingresses, .. } => *ingresses as usize,
            TopologySpec::ParkingLot { bottlenecks, .. } => *bottlenecks as usize + 1,
        }
    }
}
