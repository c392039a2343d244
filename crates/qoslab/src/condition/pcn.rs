//! PCN stages of `qoslab condition`: a packet trace marked offline by the PCN markers of
//! `qoslab_algo::pcn` (draft-satoh-pcn-st-marking-02: STM §3.1, fractional marking §14, and
//! the CL comparison markers of §10.5).
//!
//! A chain file whose `[[stage]]` tables have `pcn-*` kinds is a **PCN chain**; it holds
//! only PCN stages (a DiffServ colour and a PCN mark are different outputs, and no scenario
//! mixes them). Each stage is one metered link: the stages run in order, each seeing the
//! mark the previous one left, as a packet crossing several PCN links would.
//!
//! ```toml
//! seed = 1   # optional: master seed of the CL ramp's random streams (default 1)
//!
//! [[stage]]
//! kind = "pcn-stm"              # §3.1 (rewritten pseudo-code)
//! admissible_rate = "64Mbps"    # AR
//! supportable_rate = "128Mbps"  # SR
//! # optional, §10.4 defaults; sizes as "t at the bucket's rate":
//! swtb_size = "20ms"            # at AR
//! swtb_threshold = "10ms"       # at AR
//! mktb_size = "10ms"            # at SR
//! mktb_threshold = "8ms"        # at SR
//! n = 3
//! mk_threshold_reading = "literal"   # or "deficit"
//!
//! [[stage]]
//! kind = "pcn-fractional"       # §14; frtb_size (20ms at AR), frtb_threshold (10ms),
//! admissible_rate = "64Mbps"    # thtb_size (10ms at SR), thtb_threshold (8ms), n (3)
//! supportable_rate = "128Mbps"
//!
//! [[stage]]
//! kind = "pcn-cl"               # §10.5: admission VQ at AR + excess-rate bucket at SR
//! admissible_rate = "64Mbps"    # min_threshold (5ms at AR), max_threshold (15ms),
//! supportable_rate = "128Mbps"  # limit (20ms), depth (5ms at SR), meter_already_marked (false),
//!                               # excess_meter ("size-independent" or "classic", RFC 5670 §2.4;
//!                               #   "cl-phb-03", draft-briscoe-tsvwg-cl-phb-03 §3.2)
//! ```
//!
//! Trace: CSV with a header naming `time` (decimal seconds) and `size` (bytes) and
//! optionally `flow` and `pcn` (the mark on arrival: `not-marked`, `threshold-marked`,
//! `excess-marked` or 0/1/2); other columns are refused. Output: the input columns (an input
//! `pcn` column renamed `pcn_in`) then `pcn`, the mark leaving the chain. pcap input is not
//! supported for PCN chains (refused with exit code 2).
//!
//! Choices, documented:
//! - Time is measured from the first packet of the trace (as for the DiffServ stages): the
//!   buckets are full and the virtual queue empty at that instant (map §5 item 2).
//! - Sizes: packet bits = 8 × `size`. Bucket sizes are written as durations "at the rate" as
//!   the draft does and converted with `qoslab_algo::pcn::bits_at` (exact, rounded down).
//! - The CL admission ramp of stage `k` draws from `Rng::stream(seed, "condition/stage<k>/pcn-cl")`.
//! - Errors name the file and the line of the key (found by scanning the stage's lines),
//!   the key path `stage[k].key`, the value and what is allowed; exit code 2.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use qoslab_algo::pcn::{
    bits_at, ClAdmissionParams, ClMarker, ClTerminationParams, ExcessMeter, FractionalMarker,
    FractionalParams, MarkCounters, MarkReason, MkThresholdReading, PcnMark, StmMarker, StmParams,
};
use qoslab_algo::{ConfigError, Duration, Rate, Rng, Time};
use qoslab_sim::scenario::units::{parse_duration, parse_rate};

use super::trace::parse_secs;
use super::{temp_path, ConditionError};

/// The PCN stage kinds.
pub const PCN_KINDS: [&str; 3] = ["pcn-stm", "pcn-fractional", "pcn-cl"];

/// One PCN marker of a chain.
#[derive(Debug)]
pub enum PcnStage {
    Stm(StmMarker),
    Fractional(FractionalMarker),
    Cl(Box<ClMarker>, Rng),
}

