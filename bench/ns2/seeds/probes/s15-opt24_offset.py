#!/usr/bin/env python3
"""Finding 54, session 15 (s15-opt24): does ns-2.35's B.1 TFRC rate over a flow's 50..100 s depend
on the absolute simulated clock? ns-2 keeps time in doubles, so the order of two events due at
the same nominal instant (a packet and a nofeedback expiry, computed by different sums) is set by
rounding, whose grain grows with the clock. Runs probes/tfrc_high_loss.tcl (one flow, stock `ns`)
with every start time shifted by T0 seconds (the CBR start, U(0, 1) s as before, plus T0) and the
window at T0 + 50 .. T0 + 100 s: the same flows, the same loss draws per packet, only the clock's
magnitude differs. Prints the send rate (Kb/s, mean ± 95 % CI over seeds, ci.py) per offset and
the difference to offset 0. Per-seed values are kept in /tmp/s15-opt24_offset.csv.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s15-opt24_offset.py std14 0.5 --seeds 1-400 \
           --offsets 0,200,1000,4000 [--window 50-100]
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402

CACHE = "/tmp/s15-opt24_offset.csv"


def script(d):
    src = open(os.path.join(HERE, "tfrc_high_loss.tcl")).read()
    old = '$ns at [$start value] "$cbr start"'
    assert src.count(old) == 1, "tfrc_high_loss.tcl's start line changed"
    src = src.replace(old, 'set t0 $env(TFRC_T0)\n$ns at [expr {$t0 + [$start value]}] "$cbr start"')
    path = os.path.join(d, "tfrc_offset.tcl")
    with open(path, "w") as f:
        f.write(src)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", default="1-400")
    ap.add_argument("--offsets", default="0,200,1000,4000")
    ap.add_argument("--window", default="50-100")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    w0, w1 = (float(x) for x in a.window.split("-"))
    have = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            for g, p, t0, win, s, x in csv.reader(f):
                have[(g, p, t0, win, int(s))] = float(x)
    res = {}
    with tempfile.TemporaryDirectory() as d:
        tcl = script(d)
        for t0 in a.offsets.split(","):
            xs = []
            for s in range(lo, hi + 1):
                k = (a.group, a.p, t0, a.window, s)
                if k not in have:
                    out = subprocess.run(
                        ["nice", "-n", "19", "ns", tcl, a.p, str(s), a.group,
                         str(float(t0) + w1), str(float(t0) + w0)],
                        env=dict(os.environ, TFRC_T0=t0),
                        check=True, capture_output=True, text=True).stdout
                    have[k] = float(re.search(r"send_kbps=([0-9.]+)", out).group(1))
                    with open(CACHE, "a", newline="") as f:
                        csv.writer(f).writerow(list(k) + [f"{have[k]:.6f}"])
                xs.append(have[k])
            res[t0] = xs
    base = res[a.offsets.split(",")[0]]
    print(f"\n### ns-2.35, {a.group} p = {a.p}, one flow per seed, seeds {lo}..{hi}, window "
          f"T0 + {a.window} s, Kb/s\n")
    print("| T0 (s) | ns-2.35 | diff to T0 = first | verdict (5 % or CIs) |")
    print("|---|---|---|---|")
    for t0, xs in res.items():
        print(f"| {t0} | {ci.fmt(xs, 4)} | {ci.rel(base, xs)} | {ci.verdict(base, xs, 0.05)} |")


if __name__ == "__main__":
    main()
