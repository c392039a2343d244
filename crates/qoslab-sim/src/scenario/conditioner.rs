//! Conditioning stages, the one parser of both front-ends:
//!
//! * scenario links: `conditioner = [ { kind = "trras", ... }, { kind = "trtcm", ... } ]`
//!   ([`conditioner`], called by `parse.rs`);
//! * the chain files of `qoslab condition`: `[[stage]]` tables ([`parse_chain_str`]).
//!
//! Both read every stage with [`stage`] and check the green-RAS coupling with
//! [`check_couplings`]; they differ only where a front-end's situation differs, and each
//! difference is passed in, not duplicated:
//!
//! | | scenario link | chain file |
//! |---|---|---|
//! | stage order | at most one shaper, first (the link's conditioner feeds its queue) | any order |
//! | `mir` of a RAS | the link's rate when left out | required (no link) |
//! | `line_rate` of a RAS | the link's rate when left out | MIR when left out |
//! | top-level keys | — | `seed` (1), `af_class` (1) |
//!
//! Stage kinds and their keys (optional ones with their default):
//!
//! | kind | keys | source |
//! |---|---|---|
//! | `srtcm` | `cir`, `cbs`, `ebs`, `mode` ("blind") | RFC 2697 |
//! | `trtcm` | `cir`, `cbs`, `pir`, `pbs`, `mode` ("blind") | RFC 2698 |
//! | `tsw2cm` | `target`, `window` ("1s"), `mode` ("blind") | Clark & Fang 1998; RIO seed §2 |
//! | `tsw3cm` | `ctr`, `ptr`, `window` ("1s"), `mode` ("blind") | RFC 2859 |
//! | `token-bucket` | `cir`, `cbs`, `action` ("drop" \| "yellow" \| "red") | policer, RFC 2697 §3 bucket |
//! | `tb-shaper` | `rate`, `depth`, `buffer` | token-bucket shaper, RFC 2475 §2.3.3.3 |
//! | `srras`, `g-srras` | `cir`, `mir`, `line_rate`, `cir_th`, `mir_th`, `buffer`, `k` ("100ms") | RFC 2963 §2.2, §3.2 |
//! | `trras`, `g-trras` | `cir`, `pir`, `mir`, `line_rate`, `cir_th`, `pir_th`, `mir_th`, `buffer`, `k` ("100ms") | RFC 2963 §2.4, §3.4 |
//!
//! Choices, documented:
//! - RFC 2963 §2.2/§2.4 make MIR and the thresholds "SHOULD be configurable" without a
//!   default value. §2.2 calls MIR "typically the line rate of the output link": on a
//!   scenario link, `mir` and `line_rate` default to the link's rate; a chain file has no
//!   link, so `mir` is required there and `line_rate` (only used for the check
//!   `MIR <= line rate`) defaults to MIR. See [`RasDefaults`].
//! - `k` is the EAR averaging constant K of Stoica, Shenker & Zhang, left open by RFC 2963
//!   §2.2; default [`DEFAULT_K`] = 100 ms, the value of the CSFQ paper's simulations.
//! - The TSW window defaults to 1 s (Clark & Fang's and ns-2's,
//!   `qoslab_algo::meter::tsw::DEFAULT_WINDOW`).
//! - Green RAS coupling (RFC 2963 §3.1, figure 4: green RAS ⇒ Meter ⇒ Marker): a `g-srras`
//!   must be immediately followed by the `srtcm` it consults, a `g-trras` by the `trtcm`;
//!   anything else is refused. Their rates need not match (the RFC says the CIR "will
//!   usually be set" to the meter's).
//! - `tb-shaper` names its keys as the classical (r, b) profile plus the FIFO size: `rate`,
//!   `depth` (bucket, bytes), `buffer` (bytes).
//! - Rates are in bit/s as written; the RFCs' "bytes per second" is the same quantity.
//!   Every rule of the algorithms is checked by their own constructors (`XParams::new`),
//!   and reported at the stage with the rule's name and source.

