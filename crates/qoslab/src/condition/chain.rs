//! CHAIN.toml: an ordered list of `[[stage]]` tables, parsed and validated completely before
//! any packet is read. Every error names the file, the line, the key and what is allowed.
//!
//! ```toml
//! seed = 1        # optional: master seed of the TSW markers' random streams (default 1)
//! af_class = 1    # optional: AF class 1..4 for the DSCP written into pcap output (default 1)
//!
//! [[stage]]
//! kind = "g-trras" # shaper coupled to the trTCM right after it (RFC 2963 §3)
//! cir = "2Mbps"
//! pir = "4Mbps"
//! mir = "34Mbps"
//! cir_th = "6KB"
//! pir_th = "12KB"
//! mir_th = "24KB"
//! buffer = "64KB"
//!
//! [[stage]]
//! kind = "trtcm"
//! cir = "2Mbps"
//! cbs = "3000B"
//! pir = "4Mbps"
//! pbs = "6000B"
//! ```
//!
//! Stage kinds and their keys (rates like `"2Mbps"`, sizes like `"3000B"`/`"64KiB"`,
//! durations like `"100ms"`; parsed exactly by `qoslab_sim::scenario::units`):
//!
//! | kind | keys (optional ones with their default) | source |
//! |---|---|---|
//! | `srtcm` | `cir cbs ebs`, `mode = "blind"` | RFC 2697 |
//! | `trtcm` | `cir cbs pir pbs`, `mode = "blind"` | RFC 2698 |
//! | `tsw2cm` | `target`, `mode`, `window = "1s"` | Clark & Fang 1998 |
//! | `tsw3cm` | `ctr ptr`, `mode`, `window = "1s"` | RFC 2859 |
//! | `token-bucket` | `cir cbs`, `action = "drop"` (policer) | RFC 2697 §3 bucket |
//! | `tb-shaper` | `rate depth buffer` | RFC 2475 §2.3.3.3 |
//! | `srras`, `g-srras` | `cir mir cir_th mir_th buffer`, `line_rate = mir`, `k = "100ms"` | RFC 2963 §2.2, §3.2 |
//! | `trras`, `g-trras` | `cir pir mir cir_th pir_th mir_th buffer`, `line_rate = mir`, `k = "100ms"` | RFC 2963 §2.4, §3.4 |
//!
//! Choices, documented:
//! - **Rate adaptive shapers** take the RFC 2963 parameter names. RFC 2963 §2.2/§2.4 make
//!   MIR and the thresholds "SHOULD be configurable" without a default value; here they are
//!   required (no default could be right for every trace). `line_rate` is the rate of the
//!   shaper's output link, only used for §2.2/§2.4's check `MIR <= line rate`; it defaults
//!   to MIR, since "a typical value for the MIR would be the line rate of the output link".
//!   `k` is the EAR averaging constant K of Stoica, Shenker & Zhang (RFC 2963 §2.2 leaves it
//!   open); default 100 ms, the value of the CSFQ paper's simulations.
//! - **Green RAS coupling** (RFC 2963 §3.1, figure 4: green RAS ⇒ Meter ⇒ Marker): a
//!   `g-srras` must be immediately followed by the `srtcm` it consults, a `g-trras` by the
//!   `trtcm`; anything else is refused ("RFC 2963 §3.3: a G-srRAS must be followed by the
//!   srTCM it is coupled to"). Their rates need not match (the RFC says the CIR "will
//!   usually be set" to the meter's). A plain RAS or `tb-shaper` may stand anywhere.
//! - **Colour-aware meters behind a green RAS**: T2 is `NEVER` for a head packet that the
//!   meter could never colour green (pre-coloured yellow/red in colour-aware mode, see
//!   `Meter::can_color_green`): it leaves at T1, as the RFC's "would be colored as green"
//!   cannot happen. The stage keeps the colours of the packets it holds for this.
//! - **`tb-shaper`** names its keys as the classical (r, b) profile plus the FIFO size:
//!   `rate`, `depth` (bucket, bytes), `buffer` (bytes). A packet larger than `depth` is
//!   refused (`dropped`, as Linux `tbf` does; see `qoslab_algo::shaper::token_bucket`).

use std::collections::{BTreeMap, VecDeque};

