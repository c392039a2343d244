//! PCN scenario files: TOML with one top-level table `[pcn]` → validated [`PcnSpec`].
//! Read with the scenario reader of `crate::scenario`, so every error names the file,
//! line, column and key path, the value found and what is allowed. The format is described
//! in `scenarios/pcn-stm/README.md`; every key has the default given below, and each
//! default for something the draft leaves open is marked [G] with the reading map's row.

use std::path::Path;

use qoslab_algo::{Duration, Rate};

use crate::scenario::{quoted_list, ErrorKind, Field, Res, ScenarioError, Tbl};

use super::spec::*;

const TOP: &[&str] = &[
    "name",
    "seed",
    "kind",
    "scheme",
    "duration",
    "link_rate",
    "admissible",
    "supportable",
    "fifo",
    "traffic",
    "topology",
    "stm",
    "fractional",
    "cl",
    "edge",
    "admission",
    "population",
    "measure",
];

/// True if the TOML text is a PCN scenario (has a top-level `pcn` table). Cheap check used
/// by `qoslab run` / `validate` to dispatch; a file that is not valid TOML is not PCN.
pub fn is_pcn_scenario(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("pcn"),
        Err(_) => false,
    }
}

/// Reads a PCN scenario file from disk.
pub fn load(path: &Path) -> Result<PcnSpec, ScenarioError> {
    crate::scenario::parse::load_with(path, parse_str)
}

/// Reads and validates a PCN scenario; `file` names it in errors.
pub fn parse_str(text: &str, file: &str) -> Result<PcnSpec, ScenarioError> {
    crate::scenario::parse::with_root_table(text, file, |root| {
        root.check_keys(&["pcn"], "a PCN scenario (everything goes under [pcn])")?;
        let pcn = root.req("pcn")?.table()?;
        read(&pcn, file)
    })
}

fn sub<'a>(t: &Tbl<'a>, key: &str, allowed: &[&str]) -> Res<Option<Tbl<'a>>> {
    match t.get(key) {
        None => Ok(None),
        Some(f) => {
            let s = f.table()?;
            s.check_keys(allowed, &format!("[pcn.{key}]"))?;
            Ok(Some(s))
        }
    }
}

fn dur_or(t: Option<&Tbl<'_>>, key: &str, d: Duration) -> Res<Duration> {
    match t.and_then(|t| t.get(key)) {
        Some(f) => bounded(f),
        None => Ok(d),
    }
}

/// Longest time a PCN file may give (any key): sums of a few such times (a path's
/// delays, a packet time, a run's end) stay far inside the engine's u64 nanoseconds,
/// which a delay of `"18446744073s"` overflowed.
pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);

fn bounded(f: Field<'_>) -> Res<Duration> {
    let d = f.clone().duration()?;
    if d > MAX_TIME {
        return Err(f.err(ErrorKind::BadValue, "at most 1000000 s"));
    }
    Ok(d)
}
fn num_or(t: Option<&Tbl<'_>>, key: &str, d: f64) -> Res<f64> {
    match t.and_then(|t| t.get(key)) {
        Some(f) => f.number(),
        None => Ok(d),
    }
}
fn uint_or(t: Option<&Tbl<'_>>, key: &str, max: u64, d: u64) -> Res<u64> {
    match t.and_then(|t| t.get(key)) {
        Some(f) => f.uint(max),
        None => Ok(d),
    }
}
fn bool_or(t: Option<&Tbl<'_>>, key: &str, d: bool) -> Res<bool> {
    match t.and_then(|t| t.get(key)) {
        Some(f) => f.bool(),
        None => Ok(d),
    }
}
fn choice_or(
    t: Option<&Tbl<'_>>,
    key: &str,
    choices: &[&'static str],
    d: &'static str,
) -> Res<&'static str> {
    match t.and_then(|t| t.get(key)) {
        Some(f) => f.choice(choices),
        None => Ok(d),
    }
}
fn field<'a>(t: Option<&Tbl<'a>>, key: &str) -> Option<Field<'a>> {
    t.and_then(|t| t.get(key))
}

/// A rate given as a rate string or as a fraction (0, 1] of `of`.
fn rate_or_fraction(f: Field<'_>, of: Rate) -> Res<Rate> {
    if f.clone().number().is_ok() {
        let x = f.clone().number()?;
        if !(x > 0.0 && x <= 1.0) {
            return Err(f.err(
                ErrorKind::BadValue,
                "a fraction of link_rate must be in (0, 1] (or write a rate such as \"64Mbps\")",
            ));
        }
        return Ok(Rate(libm::round(of.bps() as f64 * x) as u64));
    }
    f.rate()
}

