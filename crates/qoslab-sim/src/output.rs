//! Files a run writes: `summary.json`, `flows.csv`, `queues.csv`, `queue_series.csv`,
//! `flow_series.csv`, `tcp_series.csv`, `tfrc_series.csv`, `delay_series.csv`. Numbers are printed with fixed formats so the files are byte-identical
//! for the same (scenario, seed).

use std::fmt::Write as _;
use std::path::Path;

use crate::measure::delay::DelayStats;
use crate::result::RunResult;

/// Appends nanoseconds as seconds with 9 decimals (exact for integers): what
/// `format!("{}.{:09}", ns / 1e9, ns % 1e9)` writes, digit by digit without the formatting
/// machinery (issue 13 session 14: a 10,000-flow `flows.csv` has 19 such fields per row,
/// each a `format!` into a `String` of its own before).
fn push_secs(s: &mut String, ns: u64) {
    let (whole, frac) = (ns / 1_000_000_000, ns % 1_000_000_000);
    // u64::MAX / 1e9 has 11 digits; the fraction is always 9.
    let mut buf = [b'0'; 21];
    let i = digits_ending_at(&mut buf, 11, whole);
    buf[11] = b'.';
    let mut f = frac;
    for j in (12..21).rev() {
        buf[j] = b'0' + (f % 10) as u8;
        f /= 10;
    }
    // Every byte written above is an ASCII digit or '.', so this never fails.
    s.push_str(std::str::from_utf8(&buf[i..]).expect("ASCII digits"));
}

/// Nanoseconds as seconds with 9 decimals (exact for integers).
fn secs(ns: u64) -> String {
    let mut s = String::with_capacity(21);
    push_secs(&mut s, ns);
    s
}

/// Appends a mean in nanoseconds as seconds, to the nanosecond (`{:.9}` of `ns · 1e-9`).
fn push_secs_f(s: &mut String, ns: f64) {
    push_fixed(s, ns * 1e-9, 9);
}

/// Appends `x` with `prec` decimals: exactly what `write!(s, "{:.prec$}", x)` writes (the
/// binary value's exact decimal expansion rounded half to even, as `core::fmt` does), by
/// integer arithmetic for a non-negative finite `x` below 2^93 and `prec <= 10`, else by
/// `write!` (issue 13 session 15: a 10,000-flow `flows.csv` has nine such fields per row,
/// and `core::fmt`'s exact mode falls back to its big-number algorithm for many of them;
/// the file's floats were 135 M instructions, more than a tenth of the process).
///
/// `x = m · 2^e` (m < 2^53); `x · 10^prec` is then `m · 10^prec · 2^e`, an integer below
/// 2^127 for `e >= 0` in range, or for `e < 0` the quotient of `m · 10^prec` (< 2^87) by
/// `2^-e`, rounded half to even on its remainder.
fn push_fixed(s: &mut String, x: f64, prec: usize) {
    let mut buf = [0u8; 50];
    match fixed_digits(x, prec, &mut buf) {
        // Every byte written is an ASCII digit or '.', so this never fails.
        Some(i) => s.push_str(std::str::from_utf8(&buf[i..]).expect("ASCII digits")),
        // negative (or -0.0), non-finite, huge or more decimals: the formatter's own way
        None => {
            let _ = write!(s, "{x:.prec$}");
        }
    }
}

