//! A small, dependency-free SVG plotter: line and step series with axes, ticks, labels and a
//! legend; cumulative distributions and histograms.
//!
//! Output is a pure function of the input (fixed number formats, no timestamps), so figures
//! are byte-identical across runs. Coordinates are printed with two decimals.
//!
//! ```text
//! let mut p = Plot::new("Queue length", "time (s)", "packets");
//! p.series.push(Series::line("Reno", points));
//! std::fs::write("fig.svg", p.to_svg())?;
//! ```

use std::fmt::Write as _;

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Straight segments between consecutive points.
    Line,
    /// Horizontal then vertical segments (a right-continuous step function, as a CDF).
    Step,
    /// One bar per point, centred on x, from y = 0 (a histogram or probability mass).
    Bars,
}

/// One named series of (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
}

impl Series {
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            style: Style::Line,
        }
    }
    pub fn step(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            style: Style::Step,
        }
    }
    pub fn bars(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            style: Style::Bars,
        }
    }
}

/// A plot: title, axis labels, series and optional fixed axis ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Fixed x range; None = from the data, widened to nice tick values.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; None = from the data (always including 0), widened to nice ticks.
    pub y_range: Option<(f64, f64)>,
    pub width: u32,
    pub height: u32,
}

/// Series colours, cycled (colour-blind friendly "Okabe–Ito" order).
const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

const MARGIN_LEFT: f64 = 70.0;
const MARGIN_RIGHT: f64 = 20.0;
const MARGIN_TOP: f64 = 40.0;
const MARGIN_BOTTOM: f64 = 55.0;

