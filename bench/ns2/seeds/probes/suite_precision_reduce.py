#!/usr/bin/env python3
"""Findings 32 and 34 (issue 14, session 10): does the ported suites' `Agent/TCP set
precisionReduce_ false` (whole-packet window halving, ns-2's default before 2006) explain a
gap to qoslab?

Runs ns-2.35 on seeds 1..N twice: as the suite sets it (precisionReduce_ false) and with
ns-2.35's own default (precisionReduce_ true: halve min(cwnd, window) as a real number; ns-2
still truncates ssthresh_ to whole packets). Nothing else changes, and no checked-in file is
written.
- red1Adapt: bench/ns2/seeds/suite/red1Adapt.tcl (a copy with the one line changed),
  r1->r2 over 3..50 s as red1Adapt.py measures it.
- rio notGentle / strict: the suite's test-suite-rio.tcl (a copy with the one line changed)
  run by suite/rio.tcl, measured as rio.py measures it.

usage: python3 bench/ns2/seeds/probes/suite_precision_reduce.py [--seeds N] [--case red1Adapt|notGentle|strict ...]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
SUITE = os.path.join(SEEDS_DIR, "suite")
sys.path.insert(0, SEEDS_DIR)
sys.path.insert(0, SUITE)
import ns2trace  # noqa: E402
import rio  # noqa: E402
import suiteref  # noqa: E402

FALSE = "Agent/TCP set precisionReduce_ false"
TRUE = "Agent/TCP set precisionReduce_ true"


def red1adapt(seeds, precise):
    with tempfile.TemporaryDirectory() as d:
        tcl = open(os.path.join(SUITE, "red1Adapt.tcl")).read()
        assert tcl.count(FALSE) == 1
        if precise:
            tcl = tcl.replace(FALSE, TRUE)
        f = os.path.join(d, "red1Adapt.tcl")
        open(f, "w").write(tcl)
        out = []
        for s in seeds:
            tr = os.path.join(d, "q.tr")
            subprocess.run(["nice", "ns", f, str(s), tr, os.path.join(d, "r.csv")], check=True,
                           cwd=d, capture_output=True)
            st = ns2trace.stats(tr, 3.0, 50.0)
            out.append({c: float(st[c]) for c in ("ql_ave", "ql_std", "throughput", "drops")})
    return out


def rio_case(case, seeds, precise):
    with tempfile.TemporaryDirectory() as d:
        for f in ("test-suite-rio.tcl", "misc_simple.tcl"):
            shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
        p = os.path.join(d, "test-suite-rio.tcl")
        tcl = open(p).read()
        assert tcl.count(FALSE) == 1
        if precise:
            open(p, "w").write(tcl.replace(FALSE, TRUE))
        saved, suiteref.TESTDIR = suiteref.TESTDIR, d
        try:
            return [rio.ns2(case, s)[0] for s in seeds]
        finally:
            suiteref.TESTDIR = saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--case", choices=["red1Adapt", "notGentle", "strict"], action="append")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    for case in a.case or ["red1Adapt", "notGentle", "strict"]:
        print(f"\n### {case}: ns-2.35 with the suite's precisionReduce_ false | with true "
              f"(seeds 1..{a.seeds}: mean, range)\n")
        print("| column | precisionReduce_ false | precisionReduce_ true |\n|---|---|---|")
        runs = [red1adapt(seeds, p) if case == "red1Adapt" else rio_case(case, seeds, p)
                for p in (False, True)]
        for c in runs[0][0]:
            cells = []
            for r in runs:
                v = [x[c] for x in r]
                cells.append(f"{sum(v) / len(v):.3f} ({min(v):.3f}..{max(v):.3f})")
            print(f"| {c} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
