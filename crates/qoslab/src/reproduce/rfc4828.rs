//! `rfc4828`: S. Floyd, E. Kohler, "TCP Friendly Rate Control (TFRC): The Small-Packet (SP)
//! Variant", RFC 4828, April 2007 (seed 003): Tables 1–21 and Appendix C.
//!
//! * Tables 1–4 (§4.1): response functions, *computed* (no simulation) by
//!   [`qoslab_algo::tfrc::response`]; every cell is a [`Metric::Computed`].
//! * Tables 5, 6 (§4.5.1) and 10, 11 (App. B.2): configured *byte* drop rates,
//!   `scenarios/rfc4828/b2-byte-drop.toml`; one run per byte drop rate gives a row of
//!   Tables 10 and 11, and at b = 0.0001 / 0.001 all of Table 5 / 6.
//! * Tables 7, 8, 9 (App. B.1): configured *packet* drop rates,
//!   `scenarios/rfc4828/b1-packet-drop.toml`; one run per packet drop rate gives a row of all
//!   three (the flows share an uncongested path and do not interact).
//! * Tables 12–16 (App. B.3): drop-tail queues in packets or bytes at a 3 Mb/s link with web
//!   traffic, `scenarios/rfc4828/b3-droptail.toml`.
//! * Tables 17–21 (App. B.4): RED and Adaptive RED in packet or byte mode,
//!   `scenarios/rfc4828/b4-red.toml` (published values withheld: ours alone).
//! * Tables "c1", "c2" (App. C, which prints no numbers): TFRC-SP with the step rule for
//!   short loss intervals (§3, the default) beside the gradual rule App. C describes.
//!
//! The base scenarios are compiled in; each row overrides, in the parsed [`Scenario`],
//! exactly the lines `scenarios/rfc4828/run.sh` rewrites for that table and row (the lines
//! marked `@...`, see `scenarios/rfc4828/README.md`), so `run.sh` and this experiment run the
//! same scenarios. The one exception is `@n` (Tables 15, 16: N long-lived flows of each kind),
//! which sets the `count` of node, link and flow patterns: it is applied to the text before
//! parsing, as `run.sh` does, so that the expanded names and the spread of access delays
//! are the parser's. Cells are extracted per flow group as `scenarios/rfc4828/summarize.py`
//! and `results.py` define them (see [`NOTES`]).

use qoslab_algo::tfrc::response::ResponseTable;
use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::{
    FlowKind, Limit, LossSpec, QueueSpec, QueueUnit, RedSpec, Scenario,
};
use qoslab_sim::traffic::web::{WebTrafficParams, WebTrafficSettings};

use super::experiment::{Column, Experiment, Quick, Row, SeedPolicy, Table, Variant, NO_VARIANT};
use super::metric::{FlowSel, FlowStat, Metric};
use super::published::{Published, PublishedRow};

pub const NAME: &str = "rfc4828";

pub const B1_FILE: &str = "scenarios/rfc4828/b1-packet-drop.toml";
pub const B2_FILE: &str = "scenarios/rfc4828/b2-byte-drop.toml";
pub const B3_FILE: &str = "scenarios/rfc4828/b3-droptail.toml";
pub const B4_FILE: &str = "scenarios/rfc4828/b4-red.toml";
const B1: &str = include_str!("../../../../scenarios/rfc4828/b1-packet-drop.toml");
const B2: &str = include_str!("../../../../scenarios/rfc4828/b2-byte-drop.toml");
const B3: &str = include_str!("../../../../scenarios/rfc4828/b3-droptail.toml");
const B4: &str = include_str!("../../../../scenarios/rfc4828/b4-red.toml");

/// The link whose loss B.1 and B.2 configure.
pub const LOSSY_LINK: &str = "A->B";
/// The 3 Mb/s bottleneck of B.3 and B.4, both directions (the queue line sets both).
pub const BOTTLENECK: [&str; 2] = ["R1->R2", "R2->R1"];

/// Packet drop rates of Tables 7, 8, 9, as printed.
pub const PACKET_DROP_RATES: [&str; 11] = [
    "0.001", "0.005", "0.01", "0.02", "0.04", "0.05", "0.1", "0.2", "0.3", "0.4", "0.5",
];
/// Byte drop rates of Table 10, as printed.
pub const T10_BYTE_DROP_RATES: [&str; 8] = [
    "0.00001", "0.0001", "0.001", "0.005", "0.010", "0.020", "0.040", "0.050",
];
/// Byte drop rates of Table 11, as printed.
pub const T11_BYTE_DROP_RATES: [&str; 6] = ["0.00001", "0.0001", "0.001", "0.005", "0.01", "0.05"];
/// TCP segment sizes of Tables 5 and 6 (one flow group `tcp<size>_i` each in B.2).
pub const SEGMENTS: [u32; 7] = [14, 128, 256, 512, 1460, 4000, 8000];
/// The segment sizes among which Table 10 takes the best TCP ("at most 1500 bytes", §4.5.1).
pub const T10_SEGMENTS: [u32; 5] = [14, 128, 256, 512, 1460];
/// Web sessions of Tables 12–14 (and, assumed, 17–21).
pub const SESSIONS: [u32; 8] = [10, 25, 50, 100, 200, 400, 800, 1600];
/// Web sessions of Tables 15, 16 (N = sessions / 10 flows of each kind).
pub const SESSIONS_N: [u32; 14] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500];
/// App. C rows: packet drop rates where TFRC-SP's loss intervals are short (B.1), and web
/// loads of the Table 12 set-up (B.3, drop-tail in packets).
pub const C1_PACKET_DROP_RATES: [&str; 6] = ["0.05", "0.1", "0.2", "0.3", "0.4", "0.5"];
pub const C2_SESSIONS: [u32; 3] = [100, 400, 1600];
/// Table c1's value columns (name, decimals): per TFRC-SP group of B.1 (14 B and 200 B
/// packets) its send rate, then the mean, CoV and roughness of its loss event rate p and the
/// CoV of its allowed rate X, each a mean over the group's flows (see [`c_cells`]).
pub const C1_COLUMNS: [(&str, usize); 10] = [
    ("tfrc_sp_14_send_rate_kbps", 2),
    ("tfrc_sp_14_p_mean", 4),
    ("tfrc_sp_14_p_cov", 3),
    ("tfrc_sp_14_p_roughness", 3),
    ("tfrc_sp_14_x_cov", 3),
    ("tfrc_sp_200_send_rate_kbps", 2),
    ("tfrc_sp_200_p_mean", 4),
    ("tfrc_sp_200_p_cov", 3),
    ("tfrc_sp_200_p_roughness", 3),
    ("tfrc_sp_200_x_cov", 3),
];
/// Table c2's value columns: Table 12's four, then the oscillation of the TFRC-SP flows' p
/// and X as in c1.
pub const C2_COLUMNS: [(&str, usize); 8] = [
    ("tcp_drop_rate", 3),
    ("tcp_send_rate_kbps", 2),
    ("tfrc_sp_drop_rate", 3),
    ("tfrc_sp_send_rate_kbps", 2),
    ("tfrc_sp_p_mean", 4),
    ("tfrc_sp_p_cov", 3),
    ("tfrc_sp_p_roughness", 3),
    ("tfrc_sp_x_cov", 3),
];

/// Header bytes of every TCP flow of these scenarios (`[defaults.tcp] header = "40B"`).
const TCP_HEADER: u32 = 40;
/// The long-lived TCP receive window, in segments (`rwnd = "100p"`).
const RWND_SEGMENTS: u64 = 100;

