//! The validated form of an ATM scenario (what [`super::engine::AtmSim`] builds from).
//!
//! Read from a TOML file by [`super::scenario`] or built in code (the reproduction does).
//! Building a network from an [`AtmScenario`] that [`AtmScenario::check`] accepts cannot
//! fail.

use qoslab_algo::{Duration, Rate};
use serde::Serialize;

use super::cell::{Framing, CELL_BITS};
use crate::scenario::spec::TcpSpec;

/// A whole ATM/GFR experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AtmScenario {
    pub name: String,
    pub seed: u64,
    pub duration: Duration,
    /// Goodput counts TCP payload delivered in [warmup, duration).
    pub warmup: Duration,
    pub framing: Framing,
    /// The TCP of every connection (`bytes` must be None: greedy sources).
    pub tcp: TcpSpec,
    /// Each connection starts at U[0, start_jitter) (stream `"start/<vc>/<k>"`).
    pub start_jitter: Duration,
    /// C_GFR of Kim et al. eq. (1)–(2): bandwidth for GFR, as a cell rate in bit/s.
    pub c_gfr: Rate,
    /// The buffer of every switch output port.
    pub buffer: BufferSpec,
    /// F-GCRA tagging at the UNI (the first switch's input port of each VC).
    pub tagging: bool,
    pub nodes: Vec<AtmNode>,
    /// Duplex links: each is two ports (from->to, to->from).
    pub links: Vec<AtmLink>,
    pub vcs: Vec<VcSpec>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AtmNodeKind {
    /// An IP/ATM edge router: segments frames into cells, reassembles them; hosts TCP ends.
    Edge,
    /// An ATM switch: shared FIFO cell buffer per output port.
    Switch,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AtmNode {
    pub name: String,
    pub kind: AtmNodeKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AtmLink {
    pub from: usize,
    pub to: usize,
    /// Cell line rate (53-byte cells back to back).
    pub rate: Rate,
    pub delay: Duration,
}

/// A GFR VC from one edge router to another, carrying `connections` greedy TCP connections.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VcSpec {
    pub name: String,
    /// Node indices: edge, switch, ..., switch, edge.
    pub path: Vec<usize>,
    /// Traffic contract (the GFR source traffic descriptor, ITU-T I.371.1 §6.2; ATM Forum
    /// TM 4.1 GFR), cell rates in bit/s of 53-byte cells.
    pub mcr: Rate,
    pub pcr: Rate,
    /// CDVT of the PCR check GCRA(1/PCR, CDVT) at the UNI (I.371.1 §6.3.1). `None`: no PCR
    /// check (and the F-GCRA's `f` is BT alone); `Some(τ)`: every cell is checked, a
    /// non-conforming one is discarded, and the F-GCRA's `f = BT + τ`.
    pub cdvt: Option<Duration>,
    /// MBS and MFS in cells.
    pub mbs: u32,
    pub mfs: u32,
    pub connections: u32,
}

impl VcSpec {
    /// MCR in cells per second.
    pub fn mcr_cells(&self) -> f64 {
        self.mcr.0 as f64 / CELL_BITS as f64
    }
}

/// Buffer of a switch output port.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BufferSpec {
    pub size: u32,
    pub policy: PolicySpec,
}

/// The buffer-management policy (parameters in cells).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PolicySpec {
    TailDrop,
    Epd {
        threshold: u32,
    },
    DoubleEpd {
        lbo: u32,
        hbo: u32,
    },
    /// Goyal et al.'s DFBA: `z` (Z_i, the same for every VC) and `alpha` (α) of its drop
    /// probability (see `qoslab_algo::atm::dfba`).
    Dfba {
        lbo: u32,
        hbo: u32,
        z: f64,
        alpha: f64,
        /// Which VCs make up `W = Σ W_j` of the fair share `X·W_i/W`.
        share: DfbaShare,
    },
    /// Kim et al. §3 (the proposed scheme).
    DynamicThreshold {
        lbo: u32,
        hbo: u32,
        alpha: f64,
    },
}

