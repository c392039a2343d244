//! A small, dependency-free SVG plotter: line and step series, bars, markers and points with
//! error bars, on numeric or categorical x axes, with ticks, labels and a legend; panels
//! side by side ("small multiples"); cumulative distributions and histograms.
//!
//! Output is a pure function of the input (fixed number formats, no timestamps), so figures
//! are byte-identical across runs. Coordinates are printed with two decimals.
//!
//! ```text
//! let mut p = Plot::new("Queue length", "time (s)", "packets");
//! p.series.push(Series::line("Reno", points));
//! std::fs::write("fig.svg", p.to_svg())?;
//! ```
//!
//! **Noisy time series are not overlaid.** A plot whose x axis is time (its label starts
//! with "time") and which holds two or more *dense* line series (at least
//! [`DENSE_POINTS`] points each) is drawn as small multiples: one panel per dense series,
//! stacked, all on the same x and y ranges, each panel also showing the sparse series (a
//! reference line such as "SR"). The figure says so under its title. Overlaid, such curves
//! hide each other (the RIO paper's queue traces cross hundreds of times); side by side on
//! the same axes they compare at a glance, and nothing is smoothed away. A caller who wants
//! a different grouping builds a [`Grid`] itself.
//!
//! **Comparison with published values** uses two point styles: [`Style::ErrorBars`] (our
//! mean, a filled dot, with its 95 % interval as a capped vertical bar) and
//! [`Style::Markers`] (a published value, a hollow diamond). On a categorical axis
//! ([`Plot::x_categories`]) the caller offsets the two by a fraction of a category so that
//! neither hides the other.
//!
//! ## Why not `plotters` (issue 15, measured 2026-11-24)
//! `bench/plotters` (its own workspace; `CARGO_TARGET_DIR=../../target cargo run --release
//! -- DIR`) draws one figure kind both ways: three series of our means on a numeric x
//! axis, each a line with filled dots and capped 95 % interval bars, the published values
//! as hollow diamonds beside them, legend, axis labels, title and a note. `plotters` 0.3.7
//! with `default-features = false, features = ["svg_backend", "line_series",
//! "point_series", "errorbar"]` (no font: its naive layout estimates text width, and the
//! SVG backend writes `<text>`, so output does not depend on the machine's fonts):
//!
//! | | SVG bytes | elements | µs per render (release, mean of 2,000, loaded machine) | byte-identical across runs |
//! |---|---|---|---|---|
//! | this module | 11,193 | 168 | 269–343 | yes |
//! | `plotters` | 31,100 | 346 | 378–504 | yes |
//!
//! Screenshots of both in headless Chromium are equally readable. `plotters` needed by hand
//! what we have: it has no diamond marker (a `PathElement` around an `EmptyElement`), no
//! offset of published markers beside our dots, no notes under titles; its tick labels
//! print `20.0` for 20; its legend goes where the caller says. What it would not give us is
//! the layout we wrote for the figures of the reports: small multiples on shared ranges
//! when a time plot overlays dense curves ([`Plot::to_svg`]), categorical axes with turned
//! and shortened labels, the legend above a categorical plot, wrapped titles, faint series.
//! Those stay our code either way, over `plotters` primitives instead of SVG strings, for
//! an output 2.8 times larger and 1.4 times slower to render, plus 4 crates to build. So
//! the plotter stays ours (no figure kind migrated). What the comparison showed in ours
//! was fixed: the legend, always top right, hid the points there; it now goes to the
//! corner of the frame that hides the fewest drawn points (top right on a tie, so figures
//! whose top right was free are unchanged).

use std::fmt::Write as _;

/// Points each of two or more line series must have for a time plot to be split into
/// panels (see the module docs).
pub const DENSE_POINTS: usize = 30;

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Straight segments between consecutive points.
    Line,
    /// Horizontal then vertical segments (a right-continuous step function, as a CDF).
    Step,
    /// One bar per point, centred on x, from y = 0 (a histogram or probability mass).
    Bars,
    /// A hollow diamond per point (a published value).
    Markers,
    /// A filled dot per point with a capped vertical bar of ± `err[i]` (a mean and its
    /// 95 % interval); a NaN or missing `err[i]` draws the dot alone.
    ErrorBars,
}