impl Plot {
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Plot {
        Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            x_range: None,
            y_range: None,
            width: 720,
            height: 440,
        }
    }

    /// The data range of all finite points: ((x_lo, x_hi), (y_lo, y_hi)).
    fn data_range(&self) -> ((f64, f64), (f64, f64)) {
        let mut xs = (f64::INFINITY, f64::NEG_INFINITY);
        let mut ys = (0.0f64, f64::NEG_INFINITY);
        for s in &self.series {
            for &(x, y) in &s.points {
                if x.is_finite() && y.is_finite() {
                    xs = (xs.0.min(x), xs.1.max(x));
                    ys = (ys.0.min(y), ys.1.max(y));
                }
            }
            if s.style == Style::Bars && s.points.len() > 1 {
                // Leave half a bar on each side.
                let w = bar_width(&s.points);
                xs = (xs.0 - w / 2.0, xs.1 + w / 2.0);
            }
        }
        if !xs.0.is_finite() {
            xs = (0.0, 1.0);
        }
        if !ys.1.is_finite() {
            ys.1 = 1.0;
        }
        (widen(xs), widen(ys))
    }

    /// Renders the plot as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let (dx, dy) = self.data_range();
        let (x_ticks, x_lo, x_hi) = match self.x_range {
            Some((a, b)) => (nice_ticks(a, b, 8), a, b),
            None => axis(dx),
        };
        let (y_ticks, y_lo, y_hi) = match self.y_range {
            Some((a, b)) => (nice_ticks(a, b, 6), a, b),
            None => axis(dy),
        };
        let (w, h) = (self.width as f64, self.height as f64);
        let (px0, px1) = (MARGIN_LEFT, w - MARGIN_RIGHT);
        let (py0, py1) = (h - MARGIN_BOTTOM, MARGIN_TOP);
        let sx = |x: f64| px0 + (x - x_lo) / (x_hi - x_lo) * (px1 - px0);
        let sy = |y: f64| py0 + (y - y_lo) / (y_hi - y_lo) * (py1 - py0);
        let clamp_x = |x: f64| x.clamp(x_lo, x_hi);
        let clamp_y = |y: f64| y.clamp(y_lo, y_hi);

        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" font-size="12">"#,
            self.width, self.height, self.width, self.height
        );
        let _ = writeln!(
            s,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
            self.width, self.height
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
            w / 2.0,
            esc(&self.title)
        );
        // Grid and ticks.
        s.push_str("<g class=\"axes\" stroke=\"#000\" stroke-width=\"1\">\n");
        for &t in &x_ticks {
            let x = sx(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.2}" y1="{py0:.2}" x2="{x:.2}" y2="{py1:.2}" stroke="#ddd"/>"##
            );
            let _ = writeln!(
                s,
                r#"<line x1="{x:.2}" y1="{py0:.2}" x2="{x:.2}" y2="{:.2}"/>"#,
                py0 + 5.0
            );
        }
        for &t in &y_ticks {
            let y = sy(t);
            let _ = writeln!(
                s,
                r##"<line x1="{px0:.2}" y1="{y:.2}" x2="{px1:.2}" y2="{y:.2}" stroke="#ddd"/>"##
            );
            let _ = writeln!(
                s,
                r#"<line x1="{:.2}" y1="{y:.2}" x2="{px0:.2}" y2="{y:.2}"/>"#,
                px0 - 5.0
            );
        }
        let _ = writeln!(
            s,
            r#"<rect x="{px0:.2}" y="{py1:.2}" width="{:.2}" height="{:.2}" fill="none"/>"#,
            px1 - px0,
            py0 - py1
        );
        s.push_str("</g>\n<g class=\"tick-labels\">\n");
        for &t in &x_ticks {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                sx(t),
                py0 + 19.0,
                fmt_tick(t)
            );
        }
        for &t in &y_ticks {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="end">{}</text>"#,
                px0 - 8.0,
                sy(t) + 4.0,
                fmt_tick(t)
            );
        }
        s.push_str("</g>\n");
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
            (px0 + px1) / 2.0,
            h - 15.0,
            esc(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text x="18" y="{:.2}" text-anchor="middle" transform="rotate(-90 18 {:.2})">{}</text>"#,
            (py0 + py1) / 2.0,
            (py0 + py1) / 2.0,
            esc(&self.y_label)
        );
        // Series.
        for (i, ser) in self.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = ser
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            let _ = writeln!(s, r#"<g class="series" data-name="{}">"#, esc(&ser.name));
            match ser.style {
                Style::Line | Style::Step => {
                    if !pts.is_empty() {
                        let mut d = String::new();
                        let mut prev: Option<(f64, f64)> = None;
                        for &(x, y) in &pts {
                            let (x, y) = (sx(clamp_x(x)), sy(clamp_y(y)));
                            match prev {
                                None => {
                                    let _ = write!(d, "M{x:.2},{y:.2}");
                                }
                                Some((_, py)) if ser.style == Style::Step => {
                                    let _ = write!(d, " L{x:.2},{py:.2} L{x:.2},{y:.2}");
                                }
                                Some(_) => {
                                    let _ = write!(d, " L{x:.2},{y:.2}");
                                }
                            }
                            prev = Some((x, y));
                        }
                        let _ = writeln!(
                            s,
                            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#
                        );
                    }
                }
                Style::Bars => {
                    let bw = bar_width(&pts);
                    for &(x, y) in &pts {
                        let (xa, xb) = (sx(clamp_x(x - bw / 2.0)), sx(clamp_x(x + bw / 2.0)));
                        let (ya, yb) = (sy(clamp_y(y.max(0.0))), sy(clamp_y(0.0)));
                        let _ = writeln!(
                            s,
                            r#"<rect x="{xa:.2}" y="{ya:.2}" width="{:.2}" height="{:.2}" fill="{colour}" fill-opacity="0.6"/>"#,
                            (xb - xa).max(0.0),
                            (yb - ya).max(0.0)
                        );
                    }
                }
            }
            s.push_str("</g>\n");
        }
        // Legend (top right, inside the frame), on a white box sized to the longest name
        // (about 7 px per character at 12 px).
        if !self.series.is_empty() {
            let longest = self
                .series
                .iter()
                .map(|x| x.name.chars().count())
                .max()
                .unwrap_or(0) as f64;
            let bw = 40.0 + 7.0 * longest;
            let bx = px1 - bw - 6.0;
            s.push_str("<g class=\"legend\">\n");
            let _ = writeln!(
                s,
                r##"<rect x="{bx:.2}" y="{:.2}" width="{bw:.2}" height="{:.2}" fill="white" fill-opacity="0.85" stroke="#999"/>"##,
                py1 + 4.0,
                8.0 + 16.0 * self.series.len() as f64
            );
            for (i, ser) in self.series.iter().enumerate() {
                let colour = PALETTE[i % PALETTE.len()];
                let y = py1 + 20.0 + 16.0 * i as f64;
                let _ = writeln!(
                    s,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{colour}" stroke-width="3"/>"#,
                    bx + 6.0,
                    y - 4.0,
                    bx + 26.0,
                    y - 4.0
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{:.2}" y="{y:.2}">{}</text>"#,
                    bx + 32.0,
                    esc(&ser.name)
                );
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The smallest spacing between consecutive x values (the width of a bar).
fn bar_width(points: &[(f64, f64)]) -> f64 {
    let mut w = f64::INFINITY;
    for p in points.windows(2) {
        let d = (p[1].0 - p[0].0).abs();
        if d > 0.0 {
            w = w.min(d);
        }
    }
    if w.is_finite() {
        w
    } else {
        1.0
    }
}

/// A degenerate range becomes a unit-wide one.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
    if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    }
}

