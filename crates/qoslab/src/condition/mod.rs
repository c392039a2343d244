//! `qoslab condition --chain CHAIN.toml --trace IN --out OUT`: runs a packet trace through a
//! chain of traffic conditioners (meters/markers, policers, shapers including the rate
//! adaptive shapers of RFC 2963) and writes the conditioned trace.
//!
//! - IN: CSV (`time,size[,color][,flow]`, see [`trace`]) or pcap / pcapng (recognised by
//!   their magic numbers, see [`pcap`]).
//! - CHAIN.toml: `[[stage]]` tables (see [`chain`]), validated completely first.
//! - OUT: for CSV input, CSV; for pcap(ng) input, the same format with the DSCP set to the
//!   AF codepoint of each packet's colour — or CSV if OUT ends in `.csv`. OUT is written to
//!   a temporary file beside it and renamed at the end, so a failed run leaves no half file.
//! - CSV output columns: the input's, then `color`; `departure` (seconds, 9 decimals, empty
//!   if dropped) when the chain has a shaper; `dropped` (true/false) when a stage can drop
//!   (a policer, or a shaper whose buffer overflows). See [`trace`].
//! - PCN chains (`pcn-stm`, `pcn-fractional`, `pcn-cl` stages) mark a CSV trace with PCN
//!   marks instead: see [`pcn`].
//! - A summary (packets and bytes per colour, drops by policers and by shapers, shaper delay
//!   mean/max, per-stage counters) goes to stderr.
//!
//! Errors: bad input (chain, trace, paths) → exit code 2 with the file and line/record;
//! internal failures → 1. Nothing panics on malformed input.

pub mod chain;
pub mod pcap;
pub mod pcn;
pub mod runner;
pub mod trace;

use std::fmt;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use self::chain::{parse_chain, Chain};
use self::pcap::{detect, Format, PcapReader, PcapWriter, PcapngReader, PcapngWriter};
use self::runner::{run_chain, Sink, Source, Summary};
use self::trace::format_secs;
use self::trace::{CsvReader, CsvWriter, Item, Outcome, Raw};

/// Command-line arguments of `qoslab condition`.
#[derive(Clone, Debug, clap::Args)]
pub struct ConditionArgs {
    /// Chain of conditioners: a TOML file with `[[stage]]` tables.
    #[arg(long)]
    pub chain: PathBuf,
    /// Input trace: CSV (time,size[,color][,flow]), pcap or pcapng.
    #[arg(long)]
    pub trace: PathBuf,
    /// Output trace (CSV for CSV input or a `.csv` name; otherwise the input's capture format).
    #[arg(long)]
    pub out: PathBuf,
}

/// Why `qoslab condition` failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionError {
    /// Bad input: chain file, trace, or paths. The message names the file and line/record.
    Input(String),
    /// A failure that is not the input's fault (output I/O, a broken invariant).
    Internal(String),
}

impl ConditionError {
    /// Process exit code: 2 for bad input, 1 for internal errors.
    pub fn exit_code(&self) -> i32 {
        match self {
            ConditionError::Input(_) => 2,
            ConditionError::Internal(_) => 1,
        }
    }
}

impl fmt::Display for ConditionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConditionError::Input(m) => write!(f, "{m}"),
            ConditionError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for ConditionError {}

/// Runs `qoslab condition` and prints the summary on stderr.
pub fn run(args: ConditionArgs) -> Result<(), ConditionError> {
    // A chain with `pcn-*` stages is a PCN chain (see [`pcn`]).
    if let Ok(text) = fs::read_to_string(&args.chain) {
        if pcn::is_pcn_chain(&text) {
            let s = pcn::condition_pcn_files(&args.chain, &text, &args.trace, &args.out)?;
            eprint!("{}", s.render());
            return Ok(());
        }
    }
    let summary = condition_files(&args.chain, &args.trace, &args.out)?;
    eprint!("{}", summary.render());
    Ok(())
}

enum Input<R> {
    Csv(CsvReader<R>),
    Pcap(PcapReader<R>),
    Pcapng(PcapngReader<R>),
}