/// The digits `push_fixed` writes, at the end of `buf` from the returned index; `None`
/// where it leaves them to `core::fmt`.
fn fixed_digits(x: f64, prec: usize, buf: &mut [u8; 50]) -> Option<usize> {
    const POW10: [u128; 11] = [
        1,
        10,
        100,
        1_000,
        10_000,
        100_000,
        1_000_000,
        10_000_000,
        100_000_000,
        1_000_000_000,
        10_000_000_000,
    ];
    let bits = x.to_bits();
    let (sign, exp, frac) = (
        bits >> 63,
        ((bits >> 52) & 0x7ff) as i32,
        bits & ((1 << 52) - 1),
    );
    if sign != 0 || exp == 0x7ff || prec >= POW10.len() {
        return None;
    }
    let (m, e) = if exp == 0 {
        (frac as u128, -1074)
    } else {
        ((frac | 1 << 52) as u128, exp - 1075)
    };
    let p10 = POW10[prec];
    let q = if e >= 0 {
        if e > 40 {
            return None;
        }
        (m << e) * p10
    } else {
        let (num, shift) = (m * p10, e.unsigned_abs());
        if shift >= 128 {
            // below 2^87 / 2^128: rounds to 0, never a tie
            0
        } else {
            let (q, r, half) = (num >> shift, num & ((1 << shift) - 1), 1u128 << (shift - 1));
            q + u128::from(r > half || (r == half && q & 1 == 1))
        }
    };
    // u64 division where it fits (nearly always): a u128 division is a library call.
    let (int, mut f) = match u64::try_from(q) {
        Ok(q) => ((q / p10 as u64) as u128, q % p10 as u64),
        Err(_) => (q / p10, (q % p10) as u64),
    };
    // u128::MAX has 39 digits; then '.' and at most 10 decimals.
    let mut i = buf.len();
    for _ in 0..prec {
        i -= 1;
        buf[i] = b'0' + (f % 10) as u8;
        f /= 10;
    }
    if prec > 0 {
        i -= 1;
        buf[i] = b'.';
    }
    let mut w = int;
    while w > u128::from(u64::MAX) {
        i -= 1;
        buf[i] = b'0' + (w % 10) as u8;
        w /= 10;
    }
    Some(digits_ending_at(buf, i, w as u64))
}

/// Writes the decimal digits of `w` (at least one) into `buf` so that they end just before
/// `end`, and returns where they start.
fn digits_ending_at(buf: &mut [u8], end: usize, mut w: u64) -> usize {
    let mut i = end;
    loop {
        i -= 1;
        buf[i] = b'0' + (w % 10) as u8;
        w /= 10;
        if w == 0 {
            return i;
        }
    }
}

/// `x` with `prec` decimals for a format string: `format!("{:>13}", Fixed(x, 3))` writes
/// what `format!("{:>13.3}", x)` writes (the digits of `push_fixed`, then the width and
/// alignment of the format string; give no precision there, it would cut the digits). The
/// run summary's per-flow table uses it (issue 13 session 15).
#[derive(Clone, Copy, Debug)]
pub struct Fixed(pub f64, pub usize);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut buf = [0u8; 50];
        match fixed_digits(self.0, self.1, &mut buf) {
            Some(i) => f.pad(std::str::from_utf8(&buf[i..]).expect("ASCII digits")),
            None => f.pad(&format!("{:.*}", self.1, self.0)),
        }
    }
}

/// A mean in nanoseconds as seconds, to the nanosecond.
fn secs_f(ns: f64) -> String {
    format!("{:.9}", ns * 1e-9)
}

/// Appends `mean,p50,p90,p99,max` of a duration summary, in seconds.
fn push_stats_cols(s: &mut String, d: &DelayStats) {
    push_secs_f(s, d.mean_ns);
    for v in [d.p50_ns, d.p90_ns, d.p99_ns, d.max_ns] {
        s.push(',');
        push_secs(s, v);
    }
}

/// `mean,p50,p90,p99,max` of a duration summary, in seconds.
fn stats_cols(d: &DelayStats) -> String {
    let mut s = String::new();
    push_stats_cols(&mut s, d);
    s
}
use crate::sim::Simulator;

pub fn summary_json(r: &RunResult) -> String {
    use serde::Serialize as _;
    let mut v = Vec::with_capacity(4096);
    let mut ser = serde_json::Serializer::with_formatter(&mut v, Pretty::default());
    r.serialize(&mut ser).expect("results serialise");
    v.push(b'\n');
    String::from_utf8(v).expect("serde_json writes UTF-8")
}

/// `serde_json`'s `PrettyFormatter` with its default two-space indent, byte for byte, but
/// writing a line break and its indentation as one slice: `PrettyFormatter` writes the
/// indent string once per level, a `Vec` extension each, for every key and value (issue 13
/// session 14: a 10,000-flow `summary.json` is 20 MB and 650,000 lines, and writing it was
/// a fifth of the process). Only the structure methods differ from the default
/// `Formatter`, as in `PrettyFormatter`; `tests::summary_json_as_serde_json_pretty` checks
/// the bytes against `serde_json::to_string_pretty`.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    /// A line break and `depth` levels of two spaces.
    fn newline<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        const NL: &[u8; 129] = b"\n                                                                                                                                ";
        let n = 1 + 2 * self.depth;
        if n <= NL.len() {
            w.write_all(&NL[..n])
        } else {
            w.write_all(b"\n")?;
            (0..self.depth).try_for_each(|_| w.write_all(b"  "))
        }
    }
}

