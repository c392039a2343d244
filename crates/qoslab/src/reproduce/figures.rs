//! Figures of an experiment, drawn as SVG from the runs of its variants.
//!
//! * Queue length over time: the seed-1 run's periodic samples of the instantaneous queue
//!   (packets waiting) and, if asked, of the averaged queue length the discipline keeps.
//!   (The source papers plot the queue seen at every arrival; periodic samples at the
//!   scenario's `sample_interval` are our choice, documented in the figure's axis label.)
//! * Distribution of the queue length: the CDF of the queue length seen by arriving
//!   packets, from the histograms of all seeds of the variant summed (each arrival counts
//!   once, so longer runs weigh more; all seeds of a variant have the same length).

use crate::plot::{cdf_from_hist, Plot, Series};

use super::experiment::{Figure, FigureKind};
use super::runner::RunOutput;

/// Draws `fig`; `runs_of(v)` gives the runs of variant `v` in seed order.
pub fn draw<'a>(fig: &Figure, runs_of: impl Fn(usize) -> Vec<&'a RunOutput>) -> String {
    match &fig.kind {
        FigureKind::QueueSeries {
            link,
            series,
            with_avg,
        } => {
            let mut p = Plot::new(
                &fig.title,
                "time (s)",
                "queue length (packets, periodic samples)",
            );
            for (label, v) in series {
                let runs = runs_of(*v);
                let Some(run) = runs.first() else { continue };
                let Some(li) = run.links.iter().position(|l| l == link) else {
                    continue;
                };
                let pts = run.samples.iter().filter(|s| s.link as usize == li);
                p.series.push(Series::line(
                    label.clone(),
                    pts.clone()
                        .map(|s| (s.t_ns as f64 * 1e-9, s.pkts as f64))
                        .collect(),
                ));
                if *with_avg {
                    p.series.push(Series::line(
                        format!("{label} (average)"),
                        pts.map(|s| (s.t_ns as f64 * 1e-9, s.avg)).collect(),
                    ));
                }
            }
            p.to_svg()
        }
        FigureKind::QueueCdf { link, series } => {
            let mut p = Plot::new(
                &fig.title,
                "queue length seen by arrivals (packets)",
                "cumulative probability",
            );
            p.y_range = Some((0.0, 1.0));
            for (label, v) in series {
                let mut hist: Vec<u64> = Vec::new();
                for run in runs_of(*v) {
                    if let Some(q) = run.result.queues.iter().find(|q| &q.link == link) {
                        if hist.len() < q.length_hist.len() {
                            hist.resize(q.length_hist.len(), 0);
                        }
                        for (h, c) in hist.iter_mut().zip(&q.length_hist) {
                            *h += c;
                        }
                    }
                }
                p.series
                    .push(Series::step(label.clone(), cdf_from_hist(&hist)));
            }
            p.to_svg()
        }
    }
}
