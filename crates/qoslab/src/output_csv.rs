//! CSV files of a PCN or ATM run (`qoslab run FILE`), written beside `summary.json` — the
//! counterparts of the IP engine's `flows.csv` / `queues.csv` (`qoslab_sim::output`).
//!
//! | engine | file | one row per |
//! |---|---|---|
//! | PCN | `ieas.csv` | ingress–egress aggregate: calls offered/admitted/blocked/terminated, packets, one-way delay |
//! | PCN | `links.csv` | PCN link: packets, marks, OA / OT / termination time, FIFO sojourn |
//! | PCN | `link_series.csv` | link and rate bin: mean rate |
//! | PCN | `terminations.csv` | termination event (header only in an admission run) |
//! | PCN | `fairness.csv` | fairness bin (header only off the parking lot) |
//! | ATM | `vcs.csv` | VC: goodput against its MCR and fair share, cells and frames |
//! | ATM | `ports.csv` | switch output port: cells, drops, frames, occupancy |
//! | ATM | `connections.csv` | TCP connection: goodput |
//! | ATM | `queue_series.csv` | port and sample (only when the scenario samples buffers) |
//!
//! Every column and its unit is in `docs/outputs.md` (`crates/qoslab/tests/output_csv.rs`
//! checks the headers against the doc tables and the values against `summary.json`).
//!
//! Number formats (fixed, so the files are byte-identical for one (scenario, seed)):
//! counters as integers; times held in ns as seconds with 9 decimals (exact); rates
//! (`_bps`) with 3 decimals; `_mbps` with 6; percentages (`_pct`) and fractions with 6;
//! occupancies and backlogs with 4. A figure the run does not compute (JSON `null`) is an
//! empty field.

use std::fmt::Write as _;
use std::path::Path;

use qoslab_sim::atm::AtmResult;
use qoslab_sim::pcn::measure::{DelayStats, TerminationTime};
use qoslab_sim::pcn::PcnResult;