pub const NOTES: &[&str] = &[
    "Tables 1-4 are computed, not simulated (RFC 4828 §4.1), by qoslab_algo::tfrc::response: s = segment + 40 B header, KBps = 1000 B/s, R = 0.1 s, b = 1, t_RTO = 4R, byte drop rate b -> packet drop rate 1-(1-b)^(segment+40), TFRC-SP = min(100 pkt/s, X(s = 1500 B, p)). We keep the exact sqrt(2/3); the printed values are 0.061 % higher at low p (the authors' 0.816).",
    "Simulated tables: scenarios/rfc4828/b1-packet-drop.toml (Tables 7-9), b2-byte-drop.toml (5, 6, 10, 11), b3-droptail.toml (12-16), b4-red.toml (17-21); each file documents what the RFC states and every parameter it does not (our choices). A row changes exactly the lines scenarios/rfc4828/run.sh changes (marked `@...`).",
    "One B.1 run (ten flows of each kind on an uncongested path with a configured packet drop rate) gives one row of Tables 7, 8 and 9; one B.2 run (ten TCP flows per segment size, ten TFRC-SP and ten standard TFRC flows) gives one row of Tables 10 and 11, and at b = 0.0001 / 0.001 all of Table 5 / 6. The RFC ran separate simulations; without congestion the flows do not interact.",
    "TCP send rate = payload bytes incl. retransmissions, headers excluded (deduced from Table 5: 14 B segments send 6.37 Kb/s for 6.34 Kb/s of goodput, impossible with 40 B headers counted); TFRC send rate = every byte on the wire incl. the header (App. B.1: \"the sending rate for the 14-byte data packet with the 32-byte packet header\"). We use the payload convention for every TCP column, here, in data/rfc4828/table7.csv and in crates/qoslab-sim/tests/tcp_validation.rs (2.7 % below the with-header rate at 1460 B); App. B.1's remark that 97 % of TCP's sending rate is data describes the packets on the wire, not the column. 1 Kb/s = 1000 bit/s.",
    "Send rates and goodputs are means over a group's flows (\"averaged over ten flows\"); Tables 5, 6 say \"Median\" in their captions and \"averaged\" in the text: the published column is compared with the median over the ten flows, the mean is shown beside it (tcp_send_rate_mean_kbps, ours alone). Drop rates are pooled over a group's flows (all data packets dropped / all data packets sent), B.3's \"average drop rate\" of the five flows read that way.",
    "Table 10's TCP columns: per run, the segment size among 14, 128, 256, 512, 1460 B with the largest mean TCP send rate (the first of equal ones) and that rate; tcp_segment_bytes is its mean over seeds. The ECN TCP columns likewise over the ECN TCP groups.",
    "Table 11 is computed in the RFC from 1-(1-b)^N for 1500 B and 56 B packets; ours are the measured drop rates of the 1500 B TCP packets (1460 B segments) and of the 46 B TFRC-SP packets (14 B + the 32 B header of App. B.1); the ratio is taken per run.",
    "ECN TCP columns (Tables 7-10): ten more SACK TCP flows with RFC 3168 ECN and RFC 7323 timestamps (groups ecntcp in B.1, ecntcp<size> in B.2), same settings otherwise; the configured loss marks their ECT data packets CE instead of dropping them (`ecn = true` in the loss table) and still drops every Not-ECT packet (ACKs are not on the lossy link; retransmissions are Not-ECT, RFC 3168 §6.1.5). The ECN response is the RFC's (ssthresh = max(FlightSize/2, 2 MSS), cwnd = min(cwnd, max(FlightSize/2, 1 MSS)), once per window; at one MSS the timer is reset and the next segment waits for it, without backoff), not ns-2's, which halves the exact (fractional) window, holds below one packet until the retransmission timer and backs that timer off on every further ECE at one packet (TcpParams::ns2_compat has it): at mark rates near 1 our ECN TCP sends one segment per un-backed-off RTO (about 24 Kb/s at 1460 B: Table 10 from b = 0.005 on, the asterisked rows of Tables 7-9 high) where ns-2's backs off. Tables 7-10 therefore carry a second ECN column, ecn_tcp_ns2_send_rate_kbps: ten more ECN TCP flows (group ecnns2tcp in B.1, one per segment size in B.2, ecnns2tcp<size>) with TcpParams::ns2_compat (ns-2's ECN halving and its tick-based RTO), compared with the same published ECN column. Table 10: ECN TCP at its own best segment size among 14..1460 B (ecn_tcp_segment_bytes, ours alone; the RFC prints one size per row). Table 7's ECN values: data/rfc4828/table7_ecn.csv. Rows the RFC asterisks as unrealistic for ECN (marking at 20 % or more: p >= 0.2 in Tables 7-9, b >= 0.04 in Table 10, column ecn_unrealistic of the CSV files) are reproduced like the others.",
    "TFRC columns with ns-2's TFRC (Tables 7-10): the TFRC-SP and standard TFRC flows of B.1 and B.2 once more with TfrcSpec::ns2_compat (groups <name>ns2: a gap declared lost at the first later packet, losses in one feedback round as one loss event, ns-2's tick-based t_RTO and capped timeout term, a receive-rate limit from the latest report alone with a one-packet-per-RTT floor, a report of one packet per second after a silent 1.5 RTT, a rate increase of at most two packets per RTT per feedback, its nofeedback timer (2R, halving the rate, a packet at once), a send timer set when a packet leaves, its report timing and receive-rate estimate, its TFRC-SP interval counting and short-interval flags, its history discounting, its slow start (300 B/s before the first report, a packet at every slow-start report, a per-packet ramp to each new rate), its RTT filter weight 0.95 and TFRC-SP's 32-byte header allowance; qoslab_algo::tfrc::ns2; the application still offers its packets at its rate, without ns-2's unbounded send buffer, TfrcSpec::app_backlog), beside the RFC 5348 / RFC 4828 columns and compared with the same published values: at drop rates of 0.2 and more our standard TFRC follows the throughput equation and sends 3-10x less than the RFC's ns-2 runs, and these columns show how much of that is ns-2's TFRC.",
    "Tables 17-21: published values withheld from the seed copy (ours alone); their rows are assumed to be the web-session counts of Tables 12-14.",
    "App. C prints no numbers (\"our simulations so far have not shown a great difference in oscillations in the estimate loss event rate between the default mechanism ... and the gradual mechanism\"). Tables c1 (B.1, packet drop rates 0.05-0.5) and c2 (B.3, drop-tail in packets, Table 12 set-up) run TFRC-SP with the step rule of §3 and with the gradual rule (all losses counted at 1 RTT, 2/3 at 2 RTTs, 1/3 at 3, one loss from 4 RTTs on). Besides the send (and c2: drop) rates they measure the oscillation directly: after every feedback packet received in the measurement window, the loss event rate p and allowed rate X the TFRC-SP sender holds are sampled; per flow, p_mean = mean of p, p_cov = std/mean of p over those samples (population std), p_roughness = mean of |ln(p_k/p_(k-1))| over consecutive samples with both p > 0 (the typical relative jump of p from one feedback, about one RTT, to the next: the oscillation itself, where the CoV measures the spread), x_cov = std/mean of X; each cell is the mean over the group's flows (flows without samples left out), then over seeds. summary.json has, per TFRC flow, also the time-weighted mean, std and CoV of p; `[output] tfrc_series = true` writes every sample (tfrc_series.csv). X changes made by the nofeedback timer are not sampled.",
    "--quick: 60 s runs with statistics over [30 s, 60 s), 2 seeds. Web sessions start uniformly over [0, 100 s) whatever the run length (the window is set when the scenario is parsed), so the session arrival rate, and the load once sessions overlap, is that of the full 100 s runs.",
];

