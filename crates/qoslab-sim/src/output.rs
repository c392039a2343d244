//! Files a run writes: `summary.json`, `flows.csv`, `queues.csv`, `queue_series.csv`,
//! `flow_series.csv`, `tcp_series.csv`, `tfrc_series.csv`, `delay_series.csv`. Numbers are printed with fixed formats so the files are byte-identical
//! for the same (scenario, seed).

use std::fmt::Write as _;
use std::path::Path;

use crate::measure::delay::DelayStats;
use crate::result::RunResult;

/// Nanoseconds as seconds with 9 decimals (exact for integers).
fn secs(ns: u64) -> String {
    format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

/// A mean in nanoseconds as seconds, to the nanosecond.
fn secs_f(ns: f64) -> String {
    format!("{:.9}", ns * 1e-9)
}

/// `mean,p50,p90,p99,max` of a duration summary, in seconds.
fn stats_cols(d: &DelayStats) -> String {
    format!(
        "{},{},{},{},{}",
        secs_f(d.mean_ns),
        secs(d.p50_ns),
        secs(d.p90_ns),
        secs(d.p99_ns),
        secs(d.max_ns)
    )
}
use crate::sim::Simulator;

pub fn summary_json(r: &RunResult) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("results serialise");
    s.push('\n');
    s
}

pub fn flows_csv(r: &RunResult) -> String {
    let mut s = String::from(
        "flow,kind,src,dst,goodput_bps,send_rate_bps,drop_rate,data_pkts,data_dropped,retx_pkts,green_bytes,yellow_bytes,red_bytes,\
         delay_pkts,delay_mean_s,delay_p50_s,delay_p90_s,delay_p99_s,delay_max_s,delay_min_s,queueing_mean_s,queueing_max_s,prop_tx_mean_s,\
         jitter_rfc3550_s,ipdv_mean_abs_s,ipdv_max_abs_s,pdv_p99_s,rtt_samples,rtt_mean_s,rtt_p50_s,rtt_p90_s,rtt_p99_s,rtt_max_s,rtt_min_s\n",
    );
    for f in &r.flows {
        let m = &f.measured;
        let d = &f.delay;
        let rtt = d.rtt.unwrap_or_default();
        let _ = writeln!(
            s,
            "{},{},{},{},{:.3},{:.3},{:.6},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            f.name,
            f.kind,
            f.src,
            f.dst,
            f.goodput_bps,
            f.send_rate_bps,
            f.drop_rate,
            m.data_pkts,
            m.data_dropped,
            m.retx_pkts,
            m.bytes_by_color[0],
            m.bytes_by_color[1],
            m.bytes_by_color[2],
            d.one_way.samples,
            stats_cols(&d.one_way),
            secs(d.one_way.min_ns),
            secs_f(d.queueing_mean_ns),
            secs(d.queueing_max_ns),
            secs_f(d.prop_tx_mean_ns),
            secs_f(d.jitter_rfc3550_ns),
            secs_f(d.ipdv_mean_abs_ns),
            secs(d.ipdv_max_abs_ns),
            secs(d.pdv_p99_ns),
            rtt.samples,
            stats_cols(&rtt),
            secs(rtt.min_ns),
        );
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
