//! Figures of an experiment, drawn as SVG from the runs of its variants.
//!
//! * Queue length over time: one panel per variant on shared axes (small multiples, no
//!   smoothing), from the seed-1 run's periodic samples of the instantaneous queue
//!   (packets waiting) and, if asked, of the averaged queue length the discipline keeps.
//!   (The source papers plot the queue seen at every arrival; periodic samples at the
//!   scenario's `sample_interval` are our choice, documented in the figure's axis label.)
//! * Distribution of the queue length: the CDF of the queue length seen by arriving
//!   packets, from the histograms of all seeds of the variant summed (each arrival counts
//!   once, so longer runs weigh more; all seeds of a variant have the same length).

use crate::plot::{cdf_from_hist, Grid, Plot, Series};

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
            // Small multiples: one panel per variant on the same axes (overlaid, the
            // traces cross hundreds of times and hide each other); the averaged queue, if
            // asked, over the faint instantaneous samples of the same panel.
            let mut panels = Vec::new();
            for (label, v) in series {
                let runs = runs_of(*v);
                let Some(run) = runs.first() else { continue };
                let Some(li) = run.links.iter().position(|l| l == link) else {
                    continue;
                };
                let pts = run.samples.iter().filter(|s| s.link as usize == li);
                let mut p = Plot::new(label.clone(), "time (s)", "queue (packets)");
                p.height = 250;
                // Series keep the variant's label (the panel's title too), so the SVG names
                // its curves as the overlaid figure did.
                let inst = Series::line(
                    label.clone(),
                    pts.clone()
                        .map(|s| (s.t_ns as f64 * 1e-9, s.pkts as f64))
                        .collect(),
                );
                if *with_avg {
                    p.series.push(inst.faint().colour(0));
                    p.series.push(
                        Series::line(
                            format!("{label} (average)"),
                            pts.map(|s| (s.t_ns as f64 * 1e-9, s.avg)).collect(),
                        )
                        .colour(1),
                    );
                } else {
                    p.series.push(inst.colour(0));
                }
                panels.push(p);
            }
            share_axes(&mut panels);
            Grid {
                title: fig.title.clone(),
                note: Some(
                    "one panel per variant (small multiples), same axes; seed 1, queue sampled periodically"
                        .into(),
                ),
                panels,
                columns: 1,
            }
            .to_svg()
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

/// Gives every panel the x and y ranges spanning all of them (y from 0).
fn share_axes(panels: &mut [Plot]) {
    let (mut x, mut y) = (
        (f64::INFINITY, f64::NEG_INFINITY),
        (0.0f64, f64::NEG_INFINITY),
    );
    for p in panels.iter() {
        for s in &p.series {
            for &(a, b) in &s.points {
                if a.is_finite() && b.is_finite() {
                    x = (x.0.min(a), x.1.max(a));
                    y = (y.0.min(b), y.1.max(b));
                }
            }
        }
    }
    // Nothing finite to span (the bounds are still infinite) or a single value.
    if !(x.0.is_finite() && y.1.is_finite() && x.1 > x.0 && y.1 > y.0) {
        return;
    }
    let ystep = crate::plot::nice_step(y.1 - y.0, 6);
    let y = ((y.0 / ystep).floor() * ystep, (y.1 / ystep).ceil() * ystep);
    for p in panels.iter_mut() {
        p.x_range = Some(x);
        p.y_range = Some(y);
    }
}