/// The bottleneck queue of a B.3/B.4 row (the line marked `@queue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bottleneck {
    /// b3-droptail.toml as written: drop-tail, 100 packets (Table 12).
    DropTailPackets,
    /// Drop-tail, 50 000 bytes (Tables 13-16).
    DropTailBytes,
    /// b4-red.toml as written: RED in packet mode, queue in packets (Table 17).
    RedPackets,
    /// RED in byte mode, queue in bytes (Tables 18, 19).
    RedBytes,
    /// Adaptive RED in byte mode, queue in bytes (Tables 20, 21).
    AdaptiveRedBytes,
}

impl Bottleneck {
    fn name(self) -> &'static str {
        match self {
            Bottleneck::DropTailPackets => "droptail-100p",
            Bottleneck::DropTailBytes => "droptail-50000B",
            Bottleneck::RedPackets => "red-packet-mode",
            Bottleneck::RedBytes => "red-byte-mode",
            Bottleneck::AdaptiveRedBytes => "adaptive-red-byte-mode",
        }
    }

    /// The queue `run.sh` writes, or None to keep the base file's line.
    fn queue(self) -> Option<QueueSpec> {
        // run.sh `red_bytes` / `ared_bytes`: limit 50 000 B, thresholds 2500 / 7500 B
        // (5 and 15 packets of the 500 B mean packet size), max_p 0.1, w_q 0.002, byte mode.
        let red = |gentle, adaptive| QueueSpec::Red {
            limit: Limit::Bytes(50_000),
            red: RedSpec {
                min_th: 2500.0,
                max_th: 7500.0,
                max_p: 0.1,
                w_q: 0.002,
                gentle,
                // ns-2's `wait_` default, as the base file's line
                wait: true,
                byte_mode: true,
                queue_unit: QueueUnit::Bytes,
                mean_pkt_size: 500,
                ecn: false,
                adaptive,
                ns2_use_mark_p: false,
                ns2_gentle_initial_max_p: false,
            },
        };
        match self {
            Bottleneck::DropTailPackets | Bottleneck::RedPackets => None,
            // run.sh `drop_tail_bytes`: "50,000 bytes (computed in NS as a hundred packets
            // times the mean packet size of 500 bytes)" (App. B.3)
            Bottleneck::DropTailBytes => Some(QueueSpec::DropTail {
                limit: Limit::Bytes(50_000),
            }),
            // standard RED is not gentle ("a fixed dropping threshold", App. B.4)
            Bottleneck::RedBytes => Some(red(false, false)),
            // Adaptive RED is gentle (Floyd, Gummadi & Shenker 2001 §5)
            Bottleneck::AdaptiveRedBytes => Some(red(true, true)),
        }
    }

    fn is_red(self) -> bool {
        !matches!(
            self,
            Bottleneck::DropTailPackets | Bottleneck::DropTailBytes
        )
    }
}

/// One row of a B.3/B.4 table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebRow {
    pub bottleneck: Bottleneck,
    /// Forward web sessions (`@sessions`); the reverse pool has half (at least 1).
    pub sessions: u32,
    /// Long-lived TCP segment size (`@mss`): 1460, or 512 (Tables 14, 19, 21).
    pub tcp_mss: u32,
    /// Long-lived TCP and TFRC flows of each kind (`@n`): 5, or sessions / 10 (15, 16).
    pub n: u32,
    /// TFRC-SP (`@variant` "sp") or standard TFRC (Table 16).
    pub small_packet: bool,
    /// App. C's gradual short-interval rule on the TFRC-SP flows.
    pub gradual: bool,
}

impl WebRow {
    /// Tables 12-21 (`run.sh TABLE SESSIONS`).
    pub fn of_table(table: u32, sessions: u32) -> Option<WebRow> {
        let bottleneck = match table {
            12 => Bottleneck::DropTailPackets,
            13..=16 => Bottleneck::DropTailBytes,
            17 => Bottleneck::RedPackets,
            18 | 19 => Bottleneck::RedBytes,
            20 | 21 => Bottleneck::AdaptiveRedBytes,
            _ => return None,
        };
        Some(WebRow {
            bottleneck,
            sessions,
            tcp_mss: if matches!(table, 14 | 19 | 21) {
                512
            } else {
                1460
            },
            // "N TCP flows, N TFRC-SP flows, and 10*N web sessions"
            n: if matches!(table, 15 | 16) {
                sessions / 10
            } else {
                5
            },
            small_packet: table != 16,
            gradual: false,
        })
    }

    fn key(&self) -> String {
        format!(
            "B.3/B.4 {} sessions={} tcp_mss={} n={} {}{}",
            self.bottleneck.name(),
            self.sessions,
            self.tcp_mss,
            self.n,
            if self.small_packet { "sp" } else { "standard" },
            if self.gradual { " gradual" } else { "" }
        )
    }
}

fn parse(text: &str, file: &str) -> Result<Scenario, String> {
    qoslab_sim::scenario::parse_str(text, file).map_err(|e| e.to_string())
}

fn replicate(key: String, mut sc: Scenario) -> Variant {
    sc.name = format!("{NAME} {key}");
    Variant {
        key,
        scenario: sc,
        seeds: SeedPolicy::Replicate,
    }
}

/// Sets the configured loss of [`LOSSY_LINK`] (the line marked `@loss`), which the base file
/// must configure with the same kind.
fn set_loss(sc: &mut Scenario, file: &str, loss: LossSpec) -> Result<(), String> {
    let l = sc
        .links
        .iter_mut()
        .find(|l| l.name == LOSSY_LINK)
        .ok_or_else(|| format!("{file}: no link {LOSSY_LINK}"))?;
    let same_kind = matches!(
        (&l.loss, &loss),
        (Some(LossSpec::Packet { .. }), LossSpec::Packet { .. })
            | (Some(LossSpec::Byte { .. }), LossSpec::Byte { .. })
    );
    if !same_kind {
        return Err(format!(
            "{file}: {LOSSY_LINK} has no loss of the kind the row sets (the `@loss` line)"
        ));
    }
    l.loss = Some(loss);
    Ok(())
}

/// Every TFRC-SP flow with App. C's gradual rule.
fn set_gradual(sc: &mut Scenario) {
    for f in &mut sc.flows {
        if let FlowKind::Tfrc(t) = &mut f.kind {
            if t.small_packet {
                t.gradual = true;
            }
        }
    }
}

/// App. B.1 at packet drop rate `p` (`run.sh 8 p`).
pub fn b1(p: f64, gradual: bool) -> Result<Variant, String> {
    let mut sc = parse(B1, B1_FILE)?;
    // "we configure the router to randomly drop or mark packets at a specified rate,
    // independently of the packet size" (App. B.1)
    set_loss(&mut sc, B1_FILE, LossSpec::Packet { p })?;
    if gradual {
        set_gradual(&mut sc);
    }
    let key = format!(
        "B.1 packet drop {p}{}",
        if gradual { " gradual" } else { "" }
    );
    Ok(replicate(key, sc))
}

