//! `qoslab reproduce pcn-stm` on its smallest tables: ours beside the published values, the
//! files it writes, independence from the number of threads, argument errors.

use qoslab::reproduce::pcn_stm::{reproduce, Options};
use qoslab::reproduce::ReproduceError;

fn opts(table: &str, threads: usize) -> Options {
    Options {
        table: Some(table.into()),
        seeds: 1,
        quick: true,
        threads,
        progress: false,
    }
}

#[test]
fn b3_quick_prints_ours_beside_published_and_ignores_thread_count() {
    let a = reproduce(&opts("b3", 2)).unwrap();
    assert_eq!(a.runs, 6);
    // Published B.3 values (data/pcn-stm/table_b3.csv) appear beside ours.
    for p in ["0.065", "0.028", "1.249", "0.979", "4.678", "4.476"] {
        assert!(a.text.contains(p), "published {p} missing:\n{}", a.text);
    }
    let names: Vec<&str> = a.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["report.txt", "table_b3.csv", "table_b3_runs.csv"]);
    // Our OA values are finite and small on a single link (map §6: STM OA small).
    let csv = &a.files[1].1;
    let mut oa = std::collections::BTreeMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let ours: f64 = f[2].parse().unwrap();
        assert!(ours.is_finite() && ours.abs() < 10.0, "{line}");
        oa.insert((f[0].to_string(), f[1].to_string()), ours);
    }
    assert_eq!(oa.len(), 6);
    // Map §6 (B.3, §11.3): OA grows CBR < VBR < SVD for both schemes, and STM is "inferior
    // to that of CL" (published 0.065/0.028, 1.249/0.979, 4.678/4.476). CBR's two values are
    // a tie within the seed-to-seed spread (full run: 0.158 ± 0.099 vs 0.153 ± 0.022), so for
    // CBR only "both small" is asserted.
    let v = |t: &str, c: &str| oa[&(t.to_string(), c.to_string())];
    for c in ["stm_oa_pct", "cl_oa_pct"] {
        assert!(
            v("CBR", c) < v("VBR", c) && v("VBR", c) < v("SVD", c),
            "{c}: {oa:?}"
        );
    }
    for t in ["VBR", "SVD"] {
        assert!(v(t, "stm_oa_pct") > v(t, "cl_oa_pct"), "{t}: {oa:?}");
    }
    assert!(v("CBR", "stm_oa_pct").abs() < 0.5 && v("CBR", "cl_oa_pct").abs() < 0.5);
    let b = reproduce(&opts("Table B.3", 1)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn b1_lists_the_six_cases_and_unknown_tables_are_refused() {
    let a = reproduce(&opts("b1", 1)).unwrap();
    assert_eq!(a.runs, 0);
    assert!(a.text.contains("0.000001"));
    match reproduce(&opts("b9", 1)) {
        Err(ReproduceError::UnknownTable { known, .. }) => {
            assert!(known.contains(&"b8") && known.contains(&"fig_marking"))
        }
        other => panic!("{:?}", other.map(|o| o.text)),
    }
}