use super::error::{line_col, ErrorKind, ScenarioError};
use super::reader::{Field, Res, Tbl};
use super::spec::{ConditionerSpec, MeterSpec};
use qoslab_algo::meter::{
    srtcm::SrTcmParams, token_bucket::PolicerAction, token_bucket::TbPolicerParams,
    trtcm::TrTcmParams, tsw::Tsw2cmParams, tsw::DEFAULT_WINDOW, tsw3cm::Tsw3cmParams, ColorMode,
};
use qoslab_algo::shaper::{RasParams, ShaperParams, SrRasConfig, TokenBucketParams, TrRasConfig};
use qoslab_algo::{Color, ConfigError, Duration, Rate};

/// Every stage kind, as written in `kind = ...`.
pub const STAGE_KINDS: &[&str] = &[
    "srtcm",
    "trtcm",
    "tsw2cm",
    "tsw3cm",
    "token-bucket",
    "tb-shaper",
    "srras",
    "trras",
    "g-srras",
    "g-trras",
];

/// K of the EAR estimator when a RAS does not say (RFC 2963 leaves it open; module docs).
pub const DEFAULT_K: Duration = Duration::from_millis(100);

/// The meter a green RAS must be followed by (RFC 2963 §3): (shaper kind, meter kind, the
/// rule as stated in the refusal).
const COUPLINGS: &[(&str, &str, &str)] = &[
    (
        "g-srras",
        "srtcm",
        "RFC 2963 §3.3: a G-srRAS must be followed by the srTCM it is coupled to",
    ),
    (
        "g-trras",
        "trtcm",
        "RFC 2963 §3.5: a G-trRAS must be followed by the trTCM it is coupled to",
    ),
];

/// The validated settings of one stage.
#[derive(Clone, Debug, PartialEq)]
pub enum StageParams {
    Shaper(ShaperParams),
    Meter(MeterSpec),
}

/// One stage as read: its kind as written, the line of its table and its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSpec {
    pub kind: String,
    /// 1-based line where the stage's table starts (its `[[stage]]` header or `{`).
    pub line: usize,
    pub params: StageParams,
}

/// A validated chain file of `qoslab condition`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSpec {
    /// Master seed of the TSW markers' random streams (`seed`, default 1).
    pub seed: u64,
    /// AF class 1..=4 of the DSCPs written into pcap output (`af_class`, default 1).
    pub af_class: u8,
    /// At least one, in file order, green RAS couplings checked.
    pub stages: Vec<StageSpec>,
}

/// What a rate adaptive shaper's `mir` and `line_rate` are when a stage leaves them out:
/// each front-end's documented default (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RasDefaults {
    /// `None`: `mir` is required.
    pub mir: Option<Rate>,
    /// `None`: `line_rate` defaults to the stage's MIR.
    pub line_rate: Option<Rate>,
}

impl RasDefaults {
    /// A scenario link of rate `link_rate`: MIR and line rate default to it.
    pub fn link(link_rate: Rate) -> RasDefaults {
        RasDefaults {
            mir: Some(link_rate),
            line_rate: Some(link_rate),
        }
    }
    /// A chain file (no link): MIR required, line rate = MIR.
    pub const CHAIN: RasDefaults = RasDefaults {
        mir: None,
        line_rate: None,
    };
}

