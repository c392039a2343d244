//! `rfc2963`: RFC 2963 Appendix A (seed 000), Tables A.2–A.7.
//!
//! The network (A.1): ten pairs of LANs; LAN c has ten workstations on a switched 10 Mb/s
//! LAN (1 ms links) behind customer router Cc, connected by a 34 Mb/s, 2.5 ms link to edge
//! router ER1; ER1->ER2 is the 70 Mb/s bottleneck with three-colour RIO; ER2 reaches
//! customer routers Cc' (34 Mb/s, 2.5 ms) and their LANs. Workstation k of LAN c sends one
//! bulk SACK TCP flow (MSS 1460 B, window 64 KB) to workstation k of LAN c'. 102 s
//! simulated, statistics after 2 s.
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

use qoslab_algo::meter::{trtcm::TrTcmParams, ColorMode};
use qoslab_algo::shaper::{RasParams, ShaperParams, TrRasConfig};
use qoslab_algo::{Color, Duration, Rate};
use qoslab_sim::scenario::spec::{
    ConditionerSpec, FlowKind, Limit, MeterSpec, NodeKind, QueueSpec, QueueUnit, RioCoupling,
    RioPrecedenceSpec, TcpSpec, TcpVariant,
};

use super::experiment::{Column, Experiment, Quick, Row, SeedPolicy, Table, Variant};
use super::metric::{FlowSel, Metric};
use super::topo::{drop_tail, Net};

pub const NAME: &str = "rfc2963";
pub const BOTTLENECK: &str = "ER1->ER2";
const MSS: u32 = 1460;
const HEADER: u32 = 40;
/// 1 KByte = 1000 bytes (the scenario parser's "KB").
const KB: u64 = 1000;

/// CBS values (KBytes) of Tables A.4 and A.7: our choice (the seed copy lacks the rows).
pub const CBS_SWEEP: [u64; 5] = [3, 10, 30, 100, 300];

const NOTES: &[&str] = &[
    "Table A.1 (the trTCM parameters) is not in the seed copy; parameters come from the text: CIR 2/4/6/8/10 Mb/s for C1..C5 and C6..C10, PIR = 2 CIR, PBS = 2 CBS, CBS 3 KBytes for A.2/A.3/A.5/A.6; 1 KByte = 1000 bytes.",
    "Tables A.4 and A.7 have neither values nor rows in the seed copy: we run CBS = 3, 10, 30, 100, 300 KBytes (\"a CBS of a few hundred KBytes is probably too large\").",
    "The rate adaptive shapers' settings are not given in the seed copy: MIR = 34 Mb/s (the line rate of the customer-edge link, \"a typical value\"), CIR_th = CBS, PIR_th = PBS, MIR_th = 2 PBS, buffer max(640 KB, MIR_th) (ten 64 KB windows: no shaper loss; RFC 2963 §2.4 needs MIR_th <= buffer), EAR constant K = 100 ms.",
    "The ER1-ER2 link delay is not stated in the seed copy: 5 ms. Queue limits: ER1->ER2 1000 packets (above the green max_th of 800); every other queue 1000-packet drop-tail (\"no losses occur inside the edge routers\").",
    "Three-colour RIO is coupled (each colour's average counts its own and the more preferred colours), not gentle, averages in packets.",
    "TCP: SACK, MSS 1460 B payload + 40 B headers, receiver window 64 000 B, an ACK per segment, min RTO 1 s (the scenario parser's defaults otherwise); all flows start at 0 s.",
    "Throughput by colour (A.2, A.3, A.5, A.6) counts data bytes on the wire delivered to the receivers, by the colour the ingress marked; goodput (A.4, A.7) counts unique payload bytes delivered in order.",
];

/// Which shaper C6..C10 use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shaping {
    TrRas,
    GreenTrRas,
}

/// CIR (Mb/s) of customer router c = 1..=10.
pub fn cir_mbps(c: usize) -> u64 {
    2 * (((c - 1) % 5) as u64 + 1)
}