/// Ticks for a data range, and the axis range rounded out to the outer ticks.
fn axis((lo, hi): (f64, f64)) -> (Vec<f64>, f64, f64) {
    let step = nice_step(hi - lo, 6);
    let a = (lo / step).floor() * step;
    let b = (hi / step).ceil() * step;
    let ticks = nice_ticks(a, b, 6);
    (ticks, a, b)
}

/// A "nice" step (1, 2 or 5 × 10^k) giving about `target` intervals over `span`.
pub fn nice_step(span: f64, target: usize) -> f64 {
    let raw = (span / target.max(1) as f64).abs();
    if raw == 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Tick positions: the multiples of a nice step within [lo, hi].
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let step = nice_step(hi - lo, target);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Tick labels: short, with trailing zeros removed.
fn fmt_tick(t: f64) -> String {
    let t = if t.abs() < 1e-12 { 0.0 } else { t };
    let s = format!("{t:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Escapes text for SVG/XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

/// The cumulative distribution of a histogram (`hist[k]` = count of value k) as step points
/// (k, P[X <= k]). Empty when the histogram counts nothing.
pub fn cdf_from_hist(hist: &[u64]) -> Vec<(f64, f64)> {
    let n: u64 = hist.iter().sum();
    if n == 0 {
        return Vec::new();
    }
    let mut acc = 0u64;
    hist.iter()
        .enumerate()
        .map(|(k, &c)| {
            acc += c;
            (k as f64, acc as f64 / n as f64)
        })
        .collect()
}

/// The probability mass of a histogram in bins of `bin` values: (bin centre, fraction).
pub fn pmf_from_hist(hist: &[u64], bin: usize) -> Vec<(f64, f64)> {
    let bin = bin.max(1);
    let n: u64 = hist.iter().sum();
    if n == 0 {
        return Vec::new();
    }
    hist.chunks(bin)
        .enumerate()
        .map(|(i, c)| {
            let lo = (i * bin) as f64;
            (
                lo + (bin as f64 - 1.0) / 2.0,
                c.iter().sum::<u64>() as f64 / n as f64,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        // span 100 over 6 intervals: raw 16.7 -> mag 10, f 1.67 -> 2 -> 20
        assert_eq!(nice_step(100.0, 6), 20.0);
        // span 1 over 6: raw 0.1667 -> mag 0.1, f 1.667 -> 0.2
        assert!((nice_step(1.0, 6) - 0.2).abs() < 1e-12);
        // span 15 over 6: raw 2.5 -> mag 1, f 2.5 -> 5
        assert_eq!(nice_step(15.0, 6), 5.0);
        assert_eq!(
            nice_ticks(0.0, 100.0, 6),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(nice_ticks(3.0, 17.0, 6), vec![5.0, 10.0, 15.0]);
    }

    #[test]
    fn cdf_and_pmf_hand_computed() {
        // counts 1, 0, 3 of values 0, 1, 2: n = 4; CDF 0.25, 0.25, 1
        assert_eq!(
            cdf_from_hist(&[1, 0, 3]),
            vec![(0.0, 0.25), (1.0, 0.25), (2.0, 1.0)]
        );
        // bins of 2: {0,1} -> 1/4 at centre 0.5; {2} -> 3/4 at centre 2.5
        assert_eq!(pmf_from_hist(&[1, 0, 3], 2), vec![(0.5, 0.25), (2.5, 0.75)]);
        assert!(cdf_from_hist(&[0, 0]).is_empty());
    }

    #[test]
    fn tick_labels() {
        assert_eq!(fmt_tick(20.0), "20");
        assert_eq!(fmt_tick(0.2), "0.2");
        assert_eq!(fmt_tick(-1e-15), "0");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