/// Parses a link's conditioner list; `link_rate` is the rate of the link it feeds.
pub(crate) fn conditioner(f: Field<'_>, link_rate: Rate) -> Res<ConditionerSpec> {
    let stages = if f.is_table() {
        vec![f.clone()]
    } else {
        f.clone().list()?
    };
    if stages.is_empty() {
        return Err(f.err(
            ErrorKind::BadValue,
            "an empty conditioner list: give at least one stage",
        ));
    }
    let mut spec = ConditionerSpec {
        kinds: Vec::new(),
        shaper: None,
        meters: Vec::new(),
    };
    let mut read = Vec::with_capacity(stages.len());
    for (k, sf) in stages.into_iter().enumerate() {
        let (s, kind_f) = stage(sf.clone(), RasDefaults::link(link_rate))?;
        match s.params {
            StageParams::Shaper(p) => {
                // The link's conditioner feeds its queue: one shaper, ahead of the meters.
                if k != 0 {
                    return Err(sf.err(
                        ErrorKind::Relation,
                        "a shaper must be the first stage (RFC 2963 Fig. 1: shaper → meter → marker)",
                    ));
                }
                spec.shaper = Some(p);
            }
            StageParams::Meter(m) => spec.meters.push(m),
        }
        read.push((s.kind.clone(), kind_f));
        spec.kinds.push(s.kind);
    }
    check_couplings(&read)?;
    Ok(spec)
}

/// Parses and validates the text of a chain file of `qoslab condition`; `file` names it in
/// messages (`file:line:column: stage[k].key = value: what is wrong and what is allowed`,
/// `k` counting the `[[stage]]` tables from 0).
///
/// ```toml
/// seed = 1        # optional: master seed of the TSW markers' random streams (default 1)
/// af_class = 1    # optional: AF class 1..4 for the DSCP written into pcap output (default 1)
///
/// [[stage]]
/// kind = "g-trras" # coupled to the trTCM right after it (RFC 2963 §3)
/// cir = "2Mbps"
/// pir = "4Mbps"
/// mir = "34Mbps"
/// cir_th = "6KB"
/// pir_th = "12KB"
/// mir_th = "24KB"
/// buffer = "64KB"
///
/// [[stage]]
/// kind = "trtcm"
/// cir = "2Mbps"
/// cbs = "3000B"
/// pir = "4Mbps"
/// pbs = "6000B"
/// ```
pub fn parse_chain_str(text: &str, file: &str) -> Result<ChainSpec, ScenarioError> {
    super::parse::with_root_table(text, file, chain)
}

fn chain(root: &Tbl<'_>) -> Result<ChainSpec, ScenarioError> {
    let cx = root.cx;
    root.check_keys(&["seed", "af_class", "stage"], "a chain file")?;
    let seed = root.get("seed").map_or(Ok(1), |f| f.uint(u64::MAX))?;
    let af_class = match root.get("af_class") {
        None => 1,
        Some(f) => match f.clone().uint(u64::MAX)? {
            c @ 1..=4 => c as u8,
            _ => {
                return Err(f.err(
                    ErrorKind::BadValue,
                    "allowed 1, 2, 3 or 4 (the AF classes of RFC 2597)",
                ))
            }
        },
    };
    let items = match root.get("stage") {
        Some(f) if !f.is_table() => f.list()?,
        Some(f) => {
            return Err(f.err(
                ErrorKind::BadValue,
                "write the stages as [[stage]] tables (an array of tables)",
            ))
        }
        None => Vec::new(),
    };
    if items.is_empty() {
        return Err(cx.error(
            ErrorKind::BadValue,
            &(cx.src.len()..cx.src.len()),
            "stage",
            None,
            None,
            "no [[stage]] table: a chain needs at least one stage",
        ));
    }
    let mut stages = Vec::with_capacity(items.len());
    let mut kinds = Vec::with_capacity(items.len());
    for sf in items {
        let (s, kind_f) = stage(sf, RasDefaults::CHAIN)?;
        kinds.push((s.kind.clone(), kind_f));
        stages.push(s);
    }
    // Any order: a chain runs its stages one after the other, shapers included.
    check_couplings(&kinds)?;
    Ok(ChainSpec {
        seed,
        af_class,
        stages,
    })
}

