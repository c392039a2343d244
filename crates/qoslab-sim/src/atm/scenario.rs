//! ATM scenario files: TOML → [`AtmScenario`], with the IP scenarios' reader (errors name
//! file, line, column, key path, the value found and what is allowed).
//!
//! ```toml
//! name = "kim2001"            # optional: default the file name
//! atm = true                  # marks an ATM scenario (required: `qoslab run` dispatches on it)
//! seed = 1
//! duration = "30s"
//! warmup = "5s"               # goodput counts [warmup, duration)
//! framing = "raw"             # "raw" (default: ceil(bytes/48) cells), "vc-mux", "llc-snap"
//! start_jitter = "100ms"      # each TCP connection starts at U[0, jitter) (default 0)
//! c_gfr = "51.84Mbps"         # C_GFR of eq. (1)-(2) (default: the slowest link on a VC path)
//! tagging = true              # F-GCRA tagging at the UNI (default true)
//!
//! [buffer]                    # every switch output port
//! size = 8192                 # cells
//! policy = "double-epd"       # tail-drop | epd | double-epd | dfba | dynamic-threshold
//! lbo = 2048                  # cells (double-epd, dfba, dynamic-threshold)
//! hbo = 6144                  # cells (ditto); epd: threshold = ...
//! alpha = 0.1                 # dynamic-threshold: eq. (3)'s weight
//! dfba_z = 0.5                # dfba: Z_i (default 0.5), in (0, 1]
//! dfba_alpha = 0.5            # dfba: α (default 0.5), in [0, 1]
//! dfba_share = "configured"   # dfba: W = Σ MCR of "configured" (default) or "backlogged" VCs
//!
//! [tcp]                       # the keys of an IP scenario's TCP flow (see `scenario`)
//! variant = "reno"
//! mss = "960B"
//! header = "0B"
//! rwnd = "65535B"
//! clock_granularity = "50ms"
//!
//! [[node]]                    # kind = "edge" (IP/ATM edge router) or "switch"
//! name = "R{i}"
//! count = 6
//! kind = "edge"
//!
//! [[link]]                    # duplex
//! from = "R{i}"
//! to = "SW1"
//! count = 6
//! rate = "51.84Mbps"
//! delay = "0.5ms"
//!
//! [[vc]]
//! name = "VC{i}"
//! count = 6
//! path = ["R{i}", "SW1", "SW2", "D{i}"]
//! mcr = ["2Mbps", "4Mbps", "6Mbps", "8Mbps", "10Mbps", "12Mbps"]   # bit/s of 53-B cells
//! pcr = "51.84Mbps"           # default: the slowest link of the path
//! cdvt = "1ns"                # PCR check GCRA(1/PCR, CDVT) at the UNI (default: no check)
//! mbs = 200                   # cells (default: mfs)
//! mfs = 32                    # cells (default: cells of an MSS segment)
//! connections = 5             # greedy TCP connections
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use qoslab_algo::{Duration, Rate};

use super::cell::Framing;
use super::spec::{
    AtmLink, AtmNode, AtmNodeKind, AtmScenario, BufferSpec, DfbaShare, PolicySpec, VcSpec,
};
use crate::scenario::error::ErrorKind;
use crate::scenario::flow;
use crate::scenario::parse::{load_with, run_window, with_root_table};
use crate::scenario::reader::{instances, Field, Res, Tbl};
use crate::scenario::ScenarioError;

const TOP_KEYS: &[&str] = &[
    "name",
    "atm",
    "seed",
    "duration",
    "warmup",
    "framing",
    "start_jitter",
    "c_gfr",
    "tagging",
    "buffer",
    "tcp",
    "node",
    "link",
    "vc",
];
const BUFFER_KEYS: &[&str] = &[
    "size",
    "policy",
    "lbo",
    "hbo",
    "threshold",
    "alpha",
    "dfba_z",
    "dfba_alpha",
    "dfba_share",
];
/// Largest switch buffer (cells) a file may ask for.
pub const MAX_BUFFER_CELLS: u32 = 1 << 20;
/// Largest AAL5 CPCS-SDU (ITU-T I.363.5): the largest TCP segment plus header.
pub const MAX_FRAME_BYTES: u64 = 65_535;
/// Longest time an ATM file may give (durations, delays, jitter, TCP timers): sums of a
/// few stay far inside the engine's u64 nanoseconds.
pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);

