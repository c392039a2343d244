//! Every kind of scenario file through one door: IP scenarios (the [`Simulator`]), PCN
//! scenarios (a top-level `[pcn]` table, [`qoslab_sim::pcn`]) and ATM/GFR scenarios
//! (`atm = true`, [`qoslab_sim::atm`]). Sweeps, `qoslab run --format parquet` and the
//! Python package read, run and tabulate any of them with [`load_any`], [`run_any`] and
//! [`AnyOutput`].
//!
//! The PCN and ATM results reach tables and sweep figures through their serde form (the
//! JSON of `summary.json`), not field by field: a field an engine adds to its result
//! appears in the tables and the sweep cells without a change here.
//!
//! Tables of a PCN run: `links`, `ieas` (one row per ingress-egress aggregate),
//! `terminations`, `fairness` (one row per entry of the result's lists of the same names,
//! every number flattened to a column as in [`super::arrow`]), and `link_series` (`time_s`,
//! `link`, `rate_bps`: each link's `rate_series_bps`, bin `k` at `k · series_bin_s`).
//! Tables of an ATM run: `vcs`, `ports` (as above), `connections` (`vc`, `connection`,
//! `goodput_mbps`) and, when the scenario samples the buffers, `queue_series` (`time_s`,
//! `port`, `total`, and one column per VC: cells of that VC in the buffer).
//!
//! Sweep figures of a PCN or ATM cell: every top-level number, boolean or string of the
//! result except `name` and `seed` (`events`, `total_goodput_mbps`, `fairness_index`,
//! `all_mcr_met`, ...), and for each entry of a top-level list of named entries (`links`,
//! `ieas`, `vcs`, `ports`) its numbers flattened under `<list>[<name>].` (e.g.
//! `links[L1].over_admission.oa_pct`, `vcs[VC1].data.cells_dropped_clp1`). Lists of
//! unnamed entries (terminations, fairness points, series) are left to `qoslab.run`.
//!
//! Ctrl-C: every run is driven in slices and stops at the next slice. IP and ATM runs go
//! through [`super::drive_with`] (`run_until`, the same events in the same order as a
//! one-shot run); PCN runs through `qoslab_sim::pcn::run_driven` ([`PCN_SLICES`] slices of
//! simulated time, the OT-window snapshot at its exact instant, the result identical to
//! `pcn::run`).

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, RecordBatch, UInt32Array};
use arrow_schema::ArrowError;
use qoslab_sim::atm::result::AtmResult;
use qoslab_sim::atm::spec::AtmScenario;
use qoslab_sim::atm::AtmSim;
use qoslab_sim::pcn::{PcnResult, PcnSpec};
use qoslab_sim::scenario::spec::Scenario;
use qoslab_sim::Simulator;
use serde_json::Value as Json;

use super::arrow::{flatten_skipping, json_column, one_str, one_u64, records_json, RunOutput};
use super::{set, Override, RunError, SetError};

/// Which engine a scenario text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ip,
    Pcn,
    Atm,
}

impl Kind {
    /// How a text tells: a top-level `[pcn]` table, or `atm = true`; anything else is read
    /// as an IP scenario (whose reader reports what is wrong with it).
    pub fn of(text: &str) -> Kind {
        if qoslab_sim::pcn::is_pcn_scenario(text) {
            Kind::Pcn
        } else if qoslab_sim::atm::scenario::is_atm(text) {
            Kind::Atm
        } else {
            Kind::Ip
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Ip => "ip",
            Kind::Pcn => "pcn",
            Kind::Atm => "atm",
        }
    }
}

/// A validated scenario of any kind.
#[derive(Clone, Debug)]
pub enum AnyScenario {
    Ip(Box<Scenario>),
    Pcn(Box<PcnSpec>),
    Atm(Box<AtmScenario>),
}