/// Reads one stage (a table with `kind`); returns it with its `kind` field (where coupling
/// errors are reported).
pub(crate) fn stage(f: Field<'_>, ras: RasDefaults) -> Res<(StageSpec, Field<'_>)> {
    let t = f.table()?;
    let kind_f = t.get("kind").ok_or_else(|| {
        t.err(
            ErrorKind::BadValue,
            format!("missing key `kind` (one of {})", STAGE_KINDS.join(", ")),
        )
    })?;
    let kind = kind_f.clone().choice(STAGE_KINDS)?;
    let params = match kind {
        "tb-shaper" | "srras" | "trras" | "g-srras" | "g-trras" => {
            StageParams::Shaper(shaper(&t, kind, ras)?)
        }
        _ => StageParams::Meter(meter(&t, kind)?),
    };
    let spec = StageSpec {
        kind: kind.to_string(),
        line: line_col(t.cx.src, t.span.start).0,
        params,
    };
    Ok((spec, kind_f))
}

/// RFC 2963 §3: a green RAS must be immediately followed by the TCM it consults. `kinds`
/// are a chain's stage kinds in order, each with its `kind` field (where an error is
/// reported; the kind is passed resolved, as a counted table may give one per instance).
pub(crate) fn check_couplings(kinds: &[(String, Field<'_>)]) -> Res<()> {
    for (i, (kind, f)) in kinds.iter().enumerate() {
        let Some(&(_, meter, rule)) = COUPLINGS.iter().find(|c| c.0 == kind) else {
            continue;
        };
        let next = match kinds.get(i + 1).map(|(k, _)| k.as_str()) {
            Some(k) if k == meter => continue,
            Some(k) => format!("the next stage is a `{k}`"),
            None => "it is the last stage".to_string(),
        };
        return Err(f.err(
            ErrorKind::Relation,
            format!("{rule}, but {next}; put a stage of kind = \"{meter}\" right after it"),
        ));
    }
    Ok(())
}

/// What each key holds, for "missing key" messages.
fn key_help(key: &str) -> &'static str {
    match key {
        "cir" => "committed information rate, e.g. \"2Mbps\"",
        "pir" => "peak information rate, e.g. \"4Mbps\"",
        "mir" => "maximum information rate, e.g. \"34Mbps\"",
        "rate" => "token rate, e.g. \"2Mbps\"",
        "target" => "target rate, e.g. \"1Mbps\"",
        "ctr" => "committed target rate, e.g. \"1Mbps\"",
        "ptr" => "peak target rate, e.g. \"2Mbps\"",
        "cbs" => "committed burst size, e.g. \"3000B\"",
        "ebs" => "excess burst size, e.g. \"3000B\"",
        "pbs" => "peak burst size, e.g. \"6000B\"",
        "depth" => "token bucket depth, e.g. \"3000B\"",
        "cir_th" | "pir_th" | "mir_th" => "buffer occupancy threshold, e.g. \"6KB\"",
        "buffer" => "shaper buffer size, e.g. \"64KB\"",
        _ => "",
    }
}

/// A key the stage must have, with what it holds in the message when it is missing.
fn req<'a>(t: &Tbl<'a>, key: &str, kind: &str) -> Res<Field<'a>> {
    t.get(key).ok_or_else(|| {
        t.err(
            ErrorKind::BadValue,
            format!(
                "missing key `{key}` of {} {kind} stage ({})",
                article(kind),
                key_help(key)
            ),
        )
    })
}

/// "an srtcm", "a trtcm": the kinds are read letter by letter.
fn article(kind: &str) -> &'static str {
    if kind.starts_with('s') {
        "an"
    } else {
        "a"
    }
}

/// A broken rule of an algorithm, reported at the stage's table.
fn rule(t: &Tbl<'_>, e: ConfigError) -> ScenarioError {
    t.err(ErrorKind::Relation, e.to_string())
}

fn mode(t: &Tbl<'_>) -> Res<ColorMode> {
    Ok(match t.get("mode") {
        Some(f) => match f.choice(&["blind", "aware"])? {
            "aware" => ColorMode::Aware,
            _ => ColorMode::Blind,
        },
        None => ColorMode::Blind,
    })
}

