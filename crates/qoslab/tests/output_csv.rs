//! The CSV files of PCN and ATM runs (`qoslab run FILE`): they are written, their headers
//! are exactly the columns `docs/outputs.md` documents, and every value equals the one in
//! `summary.json` (to the decimals printed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("output_csv")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `qoslab run FILE --out DIR`, which must succeed.
fn run(scenario: &Path, out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .arg("run")
        .arg(scenario)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "qoslab run {}: {}",
        scenario.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A CSV file as (header, rows).
fn csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .collect();
    for r in &rows {
        assert_eq!(r.len(), head.len(), "{}: row {r:?}", path.display());
    }
    (head, rows)
}

/// The columns documented in `docs/outputs.md` for each `#### ...` section whose heading
/// names CSV files: section heading → column names in the order of the table (a first cell
/// may name several columns, each in backticks).
fn documented() -> BTreeMap<String, Vec<String>> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/outputs.md"
    ))
    .unwrap();
    let mut out = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix("#### ") {
            cur = h.contains(".csv").then(|| h.to_string());
            continue;
        }
        if line.starts_with('#') {
            cur = None;
        }
        let Some(h) = &cur else { continue };
        if !line.starts_with("| `") {
            continue;
        }
        let first = line.split('|').nth(1).unwrap();
        let cols = out.entry(h.clone()).or_insert_with(Vec::new);
        for (k, part) in first.split('`').enumerate() {
            if k % 2 == 1 {
                cols.push(part.to_string());
            }
        }
    }
    out
}

fn section<'a>(doc: &'a BTreeMap<String, Vec<String>>, heading: &str) -> &'a Vec<String> {
    doc.get(heading)
        .unwrap_or_else(|| panic!("docs/outputs.md has no section `#### {heading}`"))
}

/// The value at a dotted path (`delay.one_way.p99_ns`, `frames_complete.0`).
fn at<'a>(v: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(v, |v, k| match k.parse::<usize>() {
        Ok(i) if v.is_array() => &v[i],
        _ => &v[k],
    })
}

/// A CSV field equals `want` (a JSON number, bool, string or null) times `scale`: exactly
/// for integers, strings and booleans, within half a unit of the last printed decimal for
/// fractional fields; an empty field for null.
fn check(what: &str, field: &str, want: &Value, scale: f64) {
    match want {
        Value::Null => assert_eq!(field, "", "{what}: null in summary.json"),
        Value::Bool(b) => assert_eq!(field, b.to_string(), "{what}"),
        Value::String(s) => assert_eq!(field, s, "{what}"),
        Value::Number(n) if scale == 1.0 && n.is_u64() && !field.contains('.') => {
            assert_eq!(field, n.to_string(), "{what}")
        }
        Value::Number(n) => {
            let want = n.as_f64().unwrap() * scale;
            let got: f64 = field
                .parse()
                .unwrap_or_else(|e| panic!("{what}: `{field}` is not a number: {e}"));
            let decimals = field.split('.').nth(1).map_or(0, str::len) as i32;
            let tol = 0.5 * 10f64.powi(-decimals) * (1.0 + 1e-9) + 1e-12 * want.abs();
            assert!(
                (got - want).abs() <= tol,
                "{what}: csv {field} vs summary.json {want} (tolerance {tol})"
            );
        }
        _ => panic!("{what}: unexpected JSON {want}"),
    }
}

/// Checks a row against a JSON entry: `(column, path, scale)`; columns not listed must be
/// checked by the caller.
fn check_row(
    file: &str,
    head: &[String],
    row: &[String],
    entry: &Value,
    map: &[(&str, &str, f64)],
) {
    for &(col, path, scale) in map {
        let k = head
            .iter()
            .position(|h| h == col)
            .unwrap_or_else(|| panic!("{file}: no column {col}"));
        check(
            &format!("{file} {} {col}", row[0]),
            &row[k],
            at(entry, path),
            scale,
        );
    }
}

fn field<'a>(head: &[String], row: &'a [String], col: &str) -> &'a str {
    &row[head.iter().position(|h| h == col).unwrap()]
}