fn bounded(f: Field<'_>, d: Duration) -> Res<Duration> {
    if d > MAX_TIME {
        return Err(f.err(ErrorKind::BadValue, "at most 1000000 s"));
    }
    Ok(d)
}

/// Most TCP connections of one VC.
pub const MAX_CONNECTIONS: u32 = 100_000;
const NODE_KEYS: &[&str] = &["name", "count", "kind"];
const LINK_KEYS: &[&str] = &["from", "to", "count", "rate", "delay"];
const VC_KEYS: &[&str] = &[
    "name",
    "count",
    "path",
    "mcr",
    "pcr",
    "cdvt",
    "mbs",
    "mfs",
    "connections",
];

/// True if the text has an `atm` key at its top level, whatever its value (how `qoslab
/// run` tells an ATM scenario from an IP one): `atm = "yes"` or `atm = false` then get the
/// ATM reader's error on that key rather than the IP reader's "unknown key `atm`".
/// Invalid TOML answers false (the IP reader then reports it).
pub fn is_atm(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("atm"))
}

/// Reads an ATM scenario file from disk.
pub fn load(path: &Path) -> Result<AtmScenario, ScenarioError> {
    load_with(path, parse_str)
}

/// Parses and validates an ATM scenario.
pub fn parse_str(text: &str, file: &str) -> Result<AtmScenario, ScenarioError> {
    with_root_table(text, file, |root| scenario(root, file))
}

fn table_list<'a>(root: &Tbl<'a>, key: &str) -> Res<Vec<Tbl<'a>>> {
    let Some(f) = root.get(key) else {
        return Ok(Vec::new());
    };
    if f.is_table() {
        return Err(f.err(
            ErrorKind::BadValue,
            format!("expected a list of tables: write [[{key}]] for each {key}"),
        ));
    }
    f.list()?.into_iter().map(Field::table).collect()
}

fn positive_u32(f: Field<'_>, what: &str) -> Res<u32> {
    let g = f.clone();
    let n = f.uint(u64::from(u32::MAX))?;
    if n == 0 {
        return Err(g.err(ErrorKind::BadValue, format!("{what} must be >= 1")));
    }
    Ok(n as u32)
}