/// App. B.2 / §4.5.1 at byte drop rate `b` (`run.sh 10 b`).
pub fn b2(b: f64) -> Result<Variant, String> {
    let mut sc = parse(B2, B2_FILE)?;
    // "for each *byte*, the packet containing that byte is dropped with probability p"
    // (§4.5.1)
    set_loss(&mut sc, B2_FILE, LossSpec::Byte { b })?;
    Ok(replicate(format!("B.2 byte drop {b}"), sc))
}

/// The B.3 or B.4 base text with `@n` = `n` applied (`run.sh`: every `count = 5  # @n`
/// line, six of them: two node patterns, two link patterns, two flow patterns).
fn web_text(row: &WebRow) -> Result<(String, &'static str), String> {
    let (text, file) = if row.bottleneck.is_red() {
        (B4, B4_FILE)
    } else {
        (B3, B3_FILE)
    };
    const MARK: &str = "count = 5  # @n";
    let lines = text.lines().filter(|l| *l == MARK).count();
    if lines != 6 {
        return Err(format!("{file}: {lines} `{MARK}` lines, expected 6"));
    }
    if row.n == 5 {
        return Ok((text.to_string(), file));
    }
    if row.n == 0 {
        return Err(format!("{} sessions: no long-lived flows", row.sessions));
    }
    let mut out = String::with_capacity(text.len());
    for l in text.split_inclusive('\n') {
        if l.trim_end_matches('\n') == MARK {
            out.push_str(&format!("count = {}  # @n\n", row.n));
        } else {
            out.push_str(l);
        }
    }
    Ok((out, file))
}

/// A B.3/B.4 row (`run.sh TABLE SESSIONS`).
pub fn web(row: &WebRow) -> Result<Variant, String> {
    let (text, file) = web_text(row)?;
    let mut sc = parse(&text, file)?;
    // `@sessions` / `@revsessions`: "The number of web sessions is varied to create different
    // levels of congestion"; the reverse pool has half as many (our choice, at least one).
    for (name, sessions) in [("web", row.sessions), ("webrev", (row.sessions / 2).max(1))] {
        let w = sc
            .webs
            .iter_mut()
            .find(|w| w.name == name)
            .ok_or_else(|| format!("{file}: no web pool `{name}`"))?;
        let s = WebTrafficSettings {
            sessions,
            ..*w.params.settings()
        };
        w.params = WebTrafficParams::new(s).map_err(|e| format!("{file} {name}: {e}"))?;
    }
    // `@queue`
    if let Some(q) = row.bottleneck.queue() {
        for name in BOTTLENECK {
            let l = sc
                .links
                .iter_mut()
                .find(|l| l.name == name)
                .ok_or_else(|| format!("{file}: no link {name}"))?;
            l.queue = q.clone();
        }
    }
    // `@mss` and `@variant`, on the long-lived flows ("tcp{i}", "tfrc{i}").
    let tcp = FlowSel::Group("tcp".into());
    let tfrc = FlowSel::Group("tfrc".into());
    let (mut n_tcp, mut n_tfrc) = (0, 0);
    for f in &mut sc.flows {
        match &mut f.kind {
            FlowKind::Tcp(t) if tcp.matches(&f.name) => {
                n_tcp += 1;
                if t.mss != 1460 || t.rwnd != RWND_SEGMENTS * 1460 || t.header != TCP_HEADER {
                    return Err(format!(
                        "{file}: flow {} is not the 1460 B TCP of `@mss`",
                        f.name
                    ));
                }
                // "the long-lived TCP flows use 512-byte segments" (Tables 14, 19, 21); the
                // window stays 100 segments (`rwnd = "100p"` of the new size).
                t.mss = row.tcp_mss;
                t.rwnd = RWND_SEGMENTS * u64::from(row.tcp_mss);
            }
            FlowKind::Tfrc(t) if tfrc.matches(&f.name) => {
                n_tfrc += 1;
                // Table 16: "using TFRC instead of TFRC-SP ... is the only difference"
                t.small_packet = row.small_packet;
                t.gradual = row.gradual && row.small_packet;
            }
            _ => {}
        }
    }
    if (n_tcp, n_tfrc) != (row.n, row.n) {
        return Err(format!(
            "{file}: {n_tcp} TCP and {n_tfrc} TFRC long-lived flows, expected {} each",
            row.n
        ));
    }
    Ok(replicate(row.key(), sc))
}

// ---- published values -----------------------------------------------------------------

const T14: &str = include_str!("../../../../data/rfc4828/tables_1_4.csv");
const T5: &str = include_str!("../../../../data/rfc4828/table5.csv");
const T6: &str = include_str!("../../../../data/rfc4828/table6.csv");
const T7: &str = include_str!("../../../../data/rfc4828/table7.csv");
const T7_TFRC: &str = include_str!("../../../../data/rfc4828/table7_tfrc.csv");
const T7_ECN: &str = include_str!("../../../../data/rfc4828/table7_ecn.csv");
const T8: &str = include_str!("../../../../data/rfc4828/table8.csv");
const T9: &str = include_str!("../../../../data/rfc4828/table9.csv");
const T10: &str = include_str!("../../../../data/rfc4828/table10.csv");
const T11: &str = include_str!("../../../../data/rfc4828/table11.csv");
const T12: &str = include_str!("../../../../data/rfc4828/table12.csv");
const T13: &str = include_str!("../../../../data/rfc4828/table13.csv");
const T14_DT: &str = include_str!("../../../../data/rfc4828/table14.csv");
const T15: &str = include_str!("../../../../data/rfc4828/table15.csv");
const T16: &str = include_str!("../../../../data/rfc4828/table16.csv");
const T17: &str = include_str!("../../../../data/rfc4828/table17.csv");
const T18: &str = include_str!("../../../../data/rfc4828/table18.csv");
const T19: &str = include_str!("../../../../data/rfc4828/table19.csv");
const T20: &str = include_str!("../../../../data/rfc4828/table20.csv");
const T21: &str = include_str!("../../../../data/rfc4828/table21.csv");

/// The `published` name of each table: a file (or files) under `data/rfc4828/`, with the
/// table when a file holds several.
const PUBLISHED: &[(&str, &str)] = &[
    ("1", "rfc4828/tables_1_4.csv (Table 1)"),
    ("2", "rfc4828/tables_1_4.csv (Table 2)"),
    ("3", "rfc4828/tables_1_4.csv (Table 3)"),
    ("4", "rfc4828/tables_1_4.csv (Table 4)"),
    ("5", "rfc4828/table5.csv"),
    ("6", "rfc4828/table6.csv"),
    ("7", "rfc4828/table7.csv + table7_tfrc.csv"),
    ("8", "rfc4828/table8.csv"),
    ("9", "rfc4828/table9.csv"),
    ("10", "rfc4828/table10.csv"),
    ("11", "rfc4828/table11.csv"),
    ("12", "rfc4828/table12.csv"),
    ("13", "rfc4828/table13.csv"),
    ("14", "rfc4828/table14.csv"),
    ("15", "rfc4828/table15.csv"),
    ("16", "rfc4828/table16.csv"),
    ("17", "rfc4828/table17.csv"),
    ("18", "rfc4828/table18.csv"),
    ("19", "rfc4828/table19.csv"),
    ("20", "rfc4828/table20.csv"),
    ("21", "rfc4828/table21.csv"),
    ("c1", "rfc4828/ (none: App. C prints no numbers; c1)"),
    ("c2", "rfc4828/ (none: App. C prints no numbers; c2)"),
];

fn published_name(id: &str) -> &'static str {
    PUBLISHED
        .iter()
        .find(|p| p.0 == id)
        .map(|p| p.1)
        .expect("every table has a published name")
}