impl<R: BufRead> Source for Input<R> {
    fn next_item(&mut self) -> Result<Option<Item>, ConditionError> {
        match self {
            Input::Csv(r) => Ok(r.next_packet()?.map(Item::Packet)),
            Input::Pcap(r) => r.next_item(),
            Input::Pcapng(r) => r.next_item(),
        }
    }
}

enum Output<W: Write> {
    Csv(CsvWriter<W>),
    Pcap(PcapWriter<W>),
    Pcapng(PcapngWriter<W>),
}

impl<W: Write> Sink for Output<W> {
    fn write(&mut self, item: &Item, outcome: Option<&Outcome>) -> Result<(), ConditionError> {
        match self {
            Output::Pcap(w) => w.write(item, outcome),
            Output::Pcapng(w) => w.write(item, outcome),
            Output::Csv(w) => {
                let (Item::Packet(p), Some(o)) = (item, outcome) else {
                    return Ok(());
                };
                let r = match &p.raw {
                    Raw::Csv(fields) => {
                        let f: Vec<&str> = fields.iter().map(String::as_str).collect();
                        w.write_row(&f, o)
                    }
                    _ => w.write_row(&[&format_secs(p.time), &p.size.to_string()], o),
                };
                r.map_err(|e| ConditionError::Internal(format!("cannot write output: {e}")))
            }
        }
    }
}

impl<W: Write> Output<W> {
    fn finish(self) -> std::io::Result<W> {
        let mut w = match self {
            Output::Csv(w) => w.into_inner(),
            Output::Pcap(w) => w.into_inner(),
            Output::Pcapng(w) => w.into_inner(),
        };
        w.flush()?;
        Ok(w)
    }
}

fn temp_path(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(format!(".qoslab-partial-{}", std::process::id()));
    out.with_file_name(name)
}