fn positive(f: Option<Field<'_>>, d: Duration) -> Res<()> {
    if d == Duration::ZERO {
        if let Some(f) = f {
            return Err(f.err(ErrorKind::BadValue, "must be > 0"));
        }
    }
    Ok(())
}

fn read(p: &Tbl<'_>, file: &str) -> Res<PcnSpec> {
    p.check_keys(TOP, "[pcn]")?;
    let name = match p.get("name") {
        Some(f) => f.string()?,
        None => Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "pcn".into()),
    };
    let seed = p.get("seed").map_or(Ok(1), |f| f.uint(u64::MAX))?;
    let kind = match p
        .req("kind")?
        .choice(&["admission", "termination", "static"])?
    {
        "admission" => RunKind::Admission,
        "termination" => RunKind::Termination,
        _ => RunKind::Static,
    };
    let scheme = match choice_or(Some(p), "scheme", &["stm", "fractional", "cl"], "stm")? {
        "stm" => Scheme::Stm,
        "fractional" => Scheme::Fractional,
        _ => Scheme::Cl,
    };
    let dur_f = p.req("duration")?;
    let duration = bounded(dur_f.clone())?;
    positive(Some(dur_f.clone()), duration)?;
    let rate_f = p.req("link_rate")?;
    let link_rate = rate_f.clone().rate()?;
    if link_rate.bps() == 0 {
        return Err(rate_f.err(ErrorKind::BadValue, "must be > 0"));
    }
    // §10.1: AR = 0.5 C, SR = 0.9 C (admission); AR = 0.2 C, SR = 0.4 C (termination).
    let (ar_d, sr_d) = if kind == RunKind::Admission {
        (0.5, 0.9)
    } else {
        (0.2, 0.4)
    };
    let admissible_rate = match p.get("admissible") {
        Some(f) => rate_or_fraction(f, link_rate)?,
        None => Rate(libm::round(link_rate.bps() as f64 * ar_d) as u64),
    };
    let supportable_rate = match p.get("supportable") {
        Some(f) => rate_or_fraction(f, link_rate)?,
        None => Rate(libm::round(link_rate.bps() as f64 * sr_d) as u64),
    };
    if admissible_rate.bps() == 0 {
        let f = p.get("admissible").unwrap_or(rate_f.clone());
        return Err(f.err(
            ErrorKind::BadValue,
            "PCN-admissible-rate must be > 0 bit/s (a fraction of link_rate that rounds to 0 bit/s is too small)",
        ));
    }
    if supportable_rate > link_rate {
        let f = p.get("supportable").unwrap_or(rate_f.clone());
        return Err(f.err(
            ErrorKind::Relation,
            format!(
                "PCN-supportable-rate ({} bit/s) must not exceed link_rate ({} bit/s): a link cannot support more than its physical rate (§10.1: SR = 0.9 C or 0.4 C)",
                supportable_rate.bps(),
                link_rate.bps()
            ),
        ));
    }
    if admissible_rate >= supportable_rate {
        let f = p
            .get("supportable")
            .or(p.get("admissible"))
            .unwrap_or(rate_f);
        return Err(f.err(
            ErrorKind::Relation,
            format!(
                "PCN-admissible-rate ({} bit/s) must be below PCN-supportable-rate ({} bit/s) (§3)",
                admissible_rate.bps(),
                supportable_rate.bps()
            ),
        ));
    }
    let fifo = p.get("fifo").map_or(Ok(80_000), |f| f.uint(100_000_000))? as u32;
    if fifo == 0 {
        return Err(p
            .req("fifo")?
            .err(ErrorKind::BadValue, "must be ≥ 1 packet"));
    }

    let traffic = traffic(p)?;
    if link_rate.tx_time(u64::from(traffic.packet_bytes)) > MAX_TIME {
        return Err(rate_f.clone().err(
            ErrorKind::Relation,
            format!(
                "one packet ({} B) takes more than 1000000 s at this rate",
                traffic.packet_bytes
            ),
        ));
    }
    let topology = topology(p, kind)?;
    let t = sub(
        p,
        "stm",
        &[
            "n",
            "swtb_size",
            "swtb_threshold",
            "mktb_size",
            "mktb_threshold",
            "mk_threshold_reading",
        ],
    )?;
    let t = t.as_ref();
    // §10.4: SwTB 20 ms / 10 ms at AR, MkTB 10 ms / 8 ms at SR, marking frequency 1/3 and
    // 1 ([G §5.1] read as N = 3).
    let stm = StmSpec {
        n: uint_or(t, "n", 1_000_000, 3)? as u32,
        swtb_size: dur_or(t, "swtb_size", Duration::from_millis(20))?,
        swtb_threshold: dur_or(t, "swtb_threshold", Duration::from_millis(10))?,
        mktb_size: dur_or(t, "mktb_size", Duration::from_millis(10))?,
        mktb_threshold: dur_or(t, "mktb_threshold", Duration::from_millis(8))?,
        mk_threshold_reading: choice_or(
            t,
            "mk_threshold_reading",
            &["literal", "deficit"],
            "literal",
        )?
        .into(),
    };
    if stm.n == 0 {
        return Err(field(t, "n")
            .expect("read")
            .err(ErrorKind::BadValue, "must be ≥ 1"));
    }
    order(
        t,
        "swtb_threshold",
        stm.swtb_threshold,
        "swtb_size",
        stm.swtb_size,
    )?;
    order(
        t,
        "mktb_threshold",
        stm.mktb_threshold,
        "mktb_size",
        stm.mktb_size,
    )?;
    let t = sub(
        p,
        "fractional",
        &[
            "n",
            "frtb_size",
            "frtb_threshold",
            "thtb_size",
            "thtb_threshold",
        ],
    )?;
    let t = t.as_ref();
    // App. E gives no values: [G map §1.3] the SwTB values for FrTB, the MkTB values for ThTB.
    let fractional = FractionalSpec {
        n: uint_or(t, "n", 1_000_000, 3)? as u32,
        frtb_size: dur_or(t, "frtb_size", Duration::from_millis(20))?,
        frtb_threshold: dur_or(t, "frtb_threshold", Duration::from_millis(10))?,
        thtb_size: dur_or(t, "thtb_size", Duration::from_millis(10))?,
        thtb_threshold: dur_or(t, "thtb_threshold", Duration::from_millis(8))?,
    };
    if fractional.n == 0 {
        return Err(field(t, "n").expect("read").err(
            ErrorKind::BadValue,
            "must be ≥ 1 (1/N of the traffic is marked, §14)",
        ));
    }
    order(
        t,
        "frtb_threshold",
        fractional.frtb_threshold,
        "frtb_size",
        fractional.frtb_size,
    )?;
    order(
        t,
        "thtb_threshold",
        fractional.thtb_threshold,
        "thtb_size",
        fractional.thtb_size,
    )?;
    let t = sub(
        p,
        "cl",
        &[
            "vq_min",
            "vq_max",
            "vq_limit",
            "tb_depth",
            "meter_already_marked",
            "excess_meter",
            "t_meas",
            "send_window",
            "edge",
            "error1",
            "error2",
            "victims",
            "ingress_wait",
        ],
    )?;
    let t = t.as_ref();
    // §10.5: 5 / 15 / 20 ms at AR; bucket depth 5 ms at SR.
    let cl = ClSpec {
        vq_min: dur_or(t, "vq_min", Duration::from_millis(5))?,
        vq_max: dur_or(t, "vq_max", Duration::from_millis(15))?,
        vq_limit: dur_or(t, "vq_limit", Duration::from_millis(20))?,
        tb_depth: dur_or(t, "tb_depth", Duration::from_millis(5))?,
        meter_already_marked: bool_or(t, "meter_already_marked", false)?,
        excess_meter: choice_or(
            t,
            "excess_meter",
            &["size-independent", "classic", "cl-phb-03"],
            "size-independent",
        )?
        .to_string(),
        t_meas: dur_or(t, "t_meas", Duration::from_millis(100))?,
        send_window: dur_or(t, "send_window", Duration::from_millis(100))?,
        edge: choice_or(t, "edge", &["rfc6661", "cl-phb-03"], "rfc6661")?.to_string(),
        error1: num_or(t, "error1", 0.0)?,
        error2: num_or(t, "error2", 0.0)?,
        victims: choice_or(t, "victims", &["ceil-mean", "upper-limit"], "ceil-mean")?.to_string(),
        ingress_wait: choice_or(t, "ingress_wait", &["none", "after-order"], "none")?.to_string(),
    };
    // cl-phb-03 §10.4.1: "Both Error1 and Error2 in all simulations were in the range of
    // 2-5%"; a fraction of SAR in [0, 1).
    for (k, v) in [("error1", cl.error1), ("error2", cl.error2)] {
        if !(0.0..1.0).contains(&v) {
            return Err(field(t, k)
                .expect("non-default")
                .err(ErrorKind::BadValue, "must be a fraction of SAR in [0, 1)"));
        }
    }
    if cl.edge != "cl-phb-03" && (cl.error1 != 0.0 || cl.error2 != 0.0) {
        let k = if cl.error1 != 0.0 { "error1" } else { "error2" };
        return Err(field(t, k).expect("non-default").err(
            ErrorKind::Relation,
            "error1/error2 are cl-phb-03 §10.4.1's error factors: they need edge = \"cl-phb-03\"",
        ));
    }
    if cl.edge != "cl-phb-03" && cl.ingress_wait != "none" {
        return Err(field(t, "ingress_wait").expect("non-default").err(
            ErrorKind::Relation,
            "ingress_wait is an option of edge = \"cl-phb-03\" (the RFC 6661 edge always waits, §3.3.2)",
        ));
    }
    // vq_min = vq_max is RFC 5670 §2.3's step threshold-meter.
    if cl.vq_min > cl.vq_max {
        let f = field(t, "vq_min")
            .or(field(t, "vq_max"))
            .expect("non-default");
        return Err(f.err(
            ErrorKind::Relation,
            "vq_min must not exceed vq_max (§10.5; equal = RFC 5670 step)",
        ));
    }
    order(t, "vq_max", cl.vq_max, "vq_limit", cl.vq_limit)?;
    positive(field(t, "t_meas"), cl.t_meas)?;
    positive(field(t, "send_window"), cl.send_window)?;

    let t = sub(
        p,
        "edge",
        &[
            "cle_threshold",
            "ewma_weight",
            "request_updates_cle",
            "l_marks",
            "m_unmarked",
            "report_interval",
            "rate_window",
            "gating",
            "measure_interval",
            "extra_fraction",
            "r_min_reports",
            "first_report",
            "round_start",
            "discard_terminated",
            "terminate",
        ],
    )?;
    let t = t.as_ref();
    // STM case 6 (§11.2) for STM, §10.5 for CL: threshold 1e-6 / 0.05, weight 0.3.
    let thr_default = if scheme == Scheme::Cl { 0.05 } else { 1e-6 };
    let edge = EdgeSpec {
        cle_threshold: num_or(t, "cle_threshold", thr_default)?,
        ewma_weight: num_or(t, "ewma_weight", 0.3)?,
        request_updates_cle: bool_or(t, "request_updates_cle", true)?,
        l_marks: uint_or(t, "l_marks", 1_000_000, 100)? as u32,
        m_unmarked: uint_or(t, "m_unmarked", 1_000_000, 20)? as u32,
        report_interval: dur_or(t, "report_interval", Duration::from_micros(33_300))?,
        rate_window: dur_or(t, "rate_window", Duration::from_micros(33_300))?,
        gating: choice_or(
            t,
            "gating",
            &["while-marked-run", "until-cancel"],
            "while-marked-run",
        )?
        .into(),
        measure_interval: dur_or(t, "measure_interval", Duration::from_millis(100))?,
        extra_fraction: num_or(t, "extra_fraction", 0.05)?,
        r_min_reports: choice_or(
            t,
            "r_min_reports",
            &["during-interval", "all"],
            "during-interval",
        )?
        .into(),
        first_report: choice_or(
            t,
            "first_report",
            &["at-lth-mark", "one-interval-later"],
            "at-lth-mark",
        )?
        .into(),
        round_start: choice_or(
            t,
            "round_start",
            &["back-to-back", "next-report"],
            "back-to-back",
        )?
        .into(),
        discard_terminated: bool_or(t, "discard_terminated", true)?,
        terminate: bool_or(t, "terminate", kind == RunKind::Termination)?,
    };
    if !(edge.cle_threshold > 0.0 && edge.cle_threshold <= 1.0) {
        return Err(field(t, "cle_threshold")
            .expect("non-default")
            .err(ErrorKind::BadValue, "must be in (0, 1]"));
    }
    if !(edge.ewma_weight > 0.0 && edge.ewma_weight <= 1.0) {
        return Err(field(t, "ewma_weight")
            .expect("non-default")
            .err(ErrorKind::BadValue, "must be in (0, 1]"));
    }
    if !(0.0..1.0).contains(&edge.extra_fraction) {
        return Err(field(t, "extra_fraction")
            .expect("non-default")
            .err(ErrorKind::BadValue, "must be in [0, 1)"));
    }
    for (k, d) in [
        ("report_interval", edge.report_interval),
        ("rate_window", edge.rate_window),
        ("measure_interval", edge.measure_interval),
    ] {
        positive(field(t, k), d)?;
    }
    // §3.2.2: "T_rep must be shorter than the ingress measuring interval".
    if edge.report_interval >= edge.measure_interval {
        let f = field(t, "report_interval")
            .or(field(t, "measure_interval"))
            .expect("non-default");
        return Err(f.err(
            ErrorKind::Relation,
            "report_interval must be shorter than measure_interval (§3.2.2)",
        ));
    }
    for (k, v) in [("l_marks", edge.l_marks), ("m_unmarked", edge.m_unmarked)] {
        if v == 0 {
            let f = field(t, k).expect("only a written value can be 0");
            return Err(f.err(ErrorKind::BadValue, "must be ≥ 1"));
        }
    }

    let t = sub(
        p,
        "admission",
        &["call_interval", "call_interval_of", "holding_mean"],
    )?;
    let t = t.as_ref();
    let call_f = field(t, "call_interval");
    let mut call_interval = match call_f.clone() {
        Some(f) => bounded(f)?,
        None if kind == RunKind::Admission => {
            return Err(p.err(
                ErrorKind::BadValue,
                "an admission run needs [pcn.admission] call_interval",
            ))
        }
        None => Duration::from_secs(1),
    };
    positive(call_f, call_interval)?;
    // `call_interval_of = "all"`: the interval of all the IEAs together (RTT: §11.4 "the
    // same total rate divided by k"); "iea": of each IEA.
    if choice_or(t, "call_interval_of", &["iea", "all"], "iea")? == "all" {
        call_interval = call_interval.saturating_mul(topology_ieas(&topology) as u64);
    }
    let admission = AdmissionSpec {
        call_interval,
        holding_mean: dur_or(t, "holding_mean", Duration::from_secs(60))?,
    };
    positive(field(t, "holding_mean"), admission.holding_mean)?;

    let t = sub(
        p,
        "population",
        &[
            "base_flows",
            "final_flows",
            "extra_at",
            "extra_split",
            "start_spread",
            "start_state",
            "long_haul_share",
        ],
    )?;
    let t = t.as_ref();
    let mean_interval_ns = (traffic.packet_bytes as f64 * 8.0 / traffic.nominal_bps) * 1e9;
    let population = PopulationSpec {
        base_flows: uint_or(t, "base_flows", 10_000_000, 0)? as u32,
        final_flows: uint_or(t, "final_flows", 10_000_000, 0)? as u32,
        extra_at: dur_or(t, "extra_at", Duration::from_secs(50))?,
        extra_split: match choice_or(t, "extra_split", &["even", "one-iea"], "even")? {
            "even" => ExtraSplit::Even,
            _ => ExtraSplit::OneIea,
        },
        // [G map §4.2]: one mean packet interval (CBR 20 ms, VBR 58.8 ms, SVD 2.94 ms).
        start_spread: dur_or(
            t,
            "start_spread",
            Duration(libm::round(mean_interval_ns) as u64),
        )?,
        start_state: choice_or(t, "start_state", &["stationary", "on"], "stationary")?.into(),
        long_haul_share: num_or(t, "long_haul_share", 0.5)?,
    };
    if population.start_spread > MAX_TIME {
        // Only the default can get here: one mean packet interval at nominal_rate.
        return Err(p.err(
            ErrorKind::Relation,
            "[pcn.population] start_spread (default: one mean packet interval at the traffic's nominal rate) is above 1000000 s: write start_spread",
        ));
    }
    if population.final_flows < population.base_flows && kind == RunKind::Termination {
        // final_flows may be left at its default 0: then the error names base_flows.
        let f = field(t, "final_flows")
            .or(field(t, "base_flows"))
            .expect("base_flows > 0 was written");
        return Err(f.err(
            ErrorKind::Relation,
            format!(
                "final_flows ({}) must be ≥ base_flows ({}): the flows on each link after extra_at (§12)",
                population.final_flows, population.base_flows
            ),
        ));
    }
    if !(population.long_haul_share > 0.0 && population.long_haul_share < 1.0) {
        let f = field(t, "long_haul_share").expect("non-default");
        return Err(f.err(ErrorKind::BadValue, "must be in (0, 1)"));
    }
    if kind != RunKind::Admission && population.base_flows == 0 && population.final_flows == 0 {
        return Err(p.err(
            ErrorKind::BadValue,
            "a termination or static run needs [pcn.population] base_flows (and final_flows)",
        ));
    }

    let t = sub(
        p,
        "measure",
        &[
            "oa_from",
            "oa_to",
            "ot_from",
            "ot_to",
            "fairness_bin",
            "series_bin",
            "static_from",
            "delay",
            "delay_variation",
            "delay_from",
        ],
    )?;
    let t = t.as_ref();
    let oa_from = dur_or(t, "oa_from", Duration::from_secs(200))?;
    let static_from = dur_or(t, "static_from", Duration::from_secs(5))?;
    let delay_default = match kind {
        RunKind::Admission => oa_from,
        RunKind::Termination => Duration::ZERO,
        RunKind::Static => static_from,
    };
    let measure = MeasureSpec {
        oa_from,
        oa_to: dur_or(t, "oa_to", Duration::from_secs(300))?,
        ot_from: dur_or(t, "ot_from", Duration::from_secs(80))?,
        ot_to: dur_or(t, "ot_to", Duration::from_secs(100))?,
        fairness_bin: dur_or(t, "fairness_bin", Duration::from_secs(10))?,
        series_bin: dur_or(
            t,
            "series_bin",
            if kind == RunKind::Termination {
                Duration::from_millis(20)
            } else {
                Duration::from_secs(1)
            },
        )?,
        static_from,
        delay: bool_or(t, "delay", true)?,
        delay_variation: bool_or(t, "delay_variation", false)?,
        delay_from: dur_or(t, "delay_from", delay_default)?,
    };
    if let (Some(f), false) = (field(t, "delay_variation"), measure.delay) {
        if measure.delay_variation {
            return Err(f.err(
                ErrorKind::Relation,
                "delay_variation = true needs delay = true",
            ));
        }
    }
    if let (Some(f), true) = (field(t, "delay_from"), measure.delay_from >= duration) {
        return Err(f.err(
            ErrorKind::Relation,
            format!(
                "delay_from must be before the end of the run (duration = {} s)",
                duration.as_secs_f64()
            ),
        ));
    }
    order_strict(t, "oa_from", measure.oa_from, "oa_to", measure.oa_to)?;
    order_strict(t, "ot_from", measure.ot_from, "ot_to", measure.ot_to)?;
    positive(field(t, "fairness_bin"), measure.fairness_bin)?;
    positive(field(t, "series_bin"), measure.series_bin)?;
    // Each bin is a counter kept per link (series) or per IEA (fairness) for the whole run.
    for (k, bin) in [
        ("fairness_bin", measure.fairness_bin),
        ("series_bin", measure.series_bin),
    ] {
        if duration.as_nanos().div_ceil(bin.as_nanos().max(1)) > MAX_BINS {
            let f = field(t, k).unwrap_or(dur_f.clone());
            return Err(f.err(
                ErrorKind::Relation,
                format!(
                    "{k} must be at least duration / {MAX_BINS} = {} s (at most {MAX_BINS} bins per run)",
                    duration.as_secs_f64() / MAX_BINS as f64
                ),
            ));
        }
    }
    let window_end = match kind {
        RunKind::Admission => Some(("oa_to", measure.oa_to)),
        RunKind::Termination => Some(("ot_to", measure.ot_to)),
        RunKind::Static => None,
    };
    if let Some((k, end)) = window_end {
        if end > duration {
            let f = field(t, k).unwrap_or(dur_f);
            return Err(f.err(
                ErrorKind::Relation,
                format!(
                    "the measurement window must end by duration = {} s",
                    duration.as_secs_f64()
                ),
            ));
        }
    }
    let spec = PcnSpec {
        name,
        seed,
        duration,
        kind,
        scheme,
        link_rate,
        admissible_rate,
        supportable_rate,
        fifo_packets: fifo,
        traffic,
        topology,
        stm,
        fractional,
        cl,
        edge,
        admission,
        population,
        measure,
    };
    engine_params(&spec, p)?;
    Ok(spec)
}