/// A CSV file of `data/rfc4828/`: `#` notes, a header, rows (no quotes, no commas in fields).
struct Csv {
    notes: Vec<String>,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn parse(file: &str, text: &str) -> Result<Csv, String> {
        let mut notes = Vec::new();
        let mut header: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for (ln, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if let Some(n) = line.strip_prefix('#') {
                notes.push(n.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let f: Vec<String> = line.split(',').map(|s| s.trim().to_string()).collect();
            match &header {
                None => header = Some(f),
                Some(h) if h.len() != f.len() => {
                    return Err(format!(
                        "{file}:{}: {} fields, the header has {}",
                        ln + 1,
                        f.len(),
                        h.len()
                    ))
                }
                Some(_) => rows.push(f),
            }
        }
        let header = header.ok_or_else(|| format!("{file}: no header line"))?;
        Ok(Csv {
            notes,
            header,
            rows,
        })
    }

    fn col(&self, file: &str, name: &str) -> Result<usize, String> {
        self.header
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("{file}: no column `{name}`"))
    }
}

/// The rows of one table as [`Published`]: `columns` maps (our column, file column); a
/// file column `None` is one the RFC does not print (empty: ours alone). Rows are merged
/// by key over several files; a `note` column becomes notes.
fn remap(
    path: &str,
    table: &str,
    key: (&str, &str),
    files: &[(&str, &str)],
    columns: &[(&str, Option<&str>)],
) -> Result<Published, String> {
    let mut notes = vec![format!(
        "Source: RFC 4828 Table {table} (data/{})",
        path.trim_start_matches("rfc4828/")
    )];
    let mut out: Vec<PublishedRow> = Vec::new();
    for (file, text) in files {
        let csv = Csv::parse(file, text)?;
        notes.extend(csv.notes.iter().cloned());
        let k = csv.col(file, key.1)?;
        if let Ok(n) = csv.col(file, "note") {
            for r in &csv.rows {
                if !r[n].is_empty() && !notes.contains(&r[n]) {
                    notes.push(r[n].clone());
                }
            }
        }
        for r in &csv.rows {
            let i = match out.iter().position(|o| o.fields[0] == r[k]) {
                Some(i) => i,
                None => {
                    out.push(PublishedRow {
                        document: "RFC 4828".into(),
                        table: table.into(),
                        row: out.len() as u32 + 1,
                        fields: std::iter::once(r[k].clone())
                            .chain(columns.iter().map(|_| String::new()))
                            .collect(),
                    });
                    out.len() - 1
                }
            };
            for (ci, (_, fc)) in columns.iter().enumerate() {
                if let Some(c) = fc.and_then(|fc| csv.col(file, fc).ok()) {
                    out[i].fields[ci + 1] = r[c].clone();
                }
            }
        }
    }
    Ok(Published {
        file: path.to_string(),
        notes,
        columns: std::iter::once(key.0)
            .chain(columns.iter().map(|c| c.0))
            .map(String::from)
            .collect(),
        rows: out,
    })
}

/// Tables 1-4 of `tables_1_4.csv`, one row per drop rate, one column per segment size.
fn response_published(path: &str, table: &str) -> Result<Published, String> {
    let file = "rfc4828/tables_1_4.csv";
    let csv = Csv::parse(file, T14)?;
    let (t, d, s, v) = (
        csv.col(file, "table")?,
        csv.col(file, "drop_rate")?,
        csv.col(file, "segment_bytes")?,
        csv.col(file, "kbytes_per_sec")?,
    );
    let mut rows: Vec<PublishedRow> = Vec::new();
    for r in csv.rows.iter().filter(|r| r[t] == table) {
        let ci = match r[s].as_str() {
            "14" => 1,
            "536" => 2,
            "1460" => 3,
            other => return Err(format!("{file}: segment size {other}")),
        };
        let i = match rows.iter().position(|o| o.fields[0] == r[d]) {
            Some(i) => i,
            None => {
                rows.push(PublishedRow {
                    document: "RFC 4828".into(),
                    table: table.into(),
                    row: rows.len() as u32 + 1,
                    fields: vec![r[d].clone(), String::new(), String::new(), String::new()],
                });
                rows.len() - 1
            }
        };
        rows[i].fields[ci] = r[v].clone();
    }
    Ok(Published {
        file: path.to_string(),
        notes: vec![format!(
            "Source: RFC 4828 Table {table} (data/rfc4828/tables_1_4.csv)"
        )],
        columns: ["drop_rate", "seg_14", "seg_536", "seg_1460"]
            .map(String::from)
            .to_vec(),
        rows,
    })
}

/// The published values of a table of this experiment, by its `published` name; None for a
/// name that is not this experiment's.
pub fn published(path: &str) -> Option<Result<Published, String>> {
    let id = PUBLISHED.iter().find(|p| p.1 == path)?.0;
    let files = |f: &'static str, t: &'static str| vec![(f, t)];
    let web_cols = |small: &'static str| -> Vec<(&'static str, Option<&'static str>)> {
        let (d, s) = match small {
            "tfrc" => ("tfrc_drop_rate", "tfrc_send_rate_kbps"),
            _ => ("tfrc_sp_drop_rate", "tfrc_sp_send_rate_kbps"),
        };
        vec![
            ("tcp_drop_rate", Some("tcp_drop_rate")),
            ("tcp_send_rate_kbps", Some("tcp_send_rate_kbps")),
            (d, Some(d)),
            (s, Some(s)),
        ]
    };
    let r = match id {
        "1" | "2" | "3" | "4" => response_published(path, id),
        "5" | "6" => remap(
            path,
            id,
            ("segment_bytes", "segment_bytes"),
            &files(
                if id == "5" {
                    "rfc4828/table5.csv"
                } else {
                    "rfc4828/table6.csv"
                },
                if id == "5" { T5 } else { T6 },
            ),
            &[
                ("packet_drop_rate", Some("packet_drop_rate")),
                ("tcp_send_rate_kbps", Some("tcp_send_rate_kbps")),
                ("tcp_send_rate_mean_kbps", None),
                ("tcp_goodput_kbps", Some("tcp_goodput_kbps")),
            ],
        ),
        // table7.csv keys its rows by `drop_rate`, table7_tfrc.csv by `packet_drop_rate`:
        // both files are read below with their own key column.
        "7" => {
            let cols = |tcp, ecn, tfrc| {
                [
                    ("tcp_send_rate_kbps", tcp),
                    ("ecn_tcp_send_rate_kbps", ecn),
                    ("ecn_tcp_ns2_send_rate_kbps", ecn),
                    ("tfrc_send_rate_kbps", tfrc),
                    ("tfrc_ns2_send_rate_kbps", tfrc),
                ]
            };
            let tcp = remap(
                path,
                id,
                ("packet_drop_rate", "drop_rate"),
                &files("rfc4828/table7.csv", T7),
                &cols(Some("tcp_send_kbps"), None, None),
            );
            let tfrc = remap(
                path,
                id,
                ("packet_drop_rate", "packet_drop_rate"),
                &files("rfc4828/table7_tfrc.csv", T7_TFRC),
                &cols(None, None, Some("tfrc_send_rate_kbps")),
            );
            let ecn = remap(
                path,
                id,
                ("packet_drop_rate", "packet_drop_rate"),
                &files("rfc4828/table7_ecn.csv", T7_ECN),
                &cols(None, Some("ecn_tcp_send_rate_kbps"), None),
            );
            tcp.and_then(|mut p| {
                for (other, col, what) in [
                    (ecn?, &[2, 3][..], "table7_ecn.csv"),
                    (tfrc?, &[4, 5][..], "table7_tfrc.csv"),
                ] {
                    for r in &mut p.rows {
                        let o = other
                            .rows
                            .iter()
                            .find(|o| o.fields[0] == r.fields[0])
                            .ok_or_else(|| format!("{what}: no row {}", r.fields[0]))?;
                        for &c in col {
                            r.fields[c] = o.fields[c].clone();
                        }
                    }
                    p.notes.extend(other.notes.into_iter().skip(1));
                }
                Ok(p)
            })
        }
        "8" | "9" => remap(
            path,
            id,
            ("packet_drop_rate", "packet_drop_rate"),
            &files(
                if id == "8" {
                    "rfc4828/table8.csv"
                } else {
                    "rfc4828/table9.csv"
                },
                if id == "8" { T8 } else { T9 },
            ),
            &[
                ("tcp_send_rate_kbps", Some("tcp_send_rate_kbps")),
                ("ecn_tcp_send_rate_kbps", Some("ecn_tcp_send_rate_kbps")),
                ("ecn_tcp_ns2_send_rate_kbps", Some("ecn_tcp_send_rate_kbps")),
                ("tfrc_sp_send_rate_kbps", Some("tfrc_sp_send_rate_kbps")),
                ("std_tfrc_send_rate_kbps", Some("std_tfrc_send_rate_kbps")),
                ("tfrc_sp_ns2_send_rate_kbps", Some("tfrc_sp_send_rate_kbps")),
                (
                    "std_tfrc_ns2_send_rate_kbps",
                    Some("std_tfrc_send_rate_kbps"),
                ),
            ],
        ),
        "10" => remap(
            path,
            id,
            ("byte_drop_rate", "byte_drop_rate"),
            &files("rfc4828/table10.csv", T10),
            &[
                ("tcp_segment_bytes", Some("tcp_segment_bytes")),
                ("tcp_send_rate_kbps", Some("tcp_send_rate_kbps")),
                ("ecn_tcp_segment_bytes", None),
                ("ecn_tcp_send_rate_kbps", Some("ecn_tcp_send_rate_kbps")),
                ("ecn_tcp_ns2_segment_bytes", None),
                ("ecn_tcp_ns2_send_rate_kbps", Some("ecn_tcp_send_rate_kbps")),
                ("tfrc_sp_send_rate_kbps", Some("tfrc_sp_send_rate_kbps")),
                ("std_tfrc_send_rate_kbps", Some("std_tfrc_send_rate_kbps")),
                ("tfrc_sp_ns2_send_rate_kbps", Some("tfrc_sp_send_rate_kbps")),
                (
                    "std_tfrc_ns2_send_rate_kbps",
                    Some("std_tfrc_send_rate_kbps"),
                ),
            ],
        ),
        "11" => remap(
            path,
            id,
            ("byte_drop_rate", "byte_drop_rate"),
            &files("rfc4828/table11.csv", T11),
            &[
                ("tcp_packet_drop_rate", Some("tcp_packet_drop_rate")),
                ("tfrc_packet_drop_rate", Some("tfrc_packet_drop_rate")),
                (
                    "tcp_tfrc_packet_drop_ratio",
                    Some("tcp_tfrc_packet_drop_ratio"),
                ),
            ],
        ),
        "12" | "13" | "14" | "15" | "16" | "17" | "18" | "19" | "20" | "21" => {
            let (file, text) = match id {
                "12" => ("rfc4828/table12.csv", T12),
                "13" => ("rfc4828/table13.csv", T13),
                "14" => ("rfc4828/table14.csv", T14_DT),
                "15" => ("rfc4828/table15.csv", T15),
                "16" => ("rfc4828/table16.csv", T16),
                "17" => ("rfc4828/table17.csv", T17),
                "18" => ("rfc4828/table18.csv", T18),
                "19" => ("rfc4828/table19.csv", T19),
                "20" => ("rfc4828/table20.csv", T20),
                _ => ("rfc4828/table21.csv", T21),
            };
            remap(
                path,
                id,
                ("web_sessions", "web_sessions"),
                &files(file, text),
                &web_cols(if id == "16" { "tfrc" } else { "tfrc_sp" }),
            )
        }
        // App. C: the tables' columns, no published rows.
        _ => {
            let keys = if id == "c1" {
                ["packet_drop_rate", "short_intervals"]
            } else {
                ["web_sessions", "short_intervals"]
            };
            let values: Vec<&str> = if id == "c1" {
                C1_COLUMNS.iter().map(|c| c.0).collect()
            } else {
                C2_COLUMNS.iter().map(|c| c.0).collect()
            };
            Ok(Published {
                file: path.to_string(),
                notes: vec!["Source: RFC 4828 App. C (it prints no numbers)".to_string()],
                columns: keys.into_iter().chain(values).map(String::from).collect(),
                rows: Vec::new(),
            })
        }
    };
    Some(r)
}