fn meter(t: &Tbl<'_>, kind: &str) -> Res<MeterSpec> {
    let rate = |key: &str| req(t, key, kind)?.rate();
    let size = |key: &str| req(t, key, kind)?.size();
    let window = || t.get("window").map_or(Ok(DEFAULT_WINDOW), Field::duration);
    Ok(match kind {
        "srtcm" => {
            t.check_keys(&["kind", "mode", "cir", "cbs", "ebs"], "an srtcm stage")?;
            // RFC 2697 §2: CIR, CBS, EBS; colour-blind unless configured aware.
            let p = SrTcmParams::new(mode(t)?, rate("cir")?, size("cbs")?, size("ebs")?)
                .map_err(|e| rule(t, e))?;
            MeterSpec::SrTcm(p)
        }
        "trtcm" => {
            t.check_keys(
                &["kind", "mode", "cir", "cbs", "pir", "pbs"],
                "a trtcm stage",
            )?;
            // RFC 2698 §2: PIR, PBS, CIR, CBS.
            let p = TrTcmParams::new(
                mode(t)?,
                rate("cir")?,
                size("cbs")?,
                rate("pir")?,
                size("pbs")?,
            )
            .map_err(|e| rule(t, e))?;
            MeterSpec::TrTcm(p)
        }
        "tsw2cm" => {
            t.check_keys(&["kind", "mode", "target", "window"], "a tsw2cm stage")?;
            let p =
                Tsw2cmParams::new(mode(t)?, rate("target")?, window()?).map_err(|e| rule(t, e))?;
            MeterSpec::Tsw2cm(p)
        }
        "tsw3cm" => {
            t.check_keys(&["kind", "mode", "ctr", "ptr", "window"], "a tsw3cm stage")?;
            // RFC 2859 §3: CTR, PTR and the window length.
            let p = Tsw3cmParams::new(mode(t)?, rate("ctr")?, rate("ptr")?, window()?)
                .map_err(|e| rule(t, e))?;
            MeterSpec::Tsw3cm(p)
        }
        _ => {
            t.check_keys(&["kind", "cir", "cbs", "action"], "a token-bucket stage")?;
            let action = match t.get("action") {
                Some(f) => match f.choice(&["drop", "yellow", "red"])? {
                    "yellow" => PolicerAction::Remark(Color::Yellow),
                    "red" => PolicerAction::Remark(Color::Red),
                    _ => PolicerAction::Drop,
                },
                None => PolicerAction::Drop,
            };
            let p =
                TbPolicerParams::new(rate("cir")?, size("cbs")?, action).map_err(|e| rule(t, e))?;
            MeterSpec::Policer(p)
        }
    })
}

