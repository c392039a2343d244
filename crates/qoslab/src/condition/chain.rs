//! CHAIN.toml: an ordered list of `[[stage]]` tables, parsed and validated completely before
//! any packet is read. Every error names the file, the line, the key and what is allowed.
//!
//! ```toml
//! seed = 1        # optional: master seed of the TSW markers' random streams (default 1)
//! af_class = 1    # optional: AF class 1..4 for the DSCP written into pcap output (default 1)
//!
//! [[stage]]
//! kind = "srtcm"  # srtcm, trtcm, tsw2cm, tsw3cm, token-bucket (shapers: srras, trras,
//! mode = "blind"  #   g-srras, g-trras — not yet supported)
//! cir = "2Mbps"
//! cbs = "3000B"
//! ebs = "3000B"
//! ```

use std::collections::BTreeMap;

use qoslab_algo::meter::{
    ColorMode, Meter, PolicerAction, SrTcm, SrTcmParams, TbPolicer, TbPolicerParams, TrTcm,
    TrTcmParams, Tsw2cm, Tsw2cmParams, Tsw3cm, Tsw3cmParams,
};
use qoslab_algo::{Color, Duration, PacketView, Rate, Time};
use serde::Deserialize;
use toml::Spanned;

use super::units::{parse_bytes, parse_duration, parse_rate};
use super::ConditionError;

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
}

/// One stage of a chain.
// The size difference vanishes once shaper variants (which hold a queue) exist.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Stage {
    Meter(Meter),
    // Cannot be built until `ShaperStage` has variants (see below).
    #[allow(dead_code)]
    Shaper(ShaperStage),
}

/// Shaper stages: "holds packets, releases them at deadlines". No variant exists yet: the
/// shaper algorithms (srRAS, trRAS, G-srRAS, G-trRAS in `qoslab_algo::shaper`) are written
/// in parallel, and the integrator adds a variant per shaper and fills in the three methods
/// below; the chain runner already drives them.
#[derive(Debug)]
pub enum ShaperStage {
    /// A test-only FIFO that exercises the runner's shaper paths.
    #[cfg(test)]
    TestFifo(test_shaper::DelayFifo),
}

impl ShaperStage {
    /// Offers packet `id` at `now`; false if the shaper refuses it (buffer full: dropped).
    pub fn on_arrival(&mut self, _now: Time, _id: u64, _pkt: PacketView) -> bool {
        match *self {
            #[cfg(test)]
            ShaperStage::TestFifo(ref mut s) => s.on_arrival(_now, _id, _pkt),
        }
    }
    /// The next instant at which the shaper wants to release a packet. `meter` is the meter
    /// that immediately follows the shaper in the chain (used by the green RAS, RFC 2963 §3).
    pub fn next_release(&self, _meter: Option<&Meter>) -> Option<Time> {
        match *self {
            #[cfg(test)]
            ShaperStage::TestFifo(ref s) => s.next_release(),
        }
    }
    /// Releases the head packet if its deadline has come.
    pub fn release(&mut self, _now: Time, _meter: Option<&Meter>) -> Option<(u64, PacketView)> {
        match *self {
            #[cfg(test)]
            ShaperStage::TestFifo(ref mut s) => s.release(_now),
        }
    }
    pub fn kind_name(&self) -> &'static str {
        match *self {
            #[cfg(test)]
            ShaperStage::TestFifo(_) => "test-fifo",
        }
    }
}

/// A FIFO that serialises packets at `rate` after a fixed `delay`, holding at most `cap`
/// packets: enough of a shaper to test the runner.
#[cfg(test)]
pub mod test_shaper {
    use qoslab_algo::{Duration, PacketView, Rate, Time};
    use std::collections::VecDeque;

    #[derive(Debug)]
    pub struct DelayFifo {
        pub delay: Duration,
        pub rate: Rate,
        pub cap: usize,
        q: VecDeque<(u64, PacketView, Time)>,
        last: Time,
    }
    impl DelayFifo {
        pub fn new(delay: Duration, rate: Rate, cap: usize) -> Self {
            DelayFifo {
                delay,
                rate,
                cap,
                q: VecDeque::new(),
                last: Time::ZERO,
            }
        }
        pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> bool {
            if self.q.len() >= self.cap {
                return false;
            }
            let ready = (now + self.delay).max(self.last) + self.rate.tx_time(pkt.size as u64);
            self.last = ready;
            self.q.push_back((id, pkt, ready));
            true
        }
        pub fn next_release(&self) -> Option<Time> {
            self.q.front().map(|e| e.2)
        }
        pub fn release(&mut self, now: Time) -> Option<(u64, PacketView)> {
            match self.q.front() {
                Some(e) if e.2 <= now => self.q.pop_front().map(|(id, p, _)| (id, p)),
                _ => None,
            }
        }
    }
}

struct KindSpec {
    name: &'static str,
    keys: &'static [&'static str],
    shaper: bool,
}