impl AnyScenario {
    pub fn kind(&self) -> Kind {
        match self {
            AnyScenario::Ip(_) => Kind::Ip,
            AnyScenario::Pcn(_) => Kind::Pcn,
            AnyScenario::Atm(_) => Kind::Atm,
        }
    }
    pub fn name(&self) -> &str {
        match self {
            AnyScenario::Ip(s) => &s.name,
            AnyScenario::Pcn(s) => &s.name,
            AnyScenario::Atm(s) => &s.name,
        }
    }
    /// The scenario's own seed (`seed = ...`).
    pub fn seed(&self) -> u64 {
        match self {
            AnyScenario::Ip(s) => s.seed,
            AnyScenario::Pcn(s) => s.seed,
            AnyScenario::Atm(s) => s.seed,
        }
    }
}

/// Applies `overrides` to `text` and reads the result with the reader of its kind. An ATM
/// scenario is also built once ([`AtmSim::new`], as `qoslab validate` does), so that a
/// network the engine refuses is refused here, before any run of a sweep.
pub fn load_any(text: &str, file: &str, overrides: &[Override]) -> Result<AnyScenario, SetError> {
    let edited = set::apply(text, overrides).map_err(SetError::Override)?;
    match Kind::of(&edited) {
        Kind::Ip => qoslab_sim::scenario::parse_str(&edited, file)
            .map(|s| AnyScenario::Ip(Box::new(s)))
            .map_err(SetError::Scenario),
        Kind::Pcn => qoslab_sim::pcn::parse_str(&edited, file)
            .map(|s| AnyScenario::Pcn(Box::new(s)))
            .map_err(SetError::Scenario),
        Kind::Atm => {
            let s =
                qoslab_sim::atm::scenario::parse_str(&edited, file).map_err(SetError::Scenario)?;
            AtmSim::new(s.clone(), s.seed).map_err(SetError::Engine)?;
            Ok(AnyScenario::Atm(Box::new(s)))
        }
    }
}

/// The results of a run of any kind.
pub enum AnyOutput {
    Ip(Box<RunOutput>),
    Pcn(Box<PcnResult>),
    Atm(Box<AtmResult>),
}

/// Slices of simulated time a PCN run is driven in (a check for Ctrl-C after each).
pub const PCN_SLICES: u32 = 1000;

/// Runs a scenario of any kind with `seed` (conservation checked by each engine).
pub fn run_any(
    sc: AnyScenario,
    seed: u64,
    keep_going: impl FnMut(f64) -> bool,
) -> Result<AnyOutput, RunError> {
    match sc {
        AnyScenario::Ip(s) => {
            let mut sim = Simulator::new(*s, seed).map_err(RunError::Failed)?;
            super::drive(&mut sim, keep_going)?;
            super::collect(sim).map(|o| AnyOutput::Ip(Box::new(o)))
        }
        AnyScenario::Pcn(s) => {
            match qoslab_sim::pcn::run_driven(&s, seed, PCN_SLICES, keep_going) {
                Ok(Some(r)) => Ok(AnyOutput::Pcn(Box::new(r))),
                Ok(None) => Err(RunError::Cancelled),
                Err(e) => Err(RunError::Failed(e)),
            }
        }
        AnyScenario::Atm(s) => {
            let mut sim = AtmSim::new(*s, seed).map_err(RunError::Failed)?;
            super::drive_with(
                sim.end(),
                |t| {
                    let before = sim.events_processed();
                    sim.run_until(t);
                    sim.events_processed() - before
                },
                keep_going,
            )?;
            sim.finish()
                .map(|r| AnyOutput::Atm(Box::new(r)))
                .map_err(RunError::Failed)
        }
    }
}

fn to_json<T: serde::Serialize>(x: &T) -> Json {
    serde_json::to_value(x).expect("results serialise")
}

/// Keys of list entries that are series, not figures: tabulated apart (PCN
/// `link_series`, ATM `connections`), never flattened into columns.
const SERIES_KEYS: &[&str] = &["rate_series_bps", "connection_goodput_mbps"];

