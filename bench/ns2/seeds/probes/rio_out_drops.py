#!/usr/bin/env python3
"""Finding 34: where test-suite-rio.tcl `notGentle`'s Out drops come from, in both simulators.

ns-2: the suite's test itself, unmodified (suite/rio.tcl with a seed). Its own
`enable_tracequeue` writes all.q: `a t v` is rio.cc's total (Out) average `ave_` each time it
changes (only In arrivals run the estimator), `Q t n` the queue. Each Out (fid 0) data drop of
r1->r2 in all.tr is classed by the average in force at its time: >= out_maxthresh_ 15 forced
by the average, else the queue at 100 (overflow), else early. A "high period" is a stretch in
which that average is >= 15 (every Out arrival then is a forced drop); printed with start and
end times.

qoslab: suite/rio_notGentle.toml with rio.py's modes; per link the early and forced drops of
queues.csv and tcp1's drops and timeouts (summary.json).

usage: python3 bench/ns2/seeds/probes/rio_out_drops.py [--seeds 3]
"""
import argparse
import bisect
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
sys.path.insert(0, SEEDS_DIR)
sys.path.insert(0, os.path.join(SEEDS_DIR, "suite"))
import rio  # noqa: E402
import suiteref  # noqa: E402

T0, T1, MAXTH, LIMIT = 1.0, 20.0, 15.0, 100


def ns2(seed):
    with tempfile.TemporaryDirectory() as d:
        for f in ("test-suite-rio.tcl", "misc_simple.tcl"):
            shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
        subprocess.run(["nice", "ns", os.path.join(SEEDS_DIR, "suite", "rio.tcl"), "notGentle",
                        str(seed)], cwd=d, capture_output=True)
        at, av = [], []
        for line in open(os.path.join(d, "all.q")):
            x = line.split()
            if x[0] == "a":
                at.append(float(x[1]))
                av.append(float(x[2]))
        ave = lambda t: av[bisect.bisect_right(at, t) - 1] if at and t >= at[0] else 0.0  # noqa
        split = {"forced": 0, "early": 0, "overflow": 0}
        qlen = 0
        for line in open(os.path.join(d, "all.tr")):
            x = line.split()
            if x[2] != "2" or x[3] != "3":
                continue
            t = float(x[1])
            qlen += {"+": 1, "-": -1, "d": -1}.get(x[0], 0)
            if x[0] == "d" and x[4] == "tcp" and x[7] == "0" and T0 <= t < T1:
                # qlen is now the queue the arrival found (rio.cc: qlen >= qlim_ is an overflow).
                k = "forced" if ave(t) >= MAXTH else ("overflow" if qlen >= LIMIT else "early")
                split[k] += 1
        periods, start = [], None
        for t, v in zip(at, av):
            if v >= MAXTH and start is None:
                start = t
            elif v < MAXTH and start is not None:
                periods.append((start, t))
                start = None
        if start is not None:
            periods.append((start, T1))
    return split, [p for p in periods if T0 <= p[0] < T1]


def ours(seed, mode):
    sc = rio.scenario("notGentle")
    sc = rio.with_mode(sc, mode)
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", rio.EXE, "run", f, "--seed", str(seed), "--out", d, "-q"],
                       check=True)
        q = [r for r in csv.DictReader(open(os.path.join(d, "queues.csv")))
             if r["link"] == "r1->r2"][0]
        fl = {r["flow"]: r for r in csv.DictReader(open(os.path.join(d, "flows.csv")))}
        summ = json.load(open(os.path.join(d, "summary.json")))
    tcp1 = [f for f in summ["flows"] if f["name"] == "tcp1"][0]
    return {"early": int(q["drops_early"]), "forced": int(q["drops_forced"]),
            "overflow": int(q["drops_overflow"]), "out_drops": int(fl["tcp1"]["data_dropped"]),
            "out_timeouts": tcp1["measured"]["timeouts"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    a = ap.parse_args()
    for s in range(1, a.seeds + 1):
        split, periods = ns2(s)
        print(f"seed {s} ns-2.35: Out drops {split}; high periods ({len(periods)}): "
              + " ".join(f"{p[0]:.2f}-{p[1]:.2f}" for p in periods))
        for mode in ("rio.cc", "ns2-rules"):
            print(f"seed {s} qoslab {mode}: link {ours(s, mode)}")


if __name__ == "__main__":
    main()