// ---- tables ---------------------------------------------------------------------------

fn col(name: &'static str, decimals: usize) -> Column {
    Column { name, decimals }
}

fn group(name: &str) -> FlowSel {
    FlowSel::Group(name.to_string())
}

/// Mean over a group's flows of `stat`.
fn mean(g: &str, stat: FlowStat) -> Metric {
    Metric::FlowMean(group(g), stat)
}

fn pooled_drop(g: &str) -> Metric {
    Metric::PooledDropRate(group(g))
}

fn num(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .map_err(|_| format!("row key `{s}` is not a number"))
}

fn response_table(id: &'static str, t: ResponseTable) -> Table {
    let what = match t {
        ResponseTable::TcpPacketDrop => "TCP and standard TFRC vs packet drop rate",
        ResponseTable::SpPacketDrop => "TFRC-SP vs packet drop rate",
        ResponseTable::TcpByteDrop => "TCP and standard TFRC vs byte drop rate",
        ResponseTable::SpByteDrop => "TFRC-SP vs byte drop rate",
    };
    // Keys as printed: five decimals for packet drop rates, seven for byte drop rates.
    let decimals = match t {
        ResponseTable::TcpPacketDrop | ResponseTable::SpPacketDrop => 5,
        ResponseTable::TcpByteDrop | ResponseTable::SpByteDrop => 7,
    };
    let rows = t
        .drop_rates()
        .iter()
        .map(|&p| Row {
            keys: vec![format!("{p:.decimals$}")],
            variant: NO_VARIANT,
            cells: [14, 536, 1460]
                .iter()
                .map(|&seg| Metric::Computed(t.rate_kbps(seg, p)))
                .collect(),
        })
        .collect();
    Table {
        id,
        title: format!(
            "Sending rate (KBps) of 14, 536, 1460 B segments, R = 100 ms: {what} (computed)"
        ),
        source: format!("RFC 4828 §4.1, Table {id}"),
        keys: vec!["drop_rate"],
        columns: vec![col("seg_14", 2), col("seg_536", 2), col("seg_1460", 2)],
        rows,
        published: Some(published_name(id)),
    }
}

