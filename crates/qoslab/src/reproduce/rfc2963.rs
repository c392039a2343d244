//! `rfc2963`: RFC 2963 Appendix A (seed 000), Tables A.2–A.7.
//!
//! The network (A.1): ten pairs of LANs; LAN c has ten workstations on a switched 10 Mb/s
//! LAN (1 ms links) behind customer router Cc, connected by a 34 Mb/s, 2.5 ms link to edge
//! router ER1; ER1->ER2 is the 70 Mb/s bottleneck with three-colour RIO; ER2 reaches the
//! customer routers of the other side (34 Mb/s, 2.5 ms) and their LANs. Every workstation
//! sends one bulk SACK TCP flow (MSS 1460 B, window 64 KB) to its peer across the backbone.
//! 102 s simulated, statistics after 2 s.
//!
//! Conditioning (A.1; the seed copy lacks Table A.1, so its parameters come from the
//! text): every customer router has a colour-blind trTCM for its LAN's aggregate, CIR 2, 4,
//! 6, 8, 10 Mb/s for C1..C5 and again for C6..C10, PIR = 2 CIR, PBS = 2 CBS; C6..C10 add a
//! rate adaptive shaper in front of the trTCM (trRAS for A.2–A.4, G-trRAS for A.5–A.7).
//! RIO thresholds: red (100, 200, 0.1), yellow (200, 400, 0.05), green (400, 800, 0.02),
//! w_q 0.002.
//!
//! * A.2 / A.3: CBS 3 KB, trRAS; per LAN green, yellow, total throughput, C1..C5 / C6..C10.
//! * A.4: goodput of the LANs of C1, C6, C3, C8 vs CBS (trRAS).
//! * A.5 / A.6: as A.2 / A.3 with the G-trRAS. A.7: as A.4 with the G-trRAS.
//!
//! The network, the conditioners at CBS 3 KB (the setting of A.2/A.3), the RIO queue and the
//! TCP settings are those of the base scenario `scenarios/rfc2963/base.toml` (compiled in;
//! its header documents its own open choices). Each variant overrides the base: the CBS of
//! every trTCM (with PBS and the shaper thresholds that the base derives from it) and, for
//! A.5–A.7, trRAS → G-trRAS on C6..C10. The choices this experiment adds are in [`NOTES`],
//! printed with the results.

use qoslab_algo::meter::trtcm::TrTcmParams;
use qoslab_algo::shaper::{RasKind, RasParams, ShaperParams, TrRasConfig};
use qoslab_algo::Color;
use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::{ConditionerSpec, MeterSpec, QueueSpec, Scenario};

use super::experiment::{Column, Experiment, Quick, Row, SeedPolicy, Table, Variant};
use super::metric::{FlowSel, Metric};

pub const NAME: &str = "rfc2963";
pub const BOTTLENECK: &str = "ER1->ER2";

/// The base scenario (network, conditioners at CBS 3 KB with trRAS, RIO, TCP settings).
pub const BASE_FILE: &str = "scenarios/rfc2963/base.toml";
const BASE: &str = include_str!("../../../../scenarios/rfc2963/base.toml");

/// 1 KByte = 1000 bytes (the scenario parser's "KB").
const KB: u64 = 1000;
/// Customer routers per side, workstations per LAN (base.toml: W_i is on LAN (i-1)/10+1).
const ROUTERS: usize = 10;
const HOSTS: usize = 10;

/// CBS values (KBytes) of Tables A.4 and A.7: our choice (the seed copy lacks the rows).
pub const CBS_SWEEP: [u64; 5] = [3, 10, 30, 100, 300];

