//! One figure kind drawn twice, by `qoslab::plot` and by `plotters` 0.3.7 (SVG backend, no
//! font features): three series of our means over a numeric x axis, each a line with a
//! filled dot and a capped 95 % interval bar at every point, and beside each the published
//! value as a hollow diamond; a legend; axis labels; a title and a note under it.
//!
//! Prints size, render time (mean of 2,000 renders) and whether two renders are
//! byte-identical; writes `ours.svg` and `plotters.svg` into the directory given (default
//! `.`) for a look in a browser:
//! `chromium --headless --no-sandbox --screenshot=x.png --window-size=720,440 ours.svg`.

use std::time::Instant;

use plotters::prelude::*;
use qoslab::plot::{Plot, Series};

/// The data: (name, ours [(x, mean)], ci95 half-widths, published [(x, y)]). Made up in
/// the shape of a reproduction table (goodput against a buffer size), not a result.
#[allow(clippy::type_complexity)]
fn data() -> Vec<(&'static str, Vec<(f64, f64)>, Vec<f64>, Vec<(f64, f64)>)> {
    let xs: [f64; 6] = [20.0, 40.0, 60.0, 80.0, 100.0, 120.0];
    let mk = |a: f64, b: f64, c: f64| {
        let ours: Vec<(f64, f64)> = xs
            .iter()
            .map(|&x| (x, a + b * (x / 120.0).sqrt()))
            .collect();
        let err = xs.iter().map(|&x| c * (1.0 + x / 200.0)).collect();
        let publ = xs
            .iter()
            .map(|&x| (x, a + b * (x / 120.0).sqrt() * 1.04 - c))
            .collect();
        (ours, err, publ)
    };
    let (o1, e1, p1) = mk(2.0, 5.0, 0.25);
    let (o2, e2, p2) = mk(1.0, 4.0, 0.35);
    let (o3, e3, p3) = mk(0.5, 2.5, 0.2);
    vec![
        ("RIO", o1, e1, p1),
        ("RED", o2, e2, p2),
        ("drop-tail", o3, e3, p3),
    ]
}

const TITLE: &str = "Goodput of the assured flows against the buffer size";
const NOTE: &str = "ours: mean and 95 % interval over 10 seeds (dots); published: hollow diamonds";

fn ours() -> String {
    let mut p = Plot::new(TITLE, "buffer (packets)", "goodput (Mb/s)");
    p.note = Some(NOTE.into());
    for (k, (name, o, e, publ)) in data().into_iter().enumerate() {
        p.series.push(Series::line(name, o.clone()).colour(k));
        p.series
            .push(Series::error_bars(format!("{name} (ours)"), o, e).colour(k));
        p.series
            .push(Series::markers(format!("{name} (published)"), publ).colour(k));
    }
    p.to_svg()
}

const PALETTE: [RGBColor; 3] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
];

fn theirs() -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 440)).into_drawing_area();
        root.fill(&WHITE).unwrap();
        let (top, body) = root.split_vertically(44);
        top.draw(&Text::new(TITLE, (10, 6), ("sans-serif", 17).into_font()))
            .unwrap();
        top.draw(&Text::new(
            NOTE,
            (10, 27),
            ("sans-serif", 12)
                .into_font()
                .color(&RGBColor(0x55, 0x55, 0x55)),
        ))
        .unwrap();
        let mut c = ChartBuilder::on(&body)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(0f64..130f64, 0f64..8f64)
            .unwrap();
        c.configure_mesh()
            .x_desc("buffer (packets)")
            .y_desc("goodput (Mb/s)")
            .light_line_style(WHITE)
            .draw()
            .unwrap();
        for (k, (name, o, e, publ)) in data().into_iter().enumerate() {
            let col = PALETTE[k];
            c.draw_series(LineSeries::new(o.clone(), col.stroke_width(2)))
                .unwrap()
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], col.stroke_width(2))
                });
            c.draw_series(
                o.iter().zip(&e).map(|(&(x, y), &h)| {
                    ErrorBar::new_vertical(x, y - h, y, y + h, col.filled(), 8)
                }),
            )
            .unwrap();
            c.draw_series(o.iter().map(|&(x, y)| Circle::new((x, y), 3, col.filled())))
                .unwrap();
            // A hollow diamond: plotters has no diamond marker; a closed path around the point.
            c.draw_series(publ.iter().map(|&(x, y)| {
                EmptyElement::at((x + 1.5, y))
                    + PathElement::new(
                        vec![(0, -5), (5, 0), (0, 5), (-5, 0), (0, -5)],
                        col.stroke_width(2),
                    )
            }))
            .unwrap();
        }
        c.configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .unwrap();
        root.present().unwrap();
    }
    svg
}

fn time(f: fn() -> String) -> f64 {
    let n = 2000;
    let t = Instant::now();
    let mut len = 0;
    for _ in 0..n {
        len += std::hint::black_box(f()).len();
    }
    std::hint::black_box(len);
    t.elapsed().as_secs_f64() / n as f64 * 1e6
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let (a, b) = (ours(), theirs());
    std::fs::write(format!("{dir}/ours.svg"), &a).unwrap();
    std::fs::write(format!("{dir}/plotters.svg"), &b).unwrap();
    println!(
        "| | bytes | elements | µs per render | byte-identical twice |\n|---|---|---|---|---|"
    );
    for (name, s, f) in [
        ("qoslab::plot", &a, ours as fn() -> String),
        ("plotters 0.3.7", &b, theirs),
    ] {
        println!(
            "| {name} | {} | {} | {:.1} | {} |",
            s.len(),
            s.matches('<').count(),
            time(f),
            f() == *s
        );
    }
}