use qoslab_algo::meter::{
    ColorMode, Meter, PolicerAction, SrTcm, SrTcmParams, TbPolicer, TbPolicerParams, TrTcm,
    TrTcmParams, Tsw2cm, Tsw2cmParams, Tsw3cm, Tsw3cmParams,
};
use qoslab_algo::shaper::{
    DropCause, GreenOracle, RasParams, Shaper, ShaperKind, ShaperParams, ShaperStats, SrRasConfig,
    TokenBucketParams, TrRasConfig,
};
use qoslab_algo::{Color, Duration, PacketView, Rate, Time};
use qoslab_sim::scenario::units::{parse_duration, parse_rate, parse_size, UnitError};
use serde::Deserialize;
use toml::Spanned;

use super::ConditionError;

/// Default EAR averaging constant K of the rate adaptive shapers (see the module docs).
pub const DEFAULT_K: Duration = Duration::from_millis(100);

/// A validated chain, ready to run.
#[derive(Debug)]
pub struct Chain {
    pub seed: u64,
    /// AF class (1..=4) whose AFx1/AFx2/AFx3 codepoints encode green/yellow/red in pcap output.
    pub af_class: u8,
    pub stages: Vec<Stage>,
}

impl Chain {
    pub fn has_shaper(&self) -> bool {
        self.stages.iter().any(|s| matches!(s, Stage::Shaper(_)))
    }
    pub fn has_policer(&self) -> bool {
        self.stages
            .iter()
            .any(|s| matches!(s, Stage::Meter(Meter::Policer(TbPolicer { .. }))))
    }
    /// Whether any stage can drop a packet (a policer, or a shaper with a full buffer).
    pub fn can_drop(&self) -> bool {
        self.has_policer() || self.has_shaper()
    }
}

/// One stage of a chain.
#[derive(Debug)]
pub enum Stage {
    Meter(Meter),
    /// Boxed: a shaper holds its FIFO and is much larger than a meter.
    Shaper(Box<ShaperStage>),
}

/// A shaper stage: "holds packets, releases them at deadlines" (the algorithms of
/// `qoslab_algo::shaper`), plus the colours of the packets it holds, in FIFO order, so that
/// a green RAS can ask whether its head packet can become green at all (module docs).
#[derive(Debug)]
pub struct ShaperStage {
    shaper: Shaper,
    held: VecDeque<Color>,
}

/// What a green RAS asks of the meter right after it: T2 of the head packet, `NEVER` when
/// there is no meter or the meter could never colour the head green.
struct HeadOracle<'a> {
    meter: Option<&'a Meter>,
    head: Option<Color>,
}

impl GreenOracle for HeadOracle<'_> {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        match (self.meter, self.head) {
            (Some(m), Some(c)) if m.can_color_green(c) => m.earliest_green(now, size),
            _ => Time::NEVER,
        }
    }
}

impl ShaperStage {
    pub fn new(shaper: Shaper) -> Self {
        ShaperStage {
            shaper,
            held: VecDeque::new(),
        }
    }

    /// The algorithm inside (tests inspect its parameters).
    #[cfg(test)]
    pub fn shaper(&self) -> &Shaper {
        &self.shaper
    }

    fn oracle<'a>(&self, meter: Option<&'a Meter>) -> HeadOracle<'a> {
        HeadOracle {
            meter,
            head: self.held.front().copied(),
        }
    }

    /// Offers packet `id` at `now`; `Err` if the shaper refuses it (dropped).
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), DropCause> {
        self.shaper.on_arrival(now, id, pkt).map_err(|d| d.cause)?;
        self.held.push_back(pkt.color);
        Ok(())
    }

    /// The next instant at which the shaper wants to release a packet. `meter` is the meter
    /// that immediately follows the shaper in the chain (consulted by a green RAS, RFC 2963
    /// §3); the answer changes whenever that meter meters a packet, so ask again after each.
    pub fn next_release(&self, meter: Option<&Meter>) -> Option<Time> {
        self.shaper.next_release(&self.oracle(meter))
    }

    /// Releases the head packet if its release instant is `<= now`.
    pub fn release(&mut self, now: Time, meter: Option<&Meter>) -> Option<(u64, PacketView)> {
        let out = self.shaper.release(now, &self.oracle(meter))?;
        self.held.pop_front();
        Some(out)
    }

    pub fn stats(&self) -> &ShaperStats {
        self.shaper.stats()
    }

    /// The stage kind as written in CHAIN.toml.
    pub fn kind_name(&self) -> &'static str {
        match self.shaper.kind() {
            ShaperKind::TokenBucket => "tb-shaper",
            ShaperKind::SrRas => "srras",
            ShaperKind::TrRas => "trras",
            ShaperKind::GSrRas => "g-srras",
            ShaperKind::GTrRas => "g-trras",
        }
    }
}

