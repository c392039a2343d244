//! Ingress conditioners of links: `conditioner = [ { kind = "trras", ... }, { kind = "trtcm", ... } ]`.
//!
//! A list of stages applied, in order, to packets entering the link (before its queue). At
//! most one shaper, and only as the first stage; then meters/markers/policers. Stage kinds
//! and parameter names follow the RFCs (and `qoslab condition`):
//!
//! | kind | keys (defaults) | source |
//! |---|---|---|
//! | `srtcm` | `cir`, `cbs`, `ebs`, `mode` ("blind") | RFC 2697 |
//! | `trtcm` | `cir`, `cbs`, `pir`, `pbs`, `mode` ("blind") | RFC 2698 |
//! | `tsw2cm` | `target`, `window` ("1s"), `mode` ("blind") | Clark & Fang 1998; RIO seed §2 |
//! | `tsw3cm` | `ctr`, `ptr`, `window` ("1s"), `mode` ("blind") | RFC 2859 |
//! | `token-bucket` | `cir`, `cbs`, `action` ("drop" \| "yellow" \| "red") | policer |
//! | `tb-shaper` | `rate`, `depth`, `buffer` | token-bucket shaper |
//!
//! The same names as `qoslab condition` chain files, so one description serves both.
//! | `srras`, `g-srras` | `cir`, `mir` (link rate), `line_rate` (link rate), `cir_th`, `mir_th`, `buffer`, `k` ("100ms") | RFC 2963 §2.2, §3.2 |
//! | `trras`, `g-trras` | `cir`, `pir`, `mir` (link rate), `line_rate` (link rate), `cir_th`, `pir_th`, `mir_th`, `buffer`, `k` ("100ms") | RFC 2963 §2.4, §3.4 |
//!
//! Choices: RFC 2963 §2.2 calls MIR "typically the line rate" and leaves K open; here
//! `mir` and `line_rate` default to the link's rate and K to 100 ms (Stoica et al. use
//! K of the order of 100 ms). A green RAS (§3) reads the state of the meter it is coupled
//! to, which must be the next stage: an `srtcm` after a `g-srras`, a `trtcm` after a
//! `g-trras`. Rates are in bit/s as written; the RFCs' "bytes per second" is the same
//! quantity. Every rule of the algorithms is checked here, by their own constructors.

use super::error::ErrorKind;
use super::reader::{Field, Res, Tbl};
use super::spec::{ConditionerSpec, MeterSpec};
use qoslab_algo::meter::{
    srtcm::SrTcmParams, token_bucket::PolicerAction, token_bucket::TbPolicerParams,
    trtcm::TrTcmParams, tsw::Tsw2cmParams, tsw3cm::Tsw3cmParams, ColorMode,
};
use qoslab_algo::shaper::{RasParams, ShaperParams, SrRasConfig, TokenBucketParams, TrRasConfig};
use qoslab_algo::{Color, ConfigError, Duration, Rate};

const KINDS: &[&str] = &[
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
/// K of the EAR estimator when a RAS does not say (RFC 2963 leaves it open).
const DEFAULT_K: Duration = Duration::from_millis(100);
/// The TSW window when a tagger does not say (Clark & Fang's and ns-2's 1 s).
const DEFAULT_WINDOW: Duration = Duration::from_secs(1);

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
    let mut green_coupling: Option<(&'static str, Field<'_>)> = None;
    for (k, sf) in stages.into_iter().enumerate() {
        let t = sf.clone().table()?;
        let kind = t.req("kind")?.choice(KINDS)?;
        if let Some((need, gf)) = green_coupling.take() {
            if kind != need {
                return Err(gf.err(
                    ErrorKind::Relation,
                    format!("RFC 2963 §3: a green RAS reads the meter it is coupled to, so the next stage must be `{need}` (found `{kind}`)"),
                ));
            }
        }
        match kind {
            "tb-shaper" | "srras" | "trras" | "g-srras" | "g-trras" => {
                if k != 0 {
                    return Err(sf.err(
                        ErrorKind::Relation,
                        "a shaper must be the first stage (RFC 2963 Fig. 1: shaper → meter → marker)",
                    ));
                }
                spec.shaper = Some(shaper(&t, kind, link_rate)?);
                if kind == "g-srras" {
                    green_coupling = Some(("srtcm", sf.clone()));
                } else if kind == "g-trras" {
                    green_coupling = Some(("trtcm", sf.clone()));
                }
            }
            _ => spec.meters.push(meter(&t, kind)?),
        }
        spec.kinds.push(kind.to_string());
    }
    if let Some((need, gf)) = green_coupling {
        return Err(gf.err(
            ErrorKind::Relation,
            format!("RFC 2963 §3: a green RAS must be followed by the `{need}` it is coupled to"),
        ));
    }
    Ok(spec)
}