fn pct_or_empty(part: u64, whole: u64) -> Value {
    if whole == 0 {
        Value::Null
    } else {
        serde_json::json!(100.0 * part as f64 / whole as f64)
    }
}

const NS: f64 = 1e-9;

const IEA_MAP: &[(&str, &str, f64)] = &[
    ("iea", "name", 1.0),
    ("offered", "offered", 1.0),
    ("admitted", "admitted", 1.0),
    ("blocked", "blocked", 1.0),
    ("terminated_flows", "terminated_flows", 1.0),
    ("active_at_end", "active_at_end", 1.0),
    ("sent", "sent", 1.0),
    ("delivered", "delivered", 1.0),
    ("dropped", "dropped", 1.0),
    ("discarded_at_ingress", "discarded_at_ingress", 1.0),
    ("in_flight", "in_flight", 1.0),
    ("reports", "reports", 1.0),
    ("cancels", "cancels", 1.0),
    ("termination_first_s", "termination_time.first_s", 1.0),
    ("termination_done_s", "termination_time.done_s", 1.0),
    ("termination_raw_s", "termination_time.raw_s", 1.0),
    ("termination_table_s", "termination_time.table_s", 1.0),
    ("delay_pkts", "delay.one_way.samples", 1.0),
    ("delay_mean_s", "delay.one_way.mean_ns", NS),
    ("delay_p50_s", "delay.one_way.p50_ns", NS),
    ("delay_p90_s", "delay.one_way.p90_ns", NS),
    ("delay_p99_s", "delay.one_way.p99_ns", NS),
    ("delay_max_s", "delay.one_way.max_ns", NS),
    ("delay_min_s", "delay.one_way.min_ns", NS),
    ("prop_tx_s", "delay.prop_tx_ns", NS),
    ("queueing_mean_s", "delay.queueing_mean_ns", NS),
    ("queueing_max_s", "delay.queueing_max_ns", NS),
    ("queueing_saturated", "delay.queueing_saturated", 1.0),
    ("pdv_p99_s", "delay.pdv_p99_ns", NS),
    ("jitter_rfc3550_s", "delay.jitter_rfc3550_ns", NS),
    ("ipdv_mean_abs_s", "delay.ipdv_mean_abs_ns", NS),
    ("ipdv_max_abs_s", "delay.ipdv_max_abs_ns", NS),
];

const LINK_MAP: &[(&str, &str, f64)] = &[
    ("link", "name", 1.0),
    ("arrived", "arrived", 1.0),
    ("forwarded", "forwarded", 1.0),
    ("dropped", "dropped", 1.0),
    ("in_flight", "in_flight", 1.0),
    ("requests", "requests", 1.0),
    ("marks_none", "out_marks.0", 1.0),
    ("marks_threshold", "out_marks.1", 1.0),
    ("marks_excess", "out_marks.2", 1.0),
    ("fifo_overflows", "fifo_overflows", 1.0),
    ("max_backlog_pkts", "max_backlog_packets", 1.0),
    ("oa_pct", "over_admission.oa_pct", 1.0),
    ("oa_x_bps", "over_admission.x_bps", 1.0),
    ("oa_d_bps", "over_admission.d_bps", 1.0),
    (
        "oa_rejected_signalling_bps",
        "over_admission.rejected_signalling_bps",
        1.0,
    ),
    ("ot_pct", "over_termination.ot_pct", 1.0),
    ("ot_rate_bps", "over_termination.rate_bps", 1.0),
    ("ot_nominal_pct", "over_termination.ot_nominal_pct", 1.0),
    (
        "ot_nominal_from_bps",
        "over_termination.nominal_from_bps",
        1.0,
    ),
    ("ot_nominal_to_bps", "over_termination.nominal_to_bps", 1.0),
    ("termination_first_s", "termination_time.first_s", 1.0),
    ("termination_done_s", "termination_time.done_s", 1.0),
    ("termination_raw_s", "termination_time.raw_s", 1.0),
    ("termination_table_s", "termination_time.table_s", 1.0),
    ("static_rate_bps", "static_rate_bps", 1.0),
    ("static_marked_threshold", "static_marked_fraction.0", 1.0),
    ("static_marked_excess", "static_marked_fraction.1", 1.0),
    ("sojourn_pkts", "sojourn.samples", 1.0),
    ("sojourn_mean_s", "sojourn.mean_ns", NS),
    ("sojourn_p50_s", "sojourn.p50_ns", NS),
    ("sojourn_p90_s", "sojourn.p90_ns", NS),
    ("sojourn_p99_s", "sojourn.p99_ns", NS),
    ("sojourn_max_s", "sojourn.max_ns", NS),
    ("sojourn_min_s", "sojourn.min_ns", NS),
];

