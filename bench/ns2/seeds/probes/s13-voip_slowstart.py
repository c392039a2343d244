#!/usr/bin/env python3
"""Finding 38, session 13 (branch s13-voip): where our `ns2_compat` TFRC-SP in the friendly
suite's `voip` (ns-2 with `ca_ 0`) loses its extra packets. Both simulators traced per event:
ns-2.35 built by bench/ns2/build_s13voip_trace_ns2.sh (TFRC_TRACE), ours by a binary built
from the tree with s13-voip_trace.patch applied (QTRACE; apply, `cargo build --release -p
qoslab`, copy target/release/qoslab, revert). Per variant, means of seeds 1..N:
  - packets sent by 5, 6, .., 19.9 s and the time of the first feedback with p > 0 (the
    slow-start exit);
  - drops at r1 -> r2 split into buffer overflows (queue at its 50-packet limit) and RED's
    early drops (ns-2: from a trace-queue of r1 -> r2, the queue before each `d`; ours: the
    run's summary.json);
  - over 9..20 s: feedbacks, the sender's R and R_sample, p, X and X_recv (packets/s), the
    report spacing;
and, with --seed S, seed S's feedback intervals: rate at the feedback, packets sent until the
next one and their rate (the slow-start ramp of ns-2's `slow_increase_`).

ns-2 runs seeds/probes/suite_friendly_voip_red.tcl (the suite's test with a queue trace) on a
copy of test-suite-friendly.tcl edited as suite_friendly_ca.py does (`ca_ 0`).

usage: python3 bench/ns2/seeds/probes/s13-voip_slowstart.py --ns2 NS --ours QOSLAB
       [--seeds N] [--seed S]
Writes nothing (temporary directories).
"""
import argparse
import json
import os
import shutil
import statistics as st
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SEEDS, "suite"))
sys.path.insert(0, HERE)
import suite_friendly_ca  # noqa: E402
import suiteref  # noqa: E402

T = [5, 6, 7, 7.5, 8, 8.5, 9, 10, 12, 15, 19.9]


def ns2_queue(path):
    """Drops at r1 -> r2 (nodes 2 -> 3) by kind: overflow when 50 packets wait."""
    q, over, early = 0, 0, 0
    for line in open(path):
        x = line.split()
        if len(x) < 6 or x[2] != "2" or x[3] != "3" or x[0] not in "+-d":
            continue
        if x[0] == "+":
            q += 1
        else:
            q -= 1
            if x[0] == "d":
                if q >= 50:
                    over += 1
                else:
                    early += 1
    return over, early


def parse(path):
    fb, rp, tx = [], [], []
    for line in open(path):
        x = line.split()
        if not x:
            continue
        if x[0] == "FB":
            fb.append({"t": float(x[1]), "p": float(x[3]), "xr": float(x[5]),
                       "rtt": float(x[7]), "rcur": float(x[9]),
                       "rate": float(x[x.index("rate") + 1])})
        elif x[0] == "RP":
            rp.append(float(x[1]))
        elif x[0] == "TX":
            tx.append(float(x[1]))
    return fb, rp, tx


def summary(fb, rp, tx, lo=9.0, hi=20.0):
    f = [r for r in fb if lo <= r["t"] < hi]
    gaps = [b - a for a, b in zip(rp, rp[1:]) if a >= lo]
    m = {f"sent<{t}": sum(1 for a in tx if a < t) for t in T}
    m["exit"] = next((r["t"] for r in fb if r["p"] > 0), float("nan"))
    m.update(feedbacks=len(f), R=st.mean(r["rtt"] for r in f),
             R_sample=st.mean(r["rcur"] for r in f), p=st.mean(r["p"] for r in f),
             X=st.mean(r["rate"] for r in f) / 120, X_recv=st.mean(r["xr"] for r in f),
             report_gap=st.mean(gaps))
    return m


def intervals(fb, tx, until=9.5):
    for a, b in zip(fb, fb[1:]):
        if a["t"] > until:
            break
        n = sum(1 for t in tx if a["t"] <= t < b["t"])
        print(f"  {a['t']:6.2f}-{b['t']:6.2f}  X {a['rate'] / 120:6.1f} pkt/s  sent {n:3d}"
              f" = {n / (b['t'] - a['t']):6.1f} pkt/s")


def run_ns2(ns, seed, d):
    for f in ("test-suite-friendly.tcl", "misc_simple.tcl", "support.tcl"):
        shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
    shutil.copy(os.path.join(HERE, "suite_friendly_voip_red.tcl"), d)
    p = os.path.join(d, "test-suite-friendly.tcl")
    s = open(p).read()
    old, new = suite_friendly_ca.EDITS["voip"]
    assert s.count(old) == 1
    open(p, "w").write(s.replace(old, new))
    env = dict(os.environ, TFRC_TRACE="1")
    r = subprocess.run(["nice", "-n", "19", ns, "suite_friendly_voip_red.tcl", str(seed), "0"],
                       cwd=d, capture_output=True, text=True, env=env)
    open(os.path.join(d, "trace.txt"), "w").write(r.stderr)
    fb, rp, tx = parse(os.path.join(d, "trace.txt"))
    m = summary(fb, rp, tx)
    m["overflow"], m["early"] = ns2_queue(os.path.join(d, "qtrace.tr"))
    return m, fb, tx


def run_ours(bin_, seed, d):
    src = os.path.join(SEEDS, "suite", "voip.toml")
    text = open(src).read().replace('kind = "tfrc"\n', 'kind = "tfrc"\nns2_compat = true\n', 1)
    toml = os.path.join(d, "voip.toml")
    open(toml, "w").write(text)
    env = dict(os.environ, QTRACE="1")
    r = subprocess.run(["nice", "-n", "19", bin_, "run", toml, "--seed", str(seed), "--out",
                        os.path.join(d, "out")], capture_output=True, text=True, env=env)
    open(os.path.join(d, "trace.txt"), "w").write(r.stderr)
    fb, rp, tx = parse(os.path.join(d, "trace.txt"))
    m = summary(fb, rp, tx)
    q = json.load(open(os.path.join(d, "out", "summary.json")))["queues"][0]["total"]["drops"]
    m["overflow"], m["early"] = q[0][0], q[1][0]
    return m, fb, tx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ns2", required=True)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    res = {"ns-2.35 ca_ 0": [], "ours ns2_compat": []}
    for seed in range(1, a.seeds + 1):
        for name, fn, b in (("ns-2.35 ca_ 0", run_ns2, a.ns2), ("ours ns2_compat", run_ours, a.ours)):
            with tempfile.TemporaryDirectory() as d:
                m, fb, tx = fn(b, seed, d)
            res[name].append(m)
            if seed == a.seed:
                print(f"{name}, seed {seed}: feedback intervals")
                intervals(fb, tx)
    names = list(res)
    print(f"\n| seeds 1..{a.seeds} (mean) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for k in res[names[0]][0]:
        print(f"| {k} | " + " | ".join(f"{st.mean(m[k] for m in res[n]):.3f}" for n in names) + " |")


if __name__ == "__main__":
    main()