/// Nanoseconds as seconds with 9 decimals (exact for integers).
fn secs(ns: u64) -> String {
    format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

/// A mean in nanoseconds as seconds, to the nanosecond.
fn secs_f(ns: f64) -> String {
    format!("{:.9}", ns * 1e-9)
}

/// A time in seconds for a printed summary: 6 decimals (µs) with the trailing zeros cut, so
/// no float noise (`1.00332403`, not `1.0033240300000001`); `—` for none.
pub fn secs_opt(x: Option<f64>) -> String {
    match x {
        Some(v) => {
            let s = format!("{v:.6}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" {
                "0".into()
            } else {
                s.into()
            }
        }
        None => "—".into(),
    }
}

/// `Some(x)` with `d` decimals, `None` as an empty field.
fn opt(x: Option<f64>, d: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.d$}"))
}

fn opt_u(x: Option<u64>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

/// `pkts,mean,p50,p90,p99,max,min` of a duration summary (seconds); empty fields for
/// `None` (delay measurement off).
fn stats_cols(d: Option<&DelayStats>) -> String {
    match d {
        Some(d) => format!(
            "{},{},{},{},{},{},{}",
            d.samples,
            secs_f(d.mean_ns),
            secs(d.p50_ns),
            secs(d.p90_ns),
            secs(d.p99_ns),
            secs(d.max_ns),
            secs(d.min_ns)
        ),
        None => ",,,,,,".to_string(),
    }
}

/// `first,done,raw,table` of a termination time (seconds).
fn term_cols(t: Option<&TerminationTime>) -> String {
    let t = t.cloned().unwrap_or(TerminationTime {
        first_s: None,
        done_s: None,
        raw_s: None,
        table_s: None,
    });
    format!(
        "{},{},{},{}",
        opt(t.first_s, 9),
        opt(t.done_s, 9),
        opt(t.raw_s, 9),
        opt(t.table_s, 9)
    )
}

/// `100·part/whole`, empty when `whole` is 0.
fn pct(part: u64, whole: u64) -> String {
    opt((whole > 0).then(|| 100.0 * part as f64 / whole as f64), 6)
}

/// `ieas.csv`: one row per ingress–egress aggregate, in the result's order.
pub fn pcn_ieas_csv(r: &PcnResult) -> String {
    let mut s = String::from(
        "iea,offered,admitted,blocked,blocked_pct,terminated_flows,terminated_pct,active_at_end,\
         sent,delivered,dropped,discarded_at_ingress,in_flight,reports,cancels,\
         termination_first_s,termination_done_s,termination_raw_s,termination_table_s,\
         delay_pkts,delay_mean_s,delay_p50_s,delay_p90_s,delay_p99_s,delay_max_s,delay_min_s,\
         prop_tx_s,queueing_mean_s,queueing_max_s,queueing_saturated,pdv_p99_s,\
         jitter_rfc3550_s,ipdv_mean_abs_s,ipdv_max_abs_s\n",
    );
    for i in &r.ieas {
        let d = i.delay.as_ref();
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            i.name,
            i.offered,
            i.admitted,
            i.blocked,
            pct(i.blocked, i.offered),
            i.terminated_flows,
            pct(i.terminated_flows, i.admitted),
            i.active_at_end,
            i.sent,
            i.delivered,
            i.dropped,
            i.discarded_at_ingress,
            i.in_flight,
            i.reports,
            i.cancels,
            term_cols(i.termination_time.as_ref()),
            stats_cols(d.map(|d| &d.one_way)),
            d.map_or(String::new(), |d| secs(d.prop_tx_ns)),
            d.map_or(String::new(), |d| secs_f(d.queueing_mean_ns)),
            d.map_or(String::new(), |d| secs(d.queueing_max_ns)),
            opt_u(d.map(|d| d.queueing_saturated)),
            d.map_or(String::new(), |d| secs(d.pdv_p99_ns)),
            d.and_then(|d| d.jitter_rfc3550_ns)
                .map_or(String::new(), secs_f),
            d.and_then(|d| d.ipdv_mean_abs_ns)
                .map_or(String::new(), secs_f),
            d.and_then(|d| d.ipdv_max_abs_ns)
                .map_or(String::new(), secs),
        );
    }
    s
}

/// `links.csv`: one row per PCN link, in the result's order.
pub fn pcn_links_csv(r: &PcnResult) -> String {
    let mut s = String::from(
        "link,arrived,forwarded,dropped,in_flight,requests,marks_none,marks_threshold,marks_excess,\
         fifo_overflows,max_backlog_pkts,\
         oa_pct,oa_x_bps,oa_d_bps,oa_rejected_signalling_bps,\
         ot_pct,ot_rate_bps,ot_nominal_pct,ot_nominal_from_bps,ot_nominal_to_bps,\
         termination_first_s,termination_done_s,termination_raw_s,termination_table_s,\
         static_rate_bps,static_marked_threshold,static_marked_excess,\
         sojourn_pkts,sojourn_mean_s,sojourn_p50_s,sojourn_p90_s,sojourn_p99_s,sojourn_max_s,sojourn_min_s\n",
    );
    for l in &r.links {
        let oa = l.over_admission.as_ref();
        let ot = l.over_termination.as_ref();
        let m = l.static_marked_fraction;
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{:.4},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            l.name,
            l.arrived,
            l.forwarded,
            l.dropped,
            l.in_flight,
            l.requests,
            l.out_marks[0],
            l.out_marks[1],
            l.out_marks[2],
            l.fifo_overflows,
            l.max_backlog_packets,
            opt(oa.map(|o| o.oa_pct), 6),
            opt(oa.map(|o| o.x_bps), 3),
            opt(oa.map(|o| o.d_bps), 3),
            opt(oa.map(|o| o.rejected_signalling_bps), 3),
            opt(ot.map(|o| o.ot_pct), 6),
            opt(ot.map(|o| o.rate_bps), 3),
            opt(ot.map(|o| o.ot_nominal_pct), 6),
            opt(ot.map(|o| o.nominal_from_bps), 3),
            opt(ot.map(|o| o.nominal_to_bps), 3),
            term_cols(l.termination_time.as_ref()),
            opt(l.static_rate_bps, 3),
            opt(m.map(|m| m[0]), 6),
            opt(m.map(|m| m[1]), 6),
            stats_cols(l.sojourn.as_ref()),
        );
    }
    s
}