/// One named series of (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
    /// Half-widths of the error bars ([`Style::ErrorBars`] only), one per point.
    pub err: Vec<f64>,
    /// Drawn thin and translucent (raw samples under a smoothed or averaged curve).
    pub faint: bool,
    /// Colour index into the palette; None = the series' position in the plot.
    pub colour: Option<usize>,
}

impl Series {
    fn new(name: impl Into<String>, points: Vec<(f64, f64)>, style: Style) -> Series {
        Series {
            name: name.into(),
            points,
            style,
            err: Vec::new(),
            faint: false,
            colour: None,
        }
    }
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series::new(name, points, Style::Line)
    }
    pub fn step(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series::new(name, points, Style::Step)
    }
    pub fn bars(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series::new(name, points, Style::Bars)
    }
    pub fn markers(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series::new(name, points, Style::Markers)
    }
    /// Points with error bars of half-width `err[i]` (NaN: none).
    pub fn error_bars(name: impl Into<String>, points: Vec<(f64, f64)>, err: Vec<f64>) -> Series {
        Series {
            err,
            ..Series::new(name, points, Style::ErrorBars)
        }
    }
    pub fn faint(mut self) -> Series {
        self.faint = true;
        self
    }
    pub fn colour(mut self, i: usize) -> Series {
        self.colour = Some(i);
        self
    }
    fn is_dense_line(&self) -> bool {
        matches!(self.style, Style::Line | Style::Step) && self.points.len() >= DENSE_POINTS
    }
    fn err_at(&self, i: usize) -> f64 {
        match self.style {
            Style::ErrorBars => self
                .err
                .get(i)
                .copied()
                .filter(|e| e.is_finite())
                .unwrap_or(0.0)
                .abs(),
            _ => 0.0,
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
    /// Names of the x positions 0, 1, 2, ...: a categorical axis (empty = numeric).
    pub x_categories: Vec<String>,
    /// A line under the title (how the figure is drawn, e.g. smoothing or panels).
    pub note: Option<String>,
    /// The automatic y range includes 0 (true by default); false fits the data alone (a
    /// comparison of close values).
    pub y_from_zero: bool,
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
            x_categories: Vec::new(),
            note: None,
            y_from_zero: true,
            width: 720,
            height: 440,
        }
    }

    /// The data range of all finite points: ((x_lo, x_hi), (y_lo, y_hi)); error bars count.
    fn data_range(&self) -> ((f64, f64), (f64, f64)) {
        let mut xs = (f64::INFINITY, f64::NEG_INFINITY);
        let mut ys = if self.y_from_zero {
            (0.0f64, f64::NEG_INFINITY)
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        };
        for s in &self.series {
            for (i, &(x, y)) in s.points.iter().enumerate() {
                if x.is_finite() && y.is_finite() {
                    let e = s.err_at(i);
                    xs = (xs.0.min(x), xs.1.max(x));
                    ys = (ys.0.min(y - e), ys.1.max(y + e));
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
            ys = (0.0, 1.0);
        }
        (widen(xs), widen(ys))
    }

    /// Whether category labels are turned (many or long labels).
    fn turned_labels(&self) -> bool {
        let n = self.x_categories.len().max(1);
        let longest = self
            .x_categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0);
        // About 7 px per character must fit in a category's width.
        longest as f64 * 7.0 > (self.width as f64 - MARGIN_LEFT - MARGIN_RIGHT) / n as f64
    }

    fn margin_bottom(&self) -> f64 {
        if self.turned_labels() {
            let longest = self
                .x_categories
                .iter()
                .map(|c| c.chars().count().min(28))
                .max()
                .unwrap_or(0) as f64;
            MARGIN_BOTTOM + 4.0 * longest
        } else {
            MARGIN_BOTTOM
        }
    }

    /// The title in lines that fit the width (about 8 px per character at 15 px).
    fn title_lines(&self) -> Vec<String> {
        wrap(&self.title, ((self.width as f64 - 20.0) / 8.0) as usize)
    }

    fn margin_top(&self) -> f64 {
        MARGIN_TOP
            + 18.0 * (self.title_lines().len().max(1) - 1) as f64
            + if self.note.is_some() { 16.0 } else { 0.0 }
            + if self.legend_on_top() { 14.0 } else { 0.0 }
    }

    /// A categorical plot has its legend in one row above the frame, where it hides no
    /// point (its points spread over the whole width); others inside the frame, top right.
    fn legend_on_top(&self) -> bool {
        !self.x_categories.is_empty() && !self.series.is_empty()
    }

    /// The x and y axes as drawn: (ticks, lo, hi) each.
    #[allow(clippy::type_complexity)]
    fn axes(&self) -> ((Vec<f64>, f64, f64), (Vec<f64>, f64, f64)) {
        let (dx, dy) = self.data_range();
        let x = if !self.x_categories.is_empty() {
            let n = self.x_categories.len();
            ((0..n).map(|k| k as f64).collect(), -0.5, n as f64 - 0.5)
        } else {
            match self.x_range {
                Some((a, b)) => (nice_ticks(a, b, 8), a, b),
                None => axis(dx),
            }
        };
        let y = match self.y_range {
            Some((a, b)) => (nice_ticks(a, b, 6), a, b),
            None => axis(dy),
        };
        (x, y)
    }

    /// Renders the plot as a standalone SVG document (as small multiples when it overlays
    /// dense time series: see the module docs).
    pub fn to_svg(&self) -> String {
        if let Some(g) = self.auto_panels() {
            return g.to_svg();
        }
        self.render(None)
    }

    /// The small multiples a dense time-series overlay is drawn as, if it is one.
    fn auto_panels(&self) -> Option<Grid> {
        let time_axis = self.x_label.trim_start().to_lowercase().starts_with("time");
        let dense: Vec<usize> = (0..self.series.len())
            .filter(|&i| self.series[i].is_dense_line())
            .collect();
        if !time_axis || dense.len() < 2 || !self.x_categories.is_empty() {
            return None;
        }
        let ((_, xl, xh), (_, yl, yh)) = self.axes();
        let panels = dense
            .iter()
            .map(|&d| {
                let mut p = Plot::new(
                    self.series[d].name.clone(),
                    self.x_label.clone(),
                    self.y_label.clone(),
                );
                p.x_range = Some((xl, xh));
                p.y_range = Some((yl, yh));
                p.width = self.width;
                p.height = 230;
                for (i, s) in self.series.iter().enumerate() {
                    if i == d || !dense.contains(&i) {
                        p.series.push(s.clone().colour(s.colour.unwrap_or(i)));
                    }
                }
                p
            })
            .collect();
        Some(Grid {
            title: self.title.clone(),
            note: Some(match &self.note {
                Some(n) => format!("{n}; one panel per curve, same axes"),
                None => "one panel per curve (small multiples), same axes".to_string(),
            }),
            panels,
            columns: 1,
        })
    }

    /// Pixel positions of what the series draw (points, error-bar ends, bar tops, and
    /// eight points along every line segment): what a legend box should not cover.
    fn drawn_marks(
        &self,
        sx: &impl Fn(f64) -> f64,
        sy: &impl Fn(f64) -> f64,
        cx: &impl Fn(f64) -> f64,
        cy: &impl Fn(f64) -> f64,
    ) -> Vec<(f64, f64)> {
        let mut m = Vec::new();
        for ser in &self.series {
            let mut prev: Option<(f64, f64)> = None;
            for (k, &(x, y)) in ser.points.iter().enumerate() {
                if !(x.is_finite() && y.is_finite()) {
                    continue;
                }
                let p = (sx(cx(x)), sy(cy(y)));
                m.push(p);
                match ser.style {
                    Style::Line | Style::Step => {
                        if let Some(q) = prev {
                            for j in 1..8 {
                                let f = j as f64 / 8.0;
                                m.push((q.0 + f * (p.0 - q.0), q.1 + f * (p.1 - q.1)));
                            }
                        }
                    }
                    Style::ErrorBars => {
                        let e = ser.err_at(k);
                        if e > 0.0 {
                            m.push((p.0, sy(cy(y - e))));
                            m.push((p.0, sy(cy(y + e))));
                        }
                    }
                    Style::Bars | Style::Markers => {}
                }
                prev = Some(p);
            }
        }
        m
    }

    /// The SVG element; `at` = Some((x, y)) nests it at that offset inside a larger SVG.
    fn render(&self, at: Option<(f64, f64)>) -> String {
        let ((x_ticks, x_lo, x_hi), (y_ticks, y_lo, y_hi)) = self.axes();
        let (w, h) = (self.width as f64, self.height as f64);
        let (px0, px1) = (MARGIN_LEFT, w - MARGIN_RIGHT);
        let (py0, py1) = (h - self.margin_bottom(), self.margin_top());
        let sx = |x: f64| px0 + (x - x_lo) / (x_hi - x_lo) * (px1 - px0);
        let sy = |y: f64| py0 + (y - y_lo) / (y_hi - y_lo) * (py1 - py0);
        let clamp_x = |x: f64| x.clamp(x_lo, x_hi);
        let clamp_y = |y: f64| y.clamp(y_lo, y_hi);

        let mut s = String::new();
        match at {
            None => {
                let _ = writeln!(
                    s,
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" font-size="12">"#,
                    self.width, self.height, self.width, self.height
                );
            }
            Some((x, y)) => {
                let _ = writeln!(
                    s,
                    r#"<svg x="{x:.2}" y="{y:.2}" width="{}" height="{}" viewBox="0 0 {} {}">"#,
                    self.width, self.height, self.width, self.height
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
            self.width, self.height
        );
        let title = self.title_lines();
        for (k, line) in title.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{}" text-anchor="middle" font-size="15">{}</text>"#,
                w / 2.0,
                22 + 18 * k,
                esc(line)
            );
        }
        if let Some(n) = &self.note {
            let _ = writeln!(
                s,
                r##"<text x="{:.2}" y="{}" text-anchor="middle" font-size="12" fill="#444">{}</text>"##,
                w / 2.0,
                22 + 18 * title.len(),
                esc(n)
            );
        }
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
        let turned = !self.x_categories.is_empty() && self.turned_labels();
        for (k, &t) in x_ticks.iter().enumerate() {
            let label = match self.x_categories.get(k) {
                Some(c) if c.chars().count() > 28 => {
                    format!("{}…", c.chars().take(27).collect::<String>())
                }
                Some(c) => c.clone(),
                None => fmt_tick(t),
            };
            if turned {
                let (x, y) = (sx(t) + 4.0, py0 + 14.0);
                let _ = writeln!(
                    s,
                    r#"<text x="{x:.2}" y="{y:.2}" text-anchor="end" transform="rotate(-40 {x:.2} {y:.2})">{}</text>"#,
                    esc(&label)
                );
            } else {
                let _ = writeln!(
                    s,
                    r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                    sx(t),
                    py0 + 19.0,
                    esc(&label)
                );
            }
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
            h - 12.0,
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
            let colour = PALETTE[ser.colour.unwrap_or(i) % PALETTE.len()];
            let pts: Vec<(usize, (f64, f64))> = ser
                .points
                .iter()
                .copied()
                .enumerate()
                .filter(|(_, (x, y))| x.is_finite() && y.is_finite())
                .collect();
            let _ = writeln!(s, r#"<g class="series" data-name="{}">"#, esc(&ser.name));
            match ser.style {
                Style::Line | Style::Step => {
                    if !pts.is_empty() {
                        let mut d = String::new();
                        let mut prev: Option<(f64, f64)> = None;
                        for &(_, (x, y)) in &pts {
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
                        let (sw, op) = if ser.faint { (0.8, 0.45) } else { (1.5, 1.0) };
                        let _ = writeln!(
                            s,
                            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{sw}" stroke-opacity="{op}"/>"#
                        );
                    }
                }
                Style::Bars => {
                    let raw: Vec<(f64, f64)> = pts.iter().map(|p| p.1).collect();
                    let bw = bar_width(&raw);
                    for &(x, y) in &raw {
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
                Style::Markers => {
                    for &(_, (x, y)) in &pts {
                        let _ = writeln!(s, "{}", diamond(sx(clamp_x(x)), sy(clamp_y(y)), colour));
                    }
                }
                Style::ErrorBars => {
                    for &(k, (x, y)) in &pts {
                        let e = ser.err_at(k);
                        let (cx, cy) = (sx(clamp_x(x)), sy(clamp_y(y)));
                        if e > 0.0 {
                            let (ya, yb) = (sy(clamp_y(y - e)), sy(clamp_y(y + e)));
                            let _ = writeln!(
                                s,
                                r#"<path d="M{cx:.2},{ya:.2} L{cx:.2},{yb:.2} M{:.2},{ya:.2} L{:.2},{ya:.2} M{:.2},{yb:.2} L{:.2},{yb:.2}" stroke="{colour}" stroke-width="1.5" fill="none"/>"#,
                                cx - 4.0,
                                cx + 4.0,
                                cx - 4.0,
                                cx + 4.0
                            );
                        }
                        let _ = writeln!(s, "{}", dot(cx, cy, colour));
                    }
                }
            }
            s.push_str("</g>\n");
        }
        // Legend: inside the frame on a white box sized to the longest name (about 7 px per
        // character at 12 px), in the corner where it hides the fewest drawn points (top
        // right on a tie); or one row above the frame.
        if !self.series.is_empty() {
            let on_top = self.legend_on_top();
            let longest = self
                .series
                .iter()
                .map(|x| x.name.chars().count())
                .max()
                .unwrap_or(0) as f64;
            let bw = 40.0 + 7.0 * longest;
            let bh = 8.0 + 16.0 * self.series.len() as f64;
            let marks = self.drawn_marks(&sx, &sy, &clamp_x, &clamp_y);
            let corners = [
                (px1 - bw - 6.0, py1 + 4.0),
                (px0 + 6.0, py1 + 4.0),
                (px1 - bw - 6.0, py0 - bh - 4.0),
                (px0 + 6.0, py0 - bh - 4.0),
            ];
            let hidden = |&(x, y): &(f64, f64)| {
                marks
                    .iter()
                    .filter(|&&(mx, my)| {
                        mx >= x - 4.0 && mx <= x + bw + 4.0 && my >= y - 4.0 && my <= y + bh + 4.0
                    })
                    .count()
            };
            let (bx, by) = corners
                .iter()
                .copied()
                .min_by_key(|c| hidden(c))
                .unwrap_or(corners[0]);
            s.push_str("<g class=\"legend\">\n");
            if !on_top {
                let _ = writeln!(
                    s,
                    r##"<rect x="{bx:.2}" y="{by:.2}" width="{bw:.2}" height="{bh:.2}" fill="white" fill-opacity="0.85" stroke="#999"/>"##,
                );
            }
            let mut row_x = px0;
            for (i, ser) in self.series.iter().enumerate() {
                let colour = PALETTE[ser.colour.unwrap_or(i) % PALETTE.len()];
                // (left of the glyph, text baseline)
                let (x0, y) = if on_top {
                    let at = (row_x, py1 - 8.0);
                    row_x += 40.0 + 7.0 * ser.name.chars().count() as f64;
                    at
                } else {
                    (bx, by + 16.0 + 16.0 * i as f64)
                };
                match ser.style {
                    Style::Markers => {
                        let _ = writeln!(s, "{}", diamond(x0 + 16.0, y - 4.0, colour));
                    }
                    Style::ErrorBars => {
                        let _ = writeln!(
                            s,
                            r#"<path d="M{0:.2},{1:.2} L{0:.2},{2:.2}" stroke="{colour}" stroke-width="1.5"/>{3}"#,
                            x0 + 16.0,
                            y - 10.0,
                            y + 2.0,
                            dot(x0 + 16.0, y - 4.0, colour)
                        );
                    }
                    Style::Line | Style::Step | Style::Bars => {
                        let op = if ser.faint { 0.45 } else { 1.0 };
                        let _ = writeln!(
                            s,
                            r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{colour}" stroke-width="3" stroke-opacity="{op}"/>"#,
                            x0 + 6.0,
                            y - 4.0,
                            x0 + 26.0,
                            y - 4.0
                        );
                    }
                }
                let _ = writeln!(
                    s,
                    r#"<text x="{:.2}" y="{y:.2}">{}</text>"#,
                    x0 + 32.0,
                    esc(&ser.name)
                );
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}

/// A hollow diamond (a published value).
fn diamond(x: f64, y: f64, colour: &str) -> String {
    format!(
        r#"<path d="M{x:.2},{:.2} L{:.2},{y:.2} L{x:.2},{:.2} L{:.2},{y:.2} Z" fill="white" stroke="{colour}" stroke-width="2"/>"#,
        y - 6.0,
        x + 6.0,
        y + 6.0,
        x - 6.0
    )
}

/// A filled dot (our mean).
fn dot(x: f64, y: f64, colour: &str) -> String {
    format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="3.5" fill="{colour}"/>"#)
}

/// Panels side by side in one SVG ("small multiples"), under one title.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub title: String,
    /// A line under the title (how the panels are laid out or smoothed).
    pub note: Option<String>,
    pub panels: Vec<Plot>,
    /// Panels per row (at least 1).
    pub columns: usize,
}

impl Grid {
    /// Renders the panels left to right, top to bottom; each row as tall as its tallest.
    pub fn to_svg(&self) -> String {
        let cols = self.columns.max(1);
        let width_guess = self
            .panels
            .chunks(cols)
            .map(|r| r.iter().map(|p| p.width).sum::<u32>())
            .max()
            .unwrap_or(400) as f64;
        // About 9 px per character of the 16-px bold title.
        let title = wrap(&self.title, ((width_guess - 20.0) / 9.0) as usize);
        let head = 16.0 + 20.0 * title.len() as f64 + if self.note.is_some() { 16.0 } else { 0.0 };
        let rows: Vec<&[Plot]> = self.panels.chunks(cols).collect();
        let width = rows
            .iter()
            .map(|r| r.iter().map(|p| p.width).sum::<u32>())
            .max()
            .unwrap_or(400) as f64;
        let height = head
            + rows
                .iter()
                .map(|r| r.iter().map(|p| p.height).max().unwrap_or(0) as f64)
                .sum::<f64>();
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(
            s,
            r#"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="white"/>"#
        );
        for (k, line) in title.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{}" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
                width / 2.0,
                22 + 20 * k,
                esc(line)
            );
        }
        if let Some(n) = &self.note {
            let _ = writeln!(
                s,
                r##"<text x="{:.2}" y="{}" text-anchor="middle" fill="#444">{}</text>"##,
                width / 2.0,
                20 + 20 * title.len(),
                esc(n)
            );
        }
        let mut y = head;
        for r in rows {
            let mut x = 0.0;
            for p in r {
                s.push_str(&p.render(Some((x, y))));
                x += p.width as f64;
            }
            y += r.iter().map(|p| p.height).max().unwrap_or(0) as f64;
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Splits `text` at spaces into lines of at most `max` characters (a longer word stays
/// whole).
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for w in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + w.chars().count() <= max.max(1) => {
                l.push(' ');
                l.push_str(w);
            }
            _ => lines.push(w.to_string()),
        }
    }
    lines
}

/// A centred moving average over `window` points (fewer at the ends): the smoothing a
/// figure states in its note when it uses it.
pub fn moving_average(points: &[(f64, f64)], window: usize) -> Vec<(f64, f64)> {
    let half = window.max(1) / 2;
    (0..points.len())
        .map(|i| {
            let (a, b) = (i.saturating_sub(half), (i + half + 1).min(points.len()));
            let ys = &points[a..b];
            (
                points[i].0,
                ys.iter().map(|p| p.1).sum::<f64>() / ys.len() as f64,
            )
        })
        .collect()
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

    /// The x of the legend's box in a rendered plot.
    fn legend_x(svg: &str) -> f64 {
        let g = &svg[svg.find("<g class=\"legend\">").unwrap()..];
        let r = &g[g.find("<rect x=\"").unwrap() + 9..];
        r[..r.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn legend_goes_to_the_corner_that_hides_the_fewest_points() {
        // Rising: the top-right corner is full, the top left empty.
        let mut p = Plot::new("t", "x", "y");
        p.series.push(Series::line(
            "rising",
            (0..=10).map(|i| (i as f64, i as f64)).collect(),
        ));
        let x = legend_x(&p.to_svg());
        assert!(
            (x - (MARGIN_LEFT + 6.0)).abs() < 0.01,
            "legend at x {x}, not top left"
        );
        // Falling: the top right is empty, and it is the first choice.
        let mut p = Plot::new("t", "x", "y");
        p.series.push(Series::line(
            "falling",
            (0..=10).map(|i| (i as f64, 10.0 - i as f64)).collect(),
        ));
        let x = legend_x(&p.to_svg());
        assert!(x > 360.0, "legend at x {x}, not top right");
        // Error bars count: a flat line at mid height whose bars reach the top on the left.
        let mut p = Plot::new("t", "x", "y");
        p.y_range = Some((0.0, 10.0));
        let pts: Vec<(f64, f64)> = (0..=10).map(|i| (i as f64, 2.0)).collect();
        let err: Vec<f64> = (0..=10).map(|i| if i >= 6 { 7.9 } else { 0.0 }).collect();
        p.series.push(Series::error_bars("ours", pts, err));
        let x = legend_x(&p.to_svg());
        assert!(
            (x - (MARGIN_LEFT + 6.0)).abs() < 0.01,
            "legend at x {x} hides error bars"
        );
    }

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

    #[test]
    fn error_bars_widen_the_axis_and_markers_are_drawn() {
        let mut p = Plot::new("t", "case", "v");
        p.x_categories = vec!["a".into(), "b".into()];
        p.series.push(Series::error_bars(
            "ours",
            vec![(0.0, 10.0), (1.0, 20.0)],
            vec![5.0, f64::NAN],
        ));
        p.series
            .push(Series::markers("published", vec![(1.0, 12.0)]));
        // y range: 0 .. max(10 + 5, 20) = 20, widened to the tick 20.
        let (_, (_, lo, hi)) = p.axes();
        assert_eq!((lo, hi), (0.0, 20.0));
        let svg = p.to_svg();
        assert_eq!(svg.matches("<circle").count(), 2 + 1); // two dots and the legend's
        assert_eq!(svg.matches("fill=\"white\" stroke=").count(), 1 + 1); // diamond, legend
        assert!(svg.contains(">a</text>") && svg.contains(">b</text>"));
    }

    #[test]
    fn dense_time_series_become_one_panel_each_with_the_reference_line() {
        let mut p = Plot::new("q", "time (s)", "packets");
        let dense = |k: f64| (0..40).map(|i| (i as f64, k + (i % 3) as f64)).collect();
        p.series.push(Series::line("A", dense(1.0)));
        p.series.push(Series::line("B", dense(5.0)));
        p.series
            .push(Series::line("SR", vec![(0.0, 4.0), (39.0, 4.0)]));
        let g = p.auto_panels().expect("two dense time series");
        assert_eq!(g.panels.len(), 2);
        assert_eq!(g.panels[0].series.len(), 2); // A and the reference line
        assert_eq!(g.panels[0].y_range, g.panels[1].y_range);
        assert!(p.to_svg().contains("one panel per curve"));
        // Not a time axis, or one dense curve: overlaid as before.
        p.x_label = "load".into();
        assert!(p.auto_panels().is_none());
    }

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("toolongword x", 4), ["toolongword", "x"]);
        let mut p = Plot::new("t", "x", "y");
        p.series
            .push(Series::line("a", vec![(0.0, 68.0), (1.0, 70.0)]));
        assert_eq!(p.axes().1 .1, 0.0);
        p.y_from_zero = false;
        assert_eq!((p.axes().1 .1, p.axes().1 .2), (68.0, 70.0));
    }

    #[test]
    fn moving_average_hand_computed() {
        let pts = [(0.0, 1.0), (1.0, 2.0), (2.0, 6.0), (3.0, 1.0)];
        // window 3: [1,2]/2, [1,2,6]/3, [2,6,1]/3, [6,1]/2
        assert_eq!(
            moving_average(&pts, 3),
            vec![(0.0, 1.5), (1.0, 3.0), (2.0, 3.0), (3.0, 3.5)]
        );
    }
}