/// The marker and edge parameters exactly as the engine builds them: a relation that only
/// breaks once durations are converted to bits at AR or SR (a 1 ns bucket at 1 Mb/s holds
/// 0 bits) is refused here, at the table
/// of the scheme in use, rather than by the engine after reading.
fn engine_params(s: &PcnSpec, p: &Tbl<'_>) -> Res<()> {
    let refuse = |key: &str, what: &str, e: String| -> ScenarioError {
        let msg = format!("{what}: {e}");
        match p.get(key) {
            Some(f) => f.err(ErrorKind::Relation, msg),
            None => p.err(ErrorKind::Relation, msg),
        }
    };
    let table = match s.scheme {
        Scheme::Stm => "stm",
        Scheme::Fractional => "fractional",
        Scheme::Cl => "cl",
    };
    super::marking::LinkMarker::new(s).map_err(|e| {
        refuse(
            table,
            &format!("[pcn.{table}] durations converted to bits at AR (SwTB, FrTB, virtual queue) or SR (MkTB, ThTB, CL bucket)"),
            e,
        )
    })?;
    if s.edge.terminate {
        super::edge::Egress::new(s).map_err(|e| refuse("edge", "[pcn.edge]", e))?;
        super::edge::Ingress::new(s, Duration::ZERO)
            .map_err(|e| refuse("edge", "[pcn.edge]", e))?;
    }
    Ok(())
}

