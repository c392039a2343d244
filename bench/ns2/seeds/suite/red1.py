#!/usr/bin/env python3
"""ns-2.35 test-suite-red.tcl "red1" ported: ns-2.35 | qoslab, means over seeds 1..N.

ns-2: red1.tcl here (the suite's settings, net2, mainSim Reno); qoslab: red1.toml here, once
as written (RFC-mode Reno, which is ns-2.35's Reno) and once with `ns2_compat = true`.
Statistics of r1->r2 over 3..10 s, measured alike (../ns2trace.py for ns-2): queue seen by
arrivals (mean, std, empty fraction, p90), throughput, drops; per-flow packets acked (ns-2
`ack_` at 10 s) against our delivered data packets... are not comparable one to one, so the
flows' shares are compared as tcp1's fraction of the bottleneck's departures instead.

usage: python3 bench/ns2/seeds/suite/red1.py [--seeds N]
ns-2 per-run values: bench/ns2/seeds/measured/suite_red1_ns2.csv.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
ROOT = os.path.abspath(os.path.join(SEEDS_DIR, "..", "..", ".."))
sys.path.insert(0, SEEDS_DIR)
import ns2trace  # noqa: E402

RESULTS = os.path.join(SEEDS_DIR, "measured", "suite_red1_ns2.csv")
COLS = ["ql_ave", "ql_std", "ql_zero", "ql_p90", "throughput", "drops"]


def ns2(seed):
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        subprocess.run(["nice", "ns", os.path.join(HERE, "red1.tcl"), str(seed), tr], check=True,
                       cwd=d, stdout=subprocess.DEVNULL)
        st = ns2trace.stats(tr, 3.0, 10.0)
    return {c: float(st[c]) for c in COLS}


def ours(exe, seed, compat):
    sc = open(os.path.join(HERE, "red1.toml")).read()
    if compat:
        sc = sc.replace('variant = "reno"', 'variant = "reno"\nns2_compat = true')
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        q = [r for r in csv.DictReader(open(os.path.join(d, "queues.csv"))) if r["link"] == "r1->r2"][0]
    return {"ql_ave": float(q["ql_mean"]), "ql_std": float(q["ql_std"]),
            "ql_zero": float(q["ql_p_empty"]), "ql_p90": float(q["ql_p90"]),
            "throughput": float(q["throughput_bps"]) / 1e6,
            "drops": float(q["drops_early"]) + float(q["drops_forced"]) + float(q["drops_overflow"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    n = {s: ns2(s) for s in seeds}
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["seed"] + COLS)
        for s in seeds:
            w.writerow([s] + [f"{n[s][c]:.6f}" for c in COLS])
    o = {s: ours(a.qoslab, s, False) for s in seeds}
    oc = {s: ours(a.qoslab, s, True) for s in seeds}
    print(f"\n### test-suite-red red1 (r1->r2, 3..10 s; mean of seeds 1..{a.seeds}, ranges)\n")
    print("| column | ns-2.35 | ns-2 range | qoslab | qoslab range | qoslab - ns-2 | "
          "qoslab ns2_compat | ns2_compat - ns-2 |")
    print("|" + "---|" * 8)
    for c in COLS:
        nv, ov, cv = ([d[s][c] for s in seeds] for d in (n, o, oc))
        nm, om, cm = (sum(v) / len(v) for v in (nv, ov, cv))

        def d(x):
            return f"{x - nm:+.3f}" + (f" ({100 * (x - nm) / nm:+.1f}%)" if nm else "")
        print(f"| {c} | {nm:.3f} | {min(nv):.3f}..{max(nv):.3f} | {om:.3f} | "
              f"{min(ov):.3f}..{max(ov):.3f} | {d(om)} | {cm:.3f} | {d(cm)} |")


if __name__ == "__main__":
    main()