fn tables_5_6(e: &mut Experiment, id: &'static str, b: f64) -> Result<Table, String> {
    let v = e.variant(b2(b)?);
    let rows = SEGMENTS
        .iter()
        .map(|s| {
            let g = format!("tcp{s}");
            Row {
                keys: vec![s.to_string()],
                variant: v,
                cells: vec![
                    pooled_drop(&g),
                    Metric::FlowMedian(group(&g), FlowStat::SendPayload),
                    mean(&g, FlowStat::SendPayload),
                    mean(&g, FlowStat::Goodput),
                ],
            }
        })
        .collect();
    Ok(Table {
        id,
        title: format!("TCP send rate (Kb/s) vs packet size, byte drop rate {b}"),
        source: format!("RFC 4828 §4.5.1, Table {id}"),
        keys: vec!["segment_bytes"],
        columns: vec![
            col("packet_drop_rate", 3),
            col("tcp_send_rate_kbps", 2),
            col("tcp_send_rate_mean_kbps", 2),
            col("tcp_goodput_kbps", 2),
        ],
        rows,
        published: Some(published_name(id)),
    })
}

fn packet_drop_table(e: &mut Experiment, id: &'static str) -> Result<Table, String> {
    let mut rows = Vec::new();
    for p in PACKET_DROP_RATES {
        let v = e.variant(b1(num(p)?, false)?);
        // TCP: the ten 1460 B SACK flows "tcp{i}"; ECN TCP: the ten "ecntcp{i}" (ECN and
        // timestamps); TFRC: App. B.1's flows of the table.
        let tcp = mean("tcp", FlowStat::SendPayload);
        let ecn = mean("ecntcp", FlowStat::SendPayload);
        let ecn_ns2 = mean("ecnns2tcp", FlowStat::SendPayload);
        let cells = match id {
            "7" => vec![
                tcp,
                ecn,
                ecn_ns2,
                mean("std1460", FlowStat::SendRate),
                mean("std1460ns2", FlowStat::SendRate),
            ],
            "8" => vec![
                tcp,
                ecn,
                ecn_ns2,
                mean("sp14", FlowStat::SendRate),
                mean("std14", FlowStat::SendRate),
                mean("sp14ns2", FlowStat::SendRate),
                mean("std14ns2", FlowStat::SendRate),
            ],
            _ => vec![
                tcp,
                ecn,
                ecn_ns2,
                mean("sp200", FlowStat::SendRate),
                mean("std200", FlowStat::SendRate),
                mean("sp200ns2", FlowStat::SendRate),
                mean("std200ns2", FlowStat::SendRate),
            ],
        };
        rows.push(Row {
            keys: vec![p.to_string()],
            variant: v,
            cells,
        });
    }
    let (title, columns) = match id {
        "7" => (
            "Send rate (Kb/s) vs packet drop rate: TCP, ECN TCP and standard TFRC, 1460 B segments",
            vec![
                col("tcp_send_rate_kbps", 2),
                col("ecn_tcp_send_rate_kbps", 2),
                col("ecn_tcp_ns2_send_rate_kbps", 2),
                col("tfrc_send_rate_kbps", 2),
                col("tfrc_ns2_send_rate_kbps", 2),
            ],
        ),
        "8" => (
            "Send rate (Kb/s) vs packet drop rate: TCP and ECN TCP 1460 B, TFRC-SP and standard TFRC 14 B",
            vec![
                col("tcp_send_rate_kbps", 2),
                col("ecn_tcp_send_rate_kbps", 2),
                col("ecn_tcp_ns2_send_rate_kbps", 2),
                col("tfrc_sp_send_rate_kbps", 2),
                col("std_tfrc_send_rate_kbps", 2),
                col("tfrc_sp_ns2_send_rate_kbps", 2),
                col("std_tfrc_ns2_send_rate_kbps", 2),
            ],
        ),
        _ => (
            "Send rate (Kb/s) vs packet drop rate: TCP and ECN TCP 1460 B, TFRC-SP and standard TFRC 200 B",
            vec![
                col("tcp_send_rate_kbps", 2),
                col("ecn_tcp_send_rate_kbps", 2),
                col("ecn_tcp_ns2_send_rate_kbps", 2),
                col("tfrc_sp_send_rate_kbps", 2),
                col("std_tfrc_send_rate_kbps", 2),
                col("tfrc_sp_ns2_send_rate_kbps", 2),
                col("std_tfrc_ns2_send_rate_kbps", 2),
            ],
        ),
    };
    Ok(Table {
        id,
        title: title.to_string(),
        source: format!("RFC 4828 App. B.1, Table {id}"),
        keys: vec!["packet_drop_rate"],
        columns,
        rows,
        published: Some(published_name(id)),
    })
}

fn table_10(e: &mut Experiment) -> Result<Table, String> {
    let mut rows = Vec::new();
    for b in T10_BYTE_DROP_RATES {
        let v = e.variant(b2(num(b)?)?);
        // Per segment size of Table 10, the mean TCP send rate of group "<prefix><size>".
        let by_size = |prefix: &str| -> Vec<(f64, Metric)> {
            T10_SEGMENTS
                .iter()
                .map(|&s| {
                    (
                        f64::from(s),
                        mean(&format!("{prefix}{s}"), FlowStat::SendPayload),
                    )
                })
                .collect()
        };
        let tcp = by_size("tcp");
        // ECN TCP: its own best segment size among the same ones (groups "ecntcp<size>"),
        // and the same with ns-2's ECN response (groups "ecnns2tcp<size>").
        let ecn = by_size("ecntcp");
        let ecn_ns2 = by_size("ecnns2tcp");
        rows.push(Row {
            keys: vec![b.to_string()],
            variant: v,
            cells: vec![
                Metric::ArgMax(tcp.clone()),
                Metric::Max(tcp.into_iter().map(|t| t.1).collect()),
                Metric::ArgMax(ecn.clone()),
                Metric::Max(ecn.into_iter().map(|t| t.1).collect()),
                Metric::ArgMax(ecn_ns2.clone()),
                Metric::Max(ecn_ns2.into_iter().map(|t| t.1).collect()),
                mean("sp14", FlowStat::SendRate),
                mean("std14", FlowStat::SendRate),
                mean("sp14ns2", FlowStat::SendRate),
                mean("std14ns2", FlowStat::SendRate),
            ],
        });
    }
    Ok(Table {
        id: "10",
        title: "Send rate (Kb/s) vs byte drop rate: the best TCP and ECN TCP (14..1460 B), TFRC-SP and standard TFRC 14 B".into(),
        source: "RFC 4828 App. B.2, Table 10".into(),
        keys: vec!["byte_drop_rate"],
        columns: vec![
            col("tcp_segment_bytes", 0),
            col("tcp_send_rate_kbps", 2),
            col("ecn_tcp_segment_bytes", 0),
            col("ecn_tcp_send_rate_kbps", 2),
            col("ecn_tcp_ns2_segment_bytes", 0),
            col("ecn_tcp_ns2_send_rate_kbps", 2),
            col("tfrc_sp_send_rate_kbps", 2),
            col("std_tfrc_send_rate_kbps", 2),
            col("tfrc_sp_ns2_send_rate_kbps", 2),
            col("std_tfrc_ns2_send_rate_kbps", 2),
        ],
        rows,
        published: Some(published_name("10")),
    })
}

fn table_11(e: &mut Experiment) -> Result<Table, String> {
    let mut rows = Vec::new();
    for b in T11_BYTE_DROP_RATES {
        let v = e.variant(b2(num(b)?)?);
        rows.push(Row {
            keys: vec![b.to_string()],
            variant: v,
            cells: vec![
                pooled_drop("tcp1460"),
                pooled_drop("sp14"),
                Metric::Ratio(
                    Box::new(pooled_drop("tcp1460")),
                    Box::new(pooled_drop("sp14")),
                ),
            ],
        });
    }
    Ok(Table {
        id: "11",
        title: "Packet drop rates of 1500 B TCP and small TFRC packets vs byte drop rate".into(),
        source: "RFC 4828 App. B.2, Table 11".into(),
        keys: vec!["byte_drop_rate"],
        columns: vec![
            col("tcp_packet_drop_rate", 4),
            col("tfrc_packet_drop_rate", 4),
            col("tcp_tfrc_packet_drop_ratio", 2),
        ],
        rows,
        published: Some(published_name("11")),
    })
}