fn topology_ieas(t: &TopologySpec) -> u32 {
    match t {
        TopologySpec::Single { .. } => 1,
        TopologySpec::Rtt { ingresses, .. } => *ingresses,
        TopologySpec::ParkingLot { bottlenecks, .. } => bottlenecks + 1,
    }
}

fn order(t: Option<&Tbl<'_>>, lo_k: &str, lo: Duration, hi_k: &str, hi: Duration) -> Res<()> {
    if lo > hi {
        let f = field(t, lo_k)
            .or(field(t, hi_k))
            .expect("a default broke the rule");
        return Err(f.err(
            ErrorKind::Relation,
            format!("{lo_k} must not exceed {hi_k}"),
        ));
    }
    Ok(())
}
fn order_strict(
    t: Option<&Tbl<'_>>,
    lo_k: &str,
    lo: Duration,
    hi_k: &str,
    hi: Duration,
) -> Res<()> {
    if lo >= hi {
        let f = field(t, lo_k)
            .or(field(t, hi_k))
            .expect("a default broke the rule");
        return Err(f.err(ErrorKind::Relation, format!("{lo_k} must be below {hi_k}")));
    }
    Ok(())
}

/// Most time bins of a rate series (`series_bin`, `fairness_bin`) over one run.
pub const MAX_BINS: u64 = 1_000_000;