pub const NOTES: &[&str] = &[
    "Network, conditioners, RIO and TCP: scenarios/rfc2963/base.toml, whose header documents its choices (among them: ER1-ER2 delay 0 ms, not stated in the seed copy; every other queue 1000-packet drop-tail; three-colour RIO coupled, not gentle, averages in packets; TCP SACK, MSS 1460 B + 40 B headers, window 64 000 B, an ACK per segment, IW 2, min RTO 200 ms, 10 ms timer tick; flows start in [0, 100 ms)).",
    "Table A.1 (the trTCM parameters) is not in the seed copy; parameters come from the text: CIR 2/4/6/8/10 Mb/s for C1..C5 and C6..C10, PIR = 2 CIR, PBS = 2 CBS, CBS 3 KBytes for A.2/A.3/A.5/A.6; 1 KByte = 1000 bytes.",
    "Tables A.4 and A.7 have neither values nor rows in the seed copy: we run CBS = 3, 10, 30, 100, 300 KBytes (\"a CBS of a few hundred KBytes is probably too large\").",
    "The rate adaptive shapers' settings are not given in the seed copy: as base.toml, MIR = line rate = 34 Mb/s, CIR_th = CBS, PIR_th = PBS, MIR_th = 2 PBS, EAR constant K = 100 ms; buffer 640 KB (ten 64 KB windows: no shaper loss), raised to MIR_th when the CBS sweep makes MIR_th larger (RFC 2963 §2.4 needs MIR_th <= buffer).",
    "Variants: the CBS of every trTCM (with PBS and the shaper thresholds above) and, for A.5-A.7, the trRAS of C6..C10 replaced by a G-trRAS with the same settings; everything else is base.toml.",
    "Throughput by colour (A.2, A.3, A.5, A.6) counts data bytes on the wire delivered to the receivers, by the colour the ingress marked; goodput (A.4, A.7) counts unique payload bytes delivered in order.",
];

/// Which shaper C6..C10 use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shaping {
    TrRas,
    GreenTrRas,
}

/// The link that carries LAN `c`'s aggregate through its conditioner (c = 1..=10).
pub fn customer_link(c: usize) -> String {
    format!("C{c}->ER1")
}

/// The flows of LAN `c` (c = 1..=10): base.toml's `w{i}` for i in 10(c-1)+1 ..= 10c.
pub fn lan(c: usize) -> FlowSel {
    FlowSel::Names(
        (1..=HOSTS)
            .map(|k| format!("w{}", HOSTS * (c - 1) + k))
            .collect(),
    )
}

/// The conditioner of LAN `c`'s link in `sc`.
fn conditioner(sc: &Scenario, c: usize) -> Result<&ConditionerSpec, String> {
    let name = customer_link(c);
    sc.links
        .iter()
        .find(|l| l.name == name)
        .and_then(|l| l.conditioner.as_ref())
        .ok_or_else(|| format!("{BASE_FILE}: no conditioner on {name}"))
}

/// The trTCM of a conditioner (its only meter).
fn trtcm(cond: &ConditionerSpec) -> Option<TrTcmParams> {
    match cond.meters[..] {
        [MeterSpec::TrTcm(p)] => Some(p),
        _ => None,
    }
}

/// The RAS of a conditioner, if it has one.
fn ras(cond: &ConditionerSpec) -> Option<&RasParams> {
    match &cond.shaper {
        Some(ShaperParams::Ras(r) | ShaperParams::GreenRas(r)) => Some(r),
        _ => None,
    }
}

/// CIR of LAN `c`'s trTCM in the base scenario.
pub fn cir(base: &Scenario, c: usize) -> Result<qoslab_algo::Rate, String> {
    let cond = conditioner(base, c)?;
    trtcm(cond)
        .map(|p| p.cir)
        .ok_or_else(|| format!("{BASE_FILE}: C{c}: the conditioner is not a trTCM"))
}