impl Pretty {
    /// `[` or `{`: one level deeper, nothing written inside yet.
    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }
    /// `]` or `}`: on a line of its own unless the container is empty.
    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }
    /// Before an array value or an object key: a comma after the first, then a new line.
    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

pub fn flows_csv(r: &RunResult) -> String {
    let mut s = String::from(
        "flow,kind,src,dst,goodput_bps,send_rate_bps,drop_rate,data_pkts,data_dropped,retx_pkts,green_bytes,yellow_bytes,red_bytes,\
         delay_pkts,delay_mean_s,delay_p50_s,delay_p90_s,delay_p99_s,delay_max_s,delay_min_s,queueing_mean_s,queueing_max_s,prop_tx_mean_s,\
         jitter_rfc3550_s,ipdv_mean_abs_s,ipdv_max_abs_s,pdv_p99_s,rtt_samples,rtt_mean_s,rtt_p50_s,rtt_p90_s,rtt_p99_s,rtt_max_s,rtt_min_s\n",
    );
    // Each row written in place: the fields that were `format!`ed into strings of their
    // own (`secs`, `secs_f`, `stats_cols`) are appended to `s` directly; the bytes are the
    // same (`tests::seconds_as_format_wrote_them`, and whole runs' files compared).
    for f in &r.flows {
        let m = &f.measured;
        let d = &f.delay;
        let rtt = d.rtt.unwrap_or_default();
        let _ = write!(s, "{},{},{},{},", f.name, f.kind, f.src, f.dst);
        push_fixed(&mut s, f.goodput_bps, 3);
        s.push(',');
        push_fixed(&mut s, f.send_rate_bps, 3);
        s.push(',');
        push_fixed(&mut s, f.drop_rate, 6);
        let _ = write!(
            s,
            ",{},{},{},{},{},{},{},",
            m.data_pkts,
            m.data_dropped,
            m.retx_pkts,
            m.bytes_by_color[0],
            m.bytes_by_color[1],
            m.bytes_by_color[2],
            d.one_way.samples,
        );
        push_stats_cols(&mut s, &d.one_way);
        s.push(',');
        push_secs(&mut s, d.one_way.min_ns);
        s.push(',');
        push_secs_f(&mut s, d.queueing_mean_ns);
        s.push(',');
        push_secs(&mut s, d.queueing_max_ns);
        for v in [d.prop_tx_mean_ns, d.jitter_rfc3550_ns, d.ipdv_mean_abs_ns] {
            s.push(',');
            push_secs_f(&mut s, v);
        }
        for v in [d.ipdv_max_abs_ns, d.pdv_p99_ns] {
            s.push(',');
            push_secs(&mut s, v);
        }
        let _ = write!(s, ",{},", rtt.samples);
        push_stats_cols(&mut s, &rtt);
        s.push(',');
        push_secs(&mut s, rtt.min_ns);
        s.push('\n');
    }
    s
}

pub fn queues_csv(r: &RunResult) -> String {
    let mut s = String::from(
        "link,utilisation,throughput_bps,arrivals,departures,drops_overflow,drops_early,drops_forced,drops_loss,marks,ql_mean,ql_std,ql_p_empty,ql_p90,ql_p99,ql_max,ql_time_mean,\
         sojourn_mean_s,sojourn_p50_s,sojourn_p90_s,sojourn_p99_s,sojourn_max_s,\
         green_sojourn_pkts,green_sojourn_mean_s,green_sojourn_p99_s,yellow_sojourn_pkts,yellow_sojourn_mean_s,yellow_sojourn_p99_s,\
         red_sojourn_pkts,red_sojourn_mean_s,red_sojourn_p99_s\n",
    );
    for q in &r.queues {
        let m = &q.measured;
        let d = |i: usize| m.drops[i].iter().sum::<u64>();
        let j = &q.sojourn;
        let by = |c: &DelayStats| format!("{},{},{}", c.samples, secs_f(c.mean_ns), secs(c.p99_ns));
        let _ = writeln!(
            s,
            "{},{:.6},{:.3},{},{},{},{},{},{},{},{:.4},{:.4},{:.6},{},{},{},{:.4},{},{},{},{}",
            q.link,
            q.utilisation,
            q.throughput_bps,
            m.arrivals,
            m.departures,
            d(0),
            d(1),
            d(2),
            d(4),
            m.marks.iter().sum::<u64>(),
            q.length.mean,
            q.length.std,
            q.length.p_empty,
            q.length.p90,
            q.length.p99,
            q.length.max,
            q.length.time_mean,
            stats_cols(&j.all),
            by(&j.green),
            by(&j.yellow),
            by(&j.red),
        );
    }
    s
}