/// Conditions `trace` through the chain in `chain_path` into `out`; returns the summary.
pub fn condition_files(
    chain_path: &Path,
    trace_path: &Path,
    out: &Path,
) -> Result<Summary, ConditionError> {
    let text = fs::read_to_string(chain_path).map_err(|e| {
        ConditionError::Input(format!(
            "{}: cannot read the chain: {e}",
            chain_path.display()
        ))
    })?;
    let mut chain = parse_chain(&chain_path.display().to_string(), &text)?;
    let tname = trace_path.display().to_string();
    let in_err = |e: ConditionError| match e {
        ConditionError::Input(m) => ConditionError::Input(format!("{tname}: {m}")),
        other => other,
    };
    let file = File::open(trace_path)
        .map_err(|e| ConditionError::Input(format!("{tname}: cannot open the trace: {e}")))?;
    let mut rd = BufReader::new(file);
    let format = detect(
        rd.fill_buf()
            .map_err(|e| ConditionError::Input(format!("{tname}: cannot read the trace: {e}")))?,
    );
    let tmp = temp_path(out);
    let w = BufWriter::new(File::create(&tmp).map_err(|e| {
        ConditionError::Input(format!("{}: cannot create the output: {e}", out.display()))
    })?);
    let result = condition_streams(&mut chain, format, rd, w, out).map_err(in_err);
    match result {
        Ok(summary) => {
            fs::rename(&tmp, out).map_err(|e| {
                let _ = fs::remove_file(&tmp);
                ConditionError::Internal(format!(
                    "cannot move the output into {}: {e}",
                    out.display()
                ))
            })?;
            Ok(summary)
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn wants_csv(out: &Path) -> bool {
    out.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

/// Runs the chain from a reader of the given format into a writer.
fn condition_streams<R: BufRead, W: Write>(
    chain: &mut Chain,
    format: Format,
    rd: R,
    w: W,
    out: &Path,
) -> Result<Summary, ConditionError> {
    let (dep, drop, af) = (chain.has_shaper(), chain.can_drop(), chain.af_class);
    let werr = |e: std::io::Error| ConditionError::Internal(format!("cannot write output: {e}"));
    let csv_cols = ["time".to_string(), "size".to_string()];
    let (mut input, mut output) = match format {
        Format::Csv => {
            let r = CsvReader::new(rd)?;
            let wr = CsvWriter::new(w, r.header(), dep, drop).map_err(werr)?;
            (Input::Csv(r), Output::Csv(wr))
        }
        Format::Pcap => {
            let r = PcapReader::new(rd, af)?;
            let wr = if wants_csv(out) {
                Output::Csv(CsvWriter::new(w, &csv_cols, dep, drop).map_err(werr)?)
            } else {
                Output::Pcap(PcapWriter::new(w, r.header(), af).map_err(werr)?)
            };
            (Input::Pcap(r), wr)
        }
        Format::Pcapng => {
            let r = PcapngReader::new(rd, af);
            let wr = if wants_csv(out) {
                Output::Csv(CsvWriter::new(w, &csv_cols, dep, drop).map_err(werr)?)
            } else {
                Output::Pcapng(PcapngWriter::new(w, af))
            };
            (Input::Pcapng(r), wr)
        }
    };
    let summary = run_chain(chain, &mut input, &mut output)?;
    output.finish().map_err(werr)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::pcap::build;
    use super::runner::StageStats;
    use super::*;
    use qoslab_algo::meter::{ColorMode, SrTcm, SrTcmParams, TrTcm, TrTcmParams};
    use qoslab_algo::{Color, PacketView, RandomSource, Rate, Rng, Time};
    use std::sync::atomic::{AtomicU32, Ordering};

    struct TempDir(PathBuf);
    impl TempDir {
        fn new() -> TempDir {
            static N: AtomicU32 = AtomicU32::new(0);
            let p = std::env::temp_dir().join(format!(
                "qoslab-condition-test-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            fs::create_dir_all(&p).unwrap();
            TempDir(p)
        }
        fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
            let p = self.0.join(name);
            fs::write(&p, bytes).unwrap();
            p
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const SRTCM: &str =
        "[[stage]]\nkind = 'srtcm'\nmode = 'blind'\ncir = '2Mbps'\ncbs = '3000B'\nebs = '6000B'\n";

    /// A bursty trace: (time ns, size) from a fixed seed, starting at 5 s.
    fn bursty(n: usize) -> Vec<(u64, u32)> {
        let mut rng = Rng::from_seed(42);
        let mut t = 5_000_000_000u64;
        (0..n)
            .map(|_| {
                // Bursts of back-to-back packets with idle gaps.
                t += if rng.uniform() < 0.8 {
                    100_000
                } else {
                    20_000_000
                };
                (t, 40 + (rng.next_u64() % 1461) as u32)
            })
            .collect()
    }

    fn csv_rows(text: &str) -> Vec<Vec<String>> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn end_to_end_srtcm_matches_the_algorithm() {
        let d = TempDir::new();
        let pkts = bursty(3000);
        let mut csv = String::from("time,size\n");
        for (t, s) in &pkts {
            csv.push_str(&format!("{},{s}\n", format_secs(*t)));
        }
        let chain = d.file("c.toml", SRTCM.as_bytes());
        let trace = d.file("in.csv", csv.as_bytes());
        let out = d.0.join("out.csv");
        let summary = condition_files(&chain, &trace, &out).unwrap();
        let rows = csv_rows(&fs::read_to_string(&out).unwrap());
        assert_eq!(rows.len(), pkts.len());

        // The same meter called directly, with time measured from the first packet.
        let mut m =
            SrTcm::new(SrTcmParams::new(ColorMode::Blind, Rate(2_000_000), 3000, 6000).unwrap());
        let t0 = pkts[0].0;
        let mut counts = [0u64; 3];
        for ((t, s), row) in pkts.iter().zip(&rows) {
            let c = m.mark(Time(t - t0), &PacketView::new(*s));
            counts[c.index()] += 1;
            assert_eq!(row[2], c.name(), "at {row:?}");
            assert_eq!(
                (row[0].as_str(), row[1].as_str()),
                (format_secs(*t).as_str(), s.to_string().as_str())
            );
        }
        assert!(
            counts.iter().all(|&c| c > 0),
            "the trace should exercise all colours: {counts:?}"
        );
        assert_eq!(summary.out.pkts, counts);
        assert_eq!(summary.stages[0].1, StageStats::Meter(*m.counters()));
        assert!(summary.render().contains("green"));
    }

    #[test]
    fn csv_with_color_flow_and_policer() {
        let d = TempDir::new();
        let chain = d.file(
            "c.toml",
            b"[[stage]]\nkind='srtcm'\nmode='aware'\ncir='8Mbps'\ncbs='1000B'\nebs='1000B'\n\
              [[stage]]\nkind='token-bucket'\ncir='8Mbps'\ncbs='1500B'\n",
        );
        // 8 Mbit/s = 1 B/us. Pre-coloured yellow stays >= yellow (aware). Policer 1500 B.
        let trace = d.file(
            "in.csv",
            b"flow,time,size,color\n7,0,1000,green\n7,0,500,yellow\n8,0.0001,600,green\n8,0.0001,100,red\n",
        );
        let out = d.0.join("o.csv");
        let s = condition_files(&chain, &trace, &out).unwrap();
        let text = fs::read_to_string(&out).unwrap();
        // srTCM: 1000 green (Tc 0), 500 yellow from E (Te 500), at 100us Tc=100: 600 -> E has
        // 500 < 600 -> red; 100 red stays red.
        // Policer (Tb 1500): 1000 pass (500 left), 500 pass (0), at 100us +100: 600 dropped,
        // 100 passes.
        assert_eq!(
            text,
            "flow,time,size,color_in,color,dropped\n\
             7,0,1000,green,green,false\n\
             7,0,500,yellow,yellow,false\n\
             8,0.0001,600,green,red,true\n\
             8,0.0001,100,red,red,false\n"
        );
        assert_eq!((s.policed_pkts, s.policed_bytes), (1, 600));
        assert_eq!(s.out.pkts, [1, 1, 1]);
    }

    #[test]
    fn malformed_csv_traces_exit_2_with_line_numbers_and_no_output() {
        let d = TempDir::new();
        let chain = d.file("c.toml", SRTCM.as_bytes());
        let cases: &[(&str, &str)] = &[
            (
                "time,size\n1,10\n0.5,10\n",
                "line 3: time 0.500000000 s is earlier than 1.000000000 s at line 2",
            ),
            ("time,size\n1,-10\n", "line 2: size `-10`"),
            ("time,size\n1,ten\n", "line 2: size `ten`"),
            (
                "time,size,color\n1,10,purple\n",
                "line 2: unknown color `purple`",
            ),
        ];
        for (text, want) in cases {
            let trace = d.file("bad.csv", text.as_bytes());
            let out = d.0.join("bad-out.csv");
            let e = condition_files(&chain, &trace, &out).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            let msg = e.to_string();
            assert!(msg.contains(want) && msg.contains("bad.csv"), "{msg}");
            assert!(!out.exists(), "no output on error");
            assert!(fs::read_dir(&d.0).unwrap().all(|f| !f
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("partial")));
        }
        // Missing files are bad input too.
        let e =
            condition_files(&d.0.join("nope.toml"), &d.0.join("x"), &d.0.join("y")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let e = condition_files(&chain, &d.0.join("nope.csv"), &d.0.join("y")).unwrap_err();
        assert!(e.to_string().contains("cannot open the trace") && e.exit_code() == 2);
    }

    #[test]
    fn pcap_end_to_end_trtcm_dscp_matches_the_algorithm() {
        let d = TempDir::new();
        let chain = d.file(
            "c.toml",
            b"af_class = 2\n[[stage]]\nkind='trtcm'\ncir='1Mbps'\ncbs='3000B'\npir='2Mbps'\npbs='6000B'\n",
        );
        let pkts = bursty(400);
        let recs: Vec<(u32, u32, Vec<u8>, u32)> = pkts
            .iter()
            .enumerate()
            .map(|(i, &(t, s))| {
                let ip = if i % 3 == 0 {
                    build::ipv6(s as u16 - 40, 1)
                } else {
                    build::ipv4(s as u16, 0, 1)
                };
                let et = if i % 3 == 0 { 0x86dd } else { 0x0800 };
                let f = build::ethernet(et, &ip);
                let n = f.len() as u32;
                (
                    (t / 1_000_000_000) as u32,
                    (t % 1_000_000_000 / 1000) as u32,
                    f,
                    n,
                )
            })
            .collect();
        let mut recs = recs;
        recs.insert(
            7,
            (recs[6].0, recs[6].1, build::ethernet(0x0806, &[0; 28]), 42),
        );
        let trace = d.file("in.pcap", &build::pcap(false, false, 1, &recs));
        let out = d.0.join("out.pcap");
        let s = condition_files(&chain, &trace, &out).unwrap();
        assert_eq!(s.non_ip_frames, 1);

        let mut m = TrTcm::new(
            TrTcmParams::new(
                ColorMode::Blind,
                Rate(1_000_000),
                3000,
                Rate(2_000_000),
                6000,
            )
            .unwrap(),
        );
        let bytes = fs::read(&out).unwrap();
        let mut r = PcapReader::new(&bytes[..], 2).unwrap();
        let t0 = pkts[0].0;
        let mut i = 0;
        let mut seen = [0; 3];
        while let Some(item) = r.next_item().unwrap() {
            let Item::Packet(p) = item else { continue };
            let (t, size) = pkts[i];
            let want = m.mark(Time(t - t0), &PacketView::new(size));
            seen[want.index()] += 1;
            assert_eq!((p.time, p.size, p.color), (t, size, want), "packet {i}");
            if let Raw::Pcap(raw) = &p.raw {
                if !raw.ip.v6 {
                    assert_eq!(pcap::ipv4_checksum(&raw.data[14..34]), 0);
                    assert_eq!(raw.data[14 + 1] & 3, 1, "ECN kept");
                }
            }
            i += 1;
        }
        assert_eq!(i, pkts.len());
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");

        // The same pcap to CSV output.
        let out_csv = d.0.join("out.csv");
        condition_files(&chain, &trace, &out_csv).unwrap();
        let rows = csv_rows(&fs::read_to_string(&out_csv).unwrap());
        assert_eq!(rows.len(), pkts.len());
        assert_eq!(rows[0][0], format_secs(pkts[0].0));
    }

    #[test]
    fn pcapng_policer_drops_are_removed() {
        let d = TempDir::new();
        let chain = d.file(
            "c.toml",
            b"[[stage]]\nkind='token-bucket'\ncir='8Mbps'\ncbs='1500B'\naction='drop'\n",
        );
        let mut f = build::shb(false);
        f.extend(build::idb(false, 101, Some(9)));
        for k in 0..4u64 {
            // 1000 B packets 100 us apart into a 1500 B bucket filling at 1 B/us.
            f.extend(build::epb(
                false,
                0,
                1_000_000_000 + k * 100_000,
                &build::ipv4(1000, 0, 0),
                1000,
            ));
        }
        let trace = d.file("in.pcapng", &f);
        let out = d.0.join("out.pcapng");
        let s = condition_files(&chain, &trace, &out).unwrap();
        // t=0: 1500 -> pass (500). t=100us: 600 -> drop. t=200us: 700 -> drop.
        // t=300us: 800 -> drop.
        assert_eq!((s.out.pkts[0], s.policed_pkts), (1, 3));
        let bytes = fs::read(&out).unwrap();
        let mut r = PcapngReader::new(&bytes[..], 1);
        let n = std::iter::from_fn(|| r.next_item().unwrap())
            .filter(|i| matches!(i, Item::Packet(_)))
            .count();
        assert_eq!(n, 1);
    }

    const G_TRRAS_TRTCM: &str =
        "[[stage]]\nkind='g-trras'\ncir='1Mbps'\npir='2Mbps'\nmir='10Mbps'\n\
        cir_th='2000B'\npir_th='4000B'\nmir_th='6000B'\nbuffer='6000B'\n\
        [[stage]]\nkind='trtcm'\ncir='1Mbps'\ncbs='3000B'\npir='2Mbps'\npbs='6000B'\n";

    /// The same shaper and meter driven directly, in the runner's order (a release due at or
    /// before the next arrival goes first). Returns (departure, colour) per packet, None if
    /// the shaper dropped it; times are relative to the first packet.
    fn drive_g_trras(pkts: &[(u64, u32)], blind_color: Color) -> Vec<Option<(Time, Color)>> {
        use qoslab_algo::shaper::{GreenRas, RasParams, TrRasConfig};
        let mut g = GreenRas::new(
            RasParams::two_rate(&TrRasConfig {
                cir: Rate(1_000_000),
                pir: Rate(2_000_000),
                mir: Rate(10_000_000),
                line_rate: Rate(10_000_000),
                cir_th: 2000,
                pir_th: 4000,
                mir_th: 6000,
                buffer: 6000,
                ear_window: chain::DEFAULT_K,
            })
            .unwrap(),
        );
        let mut m = TrTcm::new(
            TrTcmParams::new(
                ColorMode::Blind,
                Rate(1_000_000),
                3000,
                Rate(2_000_000),
                6000,
            )
            .unwrap(),
        );
        let t0 = pkts[0].0;
        let mut res = vec![None; pkts.len()];
        let mut i = 0;
        loop {
            let due = g.next_release(&m);
            let next = pkts.get(i).map(|p| Time(p.0 - t0));
            match (due, next) {
                (Some(d), a) if a.is_none_or(|a| d <= a) => {
                    let (id, pv) = g.release(d, &m).unwrap();
                    res[id as usize] = Some((d, m.mark(d, &pv)));
                }
                (_, Some(a)) => {
                    let pv = PacketView::with_color(pkts[i].1, blind_color);
                    let _ = g.on_arrival(a, i as u64, pv);
                    i += 1;
                }
                _ => break,
            }
        }
        res
    }

    #[test]
    fn end_to_end_g_trras_matches_the_algorithms() {
        let d = TempDir::new();
        let pkts = bursty(3000);
        let mut csv = String::from("time,size\n");
        for (t, s) in &pkts {
            csv.push_str(&format!("{},{s}\n", format_secs(*t)));
        }
        let chain = d.file("c.toml", G_TRRAS_TRTCM.as_bytes());
        let trace = d.file("in.csv", csv.as_bytes());
        let out = d.0.join("out.csv");
        let summary = condition_files(&chain, &trace, &out).unwrap();
        let text = fs::read_to_string(&out).unwrap();
        assert!(
            text.starts_with("time,size,color,departure,dropped\n"),
            "{text}"
        );
        let rows = csv_rows(&text);
        assert_eq!(rows.len(), pkts.len());
        let want = drive_g_trras(&pkts, Color::Green);
        let t0 = pkts[0].0;
        let (mut drops, mut colors, mut early) = (0, [0u64; 3], 0);
        for ((row, w), (t, _)) in rows.iter().zip(&want).zip(&pkts) {
            match w {
                Some((dep, c)) => {
                    assert_eq!(
                        (row[2].as_str(), row[3].as_str(), row[4].as_str()),
                        (c.name(), format_secs(t0 + dep.as_nanos()).as_str(), "false"),
                        "{row:?}"
                    );
                    colors[c.index()] += 1;
                    early += u64::from(t0 + dep.as_nanos() == *t);
                }
                None => {
                    assert_eq!((row[3].as_str(), row[4].as_str()), ("", "true"), "{row:?}");
                    drops += 1;
                }
            }
        }
        // The trace exercises every path: drops, all colours, packets leaving at once.
        assert!(drops > 0 && early > 0, "drops {drops}, early {early}");
        assert!(colors.iter().all(|&c| c > 0), "{colors:?}");
        assert_eq!(summary.out.pkts, colors);
        assert_eq!(summary.shaper_drop_pkts, drops);
        let StageStats::Shaper(st) = &summary.stages[0].1 else {
            panic!("{:?}", summary.stages)
        };
        assert!(st.green_releases > 0, "{st:?}");
        assert!(summary.render().contains("stage 1 g-trras: released"));
    }

    #[test]
    fn colour_aware_meter_behind_a_green_ras_never_releases_yellow_early() {
        // The same chain with a colour-aware trTCM and every packet pre-coloured yellow: the
        // head can never become green, so T2 = NEVER and the G-trRAS follows its rate
        // schedule T1 exactly like a plain trRAS.
        let d = TempDir::new();
        let pkts = bursty(500);
        let mut csv = String::from("time,size,color\n");
        for (t, s) in &pkts {
            csv.push_str(&format!("{},{s},yellow\n", format_secs(*t)));
        }
        let trace = d.file("in.csv", csv.as_bytes());
        let aware = G_TRRAS_TRTCM.replace("kind='trtcm'", "kind='trtcm'\nmode='aware'");
        let plain = aware.replace("g-trras", "trras");
        let run = |chain: &str, name: &str| {
            let c = d.file(name, chain.as_bytes());
            let out = d.0.join(format!("{name}.csv"));
            let s = condition_files(&c, &trace, &out).unwrap();
            (csv_rows(&fs::read_to_string(&out).unwrap()), s)
        };
        let (g, gs) = run(&aware, "g.toml");
        let (p, _) = run(&plain, "p.toml");
        assert_eq!(g, p);
        let StageStats::Shaper(st) = &gs.stages[0].1 else {
            panic!()
        };
        assert_eq!(st.green_releases, 0);
        // Whereas the blind meter would release some of them early (see the test above).
        assert!(g.iter().all(|r| r[3] != "green"));
    }

    #[test]
    fn pcap_through_a_green_ras_gets_departure_timestamps() {
        let d = TempDir::new();
        let chain = d.file("c.toml", G_TRRAS_TRTCM.as_bytes());
        let pkts = bursty(400);
        // A nanosecond pcap of raw IPv4 (link type 101).
        let recs: Vec<(u32, u32, Vec<u8>, u32)> = pkts
            .iter()
            .map(|&(t, s)| {
                let ip = build::ipv4(s as u16, 0, 0);
                let n = ip.len() as u32;
                (
                    (t / 1_000_000_000) as u32,
                    (t % 1_000_000_000) as u32,
                    ip,
                    n,
                )
            })
            .collect();
        let trace = d.file("in.pcap", &build::pcap(false, true, 101, &recs));
        let out = d.0.join("out.pcap");
        let s = condition_files(&chain, &trace, &out).unwrap();
        let want = drive_g_trras(&pkts, Color::Green);
        let t0 = pkts[0].0;
        let bytes = fs::read(&out).unwrap();
        let mut r = PcapReader::new(&bytes[..], 1).unwrap();
        let mut got = Vec::new();
        while let Some(item) = r.next_item().unwrap() {
            let Item::Packet(p) = item else { continue };
            got.push((p.time, p.size, p.color));
        }
        // Dropped packets are left out; the others carry their departure and colour.
        let expect: Vec<(u64, u32, Color)> = want
            .iter()
            .zip(&pkts)
            .filter_map(|(w, &(_, size))| w.map(|(dep, c)| (t0 + dep.as_nanos(), size, c)))
            .collect();
        assert_eq!(got, expect);
        assert!(s.shaper_drop_pkts > 0 && s.shaped_pkts as usize == expect.len());
        assert!(expect.iter().zip(&pkts).any(|(e, p)| e.0 != p.0));

        // The same pcap to CSV: departure and dropped columns.
        let out_csv = d.0.join("out.csv");
        condition_files(&chain, &trace, &out_csv).unwrap();
        let text = fs::read_to_string(&out_csv).unwrap();
        assert!(text.starts_with("time,size,color,departure,dropped\n"));
        assert_eq!(csv_rows(&text).len(), pkts.len());
    }

    #[test]
    fn truncated_pcap_is_bad_input() {
        let d = TempDir::new();
        let chain = d.file("c.toml", SRTCM.as_bytes());
        let f = build::pcap(
            true,
            true,
            101,
            &[
                (1, 0, build::ipv4(100, 0, 0), 100),
                (2, 0, build::ipv4(100, 0, 0), 100),
            ],
        );
        let trace = d.file("t.pcap", &f[..f.len() - 1]);
        let e = condition_files(&chain, &trace, &d.0.join("o.pcap")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string()
                .contains("t.pcap: record 2: truncated packet data"),
            "{e}"
        );
        let _ = Color::Green;
    }
}
