#!/usr/bin/env python3
"""Evidence for the `rto_ssthresh` default (issue 14, finding 11): each mode of
`[defaults.tcp] rto_ssthresh` on the runs where a timeout during loss recovery matters.

  1. RIO Table 2 (base.toml, AF12 = (60, 200, 1/den, 0.002), RFC-mode TCP), NewReno and SACK,
     seeds 1..3: G1 -> G2 throughput, queue std, total TCP timeouts; beside ns-2.35's values
     from measured/rio_hori2001_ns2.csv (same cells, same seeds, ns-2's own TCP).
  2. The bench dumbbells (scenarios/bench/dumbbell-{red,droptail}.toml, 20 NewReno / SACK
     flows, seed 1): goodput, bottleneck drops, timeouts, and drops in the first 2 s.

usage: python3 bench/ns2/seeds/probes/rto_ssthresh.py [--seeds 3] [--dens 10,20,50,100] [--sack-dens 50]
       [--modes flight-size,keep-in-recovery,min-kept-flight-size] [--part rio,bench]
Sequential (one core). Prints markdown tables.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
ROOT = os.path.abspath(os.path.join(SEEDS_DIR, "..", "..", ".."))
EXE = os.environ.get("QOSLAB", os.path.join(ROOT, "target", "release", "qoslab"))
NS2 = os.path.join(SEEDS_DIR, "measured", "rio_hori2001_ns2.csv")
TCP_NAMES = {"Newreno": "newreno", "Sack": "sack", "Reno": "reno"}


def set_mode(sc, mode):
    """Adds `rto_ssthresh = mode` to the scenario's [defaults.tcp]."""
    assert "[defaults.tcp]\n" in sc
    return sc.replace("[defaults.tcp]\n", f'[defaults.tcp]\nrto_ssthresh = "{mode}"\n', 1)


def run(sc, seed, link, extra=()):
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", EXE, "run", f, "--seed", str(seed), "--out", d, "-q", *extra],
                       check=True, cwd=ROOT)
        q = None
        with open(os.path.join(d, "queues.csv")) as fh:
            for row in csv.DictReader(fh):
                if row["link"] == link:
                    q = row
        with open(os.path.join(d, "summary.json")) as fh:
            r = json.load(fh)
        # timeouts over the whole run (the `total` counters), goodput over the measured span
        timeouts = sum(f["total"]["timeouts"] for f in r["flows"])
        goodput = sum(f["goodput_bps"] for f in r["flows"])
        return q, timeouts, goodput


def rio(a):
    base = open(os.path.join(ROOT, "scenarios", "rio-hori2001", "base.toml")).read()
    old_out = "out = { min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 } }"
    assert old_out in base
    ns2 = {}
    for row in csv.DictReader(open(NS2)):
        ns2[row["run"]] = row
    print("| tcp | maxp | column | ns-2.35 | " + " | ".join(a.modes) + " |")
    print("|---|---|---|---|" + "---|" * len(a.modes))
    for tcp, dens in (("Newreno", a.dens), ("Sack", a.sack_dens)):
        for den in dens:
            sc0 = base.replace(old_out, f"out = {{ min_th = 60, max_th = 200, "
                               f"max_p = {1.0 / den!r}, w_q = 0.002 }} }}")
            sc0 = sc0.replace('variant = "reno"', f'variant = "{TCP_NAMES[tcp]}"')
            sc0 = sc0.replace("ns2_compat = true", "ns2_compat = false")
            res = {}
            for m in a.modes:
                sc = set_mode(sc0, m)
                res[m] = [run(sc, s, "G1->G2") for s in range(1, a.seeds + 1)]
            n2 = [ns2.get(f"{tcp} 60 200 1/{den} 0.002 seed={s} dur=20")
                  for s in range(1, a.seeds + 1)]

            def cell(rs, f):
                return "/".join(f(r) for r in rs)
            thr = {m: cell(res[m], lambda r: f"{float(r[0]['throughput_bps']) / 1e6:.1f}")
                   for m in a.modes}
            std = {m: cell(res[m], lambda r: f"{float(r[0]['ql_std']):.1f}") for m in a.modes}
            to = {m: cell(res[m], lambda r: str(r[1])) for m in a.modes}
            n2t = cell(n2, lambda r: f"{float(r['throughput']):.1f}" if r else "—")
            n2s = cell(n2, lambda r: f"{float(r['ql_std']):.1f}" if r else "—")
            for col, d, n in (("throughput", thr, n2t), ("ql_std", std, n2s),
                              ("timeouts", to, "—")):
                print(f"| {tcp} | 1/{den} | {col} | {n} | "
                      + " | ".join(d[m] for m in a.modes) + " |")
            sys.stdout.flush()


def drops(q):
    return sum(int(q[k]) for k in ("drops_overflow", "drops_early", "drops_forced"))


def bench(a):
    print("| scenario | variant | column | " + " | ".join(a.modes) + " |")
    print("|---|---|---|" + "---|" * len(a.modes))
    for q in ("red", "droptail"):
        base = open(os.path.join(ROOT, "scenarios", "bench", f"dumbbell-{q}.toml")).read()
        for v in ("newreno", "sack"):
            sc0 = base.replace('variant = "newreno"', f'variant = "{v}"')
            res = {}
            for m in a.modes:
                sc = set_mode(sc0, m)
                full = run(sc, 1, "G1->G2")
                early = run(re.sub(r'duration = "20s"', 'duration = "2s"', sc), 1, "G1->G2")
                res[m] = (full, early)
            rows = [("goodput Mb/s", lambda r: f"{r[0][2] / 1e6:.2f}"),
                    ("bottleneck drops", lambda r: str(drops(r[0][0]))),
                    ("timeouts", lambda r: str(r[0][1])),
                    ("drops 0..2 s", lambda r: str(drops(r[1][0]))),
                    ("timeouts 0..2 s", lambda r: str(r[1][1]))]
            for name, f in rows:
                print(f"| {q} | {v} | {name} | " + " | ".join(f(res[m]) for m in a.modes)
                      + " |")
            sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dens", default="10,20,50,100", help="NewReno's max_p denominators")
    ap.add_argument("--sack-dens", default="50", help="SACK's")
    ap.add_argument("--modes", default="flight-size,keep-in-recovery,min-kept-flight-size")
    ap.add_argument("--part", default="rio,bench")
    a = ap.parse_args()
    a.dens = [int(x) for x in a.dens.split(",")]
    a.sack_dens = [int(x) for x in a.sack_dens.split(",") if x]
    a.modes = a.modes.split(",")
    if "rio" in a.part:
        rio(a)
    if "bench" in a.part:
        bench(a)


if __name__ == "__main__":
    main()