const MODELS: &[&str] = &["cbr", "vbr", "svd"];

fn traffic(p: &Tbl<'_>) -> Res<TrafficSpec> {
    let t = sub(
        p,
        "traffic",
        &[
            "model",
            "packet_size",
            "interval",
            "on_mean",
            "off_mean",
            "burst",
            "nominal_rate",
            "randomize",
        ],
    )?;
    let Some(t) = t else {
        return Err(p.err(
            ErrorKind::BadValue,
            format!("missing [pcn.traffic] (model = {})", quoted_list(MODELS)),
        ));
    };
    let model = t.req("model")?.choice(MODELS)?;
    let t = Some(&t);
    // §10.2 / map §2: CBR 160 B / 20 ms; VBR on-off voice 160 B / 20 ms, ON 340 ms,
    // OFF 660 ms; SVD 1500 B / 1 ms, same ON/OFF. Nominal means [G §5.20]: 64 kb/s,
    // 21.76 kb/s, 4.08 Mb/s (= 12 Mb/s × 0.34; the draft prints 4 Mb/s, map §7.4).
    let (size, interval, onoff, nominal) = match model {
        "cbr" => (160, Duration::from_millis(20), false, 64_000.0),
        "vbr" => (160, Duration::from_millis(20), true, 21_760.0),
        _ => (1500, Duration::from_millis(1), true, 4_080_000.0),
    };
    let packet_bytes = match field(t, "packet_size") {
        Some(f) => f.size_u32(1)?,
        None => size,
    };
    let interval_f = field(t, "interval");
    let interval = dur_or(t, "interval", interval)?;
    positive(interval_f, interval)?;
    let on_mean = dur_or(t, "on_mean", Duration::from_millis(340))?;
    let off_mean = dur_or(t, "off_mean", Duration::from_millis(660))?;
    let burst = match choice_or(t, "burst", &["ns2", "continuous"], "ns2")? {
        "ns2" => BurstModel::Ns2,
        _ => BurstModel::Continuous,
    };
    let on_off = if onoff || field(t, "on_mean").is_some() {
        positive(field(t, "on_mean"), on_mean)?;
        Some(OnOff {
            on_mean,
            off_mean,
            burst,
        })
    } else {
        None
    };
    let nominal_bps = match field(t, "nominal_rate") {
        Some(f) => {
            let r = f.clone().rate()?;
            if r.bps() == 0 {
                return Err(f.err(ErrorKind::BadValue, "must be > 0"));
            }
            r.bps() as f64
        }
        None if size == packet_bytes && field(t, "interval").is_none() => nominal,
        None => {
            // A changed size or spacing: the long-term mean of the model.
            let peak = packet_bytes as f64 * 8.0 / interval.as_secs_f64();
            match on_off {
                None => peak,
                Some(o) => peak * o.on_mean.as_secs_f64() / (o.on_mean + o.off_mean).as_secs_f64(),
            }
        }
    };
    Ok(TrafficSpec {
        model: model.into(),
        packet_bytes,
        interval,
        on_off,
        nominal_bps,
        randomize: dur_or(t, "randomize", Duration::ZERO)?,
    })
}