struct KindSpec {
    name: &'static str,
    keys: &'static [&'static str],
}

const SR_RAS_KEYS: &[&str] = &[
    "kind",
    "cir",
    "mir",
    "cir_th",
    "mir_th",
    "buffer",
    "line_rate",
    "k",
];
const TR_RAS_KEYS: &[&str] = &[
    "kind",
    "cir",
    "pir",
    "mir",
    "cir_th",
    "pir_th",
    "mir_th",
    "buffer",
    "line_rate",
    "k",
];

const KINDS: &[KindSpec] = &[
    KindSpec {
        name: "srtcm",
        keys: &["kind", "mode", "cir", "cbs", "ebs"],
    },
    KindSpec {
        name: "trtcm",
        keys: &["kind", "mode", "cir", "cbs", "pir", "pbs"],
    },
    KindSpec {
        name: "tsw2cm",
        keys: &["kind", "mode", "target", "window"],
    },
    KindSpec {
        name: "tsw3cm",
        keys: &["kind", "mode", "ctr", "ptr", "window"],
    },
    KindSpec {
        name: "token-bucket",
        keys: &["kind", "cir", "cbs", "action"],
    },
    KindSpec {
        name: "tb-shaper",
        keys: &["kind", "rate", "depth", "buffer"],
    },
    KindSpec {
        name: "srras",
        keys: SR_RAS_KEYS,
    },
    KindSpec {
        name: "g-srras",
        keys: SR_RAS_KEYS,
    },
    KindSpec {
        name: "trras",
        keys: TR_RAS_KEYS,
    },
    KindSpec {
        name: "g-trras",
        keys: TR_RAS_KEYS,
    },
];

/// The meter a green RAS must be followed by (RFC 2963 §3): (shaper kind, meter kind,
/// the rule as stated for the refusal message).
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

/// What each key holds, for "missing key" and "bad value" messages.
fn key_help(key: &str) -> &'static str {
    match key {
        "cir" => "committed information rate, e.g. \"2Mbps\"",
        "pir" => "peak information rate, e.g. \"4Mbps\"",
        "mir" => "maximum information rate, e.g. \"34Mbps\"",
        "line_rate" => "rate of the shaper's output link, e.g. \"34Mbps\" (default: mir)",
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
        "window" => "TSW window length, e.g. \"1s\" (default 1s)",
        "k" => "EAR averaging constant K, e.g. \"100ms\" (default 100ms)",
        "mode" => "\"blind\" or \"aware\" (default \"blind\")",
        "action" => "\"drop\", \"yellow\" or \"red\" (default \"drop\")",
        "kind" => {
            "one of srtcm, trtcm, tsw2cm, tsw3cm, token-bucket, tb-shaper, srras, trras, \
             g-srras, g-trras"
        }
        _ => "",
    }
}

type RawStage = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChain {
    seed: Option<Spanned<toml::Value>>,
    af_class: Option<Spanned<toml::Value>>,
    #[serde(default)]
    stage: Vec<Spanned<RawStage>>,
}

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
    fn err(&self, offset: usize, msg: impl std::fmt::Display) -> ConditionError {
        ConditionError::Input(format!("{}:{}: {}", self.file, self.line(offset), msg))
    }
}

/// Parses and validates CHAIN.toml text; `file` names it in messages.
pub fn parse_chain(file: &str, text: &str) -> Result<Chain, ConditionError> {
    let ctx = Ctx { file, text };
    let raw: RawChain = toml::from_str(text).map_err(|e| {
        let at = e.span().map(|s| s.start).unwrap_or(0);
        ctx.err(
            at,
            format!(
                "{} (top-level keys allowed: seed, af_class, [[stage]])",
                e.message().trim()
            ),
        )
    })?;
    let seed = match &raw.seed {
        None => 1,
        Some(v) => match v.get_ref() {
            toml::Value::Integer(i) if *i >= 0 => *i as u64,
            other => {
                return Err(ctx.err(
                    v.span().start,
                    format!("`seed` = {other}: allowed a non-negative integer"),
                ))
            }
        },
    };
    let af_class = match &raw.af_class {
        None => 1,
        Some(v) => match v.get_ref() {
            toml::Value::Integer(i) if (1..=4).contains(i) => *i as u8,
            other => {
                return Err(ctx.err(
                    v.span().start,
                    format!("`af_class` = {other}: allowed 1, 2, 3 or 4 (RFC 2597 AF classes)"),
                ))
            }
        },
    };
    if raw.stage.is_empty() {
        return Err(ctx.err(
            text.len(),
            "no [[stage]] table: a chain needs at least one stage",
        ));
    }
    let mut stages = Vec::with_capacity(raw.stage.len());
    for (i, table) in raw.stage.iter().enumerate() {
        stages.push(parse_stage(&ctx, i + 1, table)?);
    }
    check_couplings(&ctx, &raw.stage, &stages)?;
    Ok(Chain {
        seed,
        af_class,
        stages,
    })
}