/// The base scenario, parsed, with the shape this experiment overrides checked: a
/// three-colour RIO on the bottleneck, a trTCM on every customer link, a trRAS ahead of it
/// on C6..C10 only, thresholds following the CBS as [`variant`] sets them, 100 flows `w{i}`.
pub fn base() -> Result<Scenario, String> {
    let sc = qoslab_sim::scenario::parse_str(BASE, BASE_FILE).map_err(|e| e.to_string())?;
    let ok = sc.links.iter().any(|l| {
        l.name == BOTTLENECK
            && matches!(&l.queue, QueueSpec::Rio { precedences, .. } if precedences.len() == 3)
    });
    if !ok {
        return Err(format!(
            "{BASE_FILE}: no three-colour RIO queue on {BOTTLENECK}"
        ));
    }
    for c in 1..=ROUTERS {
        let cond = conditioner(&sc, c)?;
        let tcm = trtcm(cond)
            .ok_or_else(|| format!("{BASE_FILE}: C{c}: the conditioner is not a trTCM"))?;
        match (ras(cond), c > ROUTERS / 2) {
            (None, false) if cond.shaper.is_none() => {}
            (Some(r), true) if r.kind() == RasKind::TwoRate => {
                let rule = (r.cir_th(), r.pir_th(), r.mir_th());
                if rule != (tcm.cbs, tcm.pbs, 2 * tcm.pbs) {
                    return Err(format!(
                        "{BASE_FILE}: C{c}: trRAS thresholds {rule:?} are not (CBS, PBS, 2 PBS)"
                    ));
                }
            }
            _ => {
                return Err(format!(
                    "{BASE_FILE}: C{c}: expected a trRAS on C6..C10 only"
                ))
            }
        }
    }
    let names_ok = sc.flows.len() == ROUTERS * HOSTS
        && sc
            .flows
            .iter()
            .enumerate()
            .all(|(i, f)| f.name == format!("w{}", i + 1));
    if !names_ok {
        return Err(format!("{BASE_FILE}: expected the flows w1..w100"));
    }
    Ok(sc)
}

/// The base scenario with this CBS on every trTCM and `shaping` on C6..C10. The algorithm
/// settings are rebuilt with their constructors, so every rule is checked again.
pub fn variant(base: &Scenario, shaping: Shaping, cbs_kbytes: u64) -> Result<Variant, String> {
    let mut sc = base.clone();
    let cbs = cbs_kbytes * KB;
    // "the PIR is always twice as large as the CIR. Also the PBS is the double of the CBS."
    let pbs = 2 * cbs;
    for c in 1..=ROUTERS {
        let name = customer_link(c);
        let cond = sc
            .links
            .iter_mut()
            .find(|l| l.name == name)
            .and_then(|l| l.conditioner.as_mut())
            .ok_or_else(|| format!("{BASE_FILE}: no conditioner on {name}"))?;
        let old = trtcm(cond).ok_or_else(|| format!("{BASE_FILE}: C{c}: not a trTCM"))?;
        let tcm = TrTcmParams::new(old.mode, old.cir, cbs, old.pir, pbs)
            .map_err(|e| format!("C{c} trTCM: {e}"))?;
        cond.meters = vec![MeterSpec::TrTcm(tcm)];
        // "Routers C6-C10 also contain a trRAS in addition to the trTCM"
        let Some(r) = ras(cond) else { continue };
        let mir_th = 2 * pbs;
        let ras = RasParams::two_rate(&TrRasConfig {
            cir: r.cir(),
            pir: r.pir(),
            mir: r.mir(),
            line_rate: r.line_rate(),
            cir_th: cbs,
            pir_th: pbs,
            mir_th,
            // RFC 2963 §2.4: MIR_th <= buffer size.
            buffer: r.buffer().max(mir_th),
            ear_window: r.ear().k(),
        })
        .map_err(|e| format!("C{c} RAS: {e}"))?;
        let (shaper, kind) = match shaping {
            Shaping::TrRas => (ShaperParams::Ras(ras), "trras"),
            // RFC 2963 §3.4: the G-trRAS has the trRAS's settings and consults the trTCM.
            Shaping::GreenTrRas => (ShaperParams::GreenRas(ras), "g-trras"),
        };
        cond.shaper = Some(shaper);
        cond.kinds = vec![kind.to_string(), "trtcm".to_string()];
    }
    let key = format!(
        "{} cbs={}KB",
        match shaping {
            Shaping::TrRas => "trRAS",
            Shaping::GreenTrRas => "G-trRAS",
        },
        cbs_kbytes
    );
    sc.name = format!("{NAME} {key}");
    Ok(Variant {
        key,
        scenario: sc,
        seeds: SeedPolicy::Replicate,
    })
}

