#!/usr/bin/env python3
"""RFC 4828 App. B.1, Table 7's TCP (SACK) column: published | ns-2.35 | qoslab per drop rate.

usage: python3 bench/ns2/seeds/rfc4828_table7.py [--seeds N] [--qoslab PATH]

ns-2: bench/ns2/seeds/rfc4828_table7_tcp.tcl (ErrorModel on the bottleneck); qoslab:
scenarios/rfc4828/table7/sack-packet-loss.toml with its `loss` line set to each rate. Both:
mean send rate per flow (Kb/s, 1500-B packets, retransmissions included) over 50..100 s,
mean of seeds 1..N.
"""
import argparse
import csv
import os
import re
import subprocess

import qoslab_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def ns2(p, seed):
    out = subprocess.run(["nice", "ns", os.path.join(HERE, "rfc4828_table7_tcp.tcl"), p, str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"send_kbps=([0-9.]+)", out).group(1))


def ours(exe, p, seed):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "table7", "sack-packet-loss.toml")).read()
    assert "loss = { packet = 0.01 }" in sc
    sc = sc.replace("loss = { packet = 0.01 }", f"loss = {{ packet = {p} }}", 1)
    r = qoslab_run.summary(exe, sc, seed)
    rates = [fl["send_rate_bps"] / 1e3 for fl in r["flows"]]
    return sum(rates) / len(rates)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    rows = [l for l in open(os.path.join(ROOT, "data", "rfc4828", "table7.csv"))
            if not l.startswith("#")]
    rd = csv.reader(rows)
    next(rd)
    print(f"\n### RFC 4828 Table 7, TCP (SACK) send rate per flow, Kb/s (mean of seeds 1..{a.seeds})\n")
    print("| drop rate | published | ns-2.35 | qoslab | qoslab - ns-2 | published - ns-2 |")
    print("|---|---|---|---|---|---|")
    for row in rd:
        p, pub = row[0], float(row[1])
        n = sum(ns2(p, s) for s in range(1, a.seeds + 1)) / a.seeds
        q = sum(ours(a.qoslab, p, s) for s in range(1, a.seeds + 1)) / a.seeds
        print(f"| {p} | {pub:.2f} | {n:.2f} | {q:.2f} | {q - n:+.2f} ({100 * (q - n) / n:+.1f}%) "
              f"| {pub - n:+.2f} ({100 * (pub - n) / n:+.1f}%) |")


if __name__ == "__main__":
    main()
