//! `qoslab condition` with an F-GCRA chain: tags an ATM GFR frame trace offline with the
//! F-GCRA(T, f) of TM 4.1 (`qoslab_algo::atm::fgcra`), one F-GCRA per VC.
//!
//! A chain file with a top-level `[fgcra]` table (and no `[[stage]]`) selects this mode:
//!
//! ```toml
//! [fgcra]
//! mcr = "1Mbps"            # MCR as the bit rate of the cell stream: MCR = rate/424 cells/s
//! # mcr_cells_per_sec = 2000  (instead of `mcr`: a whole number of cells per second)
//! tolerance = "10ms"       # f = BT + CDVT
//! mfs_cells = 32           # maximum frame size in cells
//! conformance = "gfr2"     # "gfr2" (tag ineligible frames, default) or "gfr1" (no tagging)
//! encapsulation = "llc-snap" # or "vc-mux" (RFC 2684): cells per frame from the IP size
//! line_rate = "51.84Mbps"  # optional: cells of a frame are spaced 424/line_rate (else 0)
//! output = "frames"        # "frames" (one row per frame, default) or "cells"
//!
//! [[fgcra.vc]]             # optional per-VC MCR overrides
//! id = 2
//! mcr = "2Mbps"            # or mcr_cells_per_sec
//! ```
//!
//! Trace (CSV): a header naming `time`, `vc`, `bytes` and optionally `clp` (0/1: the frame
//! arrives already tagged), any order; one IP datagram (frame) per line; `time` in decimal
//! seconds (exact ns), non-decreasing; blank and `#` lines skipped. The time is that of the
//! frame's first cell; its cells follow at `k·424/line_rate`.
//!
//! Output (CSV):
//! * `frames`: `time,vc,bytes,cells,clp_in,verdict,clp_out,nonconforming_cells`, where
//!   `verdict` is the first cell's (`eligible`, `tag`, `ineligible`) and `clp_out` the CLP
//!   the frame's conforming cells leave with;
//! * `cells`: `time,vc,frame,cell,clp_in,verdict,clp_out` (`verdict` adds `nonconforming`).
//!
//! Non-conforming cells (beyond MFS) are reported, not removed. Errors: exit code 2 naming
//! the file and line (TOML errors with line/column from the parser).

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use qoslab_algo::atm::{
    cells_per_frame, CellRate, CellView, Encapsulation, FGcra, FGcraParams, FGcraVerdict,
    GfrConformance,
};
use qoslab_algo::{Duration, Time};
use qoslab_sim::scenario::units::{parse_duration, parse_rate};
use serde::Deserialize;

use super::trace::{format_secs, parse_secs};
use super::ConditionError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    fgcra: FgcraToml,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FgcraToml {
    mcr: Option<toml::Spanned<String>>,
    mcr_cells_per_sec: Option<toml::Spanned<u64>>,
    tolerance: toml::Spanned<String>,
    mfs_cells: toml::Spanned<u32>,
    conformance: Option<toml::Spanned<String>>,
    encapsulation: Option<toml::Spanned<String>>,
    line_rate: Option<toml::Spanned<String>>,
    output: Option<toml::Spanned<String>>,
    #[serde(default)]
    vc: Vec<VcToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VcToml {
    id: u32,
    mcr: Option<toml::Spanned<String>>,
    mcr_cells_per_sec: Option<toml::Spanned<u64>>,
}

/// Whether a chain file selects the F-GCRA mode (a top-level `[fgcra]` table).
pub fn is_fgcra_chain(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("fgcra"))
}

/// A validated F-GCRA chain.
#[derive(Clone, Debug)]
pub struct FgcraChain {
    pub default: FGcraParams,
    pub per_vc: BTreeMap<u32, FGcraParams>,
    pub encapsulation: Encapsulation,
    /// Bit rate spacing the cells of a frame (`None`: all at the frame's time).
    pub line_rate_bps: Option<u64>,
    pub cells_out: bool,
}

fn line_of(text: &str, pos: usize) -> usize {
    text[..pos.min(text.len())].matches('\n').count() + 1
}