/// The whole network of A.1 with `shaping` on C6..C10 and this CBS on every trTCM.
pub fn variant(shaping: Shaping, cbs_kbytes: u64) -> Result<Variant, String> {
    let mut net = Net::new("rfc2963", Duration::from_secs(102), Duration::from_secs(2));
    let er1 = net.node("ER1", NodeKind::Router);
    let er2 = net.node("ER2", NodeKind::Router);
    let rio3 = QueueSpec::Rio {
        limit: Limit::Packets(1000),
        precedences: vec![
            // "400 and 800 for the green packets", maxp 0.02
            RioPrecedenceSpec {
                min_th: 400.0,
                max_th: 800.0,
                max_p: 0.02,
                w_q: 0.002,
            },
            // "200 and 400 packets for the yellow packets", maxp 0.05
            RioPrecedenceSpec {
                min_th: 200.0,
                max_th: 400.0,
                max_p: 0.05,
                w_q: 0.002,
            },
            // "100 and 200 packets ... for the red packets", maxp 0.1
            RioPrecedenceSpec {
                min_th: 100.0,
                max_th: 200.0,
                max_p: 0.1,
                w_q: 0.002,
            },
        ],
        coupling: RioCoupling::Coupled,
        gentle: false,
        queue_unit: QueueUnit::Packets,
        mean_pkt_size: MSS + HEADER,
    };
    net.duplex(
        er1,
        er2,
        Rate::from_mbps(70),
        Duration::from_millis(5),
        rio3,
        drop_tail(1000),
    );
    let spec = TcpSpec {
        variant: TcpVariant::Sack,
        mss: MSS,
        header: HEADER,
        ack_size: HEADER,
        rwnd: 64 * KB,
        // RFC 5681 §3.1: IW = 3 segments when 1095 < SMSS <= 2190 bytes.
        init_cwnd: 3,
        limited_transmit: true,
        min_rto: Duration::from_secs(1),
        max_rto: Duration::from_secs(60),
        initial_rto: Duration::from_secs(1),
        clock_granularity: Duration::ZERO,
        delayed_ack: None,
        ns2_compat: false,
        bytes: None,
    };
    let cbs = cbs_kbytes * KB;
    for c in 1..=10 {
        let left = net.node(&format!("C{c}"), NodeKind::Router);
        let right = net.node(&format!("C{c}'"), NodeKind::Router);
        let edge = Rate::from_mbps(34);
        net.duplex(
            left,
            er1,
            edge,
            Duration::from_micros(2500),
            drop_tail(1000),
            drop_tail(1000),
        );
        net.duplex(
            er2,
            right,
            edge,
            Duration::from_micros(2500),
            drop_tail(1000),
            drop_tail(1000),
        );
        for k in 1..=10 {
            let a = net.node(&format!("W{c}.{k}"), NodeKind::Host);
            let b = net.node(&format!("W{c}'.{k}"), NodeKind::Host);
            net.duplex(
                a,
                left,
                Rate::from_mbps(10),
                Duration::from_millis(1),
                drop_tail(1000),
                drop_tail(1000),
            );
            net.duplex(
                right,
                b,
                Rate::from_mbps(10),
                Duration::from_millis(1),
                drop_tail(1000),
                drop_tail(1000),
            );
            net.flow(&format!("C{c}/{k}"), a, b, FlowKind::Tcp(spec.clone()));
        }
        // "All customer routers are equipped with a trTCM where the CIR are 2 Mbps for router
        // C1 and C6, 4 Mbps for C2 and C7, ..." — one conditioner for the LAN's aggregate, on
        // the link into the edge router.
        let cir = Rate::from_mbps(cir_mbps(c));
        // "the PIR is always twice as large as the CIR. Also the PBS is the double of the CBS."
        let (pir, pbs) = (Rate(2 * cir.0), 2 * cbs);
        let trtcm = TrTcmParams::new(ColorMode::Blind, cir, cbs, pir, pbs)
            .map_err(|e| format!("C{c} trTCM: {e}"))?;
        // "Routers C6-C10 also contain a trRAS in addition to the trTCM"
        let shaper = if c > 5 {
            let ras = RasParams::two_rate(&TrRasConfig {
                cir,
                pir,
                mir: edge,
                line_rate: edge,
                cir_th: cbs,
                pir_th: pbs,
                mir_th: 2 * pbs,
                // At least ten 64 KB windows (no shaper loss), and never below MIR_th
                // (RFC 2963 §2.4: MIR_th <= buffer size).
                buffer: (640 * KB).max(2 * pbs),
                ear_window: Duration::from_millis(100),
            })
            .map_err(|e| format!("C{c} RAS: {e}"))?;
            Some(match shaping {
                Shaping::TrRas => ShaperParams::Ras(ras),
                Shaping::GreenTrRas => ShaperParams::GreenRas(ras),
            })
        } else {
            None
        };
        let mut kinds = Vec::new();
        if shaper.is_some() {
            kinds.push(match shaping {
                Shaping::TrRas => "trras".to_string(),
                Shaping::GreenTrRas => "g-trras".to_string(),
            });
        }
        kinds.push("trtcm".to_string());
        net.condition(
            &format!("C{c}->ER1"),
            ConditionerSpec {
                kinds,
                shaper,
                meters: vec![MeterSpec::TrTcm(trtcm)],
            },
        );
    }
    net.monitor(BOTTLENECK, None);
    let key = format!(
        "{} cbs={}KB",
        match shaping {
            Shaping::TrRas => "trRAS",
            Shaping::GreenTrRas => "G-trRAS",
        },
        cbs_kbytes
    );
    net.sc.name = format!("{NAME} {key}");
    Ok(Variant {
        key,
        scenario: net.sc,
        seeds: SeedPolicy::Replicate,
    })
}