/// Checks one PCN run's CSV files against `summary.json` and the docs.
fn check_pcn(dir: &Path) -> Value {
    let doc = documented();
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();

    let (head, rows) = csv(&dir.join("ieas.csv"));
    assert_eq!(
        &head,
        section(&doc, "PCN `ieas.csv`"),
        "ieas.csv header vs docs"
    );
    let ieas = j["ieas"].as_array().unwrap();
    assert_eq!(rows.len(), ieas.len());
    assert_eq!(
        head.len(),
        IEA_MAP.len() + 2,
        "every column but the two percentages is mapped"
    );
    for (row, e) in rows.iter().zip(ieas) {
        check_row("ieas.csv", &head, row, e, IEA_MAP);
        let n = |k: &str| e[k].as_u64().unwrap();
        check(
            "blocked_pct",
            field(&head, row, "blocked_pct"),
            &pct_or_empty(n("blocked"), n("offered")),
            1.0,
        );
        check(
            "terminated_pct",
            field(&head, row, "terminated_pct"),
            &pct_or_empty(n("terminated_flows"), n("admitted")),
            1.0,
        );
        // Conservation holds in the file as in the engine.
        let c = |k: &str| field(&head, row, k).parse::<u64>().unwrap();
        assert_eq!(c("sent"), c("delivered") + c("dropped") + c("in_flight"));
    }

    let (head, rows) = csv(&dir.join("links.csv"));
    assert_eq!(
        &head,
        section(&doc, "PCN `links.csv`"),
        "links.csv header vs docs"
    );
    assert_eq!(head.len(), LINK_MAP.len(), "every column is mapped");
    let links = j["links"].as_array().unwrap();
    assert_eq!(rows.len(), links.len());
    for (row, e) in rows.iter().zip(links) {
        check_row("links.csv", &head, row, e, LINK_MAP);
    }

    // The three smaller files: every header column is documented in their shared section,
    // and every documented column is in one of them.
    let shared = section(
        &doc,
        "PCN `link_series.csv`, `terminations.csv`, `fairness.csv`",
    );
    let mut seen = Vec::new();
    for f in ["link_series.csv", "terminations.csv", "fairness.csv"] {
        let (head, _) = csv(&dir.join(f));
        for h in &head {
            assert!(shared.contains(h), "{f}: column {h} is not documented");
        }
        seen.extend(head);
    }
    for d in shared {
        assert!(seen.contains(d), "documented column {d} is in no file");
    }

    let (_, rows) = csv(&dir.join("link_series.csv"));
    let mut k = 0;
    for l in links {
        let bin = l["series_bin_s"].as_f64().unwrap();
        for (i, v) in l["rate_series_bps"].as_array().unwrap().iter().enumerate() {
            let r = &rows[k];
            check(
                "link_series time",
                &r[0],
                &serde_json::json!(i as f64 * bin),
                1.0,
            );
            check("link_series link", &r[1], &l["name"], 1.0);
            check("link_series rate", &r[2], v, 1.0);
            k += 1;
        }
    }
    assert_eq!(k, rows.len());

    let (_, rows) = csv(&dir.join("terminations.csv"));
    let t = j["terminations"].as_array().unwrap();
    assert_eq!(rows.len(), t.len());
    for (r, e) in rows.iter().zip(t) {
        check("terminations time", &r[0], &e["t_s"], 1.0);
        check(
            "terminations iea",
            &r[1],
            &ieas[e["iea"].as_u64().unwrap() as usize]["name"],
            1.0,
        );
        for (c, k) in [
            (2, "amount_bps"),
            (3, "sending_bps"),
            (4, "reported_bps"),
            (5, "flows"),
        ] {
            check("terminations", &r[c], &e[k], 1.0);
        }
    }

    let (_, rows) = csv(&dir.join("fairness.csv"));
    let f = j["fairness"].as_array().unwrap();
    assert_eq!(rows.len(), f.len());
    for (r, e) in rows.iter().zip(f) {
        check("fairness time", &r[0], &e["t_s"], 1.0);
        check("fairness window", &r[1], &e["window_ratio"], 1.0);
        check("fairness cumulative", &r[2], &e["cumulative_ratio"], 1.0);
    }
    j
}

