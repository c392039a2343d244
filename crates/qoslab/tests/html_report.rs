//! The HTML reports of all five reproductions, rendered in headless Chromium: every figure
//! decodes and every table has rows.
//!
//! Each experiment runs one small table (`--quick --seeds 1`; RIO also one figure) with
//! the `qoslab` binary in a fresh directory, so the default output path and the index page
//! `out/reproduce/index.html` are exercised as a user gets them. Each page's inline script
//! writes, on `load`, how many `<img class="fig">` decoded and how many tables have rows
//! into `data-` attributes of `<body>`; a harness page loads every page in an iframe in
//! one `chromium --headless --dump-dom` and prints those counts.
//!
//! Chromium is Debian's `chromium` package (`.ci/run` installs it). Without it the test
//! fails and says how to install it; `QOSLAB_SKIP_BROWSER=1` skips the browser part
//! explicitly (the pages are still built and checked as text).

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_qoslab");

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("QOSLAB_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// A page that loads every report page in an iframe and, when all have loaded (after each
/// page's own `load` handler ran), lists their `<body>` counts in `<pre id="results">`, one
/// line per page: `checked figures figures-ok tables tables-with-rows broken...`. One
/// browser for all pages: a Chromium start costs more than rendering a page.
fn harness(pages: &[PathBuf]) -> String {
    let list: Vec<String> = pages
        .iter()
        .map(|p| format!("'file://{}'", p.display()))
        .collect();
    format!(
        r#"<!DOCTYPE html><html><body><script>
var pages = [{}]; var lines = []; var n = 0;
pages.forEach(function (p, i) {{
  var f = document.createElement('iframe');
  f.width = 1200; f.height = 800;
  f.onload = function () {{
    var d;
    try {{ d = f.contentDocument.body.dataset; }} catch (e) {{ d = {{}}; }}
    lines[i] = [d.checked || 'no', d.figures, d.figuresOk, d.tables, d.tablesWithRows, d.broken].join(' ');
    n++;
    if (n === pages.length) {{
      var pre = document.createElement('pre'); pre.id = 'results';
      pre.textContent = lines.join('\n'); document.body.appendChild(pre);
    }}
  }};
  f.src = p; document.body.appendChild(f);
}});
</script></body></html>
"#,
        list.join(", ")
    )
}

/// Renders `page` headless and returns the DOM after `load`.
fn dump_dom(chromium: &Path, page: &Path, profile: &Path) -> String {
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            // The harness reads the pages' DOM: file:// pages of one origin.
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium failed on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_report_page_renders_with_its_figures_and_tables() {
    let browser = chromium();
    let skip = std::env::var("QOSLAB_SKIP_BROWSER").is_ok_and(|v| v == "1");
    if browser.is_none() && !skip {
        panic!(
            "headless Chromium is needed to check the HTML reports and was not found at \
             /usr/bin/chromium. Install it with `apt-get install -y chromium` (Debian; \
             `.ci/run` does this), point QOSLAB_CHROMIUM at a binary, or set \
             QOSLAB_SKIP_BROWSER=1 to skip this check explicitly."
        );
    }
    let root = std::env::temp_dir().join(format!("qoslab-html-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let reports = root.join("out/reproduce");
    let t0 = std::time::Instant::now();
    // (experiment, selection, comparison figures at least)
    let runs: [(&str, &[&str], usize); 5] = [
        ("rio-hori2001", &["--table", "3"], 0), // withheld: ours alone
        ("rfc2963", &["--table", "a3"], 1),
        ("rfc4828", &["--table", "1"], 1),
        ("pcn-stm", &["--table", "b3"], 1),
        ("gfr-kim2001", &["--table", "1"], 1),
    ];
    // A figure page of its own (RIO's queue traces as small multiples), then the five in
    // parallel.
    let fig_dir = reports.join("rio-hori2001-fig2");
    let st = Command::new(BIN)
        .current_dir(&root)
        .args([
            "reproduce",
            "rio-hori2001",
            "--table",
            "fig2",
            "--quick",
            "--seeds",
            "1",
        ])
        .arg("--out")
        .arg(&fig_dir)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let children: Vec<_> = runs
        .iter()
        .map(|(name, sel, _)| {
            Command::new(BIN)
                .current_dir(&root)
                .args(["reproduce", name])
                .args(*sel)
                .args(["--quick", "--seeds", "1", "--jobs", "1"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (c, (name, _, _)) in children.into_iter().zip(&runs) {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("report: "));
    }
    // The index is rewritten by every run; one more (instant) run after all have finished
    // makes it list every page.
    let st = Command::new(BIN)
        .current_dir(&root)
        .args(["reproduce", "rfc4828", "--table", "1"])
        .output()
        .unwrap();
    assert!(st.status.success());

    // The pages as text: self-contained, with their comparison figures.
    let mut pages: Vec<(PathBuf, usize, usize)> = Vec::new(); // (page, min figures, min tables)
    for (name, _, compared) in &runs {
        let page = reports.join(name).join("index.html");
        let html = std::fs::read_to_string(&page).unwrap();
        // Nothing is loaded from elsewhere: no external source, stylesheet or import.
        for bad in [
            "src=\"http",
            "src=\"/",
            "<link",
            "@import",
            "url(",
            "<script src",
        ] {
            assert!(
                !html.contains(bad),
                "{name}: the page loads something ({bad})"
            );
        }
        let compare = std::fs::read_dir(reports.join(name))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("compare_table_")
            })
            .count();
        assert!(compare >= *compared, "{name}: no comparison figure written");
        assert!(html.contains("published in our 95 % interval"), "{name}");
        pages.push((page, compare, 1));
    }
    pages.push((fig_dir.join("index.html"), 1, 0));
    let index = reports.join("index.html");
    let idx = std::fs::read_to_string(&index).unwrap();
    for (name, _, _) in &runs {
        assert!(
            idx.contains(&format!("href=\"{name}/index.html\"")),
            "{idx}"
        );
    }
    pages.push((index, 0, 1));

    if skip && browser.is_none() {
        eprintln!("QOSLAB_SKIP_BROWSER=1: the pages were not rendered");
        let _ = std::fs::remove_dir_all(&root);
        return;
    }
    let browser = browser.unwrap();
    let t1 = std::time::Instant::now();
    let paths: Vec<PathBuf> = pages.iter().map(|p| p.0.clone()).collect();
    let h = root.join("harness.html");
    std::fs::write(&h, harness(&paths)).unwrap();
    let dom = dump_dom(&browser, &h, &root.join("chromium-profile"));
    let results = dom
        .split("<pre id=\"results\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("the pages did not all load:\n{dom}"));
    let lines: Vec<&str> = results.lines().collect();
    assert_eq!(lines.len(), pages.len(), "{results}");
    for (line, (page, min_figs, min_tables)) in lines.iter().zip(&pages) {
        let f: Vec<&str> = line.split(' ').collect();
        let name = page.strip_prefix(&reports).unwrap_or(page).display();
        assert_eq!(f[0], "yes", "{name}: the page's check did not run: {line}");
        let n = |i: usize| -> usize { f[i].parse().unwrap() };
        let (figs, ok, tables, with_rows) = (n(1), n(2), n(3), n(4));
        assert_eq!(
            figs,
            ok,
            "{name}: figures that did not decode: {:?}",
            &f[5..]
        );
        assert!(figs >= *min_figs, "{name}: {figs} figures");
        assert_eq!(tables, with_rows, "{name}: a table without rows");
        assert!(tables >= *min_tables, "{name}: {tables} tables");
        eprintln!("{name}: {figs} figures decoded, {tables} tables with rows");
    }
    eprintln!(
        "reproductions {:.1} s, rendering {:.1} s",
        t1.duration_since(t0).as_secs_f64(),
        t1.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&root);
}
