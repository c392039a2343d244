//! Ingress conditioning of an experiment, described as data.
//!
//! The engine's scenarios do not carry ingress conditioners yet (the integrator is adding
//! them). Experiments therefore describe them here — which flows share a conditioner, at
//! which node, and its settings — and [`apply`] is the one place that hands them to the
//! engine. Until the engine supports them, [`apply`] refuses a variant with conditioners
//! and the run stops with [`super::ReproduceError::Unsupported`]: no result is faked by
//! running without them.

use qoslab_algo::{Duration, Rate};
use qoslab_sim::scenario::spec::Scenario;

/// A conditioner shared by a group of flows (an aggregate), at the ingress node where
/// their packets enter the DiffServ domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Conditioning {
    /// Name of the node whose input the conditioner sits on (e.g. "G1", "C3").
    pub at_node: String,
    /// Names of the flows metered together by this one conditioner.
    pub flows: Vec<String>,
    pub conditioner: Conditioner,
}

/// The conditioners the reproduced documents use.
#[derive(Clone, Debug, PartialEq)]
pub enum Conditioner {
    /// Clark & Fang's TSW tagger with two colours (In = green, Out = yellow): a
    /// time-sliding-window rate estimate with window `window`; above `target`, packets are
    /// marked Out with probability (rate − target) / rate.
    Tsw2cm { target: Rate, window: Duration },
    /// RFC 2698 trTCM (colour-blind), optionally preceded by a rate adaptive shaper
    /// (RFC 2963 §2.4 trRAS or §3.4 G-trRAS).
    TrTcm {
        cir: Rate,
        pir: Rate,
        cbs: u64,
        pbs: u64,
        shaper: Option<RasShaper>,
    },
}

/// Which RFC 2963 shaper precedes a trTCM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RasKind {
    /// RFC 2963 §2.4.
    TrRas,
    /// RFC 2963 §3.4 (coupled to the downstream trTCM).
    GreenTrRas,
}

/// Settings of a trRAS / G-trRAS (RFC 2963 §2.4; CIR and PIR are the trTCM's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RasShaper {
    pub kind: RasKind,
    /// Maximum Information Rate (typically the line rate of the shaper's output link).
    pub mir: Rate,
    /// Thresholds (bytes) of the piecewise-linear shaping rate F.
    pub cir_th: u64,
    pub pir_th: u64,
    pub mir_th: u64,
    /// Shaper buffer (bytes).
    pub buffer: u64,
    /// EAR averaging constant K.
    pub ear_k: Duration,
}

impl Conditioner {
    /// A short description for messages and notes.
    pub fn describe(&self) -> String {
        match self {
            Conditioner::Tsw2cm { target, window } => {
                format!(
                    "tsw2cm {{ target = {} Mb/s, window = {} s }}",
                    target.0 as f64 / 1e6,
                    window.as_secs_f64()
                )
            }
            Conditioner::TrTcm {
                cir,
                pir,
                cbs,
                pbs,
                shaper,
            } => {
                let sh = match shaper {
                    None => String::new(),
                    Some(s) => format!(
                        " after {} {{ MIR = {} Mb/s, CIR_th/PIR_th/MIR_th = {}/{}/{} B, buffer = {} B, K = {} s }}",
                        match s.kind {
                            RasKind::TrRas => "trRAS",
                            RasKind::GreenTrRas => "G-trRAS",
                        },
                        s.mir.0 as f64 / 1e6,
                        s.cir_th,
                        s.pir_th,
                        s.mir_th,
                        s.buffer,
                        s.ear_k.as_secs_f64()
                    ),
                };
                format!(
                    "trTCM {{ CIR = {} Mb/s, PIR = {} Mb/s, CBS = {} B, PBS = {} B }}{sh}",
                    cir.0 as f64 / 1e6,
                    pir.0 as f64 / 1e6,
                    cbs,
                    pbs
                )
            }
        }
    }
}

/// Why a variant cannot be run by this build of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Hands a variant's conditioners to the engine's scenario.
///
/// INTEGRATOR: once `Scenario` carries ingress conditioners, translate each
/// [`Conditioning`] here (node name → index, flow names → indices) and return the scenario
/// with them; nothing else in `reproduce` changes.
pub fn apply(scenario: &Scenario, ingress: &[Conditioning]) -> Result<Scenario, Unsupported> {
    match ingress.first() {
        None => Ok(scenario.clone()),
        Some(c) => Err(Unsupported(format!(
            "ingress conditioning (e.g. {} at node {} for {} flow(s)), which scenarios cannot carry yet",
            c.conditioner.describe(),
            c.at_node,
            c.flows.len()
        ))),
    }
}