struct StageCtx<'a> {
    ctx: &'a Ctx<'a>,
    n: usize,
    kind: &'static str,
    table: &'a Spanned<RawStage>,
}

impl StageCtx<'_> {
    fn err(&self, offset: usize, msg: impl std::fmt::Display) -> ConditionError {
        self.ctx
            .err(offset, format!("stage {} ({}): {}", self.n, self.kind, msg))
    }
    fn get(&self, key: &str) -> Option<&Spanned<toml::Value>> {
        self.table
            .get_ref()
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(_, v)| v)
    }
    fn string<'v>(
        &self,
        key: &str,
        v: &'v Spanned<toml::Value>,
    ) -> Result<&'v str, ConditionError> {
        match v.get_ref() {
            toml::Value::String(s) => Ok(s),
            other => Err(self.err(
                v.span().start,
                format!("`{key}` = {other}: expected a string ({})", key_help(key)),
            )),
        }
    }
    fn quantity<T>(
        &self,
        key: &str,
        parse: fn(&str) -> Result<T, UnitError>,
    ) -> Result<Option<T>, ConditionError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let s = self.string(key, v)?;
        parse(s).map(Some).map_err(|e| {
            self.err(
                v.span().start,
                format!("`{key}` = \"{s}\": {e} ({})", key_help(key)),
            )
        })
    }
    fn required<T>(
        &self,
        key: &str,
        parse: fn(&str) -> Result<T, UnitError>,
    ) -> Result<T, ConditionError> {
        self.quantity(key, parse)?.ok_or_else(|| {
            self.err(
                self.table.span().start,
                format!("missing key `{key}` ({})", key_help(key)),
            )
        })
    }
    fn rate(&self, key: &str) -> Result<Rate, ConditionError> {
        self.required(key, parse_rate)
    }
    fn bytes(&self, key: &str) -> Result<u64, ConditionError> {
        self.required(key, parse_size)
    }
    fn window(&self) -> Result<Duration, ConditionError> {
        Ok(self
            .quantity("window", parse_duration)?
            .unwrap_or(qoslab_algo::meter::tsw::DEFAULT_WINDOW))
    }
    fn mode(&self) -> Result<ColorMode, ConditionError> {
        let Some(v) = self.get("mode") else {
            return Ok(ColorMode::Blind);
        };
        match self.string("mode", v)? {
            "blind" => Ok(ColorMode::Blind),
            "aware" => Ok(ColorMode::Aware),
            s => Err(self.err(
                v.span().start,
                format!("`mode` = \"{s}\": allowed \"blind\" or \"aware\""),
            )),
        }
    }
    fn action(&self) -> Result<PolicerAction, ConditionError> {
        let Some(v) = self.get("action") else {
            return Ok(PolicerAction::Drop);
        };
        match self.string("action", v)? {
            "drop" => Ok(PolicerAction::Drop),
            "yellow" => Ok(PolicerAction::Remark(Color::Yellow)),
            "red" => Ok(PolicerAction::Remark(Color::Red)),
            s => Err(self.err(
                v.span().start,
                format!("`action` = \"{s}\": allowed \"drop\", \"yellow\" or \"red\""),
            )),
        }
    }
    fn config<T>(&self, r: Result<T, qoslab_algo::ConfigError>) -> Result<T, ConditionError> {
        r.map_err(|e| self.err(self.table.span().start, e))
    }
}