fn colour_table(
    e: &mut Experiment,
    id: &'static str,
    title: &str,
    shaping: Shaping,
    routers: std::ops::RangeInclusive<usize>,
) -> Result<Table, String> {
    let v = e.variant(variant(shaping, 3)?);
    let rows = routers
        .map(|c| {
            let sel = || FlowSel::Prefix(format!("C{c}/"));
            Row {
                keys: vec![format!("{}Mbps", cir_mbps(c)), format!("C{c}")],
                variant: v,
                cells: vec![
                    Metric::DeliveredMbps(sel(), Some(Color::Green)),
                    Metric::DeliveredMbps(sel(), Some(Color::Yellow)),
                    Metric::DeliveredMbps(sel(), None),
                ],
            }
        })
        .collect();
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
    id: &'static str,
    title: &str,
    shaping: Shaping,
) -> Result<Table, String> {
    let mut rows = Vec::new();
    for cbs in CBS_SWEEP {
        rows.push(Row {
            keys: vec![cbs.to_string()],
            variant: e.variant(variant(shaping, cbs)?),
            cells: [1, 6, 3, 8]
                .iter()
                .map(|c| Metric::GoodputMbps(FlowSel::Prefix(format!("C{c}/"))))
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
        "a2",
        "Throughput (Mb/s) of the unshaped traffic (trTCM only), CBS 3 KB",
        Shaping::TrRas,
        1..=5,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        "a3",
        "Throughput (Mb/s) of the adaptively shaped traffic (trRAS + trTCM), CBS 3 KB",
        Shaping::TrRas,
        6..=10,
    )?;
    e.tables.push(t);
    let t = cbs_table(
        &mut e,
        "a4",
        "Goodput (Mb/s) vs CBS (KBytes), trRAS on C6 and C8",
        Shaping::TrRas,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        "a5",
        "Throughput (Mb/s) of the unshaped traffic, G-trRAS scenario, CBS 3 KB",
        Shaping::GreenTrRas,
        1..=5,
    )?;
    e.tables.push(t);
    let t = colour_table(
        &mut e,
        "a6",
        "Throughput (Mb/s) of the adaptively shaped traffic (G-trRAS + trTCM), CBS 3 KB",
        Shaping::GreenTrRas,
        6..=10,
    )?;
    e.tables.push(t);
    let t = cbs_table(
        &mut e,
        "a7",
        "Goodput (Mb/s) vs CBS (KBytes), G-trRAS on C6 and C8",
        Shaping::GreenTrRas,
    )?;
    e.tables.push(t);
    Ok(e)
}