fn rule(t: &Tbl<'_>, e: ConfigError) -> super::error::ScenarioError {
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
    Ok(match kind {
        "srtcm" => {
            t.check_keys(&["kind", "mode", "cir", "cbs", "ebs"], "an srtcm stage")?;
            let p = SrTcmParams::new(
                mode(t)?,
                t.req("cir")?.rate()?,
                t.req("cbs")?.size()?,
                t.req("ebs")?.size()?,
            )
            .map_err(|e| rule(t, e))?;
            MeterSpec::SrTcm(p)
        }
        "trtcm" => {
            t.check_keys(
                &["kind", "mode", "cir", "cbs", "pir", "pbs"],
                "a trtcm stage",
            )?;
            let p = TrTcmParams::new(
                mode(t)?,
                t.req("cir")?.rate()?,
                t.req("cbs")?.size()?,
                t.req("pir")?.rate()?,
                t.req("pbs")?.size()?,
            )
            .map_err(|e| rule(t, e))?;
            MeterSpec::TrTcm(p)
        }
        "tsw2cm" => {
            t.check_keys(&["kind", "mode", "target", "window"], "a tsw2cm stage")?;
            let window = t
                .get("window")
                .map_or(Ok(DEFAULT_WINDOW), Field::duration)?;
            let p = Tsw2cmParams::new(mode(t)?, t.req("target")?.rate()?, window)
                .map_err(|e| rule(t, e))?;
            MeterSpec::Tsw2cm(p)
        }
        "tsw3cm" => {
            t.check_keys(&["kind", "mode", "ctr", "ptr", "window"], "a tsw3cm stage")?;
            let window = t
                .get("window")
                .map_or(Ok(DEFAULT_WINDOW), Field::duration)?;
            let p = Tsw3cmParams::new(
                mode(t)?,
                t.req("ctr")?.rate()?,
                t.req("ptr")?.rate()?,
                window,
            )
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
            let p = TbPolicerParams::new(t.req("cir")?.rate()?, t.req("cbs")?.size()?, action)
                .map_err(|e| rule(t, e))?;
            MeterSpec::Policer(p)
        }
    })
}

fn shaper(t: &Tbl<'_>, kind: &str, link_rate: Rate) -> Res<ShaperParams> {
    if kind == "tb-shaper" {
        t.check_keys(&["kind", "rate", "depth", "buffer"], "a tb-shaper stage")?;
        let p = TokenBucketParams::new(
            t.req("rate")?.rate()?,
            t.req("depth")?.size()?,
            t.req("buffer")?.size()?,
        )
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
        t.check_keys(&keys, "a trras stage")?;
    } else {
        t.check_keys(&common, "an srras stage")?;
    }
    let mir = t.get("mir").map_or(Ok(link_rate), Field::rate)?;
    let line_rate = t.get("line_rate").map_or(Ok(link_rate), Field::rate)?;
    let k = t.get("k").map_or(Ok(DEFAULT_K), Field::duration)?;
    let params = if two_rate {
        RasParams::two_rate(&TrRasConfig {
            cir: t.req("cir")?.rate()?,
            pir: t.req("pir")?.rate()?,
            mir,
            line_rate,
            cir_th: t.req("cir_th")?.size()?,
            pir_th: t.req("pir_th")?.size()?,
            mir_th: t.req("mir_th")?.size()?,
            buffer: t.req("buffer")?.size()?,
            ear_window: k,
        })
    } else {
        RasParams::single_rate(&SrRasConfig {
            cir: t.req("cir")?.rate()?,
            mir,
            line_rate,
            cir_th: t.req("cir_th")?.size()?,
            mir_th: t.req("mir_th")?.size()?,
            buffer: t.req("buffer")?.size()?,
            ear_window: k,
        })
    }
    .map_err(|e| rule(t, e))?;
    Ok(if green {
        ShaperParams::GreenRas(params)
    } else {
        ShaperParams::Ras(params)
    })
}