fn parse_stage(
    ctx: &Ctx<'_>,
    n: usize,
    table: &Spanned<RawStage>,
) -> Result<Stage, ConditionError> {
    let start = table.span().start;
    let kinds = KINDS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ");
    let Some((_, kind_v)) = table.get_ref().iter().find(|(k, _)| k.get_ref() == "kind") else {
        return Err(ctx.err(
            start,
            format!("stage {n}: missing key `kind` (allowed kinds: {kinds})"),
        ));
    };
    let kind_s = match kind_v.get_ref() {
        toml::Value::String(s) => s.as_str(),
        other => {
            return Err(ctx.err(
                kind_v.span().start,
                format!("stage {n}: `kind` = {other}: allowed kinds: {kinds}"),
            ))
        }
    };
    let Some(spec) = KINDS.iter().find(|k| k.name == kind_s) else {
        return Err(ctx.err(
            kind_v.span().start,
            format!("stage {n}: unknown kind `{kind_s}`; allowed kinds: {kinds}"),
        ));
    };
    let s = StageCtx {
        ctx,
        n,
        kind: spec.name,
        table,
    };
    for key in table.get_ref().keys() {
        if !spec.keys.contains(&key.get_ref().as_str()) {
            return Err(s.err(
                key.span().start,
                format!(
                    "unknown key `{}`; allowed keys: {}",
                    key.get_ref(),
                    spec.keys.join(", ")
                ),
            ));
        }
    }
    if let Some(shaper) = build_shaper(&s)? {
        return Ok(Stage::Shaper(Box::new(ShaperStage::new(Shaper::new(
            shaper,
        )))));
    }
    let meter = match spec.name {
        "srtcm" => {
            let p = SrTcmParams::new(s.mode()?, s.rate("cir")?, s.bytes("cbs")?, s.bytes("ebs")?);
            Meter::SrTcm(SrTcm::new(s.config(p)?))
        }
        "trtcm" => {
            let p = TrTcmParams::new(
                s.mode()?,
                s.rate("cir")?,
                s.bytes("cbs")?,
                s.rate("pir")?,
                s.bytes("pbs")?,
            );
            Meter::TrTcm(TrTcm::new(s.config(p)?))
        }
        "tsw2cm" => {
            let p = Tsw2cmParams::new(s.mode()?, s.rate("target")?, s.window()?);
            Meter::Tsw2cm(Tsw2cm::new(s.config(p)?))
        }
        "tsw3cm" => {
            let p = Tsw3cmParams::new(s.mode()?, s.rate("ctr")?, s.rate("ptr")?, s.window()?);
            Meter::Tsw3cm(Tsw3cm::new(s.config(p)?))
        }
        "token-bucket" => {
            let p = TbPolicerParams::new(s.rate("cir")?, s.bytes("cbs")?, s.action()?);
            Meter::Policer(TbPolicer::new(s.config(p)?))
        }
        other => {
            return Err(ConditionError::Internal(format!(
                "stage kind `{other}` has no builder"
            )));
        }
    };
    Ok(Stage::Meter(meter))
}

/// The shaper settings of a shaper stage; `None` for a meter stage.
fn build_shaper(s: &StageCtx<'_>) -> Result<Option<ShaperParams>, ConditionError> {
    let k = || -> Result<Duration, ConditionError> {
        Ok(s.quantity("k", parse_duration)?.unwrap_or(DEFAULT_K))
    };
    // RFC 2963 §2.2: "A typical value for the MIR would be the line rate of the output link"
    // — conversely, the line rate defaults to MIR (module docs).
    let line_rate = |mir: Rate| -> Result<Rate, ConditionError> {
        Ok(s.quantity("line_rate", parse_rate)?.unwrap_or(mir))
    };
    let sr = || -> Result<RasParams, ConditionError> {
        let mir = s.rate("mir")?;
        let c = SrRasConfig {
            cir: s.rate("cir")?,
            mir,
            line_rate: line_rate(mir)?,
            cir_th: s.bytes("cir_th")?,
            mir_th: s.bytes("mir_th")?,
            buffer: s.bytes("buffer")?,
            ear_window: k()?,
        };
        s.config(RasParams::single_rate(&c))
    };
    let tr = || -> Result<RasParams, ConditionError> {
        let mir = s.rate("mir")?;
        let c = TrRasConfig {
            cir: s.rate("cir")?,
            pir: s.rate("pir")?,
            mir,
            line_rate: line_rate(mir)?,
            cir_th: s.bytes("cir_th")?,
            pir_th: s.bytes("pir_th")?,
            mir_th: s.bytes("mir_th")?,
            buffer: s.bytes("buffer")?,
            ear_window: k()?,
        };
        s.config(RasParams::two_rate(&c))
    };
    Ok(Some(match s.kind {
        "tb-shaper" => {
            let p = TokenBucketParams::new(s.rate("rate")?, s.bytes("depth")?, s.bytes("buffer")?);
            ShaperParams::TokenBucket(s.config(p)?)
        }
        "srras" => ShaperParams::Ras(sr()?),
        "g-srras" => ShaperParams::GreenRas(sr()?),
        "trras" => ShaperParams::Ras(tr()?),
        "g-trras" => ShaperParams::GreenRas(tr()?),
        _ => return Ok(None),
    }))
}

