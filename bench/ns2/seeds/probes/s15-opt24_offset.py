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
       nice -n 19 python3 bench/ns2/seeds/probes/s15-opt24_offset.py cell 0.5 --seeds 1-400 \
           --offsets 300 [--groups std14,std1460]
  cell: the whole B.1 cell (rfc4828_b1_tfrc.tcl, five groups of ten flows) with its CBR starts and
  its 50..100-s window shifted by T0; offset 0 is taken from s14-start2's per-seed values
  (measured/s14-start2_cell_ns2.csv), which are that script unshifted.
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


def cell_script(d):
    src = open(os.path.join(HERE, "..", "rfc4828_b1_tfrc.tcl")).read()
    for old, new in (('$ns at [$start value] "$cbr start"',
                      '$ns at [expr {$t0 + [$start value]}] "$cbr start"'),
                     ('$ns at 50.0 "mark"', '$ns at [expr {$t0 + 50.0}] "mark"'),
                     ('$ns at 100.0 "done"', '$ns at [expr {$t0 + 100.0}] "done"')):
        assert src.count(old) == 1, f"rfc4828_b1_tfrc.tcl changed: {old}"
        src = src.replace(old, new)
    src = src.replace("set A [$ns node]", "set t0 $env(TFRC_T0)\nset A [$ns node]", 1)
    path = os.path.join(d, "b1_offset.tcl")
    with open(path, "w") as f:
        f.write(src)
    return path


def cell(a):
    lo, hi = (int(x) for x in a.seeds.split("-"))
    groups = a.groups.split(",")
    have = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            for g, p, t0, win, s, x in csv.reader(f):
                have[(g, p, t0, win, int(s))] = float(x)
    with open(os.path.join(HERE, "..", "measured", "s14-start2_cell_ns2.csv")) as f:
        for variant, p, s, g, x in csv.reader(f):
            if variant == "all":
                have[("cell:" + g, p, "0", "50-100", int(s))] = float(x)
    res = {}
    with tempfile.TemporaryDirectory() as d:
        tcl = cell_script(d)
        for t0 in ["0"] + [t for t in a.offsets.split(",") if t != "0"]:
            for s in range(lo, hi + 1):
                if ("cell:std14", a.p, t0, "50-100", s) not in have:
                    out = subprocess.run(["nice", "-n", "19", "ns", tcl, a.p, str(s)],
                                         env=dict(os.environ, TFRC_T0=t0), check=True,
                                         capture_output=True, text=True).stdout
                    got = {m.group(1): float(m.group(2)) for m in
                           re.finditer(r"group=(\w+) p=\S+ send_kbps=([0-9.]+)", out)}
                    with open(CACHE, "a", newline="") as f:
                        for g, x in got.items():
                            have[("cell:" + g, a.p, t0, "50-100", s)] = x
                            csv.writer(f).writerow(["cell:" + g, a.p, t0, "50-100", s, f"{x:.6f}"])
            res[t0] = {g: [have[("cell:" + g, a.p, t0, "50-100", s)] for s in range(lo, hi + 1)]
                       for g in groups}
    print(f"\n### ns-2.35, the B.1 cell at p = {a.p} shifted by T0, seeds {lo}..{hi}, window "
          f"T0 + 50..100 s, Kb/s\n")
    print("| group | T0 (s) | ns-2.35 | diff to T0 = 0 | verdict (5 % or CIs) |")
    print("|---|---|---|---|---|")
    for g in groups:
        for t0, r in res.items():
            print(f"| {g} | {t0} | {ci.fmt(r[g], 4)} | {ci.rel(res['0'][g], r[g])} | "
                  f"{ci.verdict(res['0'][g], r[g], 0.05)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", default="1-400")
    ap.add_argument("--offsets", default="0,200,1000,4000")
    ap.add_argument("--window", default="50-100")
    ap.add_argument("--groups", default="std14,std1460,sp14,sp200,std200")
    a = ap.parse_args()
    if a.group == "cell":
        return cell(a)
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
