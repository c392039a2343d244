//! The HTML reports of all five reproductions, rendered in headless Chromium: every figure
//! decodes and every table has rows.
//!
//! Each experiment runs one small table (`--quick --seeds 1`; RIO also one figure) with
//! the `qoslab` binary in a fresh directory, so the default output path and the index page
//! `out/reproduce/index.html` are exercised as a user gets them. Each page's inline script
//! writes, on `load`, how many `<img class="fig">` decoded and how many tables have rows
//! into `data-` attributes of `<body>`; `chromium --dump-dom` prints them.
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

/// `<body ...>`'s `data-<key>` value in a dumped DOM.
fn attr(dom: &str, key: &str) -> Option<String> {
    let body = &dom[dom.find("<body")?..];
    let body = &body[..body.find('>')?];
    let pat = format!("data-{key}=\"");
    let a = body.find(&pat)? + pat.len();
    Some(body[a..a + body[a..].find('"')?].to_string())
}

/// Renders `page` and returns the dumped DOM.
fn render(chromium: &Path, page: &Path, profile: &Path) -> String {
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
    // (experiment, selection, comparison figures at least)
    let runs: [(&str, &[&str], usize); 5] = [
        ("rio-hori2001", &["--table", "2"], 1),
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
        assert!(compare >= 1, "{name}: no comparison figure written");
        assert!(html.contains("published in our 95 % interval"), "{name}");
        pages.push((page, *compared, 1));
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
    for (k, (page, min_figs, min_tables)) in pages.iter().enumerate() {
        let profile = root.join(format!("chromium-profile-{k}"));
        let dom = render(&browser, page, &profile);
        let get = |key: &str| -> usize {
            attr(&dom, key)
                .unwrap_or_else(|| panic!("{}: no data-{key} after load", page.display()))
                .parse()
                .unwrap()
        };
        assert_eq!(
            attr(&dom, "checked").as_deref(),
            Some("yes"),
            "{}",
            page.display()
        );
        let (figs, ok) = (get("figures"), get("figures-ok"));
        assert_eq!(
            figs,
            ok,
            "{}: figures that did not decode: {:?}",
            page.display(),
            attr(&dom, "broken")
        );
        assert!(figs >= *min_figs, "{}: {figs} figures", page.display());
        let (tables, with_rows) = (get("tables"), get("tables-with-rows"));
        assert_eq!(
            tables,
            with_rows,
            "{}: a table without rows",
            page.display()
        );
        assert!(tables >= *min_tables, "{}: {tables} tables", page.display());
    }
    let _ = std::fs::remove_dir_all(&root);
}