pub fn queue_series_csv(sim_samples: &[crate::sim::QueueSample], links: &[String]) -> String {
    let mut s = String::from("time_s,link,pkts,bytes,avg\n");
    for q in sim_samples {
        let _ = writeln!(
            s,
            "{:.6},{},{},{},{:.4}",
            q.t_ns as f64 * 1e-9,
            links[q.link as usize],
            q.pkts,
            q.bytes,
            q.avg
        );
    }
    s
}

/// One row per feedback packet a TFRC sender received (written whenever
/// `output.tfrc_series` is on, header only if none came): the time, the flow, the loss event
/// rate p and allowed rate X (bit/s) the sender held after it, and its RTT estimate R.
pub fn tfrc_series_csv(samples: &[crate::sim::TfrcSample], flows: &[String]) -> String {
    let mut s = String::from("time_s,flow,p,x_bps,rtt_s\n");
    for x in samples {
        let _ = writeln!(
            s,
            "{:.6},{},{:.10},{:.3},{:.6}",
            x.t_ns as f64 * 1e-9,
            flows[x.flow as usize],
            x.p,
            x.x * 8.0,
            x.rtt_ns as f64 * 1e-9
        );
    }
    s
}

/// Everything a run produces, ready to write.
pub struct RunFiles {
    pub files: Vec<(String, String)>,
}

/// Runs a simulator to the end and renders its files.
pub fn run_and_render(sim: Simulator) -> Result<(RunResult, RunFiles), String> {
    let links: Vec<String> = sim.links.iter().map(|l| l.name.clone()).collect();
    let flows: Vec<String> = sim.flows.iter().map(|f| f.name.clone()).collect();
    let mut sim = sim;
    let end = sim.end();
    sim.run_until(end);
    let samples = std::mem::take(&mut sim.samples);
    let flow_samples = std::mem::take(&mut sim.flow_samples);
    let tcp_samples = std::mem::take(&mut sim.tcp_samples);
    let tfrc_samples = std::mem::take(&mut sim.tfrc_samples);
    let delay_samples = std::mem::take(&mut sim.delay_samples);
    let tfrc_series = sim.scenario.output.tfrc_series;
    let r = sim.finish()?;
    let mut files = vec![
        ("summary.json".to_string(), summary_json(&r)),
        ("flows.csv".to_string(), flows_csv(&r)),
        ("queues.csv".to_string(), queues_csv(&r)),
    ];
    if !samples.is_empty() {
        files.push((
            "queue_series.csv".to_string(),
            queue_series_csv(&samples, &links),
        ));
    }
    if !flow_samples.is_empty() {
        let mut s = String::from("time_s,flow,goodput_bytes\n");
        for (t, f, b) in &flow_samples {
            let _ = writeln!(s, "{:.6},{},{}", *t as f64 * 1e-9, flows[*f as usize], b);
        }
        files.push(("flow_series.csv".to_string(), s));
    }
    if !tcp_samples.is_empty() {
        let mut s = String::from("time_s,flow,cwnd_bytes,ssthresh_bytes,srtt_s\n");
        for x in &tcp_samples {
            let _ = writeln!(
                s,
                "{:.6},{},{},{},{:.6}",
                x.t_ns as f64 * 1e-9,
                flows[x.flow as usize],
                x.cwnd,
                x.ssthresh,
                x.srtt_ns as f64 * 1e-9
            );
        }
        files.push(("tcp_series.csv".to_string(), s));
    }
    if !delay_samples.is_empty() {
        // Data packets delivered to each flow since the previous sample instant, with their
        // mean and largest one-way delay (whole run, warm-up included).
        let mut s = String::from("time_s,flow,packets,delay_mean_s,delay_max_s\n");
        for x in &delay_samples {
            let _ = writeln!(
                s,
                "{:.6},{},{},{},{}",
                x.t_ns as f64 * 1e-9,
                flows[x.flow as usize],
                x.packets,
                secs_f(x.mean_ns),
                secs(x.max_ns)
            );
        }
        files.push(("delay_series.csv".to_string(), s));
    }
    if tfrc_series {
        files.push((
            "tfrc_series.csv".to_string(),
            tfrc_series_csv(&tfrc_samples, &flows),
        ));
    }
    Ok((r, RunFiles { files }))
}