/// Parses and validates an F-GCRA chain file.
pub fn parse_fgcra_chain(file: &str, text: &str) -> Result<FgcraChain, ConditionError> {
    let f: File = toml::from_str(text)
        .map_err(|e| ConditionError::Input(format!("{file}: {}", e.to_string().trim_end())))?;
    let g = f.fgcra;
    let bad = |pos: usize, key: &str, msg: String| {
        ConditionError::Input(format!("{file}:{}: fgcra.{key}: {msg}", line_of(text, pos)))
    };
    let mcr_of = |mcr: &Option<toml::Spanned<String>>,
                  cps: &Option<toml::Spanned<u64>>,
                  at: &str|
     -> Result<Option<CellRate>, ConditionError> {
        match (mcr, cps) {
            (Some(_), Some(c)) => Err(bad(
                c.span().start,
                &format!("{at}mcr_cells_per_sec"),
                "give either `mcr` or `mcr_cells_per_sec`, not both".into(),
            )),
            (Some(m), None) => {
                let r = parse_rate(m.get_ref()).map_err(|e| {
                    bad(
                        m.span().start,
                        &format!("{at}mcr"),
                        format!("{e} (e.g. \"1Mbps\")"),
                    )
                })?;
                CellRate::from_line_rate(r)
                    .map(Some)
                    .map_err(|e| bad(m.span().start, &format!("{at}mcr"), e.to_string()))
            }
            (None, Some(c)) => CellRate::per_sec(*c.get_ref()).map(Some).map_err(|e| {
                bad(
                    c.span().start,
                    &format!("{at}mcr_cells_per_sec"),
                    e.to_string(),
                )
            }),
            (None, None) => Ok(None),
        }
    };
    let mcr = mcr_of(&g.mcr, &g.mcr_cells_per_sec, "")?.ok_or_else(|| {
        ConditionError::Input(format!(
            "{file}: fgcra: missing `mcr` (e.g. \"1Mbps\") or `mcr_cells_per_sec`"
        ))
    })?;
    let tolerance = parse_duration(g.tolerance.get_ref()).map_err(|e| {
        bad(
            g.tolerance.span().start,
            "tolerance",
            format!("{e} (e.g. \"10ms\")"),
        )
    })?;
    let choice = |v: &Option<toml::Spanned<String>>, key: &str, allowed: &[&'static str]| match v {
        None => Ok(0),
        Some(s) => allowed
            .iter()
            .position(|a| a == s.get_ref())
            .ok_or_else(|| {
                bad(
                    s.span().start,
                    key,
                    format!(
                        "`{}` is not allowed: one of {}",
                        s.get_ref(),
                        allowed.join(", ")
                    ),
                )
            }),
    };
    let conformance = match choice(&g.conformance, "conformance", &["gfr2", "gfr1"])? {
        0 => GfrConformance::Gfr2,
        _ => GfrConformance::Gfr1,
    };
    let encapsulation = match choice(&g.encapsulation, "encapsulation", &["llc-snap", "vc-mux"])? {
        0 => Encapsulation::LlcSnap,
        _ => Encapsulation::VcMux,
    };
    let cells_out = choice(&g.output, "output", &["frames", "cells"])? == 1;
    let line_rate_bps = match &g.line_rate {
        None => None,
        Some(s) => {
            let r = parse_rate(s.get_ref())
                .map_err(|e| bad(s.span().start, "line_rate", e.to_string()))?;
            if r.bps() == 0 {
                return Err(bad(s.span().start, "line_rate", "must be > 0".into()));
            }
            Some(r.bps())
        }
    };
    let mk = |mcr: CellRate| FGcraParams {
        mcr,
        tolerance: Duration::from_nanos(tolerance.as_nanos()),
        mfs_cells: *g.mfs_cells.get_ref(),
        conformance,
    };
    let default = mk(mcr);
    FGcra::new(default).map_err(|e| bad(g.mfs_cells.span().start, "mfs_cells", e.to_string()))?;
    let mut per_vc = BTreeMap::new();
    for (k, v) in g.vc.iter().enumerate() {
        let at = format!("vc[{k}].");
        let m = mcr_of(&v.mcr, &v.mcr_cells_per_sec, &at)?.unwrap_or(mcr);
        if per_vc.insert(v.id, mk(m)).is_some() {
            return Err(ConditionError::Input(format!(
                "{file}: fgcra.vc[{k}].id: VC {} is listed twice",
                v.id
            )));
        }
    }
    Ok(FgcraChain {
        default,
        per_vc,
        encapsulation,
        line_rate_bps,
        cells_out,
    })
}