/// The entries of the top-level list `key` of a result's JSON.
fn list<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key)
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Every top-level list of objects of a result's JSON as a table of its name (in the
/// JSON's key order), except the keys in `apart`.
fn list_tables(v: &Json, apart: &[&str]) -> Result<Vec<(String, RecordBatch)>, ArrowError> {
    let mut out = Vec::new();
    let Some(m) = v.as_object() else {
        return Ok(out);
    };
    for (k, x) in m {
        let Some(rows) = x.as_array() else { continue };
        if apart.contains(&k.as_str()) || !rows.iter().all(Json::is_object) {
            continue;
        }
        let rows: Vec<&Json> = rows.iter().collect();
        out.push((k.clone(), records_json(&rows, SERIES_KEYS)?));
    }
    Ok(out)
}

/// Dictionary-free name column (a few rows per name at most, or long series: the caller
/// chooses); here a plain dictionary column built from names in row order.
fn name_column(names: &[&str]) -> ArrayRef {
    let mut dict: Vec<String> = Vec::new();
    let mut index: BTreeMap<&str, u32> = BTreeMap::new();
    let codes: Vec<u32> = names
        .iter()
        .map(|n| {
            *index.entry(n).or_insert_with(|| {
                dict.push(n.to_string());
                (dict.len() - 1) as u32
            })
        })
        .collect();
    super::arrow::names(codes.into_iter(), &dict)
}

fn pcn_link_series(v: &Json) -> Result<RecordBatch, ArrowError> {
    let (mut t, mut link, mut rate) = (Vec::new(), Vec::new(), Vec::new());
    for l in list(v, "links") {
        let name = l.get("name").and_then(Json::as_str).unwrap_or("");
        let bin = l.get("series_bin_s").and_then(Json::as_f64).unwrap_or(0.0);
        let series = l.get("rate_series_bps").and_then(Json::as_array);
        for (k, r) in series.into_iter().flatten().enumerate() {
            t.push(k as f64 * bin);
            link.push(name);
            rate.push(r.as_f64().unwrap_or(f64::NAN));
        }
    }
    RecordBatch::try_from_iter([
        ("time_s", Arc::new(Float64Array::from(t)) as ArrayRef),
        ("link", name_column(&link)),
        ("rate_bps", Arc::new(Float64Array::from(rate)) as ArrayRef),
    ])
}

fn atm_connections(r: &AtmResult) -> Result<RecordBatch, ArrowError> {
    let (mut vc, mut conn, mut g) = (Vec::new(), Vec::new(), Vec::new());
    for v in &r.vcs {
        for (k, x) in v.connection_goodput_mbps.iter().enumerate() {
            vc.push(v.name.as_str());
            conn.push(k as u32);
            g.push(*x);
        }
    }
    RecordBatch::try_from_iter([
        ("vc", name_column(&vc)),
        ("connection", Arc::new(UInt32Array::from(conn)) as ArrayRef),
        ("goodput_mbps", Arc::new(Float64Array::from(g)) as ArrayRef),
    ])
}

fn atm_queue_series(r: &AtmResult) -> Result<RecordBatch, ArrowError> {
    let (mut t, mut port, mut total) = (Vec::new(), Vec::new(), Vec::new());
    let mut per_vc: Vec<Vec<u32>> = vec![Vec::new(); r.vcs.len()];
    for q in &r.queue_series {
        for (k, n) in q.total.iter().enumerate() {
            t.push(k as f64 * q.interval_s);
            port.push(q.port.as_str());
            total.push(*n);
            for (i, col) in per_vc.iter_mut().enumerate() {
                col.push(q.per_vc.get(i).and_then(|s| s.get(k)).copied().unwrap_or(0));
            }
        }
    }
    let mut cols: Vec<(String, ArrayRef)> = vec![
        ("time_s".into(), Arc::new(Float64Array::from(t))),
        ("port".into(), name_column(&port)),
        ("total".into(), Arc::new(UInt32Array::from(total))),
    ];
    for (v, col) in r.vcs.iter().zip(per_vc) {
        cols.push((v.name.clone(), Arc::new(UInt32Array::from(col))));
    }
    RecordBatch::try_from_iter(cols)
}

