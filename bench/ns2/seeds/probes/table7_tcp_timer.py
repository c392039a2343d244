#!/usr/bin/env python3
"""Finding 39 (issue 14, session 12): RFC 4828 B.1 Table 7's SACK TCP at high drop rates,
ns-2.35 against our TCP in RFC mode and with `ns2_compat = true` (ns-2's tick-based
retransmission timer and backoff), seeds 1..N each, mean (range) of the ten-flow means.

With `--ci`, mean ± the half-width of the 95 % interval (`ci.py`) and the verdict (5 % bound
or overlapping intervals) instead of the ranges.

usage: python3 bench/ns2/seeds/probes/table7_tcp_timer.py [--seeds N] [--rates 0.1,0.2,...] [--ci]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import qoslab_run  # noqa: E402
import rfc4828_table7 as t  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SCENARIO = os.path.join(ROOT, "scenarios", "rfc4828", "table7", "sack-packet-loss.toml")


def ours(exe, p, seed, ns2):
    sc = open(SCENARIO).read()
    sc = sc.replace("loss = { packet = 0.01 }", f"loss = {{ packet = {p} }}", 1)
    if ns2:
        old = 'clock_granularity = "10ms"'
        assert old in sc
        sc = sc.replace(old, old + "\nns2_compat = true", 1)
    r = qoslab_run.summary(exe, sc, seed)
    v = [f["send_rate_bps"] / 1e3 for f in r["flows"]]
    return sum(v) / len(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--rates", default="0.1,0.2,0.3,0.4,0.5")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    ap.add_argument("--ci", action="store_true")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    print("| p | ns-2.35 | ours RFC | ours `ns2_compat` TCP |\n|---|---|---|---|")
    for p in a.rates.split(","):
        n = [t.ns2(p, s) for s in seeds]
        o = [ours(a.qoslab, p, s, False) for s in seeds]
        c = [ours(a.qoslab, p, s, True) for s in seeds]
        m = sum(n) / len(n)

        def f(v):
            x = sum(v) / len(v)
            if a.ci:
                return f"{ci.fmt(v, 2)} ({ci.rel(n, v)}, {ci.verdict(n, v, 0.05)})"
            return f"{x:.2f} ({100 * (x / m - 1):+.1f} %; {min(v):.2f}..{max(v):.2f})"
        nn = ci.fmt(n, 2) if a.ci else f"{m:.2f} ({min(n):.2f}..{max(n):.2f})"
        print(f"| {p} | {nn} | {f(o)} | {f(c)} |", flush=True)


if __name__ == "__main__":
    main()