/// Per-VC totals for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VcTotals {
    pub frames: u64,
    pub cells: u64,
    pub eligible_frames: u64,
    pub ineligible_frames: u64,
    pub nonconforming_cells: u64,
}

fn verdict_name(v: FGcraVerdict) -> &'static str {
    match v {
        FGcraVerdict::Eligible => "eligible",
        FGcraVerdict::Tag => "tag",
        FGcraVerdict::Ineligible => "ineligible",
        FGcraVerdict::NonConforming => "nonconforming",
    }
}

/// Runs an F-GCRA chain over a CSV frame trace into `out`; returns per-VC totals.
pub fn run_fgcra(
    chain: &FgcraChain,
    trace_path: &Path,
    out: &Path,
) -> Result<BTreeMap<u32, VcTotals>, ConditionError> {
    let tname = trace_path.display().to_string();
    let input = fs::File::open(trace_path)
        .map_err(|e| ConditionError::Input(format!("{tname}: cannot open the trace: {e}")))?;
    let tmp = out.with_extension(format!("qoslab-partial-{}", std::process::id()));
    let w = fs::File::create(&tmp).map_err(|e| {
        ConditionError::Input(format!("{}: cannot create the output: {e}", out.display()))
    })?;
    let r = tag_stream(chain, BufReader::new(input), BufWriter::new(w), &tname);
    match r {
        Ok(t) => {
            fs::rename(&tmp, out).map_err(|e| {
                let _ = fs::remove_file(&tmp);
                ConditionError::Internal(format!(
                    "cannot move the output into {}: {e}",
                    out.display()
                ))
            })?;
            Ok(t)
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn tag_stream<R: BufRead, W: Write>(
    chain: &FgcraChain,
    rd: R,
    mut w: W,
    tname: &str,
) -> Result<BTreeMap<u32, VcTotals>, ConditionError> {
    let werr = |e: std::io::Error| ConditionError::Internal(format!("cannot write output: {e}"));
    let ierr =
        |line: usize, msg: String| ConditionError::Input(format!("{tname}: line {line}: {msg}"));
    let mut cols: Option<[Option<usize>; 4]> = None; // time, vc, bytes, clp
    let mut gcras: BTreeMap<u32, FGcra> = BTreeMap::new();
    let mut totals: BTreeMap<u32, VcTotals> = BTreeMap::new();
    let mut last_t = 0u64;
    if chain.cells_out {
        writeln!(w, "time,vc,frame,cell,clp_in,verdict,clp_out").map_err(werr)?;
    } else {
        writeln!(
            w,
            "time,vc,bytes,cells,clp_in,verdict,clp_out,nonconforming_cells"
        )
        .map_err(werr)?;
    }
    for (n, line) in rd.lines().enumerate() {
        let ln = n + 1;
        let line = line.map_err(|e| ierr(ln, format!("cannot read: {e}")))?;
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = l.split(',').map(str::trim).collect();
        let Some(c) = cols else {
            let mut c = [None; 4];
            for (i, f) in fields.iter().enumerate() {
                let k = match *f {
                    "time" => 0,
                    "vc" => 1,
                    "bytes" => 2,
                    "clp" => 3,
                    other => {
                        return Err(ierr(
                            ln,
                            format!("unknown column `{other}`: allowed time, vc, bytes, clp"),
                        ))
                    }
                };
                if c[k].replace(i).is_some() {
                    return Err(ierr(ln, format!("column `{f}` given twice")));
                }
            }
            if c[..3].iter().any(Option::is_none) {
                return Err(ierr(
                    ln,
                    "the header must name the columns time, vc and bytes".into(),
                ));
            }
            cols = Some(c);
            continue;
        };
        let get = |k: usize| c[k].and_then(|i| fields.get(i).copied());
        let (Some(ts), Some(vs), Some(bs)) = (get(0), get(1), get(2)) else {
            return Err(ierr(
                ln,
                format!("expected {} fields", c.iter().flatten().count()),
            ));
        };
        let t = parse_secs(ts).map_err(|e| ierr(ln, format!("time `{ts}`: {e}")))?;
        if t < last_t {
            return Err(ierr(
                ln,
                format!("time {ts} is earlier than the previous frame's"),
            ));
        }
        last_t = t;
        let vc: u32 = vs
            .parse()
            .map_err(|_| ierr(ln, format!("vc `{vs}`: expected an integer 0..=4294967295")))?;
        let bytes: u32 = bs.parse().map_err(|_| {
            ierr(
                ln,
                format!("bytes `{bs}`: expected an integer 0..=4294967295"),
            )
        })?;
        let clp = match get(3) {
            None | Some("0") | Some("") => false,
            Some("1") => true,
            Some(o) => return Err(ierr(ln, format!("clp `{o}`: expected 0 or 1"))),
        };
        let g = match gcras.entry(vc) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let p = chain.per_vc.get(&vc).copied().unwrap_or(chain.default);
                e.insert(FGcra::new(p).map_err(|e| ConditionError::Internal(e.to_string()))?)
            }
        };
        let tot = totals.entry(vc).or_default();
        let n_cells = cells_per_frame(bytes, chain.encapsulation);
        let mut first = FGcraVerdict::Eligible;
        let mut nonconf = 0u64;
        for k in 0..n_cells {
            let dt = chain
                .line_rate_bps
                .map_or(0, |r| (k as u128 * 424_000_000_000 / r as u128) as u64);
            let now = Time(t.saturating_add(dt));
            let v = g.on_cell(now, CellView::of_frame(vc, clp, k, n_cells));
            if k == 0 {
                first = v;
            }
            if v == FGcraVerdict::NonConforming {
                nonconf += 1;
            }
            if chain.cells_out {
                let clp_out = clp || v == FGcraVerdict::Tag;
                writeln!(
                    w,
                    "{},{vc},{},{k},{},{},{}",
                    format_secs(now.as_nanos()),
                    tot.frames,
                    clp as u8,
                    verdict_name(v),
                    clp_out as u8
                )
                .map_err(werr)?;
            }
        }
        if !chain.cells_out {
            let clp_out = clp || first == FGcraVerdict::Tag;
            writeln!(
                w,
                "{ts},{vc},{bytes},{n_cells},{},{},{},{nonconf}",
                clp as u8,
                verdict_name(first),
                clp_out as u8
            )
            .map_err(werr)?;
        }
        tot.frames += 1;
        tot.cells += n_cells as u64;
        tot.nonconforming_cells += nonconf;
        if first == FGcraVerdict::Eligible {
            tot.eligible_frames += 1;
        } else {
            tot.ineligible_frames += 1;
        }
    }
    if cols.is_none() {
        return Err(ConditionError::Input(format!(
            "{tname}: empty trace (no header)"
        )));
    }
    w.flush().map_err(werr)?;
    Ok(totals)
}

/// The stderr summary of an F-GCRA run.
pub fn render(totals: &BTreeMap<u32, VcTotals>) -> String {
    let mut s = String::from(
        "F-GCRA: vc frames cells eligible_frames ineligible_frames nonconforming_cells\n",
    );
    for (vc, t) in totals {
        s.push_str(&format!(
            "  {vc} {} {} {} {} {}\n",
            t.frames, t.cells, t.eligible_frames, t.ineligible_frames, t.nonconforming_cells
        ));
    }
    s
}

/// `qoslab condition` in F-GCRA mode: parse, run, print the summary.
pub fn condition_fgcra(
    chain_path: &Path,
    text: &str,
    trace: &Path,
    out: &Path,
) -> Result<(), ConditionError> {
    let chain = parse_fgcra_chain(&chain_path.display().to_string(), text)?;
    let totals = run_fgcra(&chain, trace, out)?;
    eprint!("{}", render(&totals));
    Ok(())
}