impl AnyOutput {
    pub fn kind(&self) -> Kind {
        match self {
            AnyOutput::Ip(_) => Kind::Ip,
            AnyOutput::Pcn(_) => Kind::Pcn,
            AnyOutput::Atm(_) => Kind::Atm,
        }
    }

    /// `summary.json`, as `qoslab run` writes it for the kind.
    pub fn summary_json(&self) -> String {
        match self {
            AnyOutput::Ip(o) => qoslab_sim::output::summary_json(&o.result),
            AnyOutput::Pcn(r) => pretty(r.as_ref()),
            AnyOutput::Atm(r) => pretty(r.as_ref()),
        }
    }

    /// The run's tables by name (module docs). `all_series`: IP series the run did not
    /// record are empty tables rather than left out (see [`RunOutput::tables`]).
    pub fn tables(&self, all_series: bool) -> Result<Vec<(String, RecordBatch)>, ArrowError> {
        match self {
            AnyOutput::Ip(o) => Ok(o
                .tables(all_series)?
                .into_iter()
                .map(|(n, b)| (n.to_string(), b))
                .collect()),
            AnyOutput::Pcn(r) => {
                let v = to_json(r.as_ref());
                let mut t = list_tables(&v, &[])?;
                t.push(("link_series".into(), pcn_link_series(&v)?));
                Ok(t)
            }
            AnyOutput::Atm(r) => {
                let v = to_json(r.as_ref());
                let mut t = list_tables(&v, &["queue_series"])?;
                t.push(("connections".into(), atm_connections(r)?));
                if all_series || !r.queue_series.is_empty() {
                    t.push(("queue_series".into(), atm_queue_series(r)?));
                }
                Ok(t)
            }
        }
    }

    /// A sweep cell's row: the point's values, `seed`, `cell`, then the figures (IP:
    /// [`super::cell_batch`]; PCN and ATM: module docs). A figure named like a column
    /// already there (a grid key) is left out.
    pub fn cell_batch(&self, point: &[Override], seed: u64, key: &str) -> RecordBatch {
        let o = match self {
            AnyOutput::Ip(o) => return super::cell_batch(point, seed, key, &o.result),
            AnyOutput::Pcn(r) => to_json(r.as_ref()),
            AnyOutput::Atm(r) => to_json(r.as_ref()),
        };
        let mut cols: Vec<(String, ArrayRef)> = point
            .iter()
            .map(|o| (o.key.clone(), super::arrow::toml_column(&o.value)))
            .collect();
        cols.push(("seed".into(), one_u64(seed)));
        cols.push(("cell".into(), one_str(key)));
        let mut figures: Vec<(String, Json)> = Vec::new();
        if let Some(m) = o.as_object() {
            for (k, x) in m {
                match x {
                    Json::Array(rows) => {
                        for row in rows {
                            let Some(name) = row.get("name").and_then(Json::as_str) else {
                                continue; // unnamed entries: series, not figures
                            };
                            flatten_skipping(
                                &format!("{k}[{name}]"),
                                row,
                                SERIES_KEYS,
                                &mut figures,
                            );
                        }
                    }
                    Json::Object(_) => flatten_skipping(k, x, SERIES_KEYS, &mut figures),
                    _ if k == "name" || k == "seed" => {}
                    x => figures.push((k.clone(), x.clone())),
                }
            }
        }
        for (name, v) in figures {
            if v.is_null() || cols.iter().any(|(n, _)| *n == name) {
                continue; // an absent figure is null in the dataset (a cell without it)
            }
            cols.push((name, json_column(&[Some(&v)])));
        }
        RecordBatch::try_from_iter(cols).expect("one-row columns of distinct names")
    }
}

