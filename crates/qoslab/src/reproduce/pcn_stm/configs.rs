//! The run configurations of the reproduction: the scenario files under
//! `scenarios/pcn-stm/` (compiled in) and the variants each table derives from them.

use qoslab_algo::Duration;
use qoslab_sim::pcn::spec::{PcnSpec, RunKind, Scheme, TopologySpec};

macro_rules! scen {
    ($f:literal) => {
        (
            concat!("scenarios/pcn-stm/", $f),
            include_str!(concat!("../../../../../scenarios/pcn-stm/", $f)),
        )
    };
}

/// Every scenario file, by path.
pub const FILES: &[(&str, &str)] = &[
    scen!("adm-cbr-single.toml"),
    scen!("adm-vbr-single.toml"),
    scen!("adm-svd-single.toml"),
    scen!("adm-cbr-rtt.toml"),
    scen!("adm-vbr-rtt.toml"),
    scen!("adm-svd-rtt.toml"),
    scen!("adm-cbr-plt5.toml"),
    scen!("adm-vbr-plt5.toml"),
    scen!("adm-svd-plt5.toml"),
    scen!("term-cbr-single.toml"),
    scen!("term-vbr-single.toml"),
    scen!("term-svd-single.toml"),
    scen!("term-cbr-rtt.toml"),
    scen!("term-vbr-rtt.toml"),
    scen!("term-svd-rtt.toml"),
    scen!("term-cbr-plt5.toml"),
    scen!("term-vbr-plt5.toml"),
    scen!("term-svd-plt5.toml"),
    scen!("marking-function.toml"),
];

pub fn base(file: &str) -> Result<PcnSpec, String> {
    let path = format!("scenarios/pcn-stm/{file}");
    let (_, text) = FILES
        .iter()
        .find(|(p, _)| *p == path)
        .ok_or_else(|| format!("no scenario file {path}"))?;
    qoslab_sim::pcn::parse_str(text, &path).map_err(|e| e.to_string())
}

pub const TRAFFIC: [&str; 3] = ["CBR", "VBR", "SVD"];

/// Table B.1: (CLE threshold, EWMA weight) of cases 1..=6.
pub const CASES: [(f64, f64); 6] = [
    (0.05, 0.0005),
    (0.05, 0.01),
    (0.05, 0.03),
    (0.05, 0.3),
    (0.00001, 0.3),
    (0.000001, 0.3),
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Topo {
    Single,
    Rtt(u32),
    Plt(u32),
}

impl Topo {
    pub fn label(self) -> String {
        match self {
            Topo::Single => "S.Link".into(),
            Topo::Rtt(k) => format!("RTT{k}"),
            Topo::Plt(5) => "PLT(c)".into(),
            Topo::Plt(n) => format!("PLT{n}"),
        }
    }
    fn file_part(self) -> &'static str {
        match self {
            Topo::Single => "single",
            Topo::Rtt(_) => "rtt",
            Topo::Plt(_) => "plt5",
        }
    }
}

/// How much shorter a `--quick` run is.
#[derive(Clone, Copy, Debug)]
pub struct Quick {
    pub on: bool,
}

fn set_topo(s: &mut PcnSpec, t: Topo) {
    match (&mut s.topology, t) {
        (TopologySpec::Rtt { ingresses, .. }, Topo::Rtt(k)) => *ingresses = k,
        (TopologySpec::ParkingLot { bottlenecks, .. }, Topo::Plt(n)) => *bottlenecks = n,
        _ => {}
    }
}

fn scheme_key(s: Scheme) -> &'static str {
    match s {
        Scheme::Stm => "stm",
        Scheme::Fractional => "fractional",
        Scheme::Cl => "cl",
    }
}