fn topology(p: &Tbl<'_>, kind: RunKind) -> Res<TopologySpec> {
    let t = sub(
        p,
        "topology",
        &[
            "kind",
            "delay",
            "ingresses",
            "ingress_delay_min",
            "ingress_delay_max",
            "bottleneck_delay",
            "bottlenecks",
            "link_delay",
            "vertical_delay",
        ],
    )?;
    let Some(tt) = t else {
        return Err(p.err(
            ErrorKind::BadValue,
            "missing [pcn.topology] (kind = \"single\", \"rtt\" or \"parking-lot\")",
        ));
    };
    let t = Some(&tt);
    let adm = kind == RunKind::Admission;
    let only = |allowed: &[&str], what: &str| -> Res<()> {
        let mut keys = vec!["kind"];
        keys.extend_from_slice(allowed);
        tt.check_keys(&keys, what)
    };
    Ok(
        match tt.req("kind")?.choice(&["single", "rtt", "parking-lot"])? {
            "single" => {
                only(&["delay"], "a single-link topology")?;
                // [G §5.4]: 10 ms (admission), 1 ms (termination).
                let d = if adm { 10 } else { 1 };
                TopologySpec::Single {
                    delay: dur_or(t, "delay", Duration::from_millis(d))?,
                }
            }
            "rtt" => {
                only(
                    &[
                        "ingresses",
                        "ingress_delay_min",
                        "ingress_delay_max",
                        "bottleneck_delay",
                    ],
                    "an RTT topology",
                )?;
                let kf = tt.req("ingresses")?;
                let k = kf.clone().uint(super::events::MAX_IEAS as u64)? as u32;
                if k == 0 {
                    return Err(kf.err(ErrorKind::BadValue, "must be ≥ 1"));
                }
                // §10.1: ingress links 1–100 ms, D–F 10 ms; [G §5.6] termination runs: 0 ms
                // ingress links and 1 ms D–F ("1 ms between ingress and egress", §12.2).
                let (lo, hi, bd) = if adm { (1, 100, 10) } else { (0, 0, 1) };
                let lo = dur_or(t, "ingress_delay_min", Duration::from_millis(lo))?;
                let hi = dur_or(t, "ingress_delay_max", Duration::from_millis(hi))?;
                order(t, "ingress_delay_min", lo, "ingress_delay_max", hi)?;
                TopologySpec::Rtt {
                    ingresses: k,
                    ingress_delay_min: lo,
                    ingress_delay_max: hi,
                    bottleneck_delay: dur_or(t, "bottleneck_delay", Duration::from_millis(bd))?,
                }
            }
            _ => {
                only(
                    &["bottlenecks", "link_delay", "vertical_delay"],
                    "a parking-lot topology",
                )?;
                let bf = tt.req("bottlenecks")?;
                let n = bf.clone().uint(20)? as u32;
                if n == 0 {
                    return Err(bf.err(ErrorKind::BadValue, "must be in [1, 20]"));
                }
                // §10.1: every link of the parking lots has 1 ms.
                TopologySpec::ParkingLot {
                    bottlenecks: n,
                    link_delay: dur_or(t, "link_delay", Duration::from_millis(1))?,
                    vertical_delay: dur_or(t, "vertical_delay", Duration::from_millis(1))?,
                }
            }
        },
    )
}