fn pretty<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string_pretty(x).expect("results serialise") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-second STM admission run on one link (the shipped file, shortened).
    pub(crate) const PCN: &str = r#"[pcn]
kind = "admission"
scheme = "stm"
duration = "3s"
link_rate = "10Mbps"
admissible = 0.5
supportable = 0.9
fifo = 1000
[pcn.traffic]
model = "cbr"
nominal_rate = "64kbps"
[pcn.topology]
kind = "single"
delay = "10ms"
[pcn.admission]
call_interval = "20ms"
call_interval_of = "iea"
holding_mean = "5s"
[pcn.stm]
n = 3
swtb_size = "20ms"
swtb_threshold = "10ms"
mktb_size = "10ms"
mktb_threshold = "8ms"
[pcn.edge]
cle_threshold = 1e-6
ewma_weight = 0.3
terminate = false
[pcn.measure]
oa_from = "1s"
oa_to = "3s"
ot_from = "1s"
ot_to = "3s"
fairness_bin = "1s"
series_bin = "0.5s"
"#;

    fn pcn_out(seed: u64) -> AnyOutput {
        let sc = load_any(PCN, "pcn.toml", &[]).unwrap();
        assert_eq!(sc.kind(), Kind::Pcn);
        run_any(sc, seed, |_| true).unwrap()
    }

    #[test]
    fn a_pcn_run_tabulates_every_list_of_its_result() {
        let out = pcn_out(1);
        let AnyOutput::Pcn(r) = &out else { panic!() };
        let tables = out.tables(true).unwrap();
        let names: Vec<&str> = tables.iter().map(|(n, _)| n.as_str()).collect();
        for want in ["links", "ieas", "terminations", "fairness", "link_series"] {
            assert!(names.contains(&want), "{names:?}");
        }
        let get = |n: &str| &tables.iter().find(|(m, _)| m == n).unwrap().1;
        assert_eq!(get("links").num_rows(), r.links.len());
        assert_eq!(get("ieas").num_rows(), r.ieas.len());
        let series_len: usize = r.links.iter().map(|l| l.rate_series_bps.len()).sum();
        assert_eq!(get("link_series").num_rows(), series_len);
        assert!(get("links").column_by_name("rate_series_bps.0").is_none());
        let offered = get("ieas")
            .column_by_name("offered")
            .unwrap()
            .as_any()
            .downcast_ref::<arrow_array::UInt64Array>()
            .unwrap()
            .value(0);
        assert_eq!(offered, r.ieas[0].offered);
        assert!(offered > 0);
        // the summary is the engine's result, as `qoslab run` writes it
        let v: Json = serde_json::from_str(&out.summary_json()).unwrap();
        assert_eq!(v, to_json(r.as_ref()));
    }

    #[test]
    fn a_pcn_cell_names_its_figures_by_list_and_entry() {
        let out = pcn_out(2);
        let AnyOutput::Pcn(r) = &out else { panic!() };
        let p = [Override::new("pcn.stm.n", 3)];
        let b = out.cell_batch(&p, 2, "k");
        assert_eq!(b.num_rows(), 1);
        let link = &r.links[0].name;
        for c in [
            "pcn.stm.n".to_string(),
            "seed".into(),
            "cell".into(),
            "events".into(),
            format!("links[{link}].arrived"),
            format!("links[{link}].out_marks.2"),
            format!("ieas[{}].admitted", r.ieas[0].name),
        ] {
            assert!(b.column_by_name(&c).is_some(), "{c}: {:?}", b.schema());
        }
        assert!(b
            .schema()
            .fields()
            .iter()
            .all(|f| !f.name().contains("rate_series")));
    }

    #[test]
    fn a_pcn_run_stops_between_slices_when_asked() {
        let sc = load_any(&PCN.replace("\"3s\"", "\"300s\""), "pcn.toml", &[]).unwrap();
        let t0 = std::time::Instant::now();
        let mut n = 0;
        let r = run_any(sc, 1, |_| {
            n += 1;
            n < 3
        });
        assert_eq!(r.err(), Some(RunError::Cancelled));
        assert!(t0.elapsed() < std::time::Duration::from_secs(2));
    }

    const ATM: &str = include_str!("../../../scenarios/gfr-kim2001/table1.toml");

    fn short_atm() -> Vec<Override> {
        vec![
            Override::new("duration", "1s"),
            Override::new("warmup", "0.5s"),
        ]
    }

    #[test]
    fn an_atm_run_tabulates_vcs_ports_and_connections_and_its_cell_has_every_vc() {
        let sc = load_any(ATM, "table1.toml", &short_atm()).unwrap();
        assert_eq!(sc.kind(), Kind::Atm);
        let out = run_any(sc, 1, |_| true).unwrap();
        let AnyOutput::Atm(r) = &out else { panic!() };
        let tables = out.tables(false).unwrap();
        let get = |n: &str| &tables.iter().find(|(m, _)| m == n).unwrap().1;
        assert_eq!(get("vcs").num_rows(), 6);
        assert_eq!(get("ports").num_rows(), r.ports.len());
        assert_eq!(get("connections").num_rows(), 30);
        assert!(get("vcs")
            .column_by_name("data.cells_dropped_clp0")
            .is_some());
        assert!(get("vcs").column_by_name("mcr_met").is_some());
        assert!(!tables.iter().any(|(n, _)| n == "queue_series"));
        let b = out.cell_batch(&short_atm(), 1, "k");
        for c in [
            "duration",
            "total_goodput_mbps",
            "fairness_index",
            "all_mcr_met",
            "vcs[VC6].goodput_mbps",
            "vcs[VC1].data.cells_dropped_clp1",
            "ports[SW1->SW2].cells_dropped_clp0",
        ] {
            assert!(b.column_by_name(c).is_some(), "{c}: {:?}", b.schema());
        }
        // the grid key `duration` is the point's value, not a figure of the same name
        assert_eq!(
            b.column_by_name("duration").unwrap().data_type(),
            &arrow_schema::DataType::Utf8
        );
    }

    #[test]
    fn a_driven_atm_run_equals_a_one_shot_run_and_stops_when_asked() {
        let AnyScenario::Atm(sc) = load_any(ATM, "table1.toml", &short_atm()).unwrap() else {
            panic!()
        };
        let one = AtmSim::new((*sc).clone(), 4).unwrap().run().unwrap();
        let mut checks = 0;
        let out = run_any(AnyScenario::Atm(sc.clone()), 4, |_| {
            checks += 1;
            true
        })
        .unwrap();
        assert!(checks > 2, "{checks}");
        let AnyOutput::Atm(r) = out else { panic!() };
        assert_eq!(*r, one);
        let mut n = 0;
        let r = run_any(AnyScenario::Atm(sc), 4, |_| {
            n += 1;
            n < 3
        });
        assert_eq!(r.err(), Some(RunError::Cancelled));
    }

    #[test]
    fn an_impossible_atm_scenario_is_refused_when_read() {
        // a warm-up past the end: refused before any run
        let e = load_any(ATM, "table1.toml", &[Override::new("warmup", "40s")]).unwrap_err();
        assert!(!e.to_string().is_empty());
    }

    #[test]
    fn kinds_are_told_by_their_top_level_keys() {
        assert_eq!(Kind::of(PCN), Kind::Pcn);
        assert_eq!(Kind::of("atm = true\nname = \"x\""), Kind::Atm);
        assert_eq!(Kind::of("name = \"x\""), Kind::Ip);
        let e = load_any(PCN, "pcn.toml", &[Override::new("pcn.stm.n", -1)]).unwrap_err();
        assert!(matches!(e, SetError::Scenario(_)), "{e}");
    }
}