impl PcnStage {
    pub fn kind_name(&self) -> &'static str {
        match self {
            PcnStage::Stm(_) => "pcn-stm",
            PcnStage::Fractional(_) => "pcn-fractional",
            PcnStage::Cl(..) => "pcn-cl",
        }
    }
    fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> PcnMark {
        match self {
            PcnStage::Stm(m) => m.on_packet(now, bits, mark),
            PcnStage::Fractional(m) => m.on_packet(now, bits, mark),
            PcnStage::Cl(m, rng) => m.on_packet(now, bits, mark, rng),
        }
    }
    /// Counters of the stage (CL: admission and termination stages).
    fn counters(&self) -> Vec<(&'static str, MarkCounters)> {
        match self {
            PcnStage::Stm(m) => vec![("", *m.counters())],
            PcnStage::Fractional(m) => vec![("", *m.counters())],
            PcnStage::Cl(m, _) => vec![
                ("admission", *m.admission.counters()),
                ("termination", *m.termination.counters()),
            ],
        }
    }
}

/// A validated PCN chain.
#[derive(Debug)]
pub struct PcnChain {
    pub seed: u64,
    pub stages: Vec<PcnStage>,
}

/// True if `text` is a chain whose stages include a `pcn-*` kind (then [`parse_pcn_chain`]
/// reads it). Text that is not valid TOML is not a PCN chain (the DiffServ parser reports).
pub fn is_pcn_chain(text: &str) -> bool {
    let Ok(v) = text.parse::<toml::Table>() else {
        return false;
    };
    match v.get("stage") {
        Some(toml::Value::Array(a)) => a.iter().any(|s| {
            s.get("kind")
                .and_then(|k| k.as_str())
                .is_some_and(|k| k.starts_with("pcn-"))
        }),
        _ => false,
    }
}

/// Line numbers (1-based) of the `[[stage]]` headers, and a key's line.
struct Lines<'a> {
    lines: Vec<&'a str>,
    headers: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        let headers = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("[[stage]]"))
            .map(|(i, _)| i + 1)
            .collect();
        Lines { lines, headers }
    }
    /// The line of `key` in stage `k` (or at the top level for `None`); the stage header
    /// line when the key is not written.
    fn of(&self, stage: Option<usize>, key: &str) -> usize {
        let (from, to) = match stage {
            None => (
                1,
                self.headers
                    .first()
                    .copied()
                    .unwrap_or(self.lines.len() + 1),
            ),
            Some(k) => (
                self.headers.get(k).copied().unwrap_or(1),
                self.headers
                    .get(k + 1)
                    .copied()
                    .unwrap_or(self.lines.len() + 1),
            ),
        };
        for n in from..to {
            let l = self.lines[n - 1].trim_start();
            if let Some(rest) = l.strip_prefix(key) {
                if rest.trim_start().starts_with('=') {
                    return n;
                }
            }
        }
        from
    }
}

struct Cx<'a> {
    file: &'a str,
    lines: Lines<'a>,
}

impl Cx<'_> {
    fn err(&self, stage: Option<usize>, key: &str, msg: impl std::fmt::Display) -> ConditionError {
        let line = self.lines.of(stage, key);
        let path = match stage {
            Some(k) if key.is_empty() => format!("stage[{k}]"),
            Some(k) => format!("stage[{k}].{key}"),
            None => key.to_string(),
        };
        ConditionError::Input(format!("{}:{line}: {path}{msg}", self.file))
    }
}

/// A stage table being read.
struct StageReader<'a> {
    cx: &'a Cx<'a>,
    k: usize,
    t: &'a toml::Table,
    kind: &'static str,
}