/// RFC 2963 §3: a green RAS must be immediately followed by the TCM it consults.
fn check_couplings(
    ctx: &Ctx<'_>,
    raw: &[Spanned<RawStage>],
    stages: &[Stage],
) -> Result<(), ConditionError> {
    for (i, stage) in stages.iter().enumerate() {
        let Stage::Shaper(sh) = stage else { continue };
        let kind = sh.kind_name();
        let Some(&(_, meter_kind, rule)) = COUPLINGS.iter().find(|c| c.0 == kind) else {
            continue;
        };
        let next = match stages.get(i + 1) {
            Some(Stage::Meter(m)) if m.kind_name() == meter_kind => continue,
            Some(Stage::Meter(m)) => format!("stage {} is a {}", i + 2, m.kind_name()),
            Some(Stage::Shaper(s)) => format!("stage {} is a {}", i + 2, s.kind_name()),
            None => "it is the last stage".to_string(),
        };
        let at = raw[i]
            .get_ref()
            .iter()
            .find(|(k, _)| k.get_ref() == "kind")
            .map_or(raw[i].span().start, |(_, v)| v.span().start);
        return Err(ctx.err(
            at,
            format!(
                "stage {} ({kind}): {rule}, but {next}; put a [[stage]] kind = \"{meter_kind}\" \
                 right after it",
                i + 1
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        match parse_chain("c.toml", text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => {
                assert_eq!(e.exit_code(), 2, "{e}");
                e.to_string()
            }
        }
    }

    const SRRAS: &str = "[[stage]]\nkind='srras'\ncir='2Mbps'\nmir='10Mbps'\ncir_th='5KB'\nbuffer='64KB'\nmir_th='20KB'\n";
    const TRRAS: &str = "[[stage]]\nkind='trras'\ncir='2Mbps'\npir='4Mbps'\nmir='34Mbps'\ncir_th='6KB'\npir_th='12KB'\nmir_th='24KB'\nbuffer='64KB'\n";
    const G_SRRAS: &str = "[[stage]]\nkind='g-srras'\ncir='2Mbps'\nmir='10Mbps'\ncir_th='5KB'\nmir_th='20KB'\nbuffer='64KB'\n";
    const G_TRRAS: &str = "[[stage]]\nkind='g-trras'\ncir='2Mbps'\npir='4Mbps'\nmir='34Mbps'\ncir_th='6KB'\npir_th='12KB'\nmir_th='24KB'\nbuffer='64KB'\n";
    const SRTCM: &str = "[[stage]]\nkind='srtcm'\ncir='2Mbps'\ncbs='3KB'\nebs='3KB'\n";
    const TRTCM: &str = "[[stage]]\nkind='trtcm'\ncir='2Mbps'\ncbs='3KB'\npir='4Mbps'\npbs='6KB'\n";

    #[test]
    fn shaper_chains() {
        let c = parse_chain(
            "c.toml",
            &format!("{G_TRRAS}{TRTCM}{G_SRRAS}{SRTCM}{SRRAS}"),
        )
        .unwrap();
        assert!(c.has_shaper() && c.can_drop() && !c.has_policer());
        let kinds: Vec<&str> = c
            .stages
            .iter()
            .map(|s| match s {
                Stage::Meter(m) => m.kind_name(),
                Stage::Shaper(s) => s.kind_name(),
            })
            .collect();
        assert_eq!(kinds, ["g-trras", "trtcm", "g-srras", "srtcm", "srras"]);
        // The parameters as written, with the defaults line_rate = MIR and K = 100 ms.
        let Stage::Shaper(sh) = &c.stages[0] else {
            panic!()
        };
        let want = RasParams::two_rate(&TrRasConfig {
            cir: Rate(2_000_000),
            pir: Rate(4_000_000),
            mir: Rate(34_000_000),
            line_rate: Rate(34_000_000),
            cir_th: 6000,
            pir_th: 12_000,
            mir_th: 24_000,
            buffer: 64_000,
            ear_window: Duration::from_millis(100),
        })
        .unwrap();
        match sh.shaper() {
            Shaper::GreenRas(g) => assert_eq!(*g.params(), want),
            other => panic!("{other:?}"),
        }
        let c = parse_chain(
            "c.toml",
            &format!("{SRRAS}line_rate='100Mbps'\nk='1.5s'\n[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ndepth='1500B'\nbuffer='10KiB'\n"),
        )
        .unwrap();
        match (&c.stages[0], &c.stages[1]) {
            (Stage::Shaper(a), Stage::Shaper(b)) => {
                let (Shaper::Ras(r), Shaper::TokenBucket(t)) = (a.shaper(), b.shaper()) else {
                    panic!("{a:?} {b:?}")
                };
                assert_eq!(
                    (r.params().line_rate(), r.params().ear().k()),
                    (Rate(100_000_000), Duration::from_millis(1500))
                );
                assert_eq!(
                    *t.params(),
                    TokenBucketParams::new(Rate(1_000_000), 1500, 10_240).unwrap()
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn valid_chains() {
        let c = parse_chain(
            "c.toml",
            "seed = 9\naf_class = 2\n[[stage]]\nkind = \"srtcm\"\nmode = \"aware\"\ncir = \"2Mbps\"\ncbs = \"3000B\"\nebs = \"6KB\"\n\
             [[stage]]\nkind = \"token-bucket\"\ncir = \"10Mbps\"\ncbs = \"64KiB\"\naction = \"red\"\n",
        )
        .unwrap();
        assert_eq!((c.seed, c.af_class, c.stages.len()), (9, 2, 2));
        match &c.stages[0] {
            Stage::Meter(Meter::SrTcm(m)) => {
                assert_eq!(
                    *m.params(),
                    SrTcmParams::new(ColorMode::Aware, Rate(2_000_000), 3000, 6000).unwrap()
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!c.has_policer() || matches!(c.stages[1], Stage::Meter(Meter::Policer(_))));
        assert!(c.has_policer() && !c.has_shaper());
        let c = parse_chain(
            "c.toml",
            "[[stage]]\nkind='trtcm'\ncir='1Mbps'\ncbs='3KB'\npir='2Mbps'\npbs='6KB'\n[[stage]]\nkind='tsw2cm'\ntarget='1Mbps'\n\
             [[stage]]\nkind='tsw3cm'\nctr='1Mbps'\nptr='2Mbps'\nwindow='100ms'\n",
        )
        .unwrap();
        assert_eq!((c.seed, c.af_class, c.stages.len()), (1, 1, 3));
        assert!(!c.has_policer());
    }

    /// Data-driven table of broken chains and the message each must produce (file:line, key,
    /// what is allowed).
    #[test]
    fn invalid_chains_name_line_key_and_allowed() {
        let cases: &[(&str, &[&str])] = &[
            ("sed = 1\n[[stage]]\nkind='srtcm'\n", &["c.toml:1:", "unknown field `sed`", "seed"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\ncbs = '3000B'\nebs = '1B'\npbs = '3B'\n",
                &["c.toml:6:", "stage 1 (srtcm)", "unknown key `pbs`", "allowed keys: kind, mode, cir, cbs, ebs"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbs'\ncbs = '3000B'\nebs = '1B'\n",
                &["c.toml:3:", "`cir` = \"2Mbs\"", "unknown unit `Mbs`", "bps, Kbps, Mbps, Gbps"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = 2000000\ncbs = '3000B'\nebs = '1B'\n",
                &["c.toml:3:", "`cir` = 2000000", "expected a string"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\nebs = '1B'\n",
                &["c.toml:1:", "missing key `cbs`", "committed burst size"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\ncbs = '0B'\nebs = '0B'\n",
                &["c.toml:1:", "RFC 2697", "CBS > 0 or EBS > 0"]),
            ("\n[[stage]]\nkind = 'trtcm'\ncir = '2Mbps'\ncbs = '1B'\npir = '1Mbps'\npbs = '1B'\n",
                &["c.toml:2:", "PIR >= CIR", "RFC 2698"]),
            ("[[stage]]\nkind = 'srtcm'\nmode = 'colourful'\ncir = '2Mbps'\ncbs = '1B'\nebs = '1B'\n",
                &["c.toml:3:", "`mode`", "\"blind\" or \"aware\""]),
            ("[[stage]]\nkind = 'wred'\n", &["c.toml:2:", "unknown kind `wred`", "srtcm, trtcm"]),
            ("[[stage]]\ncir = '1Mbps'\n", &["c.toml:1:", "missing key `kind`"]),
            ("[[stage]]\nkind = 'token-bucket'\ncir='1Mbps'\ncbs='1KB'\naction='green'\n",
                &["c.toml:5:", "`action`", "\"drop\", \"yellow\" or \"red\""]),
            ("[[stage]]\nkind = 'tsw2cm'\ntarget='1Mbps'\nwindow='0s'\n", &["c.toml:1:", "`window`", "> 0"]),
            ("[[stage]]\nkind = 'tsw2cm'\ntarget='1Mbps'\nwindow='1min'\n", &["c.toml:4:", "ns, us, ms, s"]),
            ("af_class = 5\n[[stage]]\nkind='tsw2cm'\ntarget='1Mbps'\n", &["c.toml:1:", "`af_class`", "1, 2, 3 or 4"]),
            ("seed = 1\n", &["no [[stage]]"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = = 1\n", &["c.toml:3:"]),
            ("[[stage]]\nkind = 'g-trras'\ncir='1Mbps'\n", &["c.toml:1:", "stage 1 (g-trras)", "missing key `mir`", "maximum information rate"]),
            ("[[stage]]\nkind = 'srras'\ncir='1Mbps'\npir='2Mbps'\n", &["c.toml:4:", "unknown key `pir`", "mir_th", "line_rate"]),
            (SRRAS, &[]),
            (&SRRAS.replace("mir='10Mbps'", "mir='1Mbps'"), &["c.toml:1:", "RFC 2963 §2.2", "CIR <= MIR <= line rate"]),
            (&format!("{SRRAS}line_rate='2Mbps'\n"), &["c.toml:1:", "RFC 2963 §2.2", "CIR <= MIR <= line rate"]),
            (&SRRAS.replace("mir_th='20KB'", "mir_th='100KB'"), &["c.toml:1:", "CIR_th <= MIR_th <= buffer size"]),
            (&format!("{SRRAS}k='0s'\n"), &["c.toml:1:", "K", "> 0"]),
            (&format!("{SRRAS}k='1.5ns'\n"), &["c.toml:", "`k` = \"1.5ns\"", "nanoseconds"]),
            (&TRRAS.replace("pir_th='12KB'", "pir_th='30KB'"), &["c.toml:1:", "RFC 2963 §2.4", "CIR_th <= PIR_th <= MIR_th <= buffer size"]),
            (&TRRAS.replace("pir='4Mbps'", "pir='40Mbps'"), &["c.toml:1:", "RFC 2963 §2.4", "CIR <= PIR <= MIR <= line rate"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ndepth='0B'\nbuffer='1KB'\n", &["c.toml:1:", "`depth` = 0", ">= 1 byte"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1MBps'\ndepth='1B'\nbuffer='1KB'\n", &["c.toml:3:", "`rate`", "bits per second"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ncbs='1B'\n", &["c.toml:4:", "unknown key `cbs`", "rate, depth, buffer"]),
            // Green RAS couplings (RFC 2963 §3).
            (G_SRRAS, &["c.toml:2:", "stage 1 (g-srras)", "RFC 2963 §3.3: a G-srRAS must be followed by the srTCM it is coupled to", "it is the last stage"]),
            (&format!("{G_SRRAS}{TRTCM}"), &["c.toml:2:", "RFC 2963 §3.3", "stage 2 is a trtcm", "kind = \"srtcm\""]),
            (&format!("{TRTCM}{G_TRRAS}{SRTCM}"), &["c.toml:8:", "stage 2 (g-trras)", "RFC 2963 §3.5: a G-trRAS must be followed by the trTCM it is coupled to", "stage 3 is a srtcm"]),
            (&format!("{G_TRRAS}{G_TRRAS}{TRTCM}"), &["c.toml:2:", "stage 1 (g-trras)", "stage 2 is a g-trras"]),
        ];
        for (text, wants) in cases {
            if wants.is_empty() {
                // A valid base for the variations below: it must parse.
                parse_chain("c.toml", text).unwrap();
                continue;
            }
            let msg = err(text);
            for w in *wants {
                assert!(msg.contains(w), "message {msg:?} lacks {w:?} for\n{text}");
            }
        }
    }
}