/// DFBA's weight sum (see `qoslab_algo::atm::dfba`, choice "Which VCs make up `W`").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DfbaShare {
    /// Every VC of the port's buffer (the peer implementation's reading; default).
    #[default]
    Configured,
    /// The VCs with cells in the buffer, plus the arriving one.
    Backlogged,
}

impl DfbaShare {
    pub const NAMES: [&'static str; 2] = ["configured", "backlogged"];
}

impl PolicySpec {
    pub const NAMES: [&'static str; 5] = [
        "tail-drop",
        "epd",
        "double-epd",
        "dfba",
        "dynamic-threshold",
    ];
    pub fn name(&self) -> &'static str {
        match self {
            PolicySpec::TailDrop => "tail-drop",
            PolicySpec::Epd { .. } => "epd",
            PolicySpec::DoubleEpd { .. } => "double-epd",
            PolicySpec::Dfba { .. } => "dfba",
            PolicySpec::DynamicThreshold { .. } => "dynamic-threshold",
        }
    }
}

impl AtmScenario {
    /// Checks what the file reader checks too (for scenarios built in code).
    pub fn check(&self) -> Result<(), String> {
        if self.duration == Duration::ZERO || self.warmup >= self.duration {
            return Err("need 0 <= warmup < duration".into());
        }
        if self.tcp.bytes.is_some() {
            return Err("tcp.bytes: the sources are greedy (omit `bytes`)".into());
        }
        if self.vcs.is_empty() {
            return Err("no VC".into());
        }
        for l in &self.links {
            if l.from >= self.nodes.len() || l.to >= self.nodes.len() || l.from == l.to {
                return Err("a link names a bad node".into());
            }
            if l.rate.0 == 0 {
                return Err("a link has rate 0".into());
            }
        }
        for v in &self.vcs {
            let n = v.path.len();
            if n < 3 {
                return Err(format!("vc {}: path needs edge, switch(es), edge", v.name));
            }
            for (k, &node) in v.path.iter().enumerate() {
                let Some(nd) = self.nodes.get(node) else {
                    return Err(format!("vc {}: bad node index", v.name));
                };
                let want = if k == 0 || k == n - 1 {
                    AtmNodeKind::Edge
                } else {
                    AtmNodeKind::Switch
                };
                if nd.kind != want {
                    return Err(format!(
                        "vc {}: path[{k}] = {} must be {}",
                        v.name,
                        nd.name,
                        if want == AtmNodeKind::Edge {
                            "an edge router"
                        } else {
                            "a switch"
                        }
                    ));
                }
            }
            for w in v.path.windows(2) {
                if self.link_between(w[0], w[1]).is_none() {
                    return Err(format!(
                        "vc {}: no link between {} and {}",
                        v.name, self.nodes[w[0]].name, self.nodes[w[1]].name
                    ));
                }
            }
            if v.connections == 0 {
                return Err(format!("vc {}: connections must be >= 1", v.name));
            }
            if v.mcr > v.pcr {
                return Err(format!(
                    "vc {}: MCR <= PCR (GFR traffic contract, I.371.1 §6.2) is broken",
                    v.name
                ));
            }
        }
        Ok(())
    }

    /// Index of the link joining `a` and `b` (either direction), and whether a->b is its
    /// forward direction.
    pub fn link_between(&self, a: usize, b: usize) -> Option<(usize, bool)> {
        self.links.iter().enumerate().find_map(|(i, l)| {
            if l.from == a && l.to == b {
                Some((i, true))
            } else if l.from == b && l.to == a {
                Some((i, false))
            } else {
                None
            }
        })
    }

    /// Kim et al. eq. (2): w_i = MCR_i + (C_GFR − Σ MCR_j)/N, in bit/s of cells.
    pub fn weights(&self) -> Vec<f64> {
        let n = self.vcs.len() as f64;
        let sum: f64 = self.vcs.iter().map(|v| v.mcr.0 as f64).sum();
        let excess = (self.c_gfr.0 as f64 - sum) / n;
        self.vcs.iter().map(|v| v.mcr.0 as f64 + excess).collect()
    }
}
