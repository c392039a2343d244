#!/usr/bin/env python3
"""Finding 36 (issue 14, session 10): the friendly suite's ns-2 TFRC runs with `ca_ 1`
(RFC 5348 §4.5's optional oscillation prevention: packet spacing scaled by
sqrt(R_avg)/sqrt(R_sample)), which our TFRC does not implement. This runs the suite's `voip`
and `smoothCA` in ns-2.35 as shipped and with `Agent/TFRC set ca_ 0` (a copy of
test-suite-friendly.tcl with one line added to `voip`'s init, resp. `smoothCA`'s `ca_ 1`
turned to 0), seeds 1..N, read as suite/friendly.py reads them. Writes ns-2's per-seed `voip`
values with `ca_ 0` to crates/qoslab-sim/tests/data/ns2/suite_friendly_voip_ca0.csv (session 11:
the data of `ns2_suite::friendly::voip_ns2_compat_tfrc_sp_matches_ns2_without_ca`, finding 31).

usage: python3 bench/ns2/seeds/probes/suite_friendly_ca.py [--seeds N]
"""
import argparse
import csv
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "suite"))
import friendly  # noqa: E402
import suiteref  # noqa: E402

EDITS = {
    "voip": ("    Agent/TFRC set voip_ 1\n    Agent/TFRCSink set ShortIntervals_ 1\n"
             "    $self next pktTraceFile\n}\nTest/voip instproc run",
             "    Agent/TFRC set voip_ 1\n    Agent/TFRC set ca_ 0\n"
             "    Agent/TFRCSink set ShortIntervals_ 1\n    $self next pktTraceFile\n}\n"
             "Test/voip instproc run"),
    "smoothCA": ("    Agent/TFRC set ca_ 1\n    Test/smoothCA instproc run",
                 "    Agent/TFRC set ca_ 0\n    Test/smoothCA instproc run"),
}


def runs(case, seeds, ca0):
    with tempfile.TemporaryDirectory() as suite:
        for f in ("test-suite-friendly.tcl", "misc_simple.tcl", "support.tcl"):
            shutil.copy(os.path.join(suiteref.TESTDIR, f), suite)
        if ca0:
            p = os.path.join(suite, "test-suite-friendly.tcl")
            s = open(p).read()
            old, new = EDITS[case]
            assert s.count(old) == 1, case
            open(p, "w").write(s.replace(old, new))
        saved, suiteref.TESTDIR = suiteref.TESTDIR, suite
        try:
            out = []
            for seed in seeds:
                with tempfile.TemporaryDirectory() as d:
                    out.append(friendly.ns2_values(case, *friendly.run_ns2(case, seed, d)))
            return out
        finally:
            suiteref.TESTDIR = saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    for case in ("voip", "smoothCA"):
        r = [runs(case, seeds, ca0) for ca0 in (False, True)]
        print(f"\n### {case}: ns-2.35 as shipped (ca_ 1) | with ca_ 0 (seeds 1..{a.seeds}: "
              "mean (range))\n")
        print("| column | ca_ 1 | ca_ 0 |\n|---|---|---|")
        for c in r[0][0]:
            cells = [f"{sum(x[c] for x in v) / len(v):.1f} ({min(x[c] for x in v)}.."
                     f"{max(x[c] for x in v)})" for v in r]
            print(f"| {c} | {cells[0]} | {cells[1]} |")
        if case == "voip":
            cols = friendly.CASES["voip"]["cols"]
            with open(friendly.DATA.format("voip_ca0"), "w", newline="") as f:
                f.write("# ns-2.35 (Debian package ns2 2.35): tcl/test/test-suite-friendly.tcl test "
                        "\"voip\" with one line added to its\n# init, `Agent/TFRC set ca_ 0` (no RFC "
                        "5348 §4.5 oscillation prevention), run by\n# bench/ns2/seeds/probes/"
                        "suite_friendly_ca.py (default RNG seeded); columns as suite_friendly_voip.csv.\n")
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["seed"] + cols)
                for seed, v in zip(seeds, r[1]):
                    w.writerow([seed] + [v[c] for c in cols])


if __name__ == "__main__":
    main()