pub fn write_files(dir: &Path, files: &RunFiles) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, body) in &files.files {
        std::fs::write(dir.join(name), body)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// `push_fixed` writes what `format!("{:.prec$}")` writes, for any f64 bit pattern
        /// (negative, subnormal, huge, infinite and NaN ones by the fallback), values such
        /// as the files print (a nanosecond count times 1e-9, rates, ratios), and exact
        /// ties (odd multiples of 2^-k: `x · 10^prec` ending in exactly .5), both parities.
        #[test]
        fn fixed_as_format_writes(bits in proptest::prelude::any::<u64>(), ns in 0u64..1 << 45, k in 1i32..40, odd in 0u64..1 << 20, prec in 0usize..12) {
            let tie = (2 * odd + 1) as f64 * 2f64.powi(-k);
            for x in [f64::from_bits(bits), ns as f64 * 1e-9, ns as f64 / 7.0, (ns % 1000) as f64 / 999.0, tie, tie * 1e6] {
                let mut s = String::from("x,");
                push_fixed(&mut s, x, prec);
                proptest::prop_assert_eq!(s, format!("x,{x:.prec$}"), "{:e} {}", x, prec);
                proptest::prop_assert_eq!(format!("{:>13}|{:<9}|{}", Fixed(x, prec), Fixed(x, prec), Fixed(x, prec)), format!("{x:>13.prec$}|{x:<9.prec$}|{x:.prec$}"));
            }
        }
    }

    /// `push_secs` and `push_stats_cols` write the bytes `format!` wrote before them.
    #[test]
    fn seconds_as_format_wrote_them() {
        let mut r = qoslab_algo::Rng::from_seed(14);
        let mut vals = vec![
            0,
            1,
            9,
            10,
            999_999_999,
            1_000_000_000,
            1_000_000_001,
            u64::MAX,
        ];
        vals.extend((0..2000).map(|i| r.below(u64::MAX) >> (i % 64)));
        for v in vals {
            let old = format!("{}.{:09}", v / 1_000_000_000, v % 1_000_000_000);
            assert_eq!(secs(v), old);
            let mut s = String::from("x,");
            push_secs(&mut s, v);
            assert_eq!(s, format!("x,{old}"));
            let d = DelayStats {
                samples: v,
                mean_ns: v as f64 / 3.0,
                min_ns: v / 7,
                p50_ns: v / 5,
                p90_ns: v / 3,
                p99_ns: v / 2,
                max_ns: v,
            };
            let f = |v: u64| format!("{}.{:09}", v / 1_000_000_000, v % 1_000_000_000);
            let old = format!(
                "{:.9},{},{},{},{}",
                d.mean_ns * 1e-9,
                f(d.p50_ns),
                f(d.p90_ns),
                f(d.p99_ns),
                f(d.max_ns)
            );
            assert_eq!(stats_cols(&d), old);
        }
    }

    /// `summary_json` writes what `serde_json::to_string_pretty` wrote (plus the final line
    /// break), for a whole run's results: nested objects and arrays, empty ones, floats,
    /// strings, options; and for nesting deeper than the indentation slice.
    #[test]
    fn summary_json_as_serde_json_pretty() {
        let sc = crate::scenario::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/rio-hori2001/base.toml"
        )))
        .expect("scenario");
        let sim = crate::sim::Simulator::new(sc, 3).expect("built");
        let (r, _) = run_and_render(sim).expect("ran");
        let want = serde_json::to_string_pretty(&r).expect("serialises") + "\n";
        assert_eq!(summary_json(&r), want);
        // Deeper than the slice of spaces (64 levels), and empty containers.
        let mut deep = serde_json::json!([[], {}, 1.5, "x"]);
        for k in 0..80 {
            deep = serde_json::json!({ "k": deep, "n": k, "e": [] });
        }
        let mut v = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut v, Pretty::default());
        serde::Serialize::serialize(&deep, &mut ser).expect("serialises");
        assert_eq!(
            String::from_utf8(v).expect("UTF-8"),
            serde_json::to_string_pretty(&deep).expect("serialises")
        );
    }
}