/// An admission configuration: (key, spec). `case` = Table B.1 case for STM (CL always uses
/// threshold 0.05, weight 0.3, §10.5).
pub fn admission(
    traffic: &str,
    topo: Topo,
    scheme: Scheme,
    case: usize,
    randomized: bool,
    q: Quick,
) -> Result<(String, PcnSpec), String> {
    let file = format!("adm-{}-{}.toml", traffic.to_lowercase(), topo.file_part());
    let mut s = base(&file)?;
    // The file's call interval is per IEA (single, PLT) or the total over the IEAs (RTT,
    // already multiplied by the file's k): rescale to this k.
    if let (TopologySpec::Rtt { ingresses, .. }, Topo::Rtt(k)) = (&s.topology, topo) {
        let total = s.admission.call_interval.as_nanos() / u64::from(*ingresses);
        s.admission.call_interval = Duration(total * u64::from(k));
    }
    set_topo(&mut s, topo);
    s.scheme = scheme;
    if scheme == Scheme::Cl {
        s.edge.cle_threshold = 0.05;
        s.edge.ewma_weight = 0.3;
    } else {
        let (thr, w) = CASES[case - 1];
        s.edge.cle_threshold = thr;
        s.edge.ewma_weight = w;
    }
    if randomized {
        s.traffic.randomize = Duration::from_millis(50);
    }
    if q.on {
        // 60 s, OA over 30-60 s (the admitted population fills within a few seconds at 5 AR).
        s.duration = Duration::from_secs(60);
        s.measure.oa_from = Duration::from_secs(30);
        s.measure.oa_to = Duration::from_secs(60);
        s.measure.delay_from = s.measure.oa_from; // delay over the OA window, as the file does
    }
    let key = format!(
        "adm/{}/{}/{}{}{}",
        traffic,
        topo.label(),
        scheme_key(scheme),
        if scheme == Scheme::Cl {
            String::new()
        } else {
            format!("/case{case}")
        },
        if randomized { "/r" } else { "" }
    );
    s.name = key.replace('/', "-");
    Ok((key, s))
}

/// A termination configuration at `load` × SR (1.25 or 2.0).
pub fn termination(
    traffic: &str,
    topo: Topo,
    scheme: Scheme,
    load: f64,
    q: Quick,
) -> Result<(String, PcnSpec), String> {
    let file = format!("term-{}-{}.toml", traffic.to_lowercase(), topo.file_part());
    let mut s = base(&file)?;
    set_topo(&mut s, topo);
    s.scheme = scheme;
    // The files give 2.0 SR; 1.25 SR = 5/8 of it (2500 of 4000 voice flows, 500 of 800 SVD).
    let f2 = f64::from(s.population.final_flows);
    s.population.final_flows = (f2 * load / 2.0).round() as u32;
    if scheme == Scheme::Cl {
        s.edge.cle_threshold = 0.05;
    }
    if q.on {
        // Extra flows at 10 s, OT over 20-30 s.
        s.duration = Duration::from_secs(30);
        s.population.extra_at = Duration::from_secs(10);
        s.measure.ot_from = Duration::from_secs(20);
        s.measure.ot_to = Duration::from_secs(30);
    }
    let key = format!(
        "term/{}/{}/{}/{}",
        traffic,
        topo.label(),
        scheme_key(scheme),
        load
    );
    s.name = key.replace('/', "-");
    Ok((key, s))
}

/// A marking-function point: `flows` VBR flows on the B.3 VBR link.
pub fn marking(scheme: Scheme, flows: u32, q: Quick) -> Result<(String, PcnSpec), String> {
    let mut s = base("marking-function.toml")?;
    s.scheme = scheme;
    s.population.base_flows = flows;
    s.population.final_flows = flows;
    if q.on {
        s.duration = Duration::from_secs(12);
        s.measure.static_from = Duration::from_secs(2);
        s.measure.delay_from = s.measure.static_from;
    }
    debug_assert_eq!(s.kind, RunKind::Static);
    let key = format!("mark/{}/{flows}", scheme_key(scheme));
    s.name = key.replace('/', "-");
    Ok((key, s))
}