const TERMINATION: &str = r#"[pcn]
kind = "termination"
scheme = "stm"
duration = "3s"
link_rate = "320Mbps"
[pcn.traffic]
model = "cbr"
randomize = "50ms"
[pcn.topology]
kind = "parking-lot"
bottlenecks = 2
link_delay = "1ms"
vertical_delay = "1ms"
[pcn.population]
base_flows = 900
final_flows = 4000
extra_at = "1s"
[pcn.measure]
ot_from = "2s"
ot_to = "3s"
delay_variation = true
fairness_bin = "1s"
"#;

const ADMISSION: &str = r#"[pcn]
kind = "admission"
scheme = "cl"
duration = "6s"
link_rate = "20Mbps"
[pcn.traffic]
model = "vbr"
[pcn.topology]
kind = "single"
delay = "1ms"
[pcn.admission]
call_interval = "5ms"
holding_mean = "60s"
[pcn.measure]
oa_from = "3s"
oa_to = "6s"
"#;

#[test]
fn pcn_termination_run_writes_documented_csvs_equal_to_summary_json() {
    let dir = scratch("pcn-term");
    let sc = dir.join("term.toml");
    std::fs::write(&sc, TERMINATION).unwrap();
    run(&sc, &dir.join("o"));
    let j = check_pcn(&dir.join("o"));
    // The run has what the files should show: terminations, fairness bins, jitter.
    assert!(!j["terminations"].as_array().unwrap().is_empty());
    assert!(j["fairness"].as_array().unwrap().len() >= 2);
    assert!(j["ieas"][0]["delay"]["jitter_rfc3550_ns"].is_number());
    // Byte-identical on a second run.
    run(&sc, &dir.join("o2"));
    for f in [
        "ieas.csv",
        "links.csv",
        "link_series.csv",
        "terminations.csv",
        "fairness.csv",
    ] {
        assert_eq!(
            std::fs::read(dir.join("o").join(f)).unwrap(),
            std::fs::read(dir.join("o2").join(f)).unwrap(),
            "{f} differs between two runs"
        );
    }
}

#[test]
fn pcn_admission_run_writes_blocking_and_over_admission() {
    let dir = scratch("pcn-adm");
    let sc = dir.join("adm.toml");
    std::fs::write(&sc, ADMISSION).unwrap();
    run(&sc, &dir.join("o"));
    let j = check_pcn(&dir.join("o"));
    let i = &j["ieas"][0];
    assert!(
        i["blocked"].as_u64().unwrap() > 0,
        "the link is overloaded: {i}"
    );
    assert!(j["links"][0]["over_admission"].is_object());
    let (head, rows) = csv(&dir.join("o/ieas.csv"));
    assert!(!field(&head, &rows[0], "blocked_pct").is_empty());
    assert_eq!(
        field(&head, &rows[0], "jitter_rfc3550_s"),
        "",
        "delay_variation is off"
    );
    let (_, rows) = csv(&dir.join("o/terminations.csv"));
    assert!(rows.is_empty(), "an admission run terminates nothing");
}

fn atm_scenario(dir: &Path) -> PathBuf {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/gfr-kim2001/fig7.toml"))
        .unwrap()
        .replace("duration = \"30s\"", "duration = \"2s\"")
        .replace("warmup = \"5s\"", "warmup = \"1s\"");
    assert!(text.contains("duration = \"2s\""));
    let p = dir.join("atm.toml");
    std::fs::write(&p, text).unwrap();
    p
}