impl StageReader<'_> {
    fn check_keys(&self, allowed: &[&str]) -> Result<(), ConditionError> {
        for key in self.t.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(self.cx.err(
                    Some(self.k),
                    key,
                    format!(
                        ": unknown key in a {} stage (allowed: {})",
                        self.kind,
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
    fn str_of(&self, key: &str, what: &str) -> Result<Option<String>, ConditionError> {
        match self.t.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.cx.err(
                Some(self.k),
                key,
                format!(" = {v}: {what} needs a unit, written as a string"),
            )),
        }
    }
    fn rate(&self, key: &str) -> Result<Rate, ConditionError> {
        let Some(s) = self.str_of(key, "a rate")? else {
            return Err(self.cx.err(
                Some(self.k),
                "",
                format!(": missing key `{key}` of a {} stage", self.kind),
            ));
        };
        parse_rate(&s).map_err(|e| {
            self.cx.err(
                Some(self.k),
                key,
                format!(" = '{s}': {e} (a rate in bits per second, e.g. \"64Mbps\")"),
            )
        })
    }
    /// "`d` at `rate`" in bits; `default` when the key is absent.
    fn at_rate(&self, key: &str, rate: Rate, default: Duration) -> Result<u64, ConditionError> {
        let d = match self.str_of(key, "a duration")? {
            None => default,
            Some(s) => parse_duration(&s).map_err(|e| {
                self.cx.err(
                    Some(self.k),
                    key,
                    format!(" = '{s}': {e} (a duration \"at the rate\", e.g. \"10ms\")"),
                )
            })?,
        };
        Ok(bits_at(rate, d))
    }
    fn n(&self) -> Result<u32, ConditionError> {
        match self.t.get("n") {
            None => Ok(3),
            Some(toml::Value::Integer(i)) if (1..=u32::MAX as i64).contains(i) => Ok(*i as u32),
            Some(v) => Err(self.cx.err(
                Some(self.k),
                "n",
                format!(" = {v}: allowed a whole number >= 1 (marking.frequency 1/N)"),
            )),
        }
    }
    fn bool(&self, key: &str, default: bool) -> Result<bool, ConditionError> {
        match self.t.get(key) {
            None => Ok(default),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(v) => {
                Err(self
                    .cx
                    .err(Some(self.k), key, format!(" = {v}: allowed true or false")))
            }
        }
    }
    /// A rule broken among the parameters: reported at the stage's `kind`.
    fn rule(&self, e: ConfigError) -> ConditionError {
        self.cx.err(Some(self.k), "kind", format!(": {e}"))
    }
}

const STM_KEYS: &[&str] = &[
    "kind",
    "admissible_rate",
    "supportable_rate",
    "swtb_size",
    "swtb_threshold",
    "mktb_size",
    "mktb_threshold",
    "n",
    "mk_threshold_reading",
];
const FRACTIONAL_KEYS: &[&str] = &[
    "kind",
    "admissible_rate",
    "supportable_rate",
    "frtb_size",
    "frtb_threshold",
    "thtb_size",
    "thtb_threshold",
    "n",
];
const CL_KEYS: &[&str] = &[
    "kind",
    "admissible_rate",
    "supportable_rate",
    "min_threshold",
    "max_threshold",
    "limit",
    "depth",
    "meter_already_marked",
    "excess_meter",
];

fn ms(x: u64) -> Duration {
    Duration::from_millis(x)
}

fn stage(r: &StageReader<'_>, seed: u64) -> Result<PcnStage, ConditionError> {
    match r.kind {
        "pcn-stm" => {
            r.check_keys(STM_KEYS)?;
            let ar = r.rate("admissible_rate")?;
            let sr = r.rate("supportable_rate")?;
            let reading = match r.t.get("mk_threshold_reading") {
                None => MkThresholdReading::Literal,
                Some(toml::Value::String(s)) if s == "literal" => MkThresholdReading::Literal,
                Some(toml::Value::String(s)) if s == "deficit" => MkThresholdReading::Deficit,
                Some(v) => {
                    return Err(r.cx.err(
                        Some(r.k),
                        "mk_threshold_reading",
                        format!(" = {v}: must be one of \"literal\", \"deficit\""),
                    ))
                }
            };
            let p = StmParams {
                admissible_rate: ar,
                supportable_rate: sr,
                swtb_size_bits: r.at_rate("swtb_size", ar, ms(20))?,
                swtb_threshold_bits: r.at_rate("swtb_threshold", ar, ms(10))?,
                mktb_size_bits: r.at_rate("mktb_size", sr, ms(10))?,
                mktb_threshold_bits: r.at_rate("mktb_threshold", sr, ms(8))?,
                n: r.n()?,
                mk_threshold_reading: reading,
            };
            Ok(PcnStage::Stm(StmMarker::new(p).map_err(|e| r.rule(e))?))
        }
        "pcn-fractional" => {
            r.check_keys(FRACTIONAL_KEYS)?;
            let ar = r.rate("admissible_rate")?;
            let sr = r.rate("supportable_rate")?;
            let p = FractionalParams {
                admissible_rate: ar,
                supportable_rate: sr,
                frtb_size_bits: r.at_rate("frtb_size", ar, ms(20))?,
                frtb_threshold_bits: r.at_rate("frtb_threshold", ar, ms(10))?,
                thtb_size_bits: r.at_rate("thtb_size", sr, ms(10))?,
                thtb_threshold_bits: r.at_rate("thtb_threshold", sr, ms(8))?,
                n: r.n()?,
            };
            Ok(PcnStage::Fractional(
                FractionalMarker::new(p).map_err(|e| r.rule(e))?,
            ))
        }
        "pcn-cl" => {
            r.check_keys(CL_KEYS)?;
            let ar = r.rate("admissible_rate")?;
            let sr = r.rate("supportable_rate")?;
            if ar >= sr {
                return Err(r.rule(ConfigError::relation(
                    "PCN-admissible-rate < PCN-supportable-rate",
                    "draft-satoh-pcn-st-marking-02 §3, Fig. 1",
                    format!(
                        "admissible_rate = {} bit/s, supportable_rate = {} bit/s",
                        ar.bps(),
                        sr.bps()
                    ),
                )));
            }
            let a = ClAdmissionParams {
                admissible_rate: ar,
                min_threshold_bits: r.at_rate("min_threshold", ar, ms(5))?,
                max_threshold_bits: r.at_rate("max_threshold", ar, ms(15))?,
                limit_bits: r.at_rate("limit", ar, ms(20))?,
            };
            let meter = match r.t.get("excess_meter") {
                None => ExcessMeter::SizeIndependent,
                Some(toml::Value::String(s)) if ExcessMeter::from_name(s).is_some() => {
                    ExcessMeter::from_name(s).unwrap_or_default()
                }
                Some(v) => {
                    return Err(r.cx.err(
                        Some(r.k),
                        "excess_meter",
                        format!(
                        " = {v}: must be one of \"size-independent\", \"classic\" (RFC 5670 §2.4), \"cl-phb-03\" (draft-briscoe-tsvwg-cl-phb-03 §3.2)"
                    ),
                    ))
                }
            };
            let t = ClTerminationParams {
                supportable_rate: sr,
                depth_bits: r.at_rate("depth", sr, ms(5))?,
                meter_already_marked: r.bool("meter_already_marked", false)?,
                meter,
            };
            let m = ClMarker::new(a, t).map_err(|e| r.rule(e))?;
            let rng = Rng::stream(seed, &format!("condition/stage{}/pcn-cl", r.k));
            Ok(PcnStage::Cl(Box::new(m), rng))
        }
        other => Err(ConditionError::Internal(format!(
            "PCN stage kind `{other}` has no builder"
        ))),
    }
}

/// Parses and validates a PCN chain.
pub fn parse_pcn_chain(file: &str, text: &str) -> Result<PcnChain, ConditionError> {
    let cx = Cx {
        file,
        lines: Lines::new(text),
    };
    let root: toml::Table = text
        .parse()
        .map_err(|e| ConditionError::Input(format!("{file}: invalid TOML: {e}")))?;
    for key in root.keys() {
        if !["seed", "stage"].contains(&key.as_str()) {
            return Err(cx.err(
                None,
                key,
                ": unknown key in a PCN chain file (allowed: seed, stage)",
            ));
        }
    }
    let seed = match root.get("seed") {
        None => 1,
        Some(toml::Value::Integer(i)) if *i >= 0 => *i as u64,
        Some(v) => {
            return Err(cx.err(
                None,
                "seed",
                format!(" = {v}: must be an integer in [0, {}]", i64::MAX),
            ))
        }
    };
    let Some(toml::Value::Array(items)) = root.get("stage") else {
        return Err(cx.err(
            None,
            "stage",
            ": write the stages as [[stage]] tables (an array of tables)",
        ));
    };
    let mut stages = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let Some(t) = item.as_table() else {
            return Err(cx.err(Some(k), "", ": a stage must be a table"));
        };
        let kind = match t.get("kind").and_then(|v| v.as_str()) {
            Some(s) => s,
            None => {
                return Err(cx.err(
                    Some(k),
                    "",
                    format!(
                        ": missing key `kind` (a PCN chain allows {})",
                        PCN_KINDS.join(", ")
                    ),
                ))
            }
        };
        let Some(kind) = PCN_KINDS.iter().copied().find(|k| *k == kind) else {
            return Err(cx.err(
                Some(k),
                "kind",
                format!(
                    " = '{kind}': a PCN chain holds only PCN stages; must be one of {}",
                    PCN_KINDS
                        .iter()
                        .map(|k| format!("\"{k}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        let r = StageReader {
            cx: &cx,
            k,
            t,
            kind,
        };
        stages.push(stage(&r, seed)?);
    }
    Ok(PcnChain { seed, stages })
}

/// Column indices of a PCN trace.
struct Cols {
    time: usize,
    size: usize,
    pcn: Option<usize>,
}

fn header_cols(header: &[String], line: u64) -> Result<Cols, ConditionError> {
    let (mut time, mut size, mut flow, mut pcn) = (None, None, None, None);
    for (i, c) in header.iter().enumerate() {
        let slot = match c.as_str() {
            "time" => &mut time,
            "size" => &mut size,
            "flow" => &mut flow,
            "pcn" => &mut pcn,
            other => {
                return Err(ConditionError::Input(format!(
                    "line {line}: unknown column `{other}`; allowed columns for a PCN chain: time, size, flow, pcn"
                )))
            }
        };
        if slot.replace(i).is_some() {
            return Err(ConditionError::Input(format!(
                "line {line}: column `{c}` appears twice"
            )));
        }
    }
    let (Some(time), Some(size)) = (time, size) else {
        return Err(ConditionError::Input(format!(
            "line {line}: the header must name the columns `time` and `size` (and optionally `flow`, `pcn`); found `{}`",
            header.join(",")
        )));
    };
    Ok(Cols { time, size, pcn })
}

/// What a PCN run did.
#[derive(Clone, Debug, Default)]
pub struct PcnSummary {
    pub packets: u64,
    pub marked_out: [u64; 3],
    /// Per stage: kind, and (part, counters).
    pub stages: Vec<(&'static str, Vec<(&'static str, MarkCounters)>)>,
}

impl PcnSummary {
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} packets left the PCN chain: {} not-marked, {} threshold-marked, {} excess-marked",
            self.packets, self.marked_out[0], self.marked_out[1], self.marked_out[2]
        );
        for (k, (kind, parts)) in self.stages.iter().enumerate() {
            for (part, c) in parts {
                let name = if part.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind} {part}")
                };
                let _ = write!(
                    s,
                    "stage[{k}] {name}: {} packets, {} leave marked ({:.4} of packets, {:.4} of bits), {} arrived marked",
                    c.packets,
                    c.marked_packets,
                    c.marked_fraction(),
                    c.marked_bit_fraction(),
                    c.arrived_marked_packets
                );
                for r in MarkReason::ALL {
                    let n = c.by_reason_packets[r as usize];
                    if n > 0 {
                        let _ = write!(s, ", {} {}", n, r.name());
                    }
                }
                if c.switch_on_packets > 0 {
                    let _ = write!(s, ", switch on for {}", c.switch_on_packets);
                }
                if c.not_metered_packets > 0 {
                    let _ = write!(s, ", {} not metered", c.not_metered_packets);
                }
                s.push('\n');
            }
        }
        s
    }
}