fn shaper(t: &Tbl<'_>, kind: &str, ras: RasDefaults) -> Res<ShaperParams> {
    let rate = |key: &str| req(t, key, kind)?.rate();
    let size = |key: &str| req(t, key, kind)?.size();
    if kind == "tb-shaper" {
        t.check_keys(&["kind", "rate", "depth", "buffer"], "a tb-shaper stage")?;
        let p = TokenBucketParams::new(rate("rate")?, size("depth")?, size("buffer")?)
            .map_err(|e| rule(t, e))?;
        return Ok(ShaperParams::TokenBucket(p));
    }
    let two_rate = kind.ends_with("trras");
    let green = kind.starts_with("g-");
    let common = [
        "kind",
        "cir",
        "mir",
        "line_rate",
        "cir_th",
        "mir_th",
        "buffer",
        "k",
    ];
    if two_rate {
        let mut keys = common.to_vec();
        keys.extend(["pir", "pir_th"]);
        t.check_keys(&keys, &format!("a {kind} stage"))?;
    } else {
        t.check_keys(&common, &format!("{} {kind} stage", article(kind)))?;
    }
    // RFC 2963 §2.2: "A typical value for the MIR would be the line rate of the output
    // link" — the front-end's defaults (module docs).
    let mir = match (t.get("mir"), ras.mir) {
        (Some(f), _) => f.rate()?,
        (None, Some(m)) => m,
        (None, None) => rate("mir")?,
    };
    let line_rate = t
        .get("line_rate")
        .map_or(Ok(ras.line_rate.unwrap_or(mir)), Field::rate)?;
    let k = t.get("k").map_or(Ok(DEFAULT_K), Field::duration)?;
    let params = if two_rate {
        // RFC 2963 §2.4: CIR, PIR, MIR and the thresholds CIR_th, PIR_th, MIR_th.
        RasParams::two_rate(&TrRasConfig {
            cir: rate("cir")?,
            pir: rate("pir")?,
            mir,
            line_rate,
            cir_th: size("cir_th")?,
            pir_th: size("pir_th")?,
            mir_th: size("mir_th")?,
            buffer: size("buffer")?,
            ear_window: k,
        })
    } else {
        // RFC 2963 §2.2: CIR, MIR and the thresholds CIR_th, MIR_th.
        RasParams::single_rate(&SrRasConfig {
            cir: rate("cir")?,
            mir,
            line_rate,
            cir_th: size("cir_th")?,
            mir_th: size("mir_th")?,
            buffer: size("buffer")?,
            ear_window: k,
        })
    }
    .map_err(|e| rule(t, e))?;
    // RFC 2963 §3: the green RAS has the same settings; it also consults the next meter.
    Ok(if green {
        ShaperParams::GreenRas(params)
    } else {
        ShaperParams::Ras(params)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRRAS: &str = "kind = 'trras', cir = '2Mbps', pir = '4Mbps', cir_th = '6KB', pir_th = '12KB', mir_th = '24KB', buffer = '64KB'";
    const TRTCM: &str = "kind = 'trtcm', cir = '2Mbps', cbs = '3KB', pir = '4Mbps', pbs = '6KB'";

    fn ras(sp: &StageSpec) -> &RasParams {
        match &sp.params {
            StageParams::Shaper(ShaperParams::Ras(r)) => r,
            other => panic!("{other:?}"),
        }
    }

    /// The same stage in a chain file and on a scenario link: one parser, each front-end's
    /// defaults for MIR and the line rate.
    #[test]
    fn one_stage_parser_two_front_ends() {
        // Chain file: no link, so MIR is required and the line rate defaults to MIR.
        let text = format!(
            "seed = 7\n\n[[stage]]\n{}\nmir = '30Mbps'\n\n[[stage]]\n{}\n",
            TRRAS.replace(", ", "\n"),
            TRTCM.replace(", ", "\n")
        );
        let c = parse_chain_str(&text, "c.toml").unwrap();
        assert_eq!((c.seed, c.af_class, c.stages.len()), (7, 1, 2));
        // Lines of the `[[stage]]` headers: 3 (after `seed` and a blank line), then 13:
        // 3 + the header + 7 keys of TRRAS + `mir` + a blank line = line 13.
        assert_eq!((c.stages[0].line, c.stages[1].line), (3, 13));
        assert_eq!(
            (c.stages[0].kind.as_str(), c.stages[1].kind.as_str()),
            ("trras", "trtcm")
        );
        let r = ras(&c.stages[0]);
        assert_eq!(
            (r.line_rate(), r.ear().k()),
            (Rate::from_mbps(30), DEFAULT_K)
        );
        let missing = parse_chain_str(&text.replace("mir = '30Mbps'\n", ""), "c.toml").unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("c.toml:3:1: stage[0]: missing key `mir` of a trras stage"),
            "{missing}"
        );
        // Scenario link of 34 Mb/s: MIR and line rate both default to the link's rate.
        let sc = format!(
            "duration = '1s'\nnode = [{{ name = 'a' }}, {{ name = 'b' }}]\n\
             link = [{{ from = 'a', to = 'b', rate = '34Mbps', delay = '1ms', duplex = false, \
             conditioner = [{{ {TRRAS} }}, {{ {TRTCM} }}] }}]\n"
        );
        let sc = super::super::parse_str(&sc, "s.toml").unwrap();
        let cond = sc.links[0].conditioner.as_ref().unwrap();
        assert_eq!(cond.kinds, ["trras", "trtcm"]);
        let Some(ShaperParams::Ras(r)) = &cond.shaper else {
            panic!("{cond:?}")
        };
        assert_eq!(r.line_rate(), Rate::from_mbps(34));
        let want = TrTcmParams::new(
            ColorMode::Blind,
            Rate::from_mbps(2),
            3000,
            Rate::from_mbps(4),
            6000,
        )
        .unwrap();
        assert_eq!(cond.meters, [MeterSpec::TrTcm(want)]);
        assert_eq!(
            c.stages[1].params,
            StageParams::Meter(MeterSpec::TrTcm(want))
        );
    }

    /// The coupling rule is the same in both front-ends, and a shaper may stand anywhere in a
    /// chain file but only first on a link.
    #[test]
    fn couplings_and_order() {
        let g = TRRAS.replace("'trras'", "'g-trras'");
        let chain = |stages: &[&str]| {
            let text: String = stages
                .iter()
                .map(|s| {
                    let mir = if s.contains("ras'") {
                        "mir = '30Mbps'\n"
                    } else {
                        ""
                    };
                    format!("[[stage]]\n{}\n{mir}", s.replace(", ", "\n"))
                })
                .collect();
            parse_chain_str(&text, "c.toml")
        };
        // A trTCM before a plain RAS: fine in a chain file.
        let c = chain(&[TRTCM, TRRAS]).unwrap();
        assert_eq!(c.stages[1].kind, "trras");
        let e = chain(&[&g]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Relation);
        assert!(
            e.to_string().contains("RFC 2963 §3.5")
                && e.to_string().contains("it is the last stage"),
            "{e}"
        );
        assert!(chain(&[&g, TRTCM]).is_ok());
        let link = |cond: &str| {
            let sc = format!(
                "duration = '1s'\nnode = [{{ name = 'a' }}, {{ name = 'b' }}]\n\
                 link = [{{ from = 'a', to = 'b', rate = '34Mbps', delay = '1ms', conditioner = [{cond}] }}]\n"
            );
            super::super::parse_str(&sc, "s.toml")
        };
        let e = link(&format!("{{ {g} }}")).unwrap_err();
        assert!(
            e.to_string().contains("RFC 2963 §3.5")
                && e.to_string().contains("conditioner[0].kind"),
            "{e}"
        );
        assert!(link(&format!("{{ {g} }}, {{ {TRTCM} }}")).is_ok());
        let e = link(&format!("{{ {TRTCM} }}, {{ {TRRAS} }}")).unwrap_err();
        assert!(
            e.to_string().contains("a shaper must be the first stage"),
            "{e}"
        );
        // A counted link may give the kind per instance: the rule holds for each instance.
        let sc = format!(
            "duration = '1s'\nnode = [{{ name = 'a{{i}}', count = 2 }}, {{ name = 'b' }}]\n\
             [[link]]\nfrom = 'a{{i}}'\nto = 'b'\ncount = 2\nrate = '34Mbps'\ndelay = '1ms'\n\
             conditioner = [{{ {} }}, {{ kind = 'srtcm', cir = '2Mbps', cbs = '3KB', ebs = '3KB' }}]\n",
            TRRAS.replace("'trras'", "['trras', 'g-trras']")
        );
        let e = super::super::parse_str(&sc, "s.toml").unwrap_err();
        assert!(
            e.to_string().contains("(i = 2): RFC 2963 §3.5")
                && e.to_string().contains("the next stage is a `srtcm`"),
            "{e}"
        );
    }
}
