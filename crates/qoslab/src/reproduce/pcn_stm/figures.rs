//! The figures: the measured marking function (the draft's Fig. 2 and Fig. E.1), the PCN
//! rate on the link through a termination episode (C.1 CBR at 2.0 SR), and the fairness
//! ratio over time (B.8).

use qoslab_sim::pcn::spec::Scheme;

use super::configs::{self, Quick, Topo};
use super::tables::TableDef;
use super::{Plan, Results};
use crate::plot::{Plot, Series};
use crate::reproduce::stats::Summary;
use crate::reproduce::ReproduceError;

/// VBR flow counts on the B.3 VBR link (AR = 1800, SR = 3240 flows): 0.3 SR to 1.3 SR.
const FLOWS: [u32; 14] = [
    1000, 1400, 1700, 1900, 2100, 2300, 2500, 2700, 2900, 3100, 3300, 3500, 3800, 4200,
];

pub fn marking(t: &mut TableDef, plan: &mut Plan, q: Quick) -> Result<(), ReproduceError> {
    t.title = "Figure fig_marking — measured marking function: marked fraction vs offered PCN rate (VBR flows, one link)".into();
    let mut cfg = Vec::new();
    for (sch, name) in [
        (Scheme::Stm, "STM"),
        (Scheme::Fractional, "fractional (App. E)"),
        (Scheme::Cl, "CL"),
    ] {
        let ids: Vec<usize> = FLOWS
            .iter()
            .map(|&f| plan.want(configs::marking(sch, f, q)))
            .collect::<Result<_, _>>()?;
        cfg.push((name, ids));
    }
    t.extra.push(Box::new(move |res: &Results| {
        let mut p = Plot::new(
            "Measured marking function (draft Fig. 2 / Fig. E.1)",
            "offered PCN rate / PCN-supportable-rate",
            "fraction of packets marked",
        );
        p.y_range = Some((0.0, 1.05));
        let mut csv = String::from("scheme,flows,rate_over_sr,threshold_or_am_fraction,excess_pm_fraction\n");
        let mut text = String::new();
        for (name, ids) in &cfg {
            let mut pts = Vec::new();
            let mut pm = Vec::new();
            for (k, &c) in ids.iter().enumerate() {
                let spec = &res_spec_sr(res, c);
                let x = Summary::of(&res.vals(c, |r| r.links[0].static_rate_bps)).mean / spec;
                let y = Summary::of(&res.vals(c, |r| r.links[0].static_marked_fraction.map(|m| m[0]))).mean;
                let z = Summary::of(&res.vals(c, |r| r.links[0].static_marked_fraction.map(|m| m[1]))).mean;
                pts.push((x, y));
                pm.push((x, z));
                csv.push_str(&format!("{name},{},{x},{y},{z}\n", FLOWS[k]));
            }
            text.push_str(&format!(
                "  {name}: {}\n",
                pts.iter()
                    .zip(&pm)
                    .map(|((x, y), (_, z))| if *name == "CL" {
                        format!("{x:.2}:{y:.3}/{z:.3}")
                    } else {
                        format!("{x:.2}:{:.3}", y + z)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            if *name == "CL" {
                p.series.push(Series::line("CL admission mark (AM)".to_string(), pts));
                p.series.push(Series::line("CL excess-traffic mark (PM)".to_string(), pm));
            } else {
                let sum: Vec<(f64, f64)> = pts.iter().zip(&pm).map(|(a, b)| (a.0, a.1 + b.1)).collect();
                p.series.push(Series::line(name.to_string(), sum));
            }
        }
        // The draft's Fig. 2: 0 below AR, r/(N·SR) between AR and SR (N = 3), 1 above SR.
        let ar = 0.5 / 0.9;
        p.series.push(Series::line(
            "draft Fig. 2 (N = 3)",
            vec![(0.3, 0.0), (ar, 0.0), (ar, ar / 3.0), (1.0, 1.0 / 3.0), (1.0, 1.0), (1.3, 1.0)],
        ));
        let text = format!(
            "  (x = rate/SR : marked fraction; CL: AM/PM; AR/SR = {ar:.3}; draft Fig. 2 gives r/(3 SR) between AR and SR)\n{text}  -> fig_marking.svg\n"
        );
        (text, vec![("fig_marking.svg".into(), p.to_svg()), ("fig_marking.csv".into(), csv)])
    }));
    Ok(())
}

fn res_spec_sr(res: &Results, c: usize) -> f64 {
    // Every run of a configuration has the same SR; the result does not carry it, so it is
    // recovered from the OT-free static run through the spec's fraction (0.9 C).
    let _ = (res, c);
    78_336_000.0 * 0.9
}

pub fn termination(t: &mut TableDef, plan: &mut Plan, q: Quick) -> Result<(), ReproduceError> {
    t.title = "Figure fig_termination — PCN rate on the link through a termination episode (C.1, CBR, 2.0 SR and 1.25 SR, seed 1)".into();
    let mut cfg = Vec::new();
    for load in [2.0, 1.25] {
        for (sch, name) in [(Scheme::Stm, "STM"), (Scheme::Cl, "CL")] {
            let c = plan.want(configs::termination("CBR", Topo::Single, sch, load, q))?;
            plan.keep_series[c] = true;
            cfg.push((format!("{name} {load} SR"), c));
        }
    }
    let extra_at = if q.on { 10.0 } else { 50.0 };
    let sr = 128e6;
    t.extra.push(Box::new(move |res: &Results| {
        let mut p = Plot::new(
            "PCN rate through termination (CBR, single link)",
            "time (s)",
            "PCN rate on the link / SR (20 ms bins)",
        );
        p.x_range = Some((extra_at - 0.5, extra_at + 3.0));
        let mut csv = String::from("series,t_s,rate_over_sr\n");
        for (name, c) in &cfg {
            let Some(r) = res.runs[*c].first() else {
                continue;
            };
            let l = &r.links[0];
            let pts: Vec<(f64, f64)> = l
                .rate_series_bps
                .iter()
                .enumerate()
                .map(|(k, &b)| ((k as f64 + 0.5) * l.series_bin_s, b / sr))
                .filter(|(x, _)| *x >= extra_at - 0.5 && *x <= extra_at + 3.0)
                .collect();
            for (x, y) in &pts {
                csv.push_str(&format!("{name},{x},{y}\n"));
            }
            p.series.push(Series::line(name.clone(), pts));
        }
        p.series.push(Series::line(
            "SR",
            vec![(extra_at - 0.5, 1.0), (extra_at + 3.0, 1.0)],
        ));
        (
            "  -> fig_termination.svg\n".into(),
            vec![
                ("fig_termination.svg".into(), p.to_svg()),
                ("fig_termination.csv".into(), csv),
            ],
        )
    }));
    Ok(())
}

pub fn fairness(t: &mut TableDef, plan: &mut Plan, q: Quick) -> Result<(), ReproduceError> {
    t.title = "Figure fig_fairness — short-haul / long-haul throughput ratio on link A-B over time (B.8 set-up, mean over seeds)".into();
    let mut cfg = Vec::new();
    for (sch, name) in [(Scheme::Stm, "STM"), (Scheme::Cl, "CL")] {
        for n in [2u32, 3, 5] {
            let c = plan.want(configs::admission("CBR", Topo::Plt(n), sch, 6, false, q))?;
            cfg.push((format!("{name} PLT{n}"), c));
        }
    }
    t.extra.push(Box::new(move |res: &Results| {
        let mut p = Plot::new(
            "Fairness: short-haul / long-haul throughput on the first bottleneck",
            "time (s)",
            "ratio (10 s windows)",
        );
        let mut csv = String::from("series,t_s,window_ratio_mean,cumulative_ratio_mean\n");
        for (name, c) in &cfg {
            let n = res.runs[*c].first().map_or(0, |r| r.fairness.len());
            let pts: Vec<(f64, f64)> = (0..n)
                .map(|k| {
                    let t = res.runs[*c][0].fairness[k].t_s;
                    let w =
                        Summary::of(&res.vals(*c, |r| r.fairness.get(k).map(|f| f.window_ratio)))
                            .mean;
                    let cu = Summary::of(
                        &res.vals(*c, |r| r.fairness.get(k).map(|f| f.cumulative_ratio)),
                    )
                    .mean;
                    csv.push_str(&format!("{name},{t},{w},{cu}\n"));
                    (t, w)
                })
                .collect();
            p.series.push(Series::line(name.clone(), pts));
        }
        (
            "  -> fig_fairness.svg\n".into(),
            vec![
                ("fig_fairness.svg".into(), p.to_svg()),
                ("fig_fairness.csv".into(), csv),
            ],
        )
    }));
    Ok(())
}
