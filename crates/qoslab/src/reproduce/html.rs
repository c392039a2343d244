//! The HTML report of a reproduction (`index.html` beside its CSV and SVG files) and the
//! index page over all reproductions in `out/reproduce/`.
//!
//! One self-contained page per reproduction: inline CSS, figures as `data:` URIs, no
//! script or style from the network. It is built by [`super::publish`] from what every
//! experiment already returns (its printed report and its files), so all five experiments
//! get one through the same path:
//!
//! * **Run**: the report's header lines (mode, seeds, simulated time), the seeds found in the
//!   per-run CSVs, the number of runs, the wall time of the command and the engine's speed
//!   line. The wall time varies between runs; it is the only part of the page that does.
//! * **Tables**: every table CSV, read back by [`super::html_table`]: ours (mean ± 95 %),
//!   published, difference coloured by its relative size (the scale is stated on the page
//!   and in `html_table`'s docs), whether the published value is inside our interval; and
//!   a comparison figure (`compare_<table>.svg`, also written as a file) of every table
//!   with published values. Tables without published values are shown as they are.
//! * **Figures**: every SVG the experiment drew.
//! * **Scenario and assumptions**: the choices the source leaves open as printed with the
//!   results, the scenario README, the scenario files and (registry experiments) the list
//!   of variants.
//!
//! A small inline script, run on `load`, counts the figures that decoded (`<img>`
//! `naturalWidth` > 0) and the tables with rows, and writes the counts as `data-` attributes
//! of `<body>`: what the headless-browser test (`tests/html_report.rs`) reads.

use std::fmt::Write as _;
use std::path::Path;

use crate::plot::esc;

use super::html_doc;
use super::html_table::{parse_csv, plain_html, Band, Comparison};
use super::Outcome;

/// What the page says about the run besides the outcome.
#[derive(Clone, Debug)]
pub struct RunInfo<'a> {
    /// The command line as typed (`reproduce NAME --quick ...`); empty when unknown.
    pub command: String,
    pub wall_s: f64,
    /// The engine's speed line, if the experiment prints one.
    pub engine: Option<&'a str>,
}