const VC_MAP: &[(&str, &str, f64)] = &[
    ("vc", "name", 1.0),
    ("mcr_mbps", "mcr_mbps", 1.0),
    ("weight_mbps", "weight_mbps", 1.0),
    ("ideal_goodput_mbps", "ideal_goodput_mbps", 1.0),
    ("mcr_goodput_mbps", "mcr_goodput_mbps", 1.0),
    ("goodput_mbps", "goodput_mbps", 1.0),
    ("mcr_met", "mcr_met", 1.0),
    ("tcp_timeouts", "tcp_timeouts", 1.0),
    ("tcp_retransmits", "tcp_retransmits", 1.0),
    ("cells_sent", "data.cells_sent", 1.0),
    ("cells_delivered", "data.cells_delivered", 1.0),
    ("cells_dropped_clp0", "data.cells_dropped_clp0", 1.0),
    ("cells_dropped_clp1", "data.cells_dropped_clp1", 1.0),
    ("cells_in_flight", "data.cells_in_flight", 1.0),
    ("cells_tagged", "data.cells_tagged", 1.0),
    ("frames_sent", "data.frames_sent", 1.0),
    ("frames_delivered", "data.frames_delivered", 1.0),
    ("frames_lost_in_network", "data.frames_lost_in_network", 1.0),
    (
        "frames_discarded_own_loss",
        "data.frames_discarded_own_loss",
        1.0,
    ),
    (
        "frames_discarded_merged",
        "data.frames_discarded_merged",
        1.0,
    ),
    ("frames_in_flight", "data.frames_in_flight", 1.0),
    ("pcr_cells", "data.pcr_check.cells", 1.0),
    ("pcr_conforming", "data.pcr_check.conforming", 1.0),
    ("pcr_nonconforming", "data.pcr_check.nonconforming", 1.0),
    ("ack_cells_sent", "acks.cells_sent", 1.0),
    ("ack_cells_delivered", "acks.cells_delivered", 1.0),
];

const PORT_MAP: &[(&str, &str, f64)] = &[
    ("port", "name", 1.0),
    ("cells_arrived", "cells_arrived", 1.0),
    ("cells_sent", "cells_sent", 1.0),
    ("cells_dropped_clp0", "cells_dropped_clp0", 1.0),
    ("cells_dropped_clp1", "cells_dropped_clp1", 1.0),
    ("cells_queued_at_end", "cells_queued_at_end", 1.0),
    ("frames_partially_lost_clp0", "frames_partially_lost.0", 1.0),
    ("frames_partially_lost_clp1", "frames_partially_lost.1", 1.0),
    ("frames_complete_clp0", "frames_complete.0", 1.0),
    ("frames_complete_clp1", "frames_complete.1", 1.0),
    ("max_occupancy_cells", "max_occupancy", 1.0),
    ("mean_occupancy_cells", "mean_occupancy", 1.0),
];

/// `reason:count;...` of a JSON object of counters, in key order.
fn reasons(v: &Value, f: impl Fn(&Value) -> String) -> String {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{k}:{}", f(v)))
        .collect::<Vec<_>>()
        .join(";")
}