/// `link_series.csv`: per link, per rate bin `k`, the bin's start `k · series_bin_s` and its
/// mean rate.
pub fn pcn_link_series_csv(r: &PcnResult) -> String {
    let mut s = String::from("time_s,link,rate_bps\n");
    for l in &r.links {
        for (k, v) in l.rate_series_bps.iter().enumerate() {
            let _ = writeln!(s, "{:.6},{},{v:.3}", k as f64 * l.series_bin_s, l.name);
        }
    }
    s
}

/// `terminations.csv`: one row per termination event, in time order.
pub fn pcn_terminations_csv(r: &PcnResult) -> String {
    let mut s = String::from("time_s,iea,amount_bps,sending_bps,reported_bps,flows\n");
    for t in &r.terminations {
        let name = r.ieas.get(t.iea as usize).map_or("?", |i| i.name.as_str());
        let _ = writeln!(
            s,
            "{:.9},{name},{},{},{},{}",
            t.t_s, t.amount_bps, t.sending_bps, t.reported_bps, t.flows
        );
    }
    s
}

/// `fairness.csv`: one row per fairness bin (§11.6; parking lot only).
pub fn pcn_fairness_csv(r: &PcnResult) -> String {
    let mut s = String::from("time_s,window_ratio,cumulative_ratio\n");
    for f in &r.fairness {
        let _ = writeln!(
            s,
            "{:.6},{:.6},{:.6}",
            f.t_s, f.window_ratio, f.cumulative_ratio
        );
    }
    s
}

/// The CSV files of a PCN run, `(file name, contents)`, in a fixed order.
pub fn pcn_files(r: &PcnResult) -> Vec<(&'static str, String)> {
    vec![
        ("ieas.csv", pcn_ieas_csv(r)),
        ("links.csv", pcn_links_csv(r)),
        ("link_series.csv", pcn_link_series_csv(r)),
        ("terminations.csv", pcn_terminations_csv(r)),
        ("fairness.csv", pcn_fairness_csv(r)),
    ]
}

/// Cells dropped for reasons named in a result, as `reason:count` pairs joined by `;`
/// in name order (the reasons are a `BTreeMap`), so one column holds them all.
fn reasons(m: &std::collections::BTreeMap<String, u64>) -> String {
    let mut s = String::new();
    for (k, v) in m {
        if !s.is_empty() {
            s.push(';');
        }
        let _ = write!(s, "{k}:{v}");
    }
    s
}

/// `vcs.csv`: one row per VC, in scenario order; forward (data) channel counters over the
/// whole run, then the reverse (ACK) channel's cells.
pub fn atm_vcs_csv(r: &AtmResult) -> String {
    let mut s = String::from(
        "vc,mcr_mbps,weight_mbps,ideal_goodput_mbps,mcr_goodput_mbps,goodput_mbps,goodput_over_ideal,mcr_met,\
         tcp_timeouts,tcp_retransmits,\
         cells_sent,cells_delivered,cells_dropped_clp0,cells_dropped_clp1,cells_in_flight,cells_tagged,cells_dropped_by_reason,\
         frames_sent,frames_delivered,frames_lost_in_network,frames_discarded_own_loss,frames_discarded_merged,frames_in_flight,\
         pcr_cells,pcr_conforming,pcr_nonconforming,\
         ack_cells_sent,ack_cells_delivered,ack_cells_dropped\n",
    );
    for v in &r.vcs {
        let d = &v.data;
        let a = &v.acks;
        let pcr = d.pcr_check;
        let _ = writeln!(
            s,
            "{},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            v.name,
            v.mcr_mbps,
            v.weight_mbps,
            v.ideal_goodput_mbps,
            v.mcr_goodput_mbps,
            v.goodput_mbps,
            opt(
                (v.ideal_goodput_mbps > 0.0).then(|| v.goodput_mbps / v.ideal_goodput_mbps),
                6
            ),
            v.mcr_met,
            v.tcp_timeouts,
            v.tcp_retransmits,
            d.cells_sent,
            d.cells_delivered,
            d.cells_dropped_clp0,
            d.cells_dropped_clp1,
            d.cells_in_flight,
            d.cells_tagged,
            reasons(&d.cells_dropped_by_reason),
            d.frames_sent,
            d.frames_delivered,
            d.frames_lost_in_network,
            d.frames_discarded_own_loss,
            d.frames_discarded_merged,
            d.frames_in_flight,
            opt_u(pcr.map(|p| p.cells)),
            opt_u(pcr.map(|p| p.conforming)),
            opt_u(pcr.map(|p| p.nonconforming)),
            a.cells_sent,
            a.cells_delivered,
            a.cells_dropped_clp0 + a.cells_dropped_clp1,
        );
    }
    s
}