fn web_table(e: &mut Experiment, table: u32) -> Result<Table, String> {
    let id: &'static str = match table {
        12 => "12",
        13 => "13",
        14 => "14",
        15 => "15",
        16 => "16",
        17 => "17",
        18 => "18",
        19 => "19",
        20 => "20",
        _ => "21",
    };
    let sessions: &[u32] = if matches!(table, 15 | 16) {
        &SESSIONS_N
    } else {
        &SESSIONS
    };
    let mut rows = Vec::new();
    for &s in sessions {
        let row = WebRow::of_table(table, s).ok_or_else(|| format!("no table {table}"))?;
        rows.push(Row {
            keys: vec![s.to_string()],
            variant: e.variant(web(&row)?),
            cells: web_cells(),
        });
    }
    let drop_decimals = if matches!(table, 12 | 14) { 2 } else { 3 };
    let small = if table == 16 { "tfrc" } else { "tfrc_sp" };
    let (d, s) = if table == 16 {
        ("tfrc_drop_rate", "tfrc_send_rate_kbps")
    } else {
        ("tfrc_sp_drop_rate", "tfrc_sp_send_rate_kbps")
    };
    let what = match table {
        12 => "drop-tail queue in packets",
        13 => "drop-tail queue in bytes",
        14 => "drop-tail queue in bytes, 512 B TCP segments",
        15 => "drop-tail queue in bytes, N TCP, N TFRC-SP, 10 N web sessions",
        16 => "drop-tail queue in bytes, N TCP, N standard TFRC, 10 N web sessions",
        17 => "RED in packet mode",
        18 => "RED in byte mode",
        19 => "RED in byte mode, 512 B TCP segments",
        20 => "Adaptive RED in byte mode",
        _ => "Adaptive RED in byte mode, 512 B TCP segments",
    };
    Ok(Table {
        id,
        title: format!("Drop and send rates (Kb/s) of TCP and {small}: {what}"),
        source: format!(
            "RFC 4828 App. B.{}, Table {id}",
            if table <= 16 { 3 } else { 4 }
        ),
        keys: vec!["web_sessions"],
        columns: vec![
            col("tcp_drop_rate", drop_decimals),
            col("tcp_send_rate_kbps", 2),
            col(d, drop_decimals),
            col(s, 2),
        ],
        rows,
        published: Some(published_name(id)),
    })
}

/// TCP drop and send rates, TFRC drop and send rates of the long-lived flows of B.3/B.4.
fn web_cells() -> Vec<Metric> {
    vec![
        pooled_drop("tcp"),
        mean("tcp", FlowStat::SendPayload),
        pooled_drop("tfrc"),
        mean("tfrc", FlowStat::SendRate),
    ]
}

const RULES: [(&str, bool); 2] = [("step", false), ("gradual", true)];

/// App. C's cells of one TFRC-SP group: send rate (c1 only), then the mean, CoV and
/// roughness of the loss event rate p and the CoV of X, means over the group's flows.
fn c_cells(g: &str, send_rate: bool) -> Vec<Metric> {
    let send = send_rate.then(|| mean(g, FlowStat::SendRate));
    send.into_iter()
        .chain(
            [
                FlowStat::PMean,
                FlowStat::PCov,
                FlowStat::PRoughness,
                FlowStat::XCov,
            ]
            .map(|st| mean(g, st)),
        )
        .collect()
}

fn c_columns(cols: &[(&'static str, usize)]) -> Vec<Column> {
    cols.iter().map(|&(name, d)| col(name, d)).collect()
}

fn table_c1(e: &mut Experiment) -> Result<Table, String> {
    let mut rows = Vec::new();
    for p in C1_PACKET_DROP_RATES {
        for (rule, gradual) in RULES {
            rows.push(Row {
                keys: vec![p.to_string(), rule.to_string()],
                variant: e.variant(b1(num(p)?, gradual)?),
                cells: [c_cells("sp14", true), c_cells("sp200", true)].concat(),
            });
        }
    }
    Ok(Table {
        id: "c1",
        title: "TFRC-SP send rate (Kb/s) and oscillation of its loss event rate p and allowed rate X, step vs gradual short-interval rule, configured packet drop rates (B.1)".into(),
        source: "RFC 4828 App. C (set-up of App. B.1)".into(),
        keys: vec!["packet_drop_rate", "short_intervals"],
        columns: c_columns(&C1_COLUMNS),
        rows,
        published: Some(published_name("c1")),
    })
}

fn table_c2(e: &mut Experiment) -> Result<Table, String> {
    let mut rows = Vec::new();
    for s in C2_SESSIONS {
        for (rule, gradual) in RULES {
            let row = WebRow {
                gradual,
                ..WebRow::of_table(12, s).expect("table 12")
            };
            rows.push(Row {
                keys: vec![s.to_string(), rule.to_string()],
                variant: e.variant(web(&row)?),
                cells: [web_cells(), c_cells("tfrc", false)].concat(),
            });
        }
    }
    Ok(Table {
        id: "c2",
        title: "TCP and TFRC-SP drop and send rates (Kb/s), oscillation of TFRC-SP's p and X, step vs gradual short-interval rule, drop-tail queue in packets (B.3, Table 12 set-up)".into(),
        source: "RFC 4828 App. C (set-up of App. B.3)".into(),
        keys: vec!["web_sessions", "short_intervals"],
        columns: c_columns(&C2_COLUMNS),
        rows,
        published: Some(published_name("c2")),
    })
}

pub fn experiment() -> Result<Experiment, String> {
    let mut e = Experiment {
        name: NAME,
        title: "TCP Friendly Rate Control (TFRC): The Small-Packet (SP) Variant",
        source: "S. Floyd, E. Kohler, RFC 4828, April 2007 (seed 003)",
        variants: Vec::new(),
        tables: Vec::new(),
        figures: Vec::new(),
        seeds: 5,
        quick: Quick {
            seeds: 2,
            duration: Duration::from_secs(60),
            warmup: Duration::from_secs(30),
        },
        notes: NOTES.iter().map(|s| s.to_string()).collect(),
    };
    for (id, t) in [
        ("1", ResponseTable::TcpPacketDrop),
        ("2", ResponseTable::SpPacketDrop),
        ("3", ResponseTable::TcpByteDrop),
        ("4", ResponseTable::SpByteDrop),
    ] {
        e.tables.push(response_table(id, t));
    }
    let t = tables_5_6(&mut e, "5", 0.0001)?;
    e.tables.push(t);
    let t = tables_5_6(&mut e, "6", 0.001)?;
    e.tables.push(t);
    for id in ["7", "8", "9"] {
        let t = packet_drop_table(&mut e, id)?;
        e.tables.push(t);
    }
    let t = table_10(&mut e)?;
    e.tables.push(t);
    let t = table_11(&mut e)?;
    e.tables.push(t);
    for table in 12..=21 {
        let t = web_table(&mut e, table)?;
        e.tables.push(t);
    }
    let t = table_c1(&mut e)?;
    e.tables.push(t);
    let t = table_c2(&mut e)?;
    e.tables.push(t);
    Ok(e)
}