fn colour_table(
    e: &mut Experiment,
    base: &Scenario,
    id: &'static str,
    title: &str,
    shaping: Shaping,
    routers: std::ops::RangeInclusive<usize>,
) -> Result<Table, String> {
    let v = e.variant(variant(base, shaping, 3)?);
    let mut rows = Vec::new();
    for c in routers {
        rows.push(Row {
            keys: vec![
                format!("{}Mbps", cir(base, c)?.0 / 1_000_000),
                format!("C{c}"),
            ],
            variant: v,
            cells: vec![
                Metric::DeliveredMbps(lan(c), Some(Color::Green)),
                Metric::DeliveredMbps(lan(c), Some(Color::Yellow)),
                Metric::DeliveredMbps(lan(c), None),
            ],
        });
    }
    Ok(Table {
        id,
        title: title.to_string(),
        source: format!(
            "RFC 2963 App. A, Table {}",
            id.to_uppercase().replacen('A', "A.", 1)
        ),
        keys: vec!["cir", "router"],
        columns: vec![
            Column {
                name: "green",
                decimals: 2,
            },
            Column {
                name: "yellow",
                decimals: 2,
            },
            Column {
                name: "total",
                decimals: 2,
            },
        ],
        rows,
        published: Some(match id {
            "a2" => "rfc2963/table_a2.csv",
            "a3" => "rfc2963/table_a3.csv",
            "a5" => "rfc2963/table_a5.csv",
            _ => "rfc2963/table_a6.csv",
        }),
    })
}

fn cbs_table(
    e: &mut Experiment,
    base: &Scenario,
    id: &'static str,
    title: &str,
    shaping: Shaping,
) -> Result<Table, String> {
    let mut rows = Vec::new();
    for cbs in CBS_SWEEP {
        rows.push(Row {
            keys: vec![cbs.to_string()],
            variant: e.variant(variant(base, shaping, cbs)?),
            cells: [1, 6, 3, 8]
                .into_iter()
                .map(|c| Metric::GoodputMbps(lan(c)))
                .collect(),
        });
    }
    Ok(Table {
        id,
        title: title.to_string(),
        source: format!(
            "RFC 2963 App. A, Table {} (missing in the seed copy)",
            id.to_uppercase().replacen('A', "A.", 1)
        ),
        keys: vec!["cbs_kbytes"],
        columns: ["c1", "c6", "c3", "c8"]
            .iter()
            .map(|&name| Column { name, decimals: 2 })
            .collect(),
        rows,
        published: Some(if id == "a4" {
            "rfc2963/table_a4.csv"
        } else {
            "rfc2963/table_a7.csv"
        }),
    })
}

pub fn experiment() -> Result<Experiment, String> {
    let base = base()?;
    let mut e = Experiment {
        name: NAME,
        title: "A Rate Adaptive Shaper for Differentiated Services, Appendix A",
        source: "O. Bonaventure, S. De Cnodder, RFC 2963, October 2000 (seed 000)",
        variants: Vec::new(),
        tables: Vec::new(),
        figures: Vec::new(),
        // 102 s runs take about 1 s each: the default (5 seeds, 50 runs) about half a
        // minute on 2 cores, --quick (2 seeds of 52 s) a few seconds.
        seeds: 5,
        quick: Quick {
            seeds: 2,
            duration: Duration::from_secs(52),
            warmup: Duration::from_secs(2),
        },
        notes: NOTES.iter().map(|s| s.to_string()).collect(),
    };
    let t = colour_table(
        &mut e,
        &base,
        "a2",
        "Throughput (Mb/s) of the unshaped traffic (trTCM only), CBS 3 KB",
        Shaping::TrRas,
        1..=5,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        &base,
        "a3",
        "Throughput (Mb/s) of the adaptively shaped traffic (trRAS + trTCM), CBS 3 KB",
        Shaping::TrRas,
        6..=10,
    )?;
    e.tables.push(t);
    let t = cbs_table(
        &mut e,
        &base,
        "a4",
        "Goodput (Mb/s) vs CBS (KBytes), trRAS on C6 and C8",
        Shaping::TrRas,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        &base,
        "a5",
        "Throughput (Mb/s) of the unshaped traffic, G-trRAS scenario, CBS 3 KB",
        Shaping::GreenTrRas,
        1..=5,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        &base,
        "a6",
        "Throughput (Mb/s) of the adaptively shaped traffic (G-trRAS + trTCM), CBS 3 KB",
        Shaping::GreenTrRas,
        6..=10,
    )?;
    e.tables.push(t);
    let t = cbs_table(
        &mut e,
        &base,
        "a7",
        "Goodput (Mb/s) vs CBS (KBytes), G-trRAS on C6 and C8",
        Shaping::GreenTrRas,
    )?;
    e.tables.push(t);
    Ok(e)
}