/// `ports.csv`: one row per switch output port.
pub fn atm_ports_csv(r: &AtmResult) -> String {
    let mut s = String::from(
        "port,cells_arrived,cells_sent,cells_dropped_clp0,cells_dropped_clp1,cells_dropped_by_reason,cells_queued_at_end,\
         frames_refused_clp0,frames_refused_clp1,frames_refused_by_reason,\
         frames_partially_lost_clp0,frames_partially_lost_clp1,frames_complete_clp0,frames_complete_clp1,\
         max_occupancy_cells,mean_occupancy_cells\n",
    );
    for p in &r.ports {
        let refused = |c: usize| {
            p.frames_refused_by_reason
                .values()
                .map(|v| v[c])
                .sum::<u64>()
        };
        let mut by = String::new();
        for (k, v) in &p.frames_refused_by_reason {
            if !by.is_empty() {
                by.push(';');
            }
            let _ = write!(by, "{k}:{}/{}", v[0], v[1]);
        }
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4}",
            p.name,
            p.cells_arrived,
            p.cells_sent,
            p.cells_dropped_clp0,
            p.cells_dropped_clp1,
            reasons(&p.cells_dropped_by_reason),
            p.cells_queued_at_end,
            refused(0),
            refused(1),
            by,
            p.frames_partially_lost[0],
            p.frames_partially_lost[1],
            p.frames_complete[0],
            p.frames_complete[1],
            p.max_occupancy,
            p.mean_occupancy,
        );
    }
    s
}

/// `connections.csv`: one row per TCP connection (`connection` counts from 0 within a VC).
pub fn atm_connections_csv(r: &AtmResult) -> String {
    let mut s = String::from("vc,connection,goodput_mbps\n");
    for v in &r.vcs {
        for (k, g) in v.connection_goodput_mbps.iter().enumerate() {
            let _ = writeln!(s, "{},{k},{g:.6}", v.name);
        }
    }
    s
}

/// `queue_series.csv`: per port and sample `k`, the time `k · interval_s`, the cells in the
/// buffer and each VC's share (one column per VC, named by the VC).
pub fn atm_queue_series_csv(r: &AtmResult) -> String {
    let mut s = String::from("time_s,port,total");
    for v in &r.vcs {
        s.push(',');
        s.push_str(&v.name);
    }
    s.push('\n');
    for q in &r.queue_series {
        for (k, t) in q.total.iter().enumerate() {
            let _ = write!(s, "{:.6},{},{t}", k as f64 * q.interval_s, q.port);
            for v in &q.per_vc {
                let _ = write!(s, ",{}", v.get(k).copied().unwrap_or(0));
            }
            s.push('\n');
        }
    }
    s
}

/// The CSV files of an ATM run, `(file name, contents)`; `queue_series.csv` only when the
/// scenario samples buffers.
pub fn atm_files(r: &AtmResult) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("vcs.csv", atm_vcs_csv(r)),
        ("ports.csv", atm_ports_csv(r)),
        ("connections.csv", atm_connections_csv(r)),
    ];
    if !r.queue_series.is_empty() {
        v.push(("queue_series.csv", atm_queue_series_csv(r)));
    }
    v
}

/// Writes `files` into `dir` (which exists); returns how many.
pub fn write(dir: &Path, files: &[(&'static str, String)]) -> std::io::Result<usize> {
    for (name, text) in files {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_times_have_no_float_noise() {
        assert_eq!(secs_opt(Some(1.0033240300000001)), "1.003324");
        assert_eq!(secs_opt(Some(30.000000000000004)), "30");
        assert_eq!(secs_opt(Some(-0.0000001)), "0");
        assert_eq!(secs_opt(None), "—");
        assert_eq!(secs(1_000_000_001), "1.000000001");
        assert_eq!(opt(None, 3), "");
    }
}