#[test]
fn atm_run_writes_documented_csvs_equal_to_summary_json() {
    let dir = scratch("atm");
    run(&atm_scenario(&dir), &dir.join("o"));
    let o = dir.join("o");
    let doc = documented();
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(o.join("summary.json")).unwrap()).unwrap();

    let (head, rows) = csv(&o.join("vcs.csv"));
    assert_eq!(
        &head,
        section(&doc, "ATM `vcs.csv`"),
        "vcs.csv header vs docs"
    );
    assert_eq!(head.len(), VC_MAP.len() + 3);
    let vcs = j["vcs"].as_array().unwrap();
    assert_eq!(rows.len(), vcs.len());
    for (row, e) in rows.iter().zip(vcs) {
        check_row("vcs.csv", &head, row, e, VC_MAP);
        let g = e["goodput_mbps"].as_f64().unwrap() / e["ideal_goodput_mbps"].as_f64().unwrap();
        check(
            "goodput_over_ideal",
            field(&head, row, "goodput_over_ideal"),
            &serde_json::json!(g),
            1.0,
        );
        let a = &e["acks"];
        let dropped =
            a["cells_dropped_clp0"].as_u64().unwrap() + a["cells_dropped_clp1"].as_u64().unwrap();
        assert_eq!(field(&head, row, "ack_cells_dropped"), dropped.to_string());
        assert_eq!(
            field(&head, row, "cells_dropped_by_reason"),
            reasons(&e["data"]["cells_dropped_by_reason"], |v| v.to_string())
        );
    }
    assert!(
        rows.iter()
            .any(|r| field(&head, r, "cells_dropped_by_reason").contains(':')),
        "the short fig. 7 run drops cells"
    );

    let (head, rows) = csv(&o.join("ports.csv"));
    assert_eq!(
        &head,
        section(&doc, "ATM `ports.csv`"),
        "ports.csv header vs docs"
    );
    assert_eq!(head.len(), PORT_MAP.len() + 4);
    let ports = j["ports"].as_array().unwrap();
    assert_eq!(rows.len(), ports.len());
    for (row, e) in rows.iter().zip(ports) {
        check_row("ports.csv", &head, row, e, PORT_MAP);
        assert_eq!(
            field(&head, row, "cells_dropped_by_reason"),
            reasons(&e["cells_dropped_by_reason"], |v| v.to_string())
        );
        let fr = &e["frames_refused_by_reason"];
        assert_eq!(
            field(&head, row, "frames_refused_by_reason"),
            reasons(fr, |v| format!("{}/{}", v[0], v[1]))
        );
        for c in 0..2 {
            let sum: u64 = fr
                .as_object()
                .unwrap()
                .values()
                .map(|v| v[c].as_u64().unwrap())
                .sum();
            assert_eq!(
                field(&head, row, &format!("frames_refused_clp{c}")),
                sum.to_string()
            );
        }
    }

    let shared = section(&doc, "ATM `connections.csv`, `queue_series.csv`");
    let (head, rows) = csv(&o.join("connections.csv"));
    assert!(head.iter().all(|h| shared.contains(h)), "{head:?}");
    let mut k = 0;
    for v in vcs {
        for (i, g) in v["connection_goodput_mbps"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            assert_eq!(rows[k][0], v["name"].as_str().unwrap());
            assert_eq!(rows[k][1], i.to_string());
            check("connections goodput", &rows[k][2], g, 1.0);
            k += 1;
        }
    }
    assert_eq!(k, rows.len());
    assert!(
        !o.join("queue_series.csv").exists(),
        "a scenario file samples no buffers"
    );
}

/// `queue_series.csv` (written when the run samples buffers, as the reproduction does): the
/// documented columns, then one per VC, and the samples of the result.
#[test]
fn atm_queue_series_csv_has_the_documented_columns_and_the_samples() {
    let dir = scratch("atm-series");
    let s = qoslab_sim::atm::scenario::load(&atm_scenario(&dir)).unwrap();
    let r = qoslab_sim::atm::AtmSim::new(s, 1)
        .unwrap()
        .with_queue_samples(qoslab_algo::Duration(100_000_000))
        .run()
        .unwrap();
    let files = qoslab::output_csv::atm_files(&r);
    let names: Vec<&str> = files.iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            "vcs.csv",
            "ports.csv",
            "connections.csv",
            "queue_series.csv"
        ]
    );
    qoslab::output_csv::write(&dir, &files).unwrap();
    let (head, rows) = csv(&dir.join("queue_series.csv"));
    let doc = documented();
    let shared = section(&doc, "ATM `connections.csv`, `queue_series.csv`");
    assert_eq!(head[..3], ["time_s", "port", "total"]);
    assert!(head[..3].iter().all(|h| shared.contains(h)));
    let vcs: Vec<&str> = r.vcs.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(head[3..], vcs[..]);
    let n: usize = r.queue_series.iter().map(|q| q.total.len()).sum();
    assert!(n >= 2 * r.queue_series.len(), "20 samples per port in 2 s");
    assert_eq!(rows.len(), n);
    let q = &r.queue_series[0];
    for (k, row) in rows.iter().take(q.total.len()).enumerate() {
        assert_eq!(row[1], q.port);
        assert_eq!(row[2], q.total[k].to_string());
        let per: u32 = row[3..].iter().map(|c| c.parse::<u32>().unwrap()).sum();
        assert_eq!(per, q.total[k], "the VCs' cells add up to the total");
    }
}