/// The files the report adds to a reproduction's output: `compare_<table>.svg` per table
/// with published values, then `index.html`.
pub fn report_files(name: &str, outcome: &Outcome, info: &RunInfo) -> Vec<(String, String)> {
    let text = &outcome.text;
    let mut extra = Vec::new();
    let mut body = String::new();
    let mut nav: Vec<(String, String)> = Vec::new();
    let mut bands = [0usize; 5];
    let mut compared = 0usize;

    // Tables.
    let mut tables_html = String::new();
    let mut n_tables = 0;
    for (file, csv_text) in &outcome.files {
        if !is_table_csv(file) {
            continue;
        }
        let Some(csv) = parse_csv(csv_text) else {
            continue;
        };
        let stem = file.trim_end_matches(".csv");
        let id = stem.trim_start_matches("table_");
        let (title, block) =
            table_title(text, id).unwrap_or_else(|| (stem.to_string(), String::new()));
        n_tables += 1;
        let anchor = format!("t-{stem}");
        nav.push((anchor.clone(), title.clone()));
        let _ = writeln!(
            tables_html,
            "<section class=\"table\" id=\"{anchor}\"><h3>{}</h3>",
            esc(&title)
        );
        match Comparison::from_csv(&csv) {
            Some(c) => {
                let (b, n) = c.band_counts();
                for (a, x) in bands.iter_mut().zip(b) {
                    *a += x;
                }
                compared += n;
                if !c.has_published() {
                    tables_html.push_str("<p class=\"small\">No published values for this table in our copy of the source: ours alone.</p>\n");
                }
                tables_html.push_str(&c.to_html());
                if let Some(svg) = c.figure(&title) {
                    let f = format!("compare_{stem}.svg");
                    let _ = writeln!(
                        tables_html,
                        "{}",
                        img(
                            &f,
                            &svg,
                            &format!("{title}: ours beside the published values")
                        )
                    );
                    extra.push((f, svg));
                }
            }
            None => tables_html.push_str(&plain_html(&csv, 200)),
        }
        if !block.is_empty() {
            let _ = writeln!(
                tables_html,
                "<details><summary>as printed by <code>qoslab reproduce</code></summary><pre>{}</pre></details>",
                esc(&block)
            );
        }
        let _ = writeln!(
            tables_html,
            "<p class=\"small\">file: <a href=\"{0}\">{0}</a></p></section>",
            esc(file)
        );
    }

    // Figures.
    let mut figs_html = String::new();
    for (file, svg) in &outcome.files {
        if !file.ends_with(".svg") {
            continue;
        }
        let title = figure_title(text, file);
        let anchor = format!("f-{}", file.trim_end_matches(".svg"));
        nav.push((anchor.clone(), title.clone()));
        let data = file.replace(".svg", ".csv");
        let data = if outcome.files.iter().any(|(f, _)| *f == data) {
            format!("; data: <a href=\"{0}\">{0}</a>", esc(&data))
        } else {
            String::new()
        };
        let _ = writeln!(
            figs_html,
            "<section class=\"figure\" id=\"{anchor}\"><h3>{}</h3>{}<p class=\"small\">file: <a href=\"{f}\">{f}</a>{data}</p></section>",
            esc(&title),
            img(file, svg, &title),
            f = esc(file)
        );
    }

    // Header and run.
    let mut lines = text.lines();
    let heading = lines.next().unwrap_or(name).to_string();
    let header: Vec<&str> = lines.take_while(|l| !l.trim().is_empty()).collect();
    let seeds = seeds_used(&outcome.files);
    let _ = writeln!(body, "<h1>{}</h1>", esc(&heading));
    body.push_str("<section id=\"run\"><h2>Run</h2><table class=\"kv\">\n");
    let command = if info.command.is_empty() {
        format!("reproduce {name}")
    } else {
        info.command.clone()
    };
    let _ = writeln!(
        body,
        "<tr><th>command</th><td><code>qoslab {}</code></td></tr>",
        esc(&command)
    );
    for l in &header {
        let (k, v) = l
            .split_once(": ")
            .filter(|(k, _)| k.len() < 24 && !k.contains('('))
            .unwrap_or(("run", l));
        let _ = writeln!(body, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
    }
    let _ = writeln!(
        body,
        "<tr><th>seeds used</th><td>{}</td></tr><tr><th>runs</th><td>{}</td></tr><tr><th>wall time</th><td>{:.1} s</td></tr>",
        if seeds.is_empty() { "none (computed or deterministic)".to_string() } else { seeds.join(", ") },
        outcome.runs,
        info.wall_s
    );
    if let Some(e) = info.engine {
        let _ = writeln!(body, "<tr><th>engine</th><td>{}</td></tr>", esc(e));
    }
    let _ = writeln!(
        body,
        "<tr><th>qoslab</th><td>{}</td></tr></table></section>",
        env!("CARGO_PKG_VERSION")
    );

    // Summary of the differences.
    body.push_str("<section id=\"summary\"><h2>Differences at a glance</h2>\n");
    if compared == 0 {
        body.push_str("<p>No value of this run has a published counterpart (withheld or not tabulated in our copy of the source): ours alone.</p>\n");
    } else {
        let _ = writeln!(body, "<p>{compared} values have a published counterpart. Colour of a difference, by |ours − published| / |published| of the mean (fixed bands, the same on every page):</p><p class=\"legend\">");
        for (b, n) in Band::ALL.iter().zip(bands) {
            let _ = write!(
                body,
                "<span class=\"{}\">{}: {n}</span> ",
                b.class(),
                b.label()
            );
        }
        body.push_str("</p>\n");
    }
    body.push_str("</section>\n");

    // Contents.
    body.push_str("<nav><h2>Contents</h2><ul>");
    for (a, t) in &nav {
        let _ = write!(body, "<li><a href=\"#{a}\">{}</a></li>", esc(t));
    }
    body.push_str("<li><a href=\"#assumptions\">Assumptions</a></li><li><a href=\"#scenario\">Scenario parameters</a></li><li><a href=\"#files\">Files</a></li></ul></nav>\n");

    let _ = writeln!(
        body,
        "<section id=\"tables\"><h2>Tables ({n_tables})</h2>{tables_html}</section>"
    );
    if !figs_html.is_empty() {
        let _ = writeln!(
            body,
            "<section id=\"figures\"><h2>Figures</h2>{figs_html}</section>"
        );
    }

    // Assumptions.
    body.push_str("<section id=\"assumptions\"><h2>Assumptions</h2>\n");
    let choices = choices(text);
    if !choices.is_empty() {
        body.push_str("<h3>Choices the source leaves open (as printed with the results)</h3><ul>");
        for c in &choices {
            let _ = write!(body, "<li>{}</li>", esc(c));
        }
        body.push_str("</ul>\n");
    }
    for (path, md) in html_doc::documents(name) {
        let _ = writeln!(
            body,
            "<details open><summary>{}</summary><div class=\"md\">{}</div></details>",
            esc(path),
            html_doc::markdown(md)
        );
    }
    body.push_str("</section>\n");

    // Scenario.
    body.push_str("<section id=\"scenario\"><h2>Scenario parameters</h2>\n");
    if let Some(v) = registry_variants(name) {
        let _ = writeln!(body, "<p>Variants run (each the base scenario with the overrides its name says):</p><ul class=\"cols\">{v}</ul>");
    }
    for (path, toml) in html_doc::scenario_files(name) {
        let _ = writeln!(
            body,
            "<details><summary>{}</summary><pre>{}</pre></details>",
            esc(path),
            esc(toml)
        );
    }
    body.push_str("</section>\n");

    // Files and the printed report.
    body.push_str("<section id=\"files\"><h2>Files</h2><ul class=\"cols\">");
    for (f, _) in outcome.files.iter().chain(extra.iter()) {
        let _ = write!(body, "<li><a href=\"{0}\">{0}</a></li>", esc(f));
    }
    body.push_str("</ul>");
    let _ = writeln!(body, "<details><summary>report.txt (what the command printed)</summary><pre>{}</pre></details></section>", esc(text));

    let mut summary = format!(
        "runs={};wall_s={:.1};tables={n_tables};compared={compared}",
        outcome.runs, info.wall_s
    );
    for (b, n) in Band::ALL.iter().zip(bands) {
        let _ = write!(summary, ";{}={n}", b.class());
    }
    let page = page(
        &format!("qoslab reproduce {name}"),
        &heading,
        &summary,
        &body,
    );
    extra.push(("index.html".to_string(), page));
    extra
}

/// CSV files shown as tables: not the per-run values, not a figure's data.
fn is_table_csv(file: &str) -> bool {
    file.ends_with(".csv") && file.starts_with("table_") && !file.ends_with("_runs.csv")
}

/// A figure as an `<img>` with its SVG in a `data:` URI (a broken SVG does not decode, so
/// the browser test sees it).
fn img(file: &str, svg: &str, alt: &str) -> String {
    format!(
        "<img class=\"fig\" data-file=\"{}\" alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">",
        esc(file),
        esc(alt),
        base64(svg.as_bytes())
    )
}

/// Standard base64 (RFC 4648 §4) with padding.
pub fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= c.len() {
                s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// The title line of table `id` in the printed report and its block (to the blank line).
fn table_title(text: &str, id: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines.iter().position(|l| {
        l.strip_prefix("Table ").is_some_and(|r| {
            let tok: String = r
                .split([' ', '—'])
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| *c != '.')
                .collect();
            tok.eq_ignore_ascii_case(id)
        })
    })?;
    let block: Vec<&str> = lines[i..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .copied()
        .collect();
    Some((lines[i].to_string(), block.join("\n")))
}

/// A figure's title: the printed line naming its file (or the "Figure" line above a
/// "-> file" line), without the file name.
fn figure_title(text: &str, file: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(i) = lines.iter().position(|l| l.contains(file)) else {
        return file.to_string();
    };
    let mut l = lines[i].trim();
    if l.starts_with("->") {
        if let Some(f) = lines[..i].iter().rev().find(|l| l.starts_with("Figure")) {
            l = f.trim();
        }
    }
    l.replace(&format!(" ({file})"), "")
        .replace(&format!("-> {file}"), "")
        .trim()
        .to_string()
}

/// The seeds named in the per-run CSVs (a `seed` column), in numeric order.
fn seeds_used(files: &[(String, String)]) -> Vec<String> {
    let mut seeds: Vec<u64> = Vec::new();
    for (f, t) in files {
        if !f.ends_with(".csv") {
            continue;
        }
        let Some(csv) = parse_csv(t) else { continue };
        if let Some(c) = csv.header.iter().position(|h| h == "seed") {
            seeds.extend(csv.rows.iter().filter_map(|r| r[c].parse::<u64>().ok()));
        }
    }
    seeds.sort_unstable();
    seeds.dedup();
    seeds.iter().map(|s| s.to_string()).collect()
}

/// The printed "Choices ..." list: its `- ` items (continuation lines joined).
fn choices(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut on = false;
    for l in text.lines() {
        if l.starts_with("Choices") {
            on = true;
            continue;
        }
        if !on {
            continue;
        }
        let t = l.trim();
        if t.is_empty() || !l.starts_with(' ') {
            on = false;
        } else if let Some(item) = t.strip_prefix("- ") {
            out.push(item.to_string());
        } else if let Some(last) = out.last_mut() {
            last.push(' ');
            last.push_str(t);
        }
    }
    out
}

/// The variants of a registry experiment as `<li>` items.
fn registry_variants(name: &str) -> Option<String> {
    let exps = super::registry().ok()?;
    let e = exps.into_iter().find(|e| e.name == name)?;
    let mut s = String::new();
    for v in &e.variants {
        let _ = write!(s, "<li>{}</li>", esc(&v.key));
    }
    Some(s)
}

const CSS: &str = r#"
body{font-family:system-ui,sans-serif;max-width:1180px;margin:1em auto;padding:0 1em;color:#111;line-height:1.4}
h1{font-size:1.5em}h2{border-bottom:2px solid #0072B2;padding-bottom:2px;margin-top:1.6em}h3{font-size:1.1em;margin-top:1.4em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}
th{background:#f0f4f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}tr.first td{border-top:2px solid #999}
table.kv th{width:11em}img.fig{max-width:100%;height:auto;display:block;margin:.6em 0;border:1px solid #eee}
pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.85em;white-space:pre-wrap}
details{margin:.4em 0}summary{cursor:pointer;color:#0050a0}.small{font-size:.85em;color:#555}
.b5{background:#b7e4c7}.b15{background:#fff1a8}.b50{background:#ffc98b}.bhi{background:#f4a3a3}.bzero{background:#dddddd}
.legend span{padding:2px 8px;margin-right:4px;border:1px solid #bbb;white-space:nowrap}
ul.cols{columns:3;font-size:.9em}nav ul{columns:2;font-size:.9em}div.md{font-size:.92em}
"#;

/// Counts the decoded figures and the tables with rows into `data-` attributes of `<body>`.
const CHECK_JS: &str = r#"
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.querySelectorAll('img.fig'));
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; });
  var tables = Array.prototype.slice.call(document.querySelectorAll('table.data'));
  var rows = tables.filter(function (t) { return t.tBodies.length > 0 && t.tBodies[0].rows.length > 0; });
  var b = document.body.dataset;
  b.figures = imgs.length; b.figuresOk = ok.length;
  b.tables = tables.length; b.tablesWithRows = rows.length;
  b.broken = imgs.filter(function (i) { return ok.indexOf(i) < 0; }).map(function (i) { return i.dataset.file; }).join(' ');
  b.checked = 'yes';
});
"#;

fn page(title: &str, heading: &str, summary: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<meta name=\"qoslab-heading\" content=\"{}\">\n<meta name=\"qoslab-summary\" content=\"{}\">\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n<script>{CHECK_JS}</script>\n</body></html>\n",
        esc(title),
        esc(heading),
        esc(summary)
    )
}

/// The index page over the reproductions under `root` (each a directory with an
/// `index.html` written by [`report_files`]), in name order.
pub fn index_page(root: &Path) -> String {
    let mut dirs: Vec<(String, String)> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let html = std::fs::read_to_string(e.path().join("index.html")).ok()?;
                    Some((name, html))
                })
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut body = String::from("<h1>qoslab reproductions</h1>\n<p>Each reproduction's page shows our results beside the published values. Colour bands of a difference: |ours − published| / |published| of the mean; counts per band below.</p>\n<table class=\"data\"><thead><tr><th>reproduction</th><th>document</th><th>runs</th><th>wall time (s)</th><th>tables</th><th>compared values</th>");
    for b in Band::ALL {
        let _ = write!(body, "<th class=\"{}\">{}</th>", b.class(), b.label());
    }
    body.push_str("</tr></thead><tbody>\n");
    for (name, html) in &dirs {
        let heading = meta(html, "qoslab-heading").unwrap_or_default();
        let summary = meta(html, "qoslab-summary").unwrap_or_default();
        let get = |k: &str| {
            summary
                .split(';')
                .find_map(|kv| kv.strip_prefix(k).and_then(|r| r.strip_prefix('=')))
                .unwrap_or("")
                .to_string()
        };
        let _ = write!(
            body,
            "<tr><td><a href=\"{n}/index.html\">{n}</a></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            esc(&heading),
            esc(&get("runs")),
            esc(&get("wall_s")),
            esc(&get("tables")),
            esc(&get("compared")),
            n = esc(name)
        );
        for b in Band::ALL {
            let _ = write!(body, "<td class=\"n\">{}</td>", esc(&get(b.class())));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody></table>\n");
    page("qoslab reproductions", "qoslab reproductions", "", &body)
}

/// The `content` of `<meta name="{name}">` in a page this module wrote (unescaped).
fn meta(html: &str, name: &str) -> Option<String> {
    let tag = format!("<meta name=\"{name}\" content=\"");
    let a = html.find(&tag)? + tag.len();
    let b = html[a..].find('"')? + a;
    Some(
        html[a..b]
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        // RFC 4648 §10.
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn titles_seeds_and_choices_from_the_printed_report() {
        let text = "x — y\nsource: s\nquick run: seeds 1..=2\n\nTable B.3 (§11.3) — OA %\n  a\n\nFigure fig_m — marking\n  -> fig_m.svg\nFig. 2 — goodput (fig2.svg)\n\nChoices the source leaves open:\n  - one\n    more\n  - two\n\nengine: fast\n";
        assert_eq!(
            table_title(text, "b3").unwrap().0,
            "Table B.3 (§11.3) — OA %"
        );
        assert_eq!(
            table_title(text, "b3").unwrap().1,
            "Table B.3 (§11.3) — OA %\n  a"
        );
        assert!(table_title(text, "b4").is_none());
        assert_eq!(figure_title(text, "fig_m.svg"), "Figure fig_m — marking");
        assert_eq!(figure_title(text, "fig2.svg"), "Fig. 2 — goodput");
        assert_eq!(choices(text), ["one more", "two"]);
        let files = vec![
            (
                "table_1_runs.csv".to_string(),
                "k,column,seed,value\na,b,2,1\na,b,1,1\n".to_string(),
            ),
            ("runs.csv".to_string(), "variant,seed\nv,10\n".to_string()),
        ];
        assert_eq!(seeds_used(&files), ["1", "2", "10"]);
    }

    #[test]
    fn page_has_tables_figures_and_the_summary_the_index_reads() {
        let out = Outcome {
            text: "e — t\nsource: s\nquick run: seeds 1..=2\n\nTable 1 — T\n\nFigure fig9 — F (fig9.svg)\n".into(),
            files: vec![
                ("report.txt".into(), String::new()),
                ("table_1.csv".into(), "k,column,runs,ours_mean,ours_ci95,published,diff,diff_pct\nA,x,2,10,1,12,-2,-16.7\nB,x,2,5,1,5.1,,\n".into()),
                ("table_1_runs.csv".into(), "k,column,seed,value\nA,x,1,9\nA,x,2,11\n".into()),
                ("fig9.svg".into(), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".into()),
            ],
            runs: 4,
        };
        let files = report_files(
            "rio-hori2001",
            &out,
            &RunInfo {
                command: "reproduce rio-hori2001 --quick".into(),
                wall_s: 1.3,
                engine: None,
            },
        );
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["compare_table_1.svg", "index.html"]);
        let html = &files[1].1;
        assert_eq!(html.matches("<img class=\"fig\"").count(), 2);
        assert!(html.contains("class=\"n b50\"") && html.contains("class=\"n b5\""));
        assert!(
            !html.contains("\" class="),
            "two class attributes in one element"
        );
        assert!(html.contains("seeds used</th><td>1, 2</td>"));
        assert!(html.contains("<code>qoslab reproduce rio-hori2001 --quick</code>"));
        assert!(html.contains("scenarios/rio-hori2001/base.toml"));
        assert_eq!(
            meta(html, "qoslab-summary").unwrap(),
            "runs=4;wall_s=1.3;tables=1;compared=2;b5=1;b15=0;b50=1;bhi=0;bzero=0"
        );
        let dir = std::env::temp_dir().join(format!("qoslab-html-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("rio-hori2001")).unwrap();
        std::fs::write(dir.join("rio-hori2001/index.html"), html).unwrap();
        let idx = index_page(&dir);
        assert!(idx.contains("href=\"rio-hori2001/index.html\"") && idx.contains(">e — t<"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