/// Marks a CSV trace through a PCN chain (the streams form of [`condition_pcn_files`]).
pub fn condition_pcn_stream<R: BufRead, W: Write>(
    chain: &mut PcnChain,
    mut rd: R,
    mut w: W,
) -> Result<PcnSummary, ConditionError> {
    let werr = |e: std::io::Error| ConditionError::Internal(format!("cannot write output: {e}"));
    let mut buf = String::new();
    let mut line = 0u64;
    let header: Vec<String> = loop {
        buf.clear();
        line += 1;
        let n = rd
            .read_line(&mut buf)
            .map_err(|e| ConditionError::Input(format!("line {line}: cannot read: {e}")))?;
        if n == 0 {
            return Err(ConditionError::Input(
                "empty trace: expected a CSV header `time,size[,flow][,pcn]`".into(),
            ));
        }
        let t = buf.trim();
        if !t.is_empty() && !t.starts_with('#') {
            break t
                .split(',')
                .map(|c| c.trim().to_ascii_lowercase())
                .collect();
        }
    };
    let cols = header_cols(&header, line)?;
    let out_cols: Vec<&str> = header
        .iter()
        .map(|c| if c == "pcn" { "pcn_in" } else { c.as_str() })
        .chain(std::iter::once("pcn"))
        .collect();
    writeln!(w, "{}", out_cols.join(",")).map_err(werr)?;
    let mut summary = PcnSummary::default();
    let mut t0: Option<u64> = None;
    let mut last = 0u64;
    loop {
        buf.clear();
        line += 1;
        let n = rd
            .read_line(&mut buf)
            .map_err(|e| ConditionError::Input(format!("line {line}: cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        let t = buf.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = t.split(',').map(str::trim).collect();
        if fields.len() != header.len() {
            return Err(ConditionError::Input(format!(
                "line {line}: expected {} fields ({}), found {}",
                header.len(),
                header.join(","),
                fields.len()
            )));
        }
        let time = parse_secs(fields[cols.time]).map_err(|e| {
            ConditionError::Input(format!(
                "line {line}: time: {e} (expected decimal seconds, e.g. 1.25)"
            ))
        })?;
        if t0.is_some() && time < last {
            return Err(ConditionError::Input(format!(
                "line {line}: time {} is earlier than the previous packet's; times must be non-decreasing",
                fields[cols.time]
            )));
        }
        last = time;
        let t0 = *t0.get_or_insert(time);
        let size: u64 = match fields[cols.size].parse::<u32>() {
            Ok(s) if s > 0 => s as u64,
            _ => {
                return Err(ConditionError::Input(format!(
                "line {line}: size `{}` is not a positive whole number of bytes (1..=4294967295)",
                fields[cols.size]
            )))
            }
        };
        let mut mark = match cols.pcn {
            None => PcnMark::NotMarked,
            Some(i) => PcnMark::from_name(&fields[i].to_ascii_lowercase()).ok_or_else(|| {
                ConditionError::Input(format!(
                    "line {line}: unknown pcn mark `{}`; allowed: not-marked, threshold-marked, excess-marked (or 0, 1, 2)",
                    fields[i]
                ))
            })?,
        };
        let now = Time(time - t0);
        for s in &mut chain.stages {
            mark = s.on_packet(now, size * 8, mark);
        }
        summary.packets += 1;
        summary.marked_out[mark as usize] += 1;
        for f in &fields {
            write!(w, "{f},").map_err(werr)?;
        }
        writeln!(w, "{}", mark.name()).map_err(werr)?;
    }
    summary.stages = chain
        .stages
        .iter()
        .map(|s| (s.kind_name(), s.counters()))
        .collect();
    w.flush().map_err(werr)?;
    Ok(summary)
}

/// Marks `trace_path` through the PCN chain `text` (read from `chain_path`) into `out`,
/// atomically (a temporary file renamed at the end).
pub fn condition_pcn_files(
    chain_path: &Path,
    text: &str,
    trace_path: &Path,
    out: &Path,
) -> Result<PcnSummary, ConditionError> {
    let mut chain = parse_pcn_chain(&chain_path.display().to_string(), text)?;
    let tname = trace_path.display().to_string();
    let file = File::open(trace_path)
        .map_err(|e| ConditionError::Input(format!("{tname}: cannot open the trace: {e}")))?;
    let mut rd = BufReader::new(file);
    let head = rd
        .fill_buf()
        .map_err(|e| ConditionError::Input(format!("{tname}: cannot read the trace: {e}")))?;
    if super::pcap::detect(head) != super::pcap::Format::Csv {
        return Err(ConditionError::Input(format!(
            "{tname}: a PCN chain reads CSV traces only (time,size[,flow][,pcn]); this is a pcap/pcapng file"
        )));
    }
    let tmp = temp_path(out);
    let w = BufWriter::new(File::create(&tmp).map_err(|e| {
        ConditionError::Input(format!("{}: cannot create the output: {e}", out.display()))
    })?);
    let result = condition_pcn_stream(&mut chain, rd, w).map_err(|e| match e {
        ConditionError::Input(m) => ConditionError::Input(format!("{tname}: {m}")),
        other => other,
    });
    match result {
        Ok(s) => {
            fs::rename(&tmp, out).map_err(|e| {
                let _ = fs::remove_file(&tmp);
                ConditionError::Internal(format!(
                    "cannot move the output into {}: {e}",
                    out.display()
                ))
            })?;
            Ok(s)
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        match parse_pcn_chain("p.toml", text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => {
                assert_eq!(e.exit_code(), 2, "{e}");
                e.to_string()
            }
        }
    }

    const STM: &str =
        "[[stage]]\nkind = 'pcn-stm'\nadmissible_rate = '64Mbps'\nsupportable_rate = '128Mbps'\n";

    #[test]
    fn detects_pcn_chains() {
        assert!(is_pcn_chain(STM));
        assert!(!is_pcn_chain("[[stage]]\nkind='srtcm'\n"));
        assert!(!is_pcn_chain("not toml = = ="));
    }

    #[test]
    fn defaults_are_the_draft_values() {
        let c = parse_pcn_chain("p.toml", STM).unwrap();
        let PcnStage::Stm(m) = &c.stages[0] else {
            panic!()
        };
        assert_eq!(
            *m.params(),
            StmParams::draft_defaults(Rate::from_mbps(64), Rate::from_mbps(128))
        );
        let c = parse_pcn_chain(
            "p.toml",
            "seed = 7\n[[stage]]\nkind='pcn-cl'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nmeter_already_marked=true\n\
             [[stage]]\nkind='pcn-fractional'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nn=2\n",
        )
        .unwrap();
        assert_eq!(c.seed, 7);
        let PcnStage::Cl(cl, _) = &c.stages[0] else {
            panic!()
        };
        assert_eq!(
            *cl.admission.params(),
            ClAdmissionParams::draft_defaults(Rate::from_mbps(64))
        );
        assert!(cl.termination.params().meter_already_marked);
        assert_eq!(cl.termination.params().depth_bits, 640_000);
        let PcnStage::Fractional(f) = &c.stages[1] else {
            panic!()
        };
        assert_eq!(f.params().n, 2);
    }

    #[test]
    fn invalid_chains_name_line_key_and_allowed() {
        let cases: &[(&str, &[&str])] = &[
            (&format!("{STM}swtb_sise = '1ms'\n"), &["p.toml:5:", "stage[0].swtb_sise: unknown key in a pcn-stm stage", "swtb_size"]),
            (&format!("{STM}n = 0\n"), &["p.toml:5:", "stage[0].n = 0", ">= 1"]),
            (&format!("{STM}mktb_threshold = '11ms'\n"), &["p.toml:2:", "MkTB.threshold <= MkTB.size", "draft-satoh-pcn-st-marking-02 §3.1"]),
            (&format!("{STM}mktb_size = 10\n"), &["p.toml:5:", "stage[0].mktb_size = 10", "needs a unit"]),
            (&format!("{STM}swtb_size = '1min'\n"), &["p.toml:5:", "stage[0].swtb_size = '1min'", "unknown unit"]),
            (&format!("{STM}mk_threshold_reading = 'both'\n"), &["p.toml:5:", "\"literal\", \"deficit\""]),
            ("[[stage]]\nkind='pcn-stm'\nadmissible_rate='128Mbps'\nsupportable_rate='64Mbps'\n", &["p.toml:2:", "PCN-admissible-rate < PCN-supportable-rate"]),
            ("[[stage]]\nkind='pcn-stm'\nsupportable_rate='64Mbps'\n", &["p.toml:1:", "stage[0]: missing key `admissible_rate`"]),
            ("[[stage]]\nkind='pcn-stm'\nadmissible_rate='64Mbs'\nsupportable_rate='128Mbps'\n", &["p.toml:3:", "stage[0].admissible_rate = '64Mbs'", "unknown unit"]),
            (&format!("{STM}[[stage]]\nkind='srtcm'\n"), &["p.toml:6:", "stage[1].kind = 'srtcm'", "only PCN stages", "\"pcn-stm\", \"pcn-fractional\", \"pcn-cl\""]),
            ("[[stage]]\nkind='pcn-cl'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nmin_threshold='16ms'\n", &["p.toml:2:", "min-marking-threshold <= max-marking-threshold <= virtual-queue-upper-limit"]),
            ("[[stage]]\nkind='pcn-cl'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nexcess_meter='exact'\n", &["p.toml:5:", "excess_meter", "\"size-independent\", \"classic\""]),
            ("[[stage]]\nkind='pcn-cl'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nmeter_already_marked='no'\n", &["p.toml:5:", "true or false"]),
            (&format!("sed = 1\n{STM}"), &["p.toml:1:", "sed: unknown key in a PCN chain file"]),
            (&format!("seed = -1\n{STM}"), &["p.toml:1:", "seed = -1"]),
            ("[[stage]]\nkind='pcn-fractional'\nadmissible_rate='64Mbps'\nsupportable_rate='128Mbps'\nthtb_threshold='20ms'\n", &["p.toml:2:", "ThTB.threshold <= ThTB.size"]),
        ];
        let mut wrong = Vec::new();
        for (text, wants) in cases {
            let msg = err(text);
            for w in *wants {
                if !msg.contains(w) {
                    wrong.push(format!("message {msg:?} lacks {w:?} for\n{text}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    }

    /// The stage gives exactly what the marker gives when called directly.
    #[test]
    fn stream_matches_the_marker() {
        let mut chain = parse_pcn_chain("p.toml", STM).unwrap();
        // 160-byte packets every 8 µs = 160 Mb/s > SR: after the buckets drain, all marked.
        let mut csv = String::from("time,size,pcn\n");
        for i in 0..3000u64 {
            csv.push_str(&format!(
                "{}.{:09},160,{}\n",
                5,
                i * 8_000,
                if i == 3 { 1 } else { 0 }
            ));
        }
        let mut out = Vec::new();
        let s = condition_pcn_stream(&mut chain, csv.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let mut lines = out.lines();
        assert_eq!(lines.next(), Some("time,size,pcn_in,pcn"));
        let mut m = StmMarker::new(StmParams::draft_defaults(
            Rate::from_mbps(64),
            Rate::from_mbps(128),
        ))
        .unwrap();
        for (i, l) in lines.enumerate() {
            let arrived = if i == 3 {
                PcnMark::ThresholdMarked
            } else {
                PcnMark::NotMarked
            };
            let want = m.on_packet(Time(i as u64 * 8_000), 1280, arrived);
            assert_eq!(l.rsplit(',').next(), Some(want.name()), "packet {i}");
        }
        assert_eq!(s.packets, 3000);
        assert!(s.marked_out[1] > 2000 && s.marked_out[0] > 0, "{s:?}");
        assert!(
            s.render().contains("stage[0] pcn-stm: 3000 packets"),
            "{}",
            s.render()
        );
    }

    #[test]
    fn bad_traces_name_the_line() {
        let mut chain = parse_pcn_chain("p.toml", STM).unwrap();
        for (csv, want) in [
            ("time,size,color\n", "unknown column `color`"),
            ("time,size\n0,1\n1,0\n", "line 3: size `0`"),
            (
                "time,size,pcn\n0,1,2\n0,1,3\n",
                "line 3: unknown pcn mark `3`",
            ),
            ("time,size\n1,1\n0.5,1\n", "line 3: time 0.5 is earlier"),
            ("time,size\n1,1,1\n", "line 2: expected 2 fields"),
            ("", "empty trace"),
        ] {
            let e = condition_pcn_stream(&mut chain, csv.as_bytes(), Vec::new()).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains(want), "{e} lacks {want}");
        }
    }
}