/// `qoslab validate` of an IP scenario prints every flow's path and base delay.
#[test]
fn validate_prints_each_flows_path_and_base_rtt() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/dumbbell.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(["validate", file])
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let flows: Vec<&str> = out.lines().filter(|l| l.starts_with("  flow `")).collect();
    assert_eq!(flows.len(), 20, "{out}");
    for l in flows {
        assert!(
            l.contains(" -> ") && l.contains("base RTT ") && l.ends_with("B back)"),
            "{l}"
        );
    }
}

/// The backticked names of the first paragraph or table after the heading `heading` in a
/// doc (a name holding commas is a whole header and is split at them).
fn doc_names(doc: &str, heading: &str) -> Vec<String> {
    let at = doc
        .find(heading)
        .unwrap_or_else(|| panic!("no heading {heading}"));
    let body = &doc[at + heading.len()..];
    let body = &body[..body.find("\n#").unwrap_or(body.len())];
    let mut names = Vec::new();
    for (k, part) in body.split('`').enumerate() {
        if k % 2 == 1 {
            names.extend(part.split(',').map(str::to_string));
        }
    }
    names
}

/// The IP engine's `flows.csv` and `queues.csv`: the header of a run is the columns
/// `docs/outputs.md` lists followed by the delay columns `docs/delay.md` lists.
#[test]
fn ip_flows_and_queues_csv_headers_are_the_documented_columns() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let outputs = std::fs::read_to_string(format!("{root}/docs/outputs.md")).unwrap();
    let delay = std::fs::read_to_string(format!("{root}/docs/delay.md")).unwrap();
    let dir = scratch("ip");
    let sc = dir.join("small.toml");
    std::fs::write(
        &sc,
        r#"
duration = "1s"
warmup = "0.2s"
node = [{ name = "a" }, { name = "b" }]
link = [{ from = "a", to = "b", rate = "10Mbps", delay = "5ms" }]
[[flow]]
name = "f"
src = "a"
dst = "b"
kind = "tcp"
"#,
    )
    .unwrap();
    run(&sc, &dir.join("o"));

    let (head, _) = csv(&dir.join("o/flows.csv"));
    let mut want = doc_names(&outputs, "### `flows.csv`");
    // The paragraph names the header, then `measured` and `bytes_by_color`.
    want.truncate(want.iter().position(|c| c == "red_bytes").unwrap() + 1);
    // "(columns after `red_bytes`)": the heading's own name is not a column.
    let extra = doc_names(&delay, "## `flows.csv` (columns after `red_bytes`)\n");
    want.extend(extra);
    assert_eq!(
        head, want,
        "flows.csv header vs docs/outputs.md + docs/delay.md"
    );

    let (head, _) = csv(&dir.join("o/queues.csv"));
    let mut want = doc_names(&outputs, "### `queues.csv`");
    want.truncate(want.iter().position(|c| c == "ql_time_mean").unwrap() + 1);
    let mut names = doc_names(&delay, "## `queues.csv` (columns after `ql_time_mean`)\n");
    // `<colour>_...` is a template over the colours named before it.
    let templ: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("<colour>"))
        .cloned()
        .collect();
    names.retain(|n| n.starts_with("sojourn_"));
    want.extend(names);
    for c in ["green", "yellow", "red"] {
        want.extend(templ.iter().map(|t| t.replace("<colour>", c)));
    }
    assert_eq!(
        head, want,
        "queues.csv header vs docs/outputs.md + docs/delay.md"
    );
}