const KINDS: &[KindSpec] = &[
    KindSpec {
        name: "srtcm",
        keys: &["kind", "mode", "cir", "cbs", "ebs"],
        shaper: false,
    },
    KindSpec {
        name: "trtcm",
        keys: &["kind", "mode", "cir", "cbs", "pir", "pbs"],
        shaper: false,
    },
    KindSpec {
        name: "tsw2cm",
        keys: &["kind", "mode", "target", "window"],
        shaper: false,
    },
    KindSpec {
        name: "tsw3cm",
        keys: &["kind", "mode", "ctr", "ptr", "window"],
        shaper: false,
    },
    KindSpec {
        name: "token-bucket",
        keys: &["kind", "cir", "cbs", "action"],
        shaper: false,
    },
    KindSpec {
        name: "srras",
        keys: &["kind", "cir", "mir", "cir_th", "mir_th", "k", "buffer"],
        shaper: true,
    },
    KindSpec {
        name: "g-srras",
        keys: &["kind", "cir", "mir", "cir_th", "mir_th", "k", "buffer"],
        shaper: true,
    },
    KindSpec {
        name: "trras",
        keys: &[
            "kind", "cir", "pir", "mir", "cir_th", "pir_th", "mir_th", "k", "buffer",
        ],
        shaper: true,
    },
    KindSpec {
        name: "g-trras",
        keys: &[
            "kind", "cir", "pir", "mir", "cir_th", "pir_th", "mir_th", "k", "buffer",
        ],
        shaper: true,
    },
];

/// What each key holds, for "missing key" and "bad value" messages.
fn key_help(key: &str) -> &'static str {
    match key {
        "cir" => "committed information rate, e.g. \"2Mbps\"",
        "pir" => "peak information rate, e.g. \"4Mbps\"",
        "mir" => "maximum information rate, e.g. \"34Mbps\"",
        "target" => "target rate, e.g. \"1Mbps\"",
        "ctr" => "committed target rate, e.g. \"1Mbps\"",
        "ptr" => "peak target rate, e.g. \"2Mbps\"",
        "cbs" => "committed burst size, e.g. \"3000B\"",
        "ebs" => "excess burst size, e.g. \"3000B\"",
        "pbs" => "peak burst size, e.g. \"6000B\"",
        "cir_th" | "pir_th" | "mir_th" => "buffer threshold, e.g. \"6KB\"",
        "buffer" => "shaper buffer size, e.g. \"64KB\"",
        "window" => "TSW window length, e.g. \"1s\" (default 1s)",
        "k" => "EAR averaging constant K, e.g. \"100ms\"",
        "mode" => "\"blind\" or \"aware\" (default \"blind\")",
        "action" => "\"drop\", \"yellow\" or \"red\" (default \"drop\")",
        "kind" => {
            "one of srtcm, trtcm, tsw2cm, tsw3cm, token-bucket, srras, trras, g-srras, g-trras"
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
    fn required(&self, key: &str) -> Result<&Spanned<toml::Value>, ConditionError> {
        self.get(key).ok_or_else(|| {
            self.err(
                self.table.span().start,
                format!("missing key `{key}` ({})", key_help(key)),
            )
        })
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
    fn quantity(
        &self,
        key: &str,
        parse: fn(&str) -> Result<u64, String>,
        units: &str,
    ) -> Result<Option<u64>, ConditionError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let s = self.string(key, v)?;
        parse(s).map(Some).map_err(|e| {
            self.err(
                v.span().start,
                format!(
                    "`{key}` = \"{s}\": {e}; allowed units: {units} ({})",
                    key_help(key)
                ),
            )
        })
    }
    fn rate(&self, key: &str) -> Result<Rate, ConditionError> {
        self.required(key)?;
        Ok(Rate(
            self.quantity(key, parse_rate, "bps, Kbps, Mbps, Gbps")?
                .unwrap_or(0),
        ))
    }
    fn bytes(&self, key: &str) -> Result<u64, ConditionError> {
        self.required(key)?;
        Ok(self
            .quantity(key, parse_bytes, "B, KB, MB, GB, KiB, MiB, GiB")?
            .unwrap_or(0))
    }
    fn window(&self) -> Result<Duration, ConditionError> {
        Ok(self
            .quantity("window", parse_duration, "ns, us, ms, s")?
            .map(Duration)
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
    if spec.shaper {
        return Err(s.err(
            kind_v.span().start,
            "shaper stages are not yet supported by `qoslab condition` (the chain runner is ready; \
             the shaper algorithms are being added)",
        ));
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
            ("[[stage]]\nkind = 'g-trras'\ncir='1Mbps'\n", &["c.toml:2:", "not yet supported"]),
            ("[[stage]]\nkind = 'srras'\ncir='1Mbps'\npir='2Mbps'\n", &["c.toml:4:", "unknown key `pir`", "mir_th"]),
        ];
        for (text, wants) in cases {
            let msg = err(text);
            for w in *wants {
                assert!(msg.contains(w), "message {msg:?} lacks {w:?} for\n{text}");
            }
        }
    }
}