fn scenario(root: &Tbl<'_>, file: &str) -> Res<AtmScenario> {
    root.check_keys(TOP_KEYS, "the top level of an ATM scenario")?;
    let atm_f = root.req("atm")?;
    if !atm_f.clone().bool()? {
        return Err(atm_f.err(ErrorKind::BadValue, "an ATM scenario says `atm = true`"));
    }
    let name = match root.get("name") {
        Some(f) => f.string()?,
        None => Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "atm".into()),
    };
    let seed = root.get("seed").map_or(Ok(1), |f| f.uint(u64::MAX))?;
    let (duration, warmup) = run_window(root)?;
    bounded(root.req("duration")?, duration)?;
    let framing = match root.get("framing") {
        None => Framing::Raw,
        Some(f) => Framing::from_name(f.choice(&Framing::NAMES)?).expect("a listed name"),
    };
    let start_jitter = match root.get("start_jitter") {
        None => Duration::ZERO,
        Some(f) => bounded(f.clone(), f.duration()?)?,
    };
    let tagging = root.get("tagging").map_or(Ok(true), Field::bool)?;
    let tcp = match root.get("tcp") {
        None => flow::tcp(&Tbl {
            entries: &[],
            path: "tcp".into(),
            ..root.clone()
        })?,
        Some(f) => {
            let t = f.table()?;
            t.check_keys(flow::TCP_KEYS, "[tcp]")?;
            if let Some(b) = t.get("bytes") {
                return Err(b.err(
                    ErrorKind::BadValue,
                    "the sources are greedy: omit `bytes` in an ATM scenario",
                ));
            }
            flow::tcp(&t)?
        }
    };
    // Frames: AAL5 carries at most 65,535 bytes per CPCS-SDU (ITU-T I.363.5), which also
    // keeps cell counts far inside u32.
    for (key, bytes) in [("mss", tcp.mss), ("ack_size", tcp.ack_size)] {
        if u64::from(bytes) + u64::from(tcp.header) > MAX_FRAME_BYTES {
            let f = root
                .get("tcp")
                .map(Field::table)
                .transpose()?
                // The culprit: the header if it alone is too large, else this size.
                .and_then(|t| {
                    let first = if u64::from(tcp.header) > MAX_FRAME_BYTES {
                        "header"
                    } else {
                        key
                    };
                    t.get(first).or(t.get(key)).or(t.get("header"))
                });
            let msg = format!(
                "{key} + header = {} B is above {MAX_FRAME_BYTES} B, the largest AAL5 CPCS-SDU (ITU-T I.363.5)",
                u64::from(bytes) + u64::from(tcp.header)
            );
            return Err(match f {
                Some(f) => f.err(ErrorKind::Relation, msg),
                None => root.err(ErrorKind::Relation, msg),
            });
        }
    }
    // TCP timers: sums and multiples of them stay inside u64 nanoseconds.
    for (key, d) in [
        ("min_rto", tcp.min_rto),
        ("max_rto", tcp.max_rto),
        ("initial_rto", tcp.initial_rto),
        ("clock_granularity", tcp.clock_granularity),
        ("delayed_ack", tcp.delayed_ack.unwrap_or(Duration::ZERO)),
    ] {
        if d > MAX_TIME {
            let f = root
                .get("tcp")
                .map(Field::table)
                .transpose()?
                .and_then(|t| t.get(key));
            let msg = format!("tcp.{key}: at most 1000000 s");
            return Err(match f {
                Some(f) => f.err(ErrorKind::BadValue, msg),
                None => root.err(ErrorKind::BadValue, msg),
            });
        }
    }
    // Nodes.
    let mut nodes = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for (k, t) in table_list(root, "node")?.into_iter().enumerate() {
        let t = Tbl {
            path: format!("node[{k}]").into(),
            ..t
        };
        t.check_keys(NODE_KEYS, "a [[node]]")?;
        for inst in instances(t.count()?) {
            let t = t.with_inst(inst);
            let nf = t.req("name")?;
            let name = nf.clone().string()?;
            let kind = match t.req("kind")?.choice(&["edge", "switch"])? {
                "edge" => AtmNodeKind::Edge,
                _ => AtmNodeKind::Switch,
            };
            if index.insert(name.clone(), nodes.len()).is_some() {
                return Err(nf.err(ErrorKind::Relation, "duplicate node name"));
            }
            nodes.push(AtmNode { name, kind });
        }
    }
    let node_ref = |f: Field<'_>| -> Res<usize> {
        let name = f.clone().string()?;
        index.get(&name).copied().ok_or_else(|| {
            f.err(
                ErrorKind::Dangling,
                format!(
                    "no node with this name (nodes: {})",
                    index.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
        })
    };
    // Links.
    let mut links: Vec<AtmLink> = Vec::new();
    for (k, t) in table_list(root, "link")?.into_iter().enumerate() {
        let t = Tbl {
            path: format!("link[{k}]").into(),
            ..t
        };
        t.check_keys(LINK_KEYS, "a [[link]]")?;
        for inst in instances(t.count()?) {
            let t = t.with_inst(inst);
            let from = node_ref(t.req("from")?)?;
            let tf = t.req("to")?;
            let to = node_ref(tf.clone())?;
            if from == to {
                return Err(tf.err(ErrorKind::Relation, "a link joins two different nodes"));
            }
            if links
                .iter()
                .any(|l| (l.from, l.to) == (from, to) || (l.from, l.to) == (to, from))
            {
                return Err(tf.err(
                    ErrorKind::Relation,
                    "these nodes are already linked (links are duplex)",
                ));
            }
            let rf = t.req("rate")?;
            let rate = rf.clone().rate()?;
            if rate.0 == 0 {
                return Err(rf.err(ErrorKind::BadValue, "must be > 0"));
            }
            let df = t.req("delay")?;
            let delay = bounded(df.clone(), df.duration()?)?;
            links.push(AtmLink {
                from,
                to,
                rate,
                delay,
            });
        }
    }
    // Buffer.
    let bt = root.req("buffer")?.table()?;
    bt.check_keys(BUFFER_KEYS, "[buffer]")?;
    let size_f = bt.req("size")?;
    let size = positive_u32(size_f.clone(), "size")?;
    if size > MAX_BUFFER_CELLS {
        return Err(size_f.err(
            ErrorKind::BadValue,
            format!("at most {MAX_BUFFER_CELLS} cells (2^20; the engine reserves the whole buffer of every switch port)"),
        ));
    }
    let pf = bt.req("policy")?;
    let cells = |key: &str| -> Res<u32> {
        let f = bt.req(key)?;
        let n = positive_u32(f.clone(), key)?;
        if n > size {
            return Err(f.err(
                ErrorKind::Relation,
                format!("must be at most the buffer size ({size} cells)"),
            ));
        }
        Ok(n)
    };
    let lbo_hbo = || -> Res<(u32, u32)> {
        let (lbo, hbo) = (cells("lbo")?, cells("hbo")?);
        // Double EPD, DFBA (its (X − L)/(H − L)) and the dynamic threshold all act on the
        // region L < X ≤ H between the two offsets, which must not be empty.
        if lbo > hbo {
            return Err(bt.req("lbo")?.err(
                ErrorKind::Relation,
                format!("LBO <= HBO is broken (hbo = {hbo})"),
            ));
        }
        if lbo == hbo {
            return Err(bt.req("lbo")?.err(
                ErrorKind::Relation,
                format!(
                    "LBO < HBO is broken: lbo = hbo = {hbo} leaves no region between the offsets"
                ),
            ));
        }
        Ok((lbo, hbo))
    };
    let policy = match pf.clone().choice(&PolicySpec::NAMES)? {
        "tail-drop" => PolicySpec::TailDrop,
        "epd" => PolicySpec::Epd {
            threshold: cells("threshold")?,
        },
        "double-epd" => {
            let (lbo, hbo) = lbo_hbo()?;
            PolicySpec::DoubleEpd { lbo, hbo }
        }
        "dfba" => {
            let (lbo, hbo) = lbo_hbo()?;
            let num = |key: &str, default: f64, lo_open: bool| -> Res<f64> {
                let Some(f) = bt.get(key) else {
                    return Ok(default);
                };
                let x = f.clone().number()?;
                let ok = if lo_open {
                    x > 0.0 && x <= 1.0
                } else {
                    (0.0..=1.0).contains(&x)
                };
                if !ok {
                    return Err(f.err(
                        ErrorKind::BadValue,
                        if lo_open {
                            "must be in (0, 1]"
                        } else {
                            "must be in [0, 1]"
                        },
                    ));
                }
                Ok(x)
            };
            PolicySpec::Dfba {
                lbo,
                hbo,
                z: num("dfba_z", 0.5, true)?,
                alpha: num("dfba_alpha", 0.5, false)?,
                share: match bt.get("dfba_share") {
                    None => DfbaShare::default(),
                    Some(f) => match f.choice(&DfbaShare::NAMES)? {
                        "backlogged" => DfbaShare::Backlogged,
                        _ => DfbaShare::Configured,
                    },
                },
            }
        }
        _ => {
            let (lbo, hbo) = lbo_hbo()?;
            let af = bt.req("alpha")?;
            let alpha = af.clone().number()?;
            if !(alpha > 0.0 && alpha < 1.0) {
                return Err(af.err(
                    ErrorKind::BadValue,
                    "must be in (0, 1) (Kim et al. eq. (3): 0 < α << 1)",
                ));
            }
            PolicySpec::DynamicThreshold { lbo, hbo, alpha }
        }
    };
    let buffer = BufferSpec { size, policy };
    // VCs.
    let mss_cells = framing.cells_per_frame(tcp.mss + tcp.header);
    let mut vcs: Vec<VcSpec> = Vec::new();
    for (k, t) in table_list(root, "vc")?.into_iter().enumerate() {
        let t = Tbl {
            path: format!("vc[{k}]").into(),
            ..t
        };
        t.check_keys(VC_KEYS, "a [[vc]]")?;
        for inst in instances(t.count()?) {
            let t = t.with_inst(inst);
            let nf = t.req("name")?;
            let name = nf.clone().string()?;
            if vcs.iter().any(|v| v.name == name) {
                return Err(nf.err(ErrorKind::Relation, "duplicate VC name"));
            }
            let pf = t.req("path")?;
            let items = pf.clone().list()?;
            if items.len() < 3 {
                return Err(pf.err(
                    ErrorKind::BadValue,
                    "a path is [edge, switch, ..., switch, edge]: at least 3 nodes",
                ));
            }
            let mut path = Vec::new();
            let n = items.len();
            for (j, it) in items.into_iter().enumerate() {
                let node = node_ref(it.clone())?;
                let want = if j == 0 || j == n - 1 {
                    AtmNodeKind::Edge
                } else {
                    AtmNodeKind::Switch
                };
                if nodes[node].kind != want {
                    return Err(it.err(
                        ErrorKind::Relation,
                        if want == AtmNodeKind::Edge {
                            "a path starts and ends at an edge router"
                        } else {
                            "the inner nodes of a path are switches"
                        },
                    ));
                }
                if let Some(&prev) = path.last() {
                    if !links
                        .iter()
                        .any(|l| (l.from, l.to) == (prev, node) || (l.from, l.to) == (node, prev))
                    {
                        return Err(it.err(
                            ErrorKind::Relation,
                            format!("no [[link]] between {} and this node", nodes[prev].name),
                        ));
                    }
                }
                path.push(node);
            }
            let slowest = path
                .windows(2)
                .map(|w| {
                    links
                        .iter()
                        .find(|l| (l.from, l.to) == (w[0], w[1]) || (l.from, l.to) == (w[1], w[0]))
                        .expect("checked")
                        .rate
                })
                .min()
                .expect("a path has links");
            let mcr_f = t.req("mcr")?;
            let mcr = mcr_f.clone().rate()?;
            if mcr.0 == 0 {
                return Err(mcr_f.err(
                    ErrorKind::BadValue,
                    "must be > 0 (the F-GCRA's increment T = 1/MCR, and the buffer policies weight VCs by MCR)",
                ));
            }
            let pcr = match t.get("pcr") {
                None => slowest,
                Some(f) => {
                    let p = f.clone().rate()?;
                    if p.0 == 0 {
                        return Err(f.err(ErrorKind::BadValue, "must be > 0"));
                    }
                    if p > slowest {
                        return Err(f.err(
                            ErrorKind::Relation,
                            format!(
                                "PCR <= line rate is broken: the slowest link of the path has {} bit/s (cells cannot enter faster)",
                                slowest.0
                            ),
                        ));
                    }
                    p
                }
            };
            if mcr > pcr {
                return Err(t.req("mcr")?.err(
                    ErrorKind::Relation,
                    format!(
                        "MCR <= PCR (GFR traffic contract, I.371.1 §6.2) is broken (pcr = {} bit/s)",
                        pcr.0
                    ),
                ));
            }
            let mfs = match t.get("mfs") {
                None => mss_cells,
                Some(f) => positive_u32(f, "mfs")?,
            };
            let mbs = match t.get("mbs") {
                None => mfs,
                Some(f) => {
                    let g = f.clone();
                    let b = positive_u32(f, "mbs")?;
                    if b < mfs {
                        return Err(g.err(
                            ErrorKind::Relation,
                            format!(
                                "MBS >= MFS (a burst holds a whole frame) is broken (mfs = {mfs})"
                            ),
                        ));
                    }
                    b
                }
            };
            let cdvt = t.get("cdvt").map(Field::duration).transpose()?;
            let connections = match t.get("connections") {
                None => 1,
                Some(f) => {
                    let g = f.clone();
                    let c = positive_u32(f, "connections")?;
                    if c > MAX_CONNECTIONS {
                        return Err(g.err(
                            ErrorKind::BadValue,
                            format!("at most {MAX_CONNECTIONS} connections per VC"),
                        ));
                    }
                    c
                }
            };
            vcs.push(VcSpec {
                name,
                path,
                mcr,
                pcr,
                cdvt,
                mbs,
                mfs,
                connections,
            });
        }
    }
    if vcs.is_empty() {
        return Err(root.err(
            ErrorKind::BadValue,
            "an ATM scenario needs at least one [[vc]]",
        ));
    }
    let c_gfr = match root.get("c_gfr") {
        Some(f) => {
            let c = f.clone().rate()?;
            if c.0 == 0 {
                return Err(f.err(ErrorKind::BadValue, "must be > 0"));
            }
            c
        }
        None => vcs.iter().map(|v| v.pcr).min().unwrap_or(Rate(1)),
    };
    let sum: u64 = vcs.iter().map(|v| v.mcr.0).sum();
    if sum > c_gfr.0 {
        let msg = format!(
            "Σ MCR = {sum} bit/s exceeds C_GFR = {} bit/s (Kim et al. eq. (2) needs Σ MCR <= C_GFR)",
            c_gfr.0
        );
        return Err(match root.get("c_gfr") {
            Some(f) => f.err(ErrorKind::Relation, msg),
            None => root.err(ErrorKind::Relation, msg),
        });
    }
    let sc = AtmScenario {
        name,
        seed,
        duration,
        warmup,
        framing,
        tcp,
        start_jitter,
        c_gfr,
        buffer,
        tagging,
        nodes,
        links,
        vcs,
    };
    sc.check().map_err(|m| root.err(ErrorKind::Relation, m))?;
    Ok(sc)
}
