#!/usr/bin/env python3
"""Finding 40 (issue 14, session 12): RFC 4828 B.2's ECN TCP columns. ns-2.35's TCP with
`timestamps_ true` adds `ts_option_size_` = 10 B to every data packet (`TcpAgent::headersize()`;
measured: 64 B on the wire for 14-B segments, 54 B without timestamps), and the byte-mode
ErrorModel marks a packet with a probability that grows with its wire size. Our TCP adds no
bytes for timestamps, so the like-for-like run gives the ECN flows a 50-B header. This runs
ours both ways over seeds 1..N against ns-2.35's checked-in per-seed values
(measured/rfc4828_ecn_ns2.csv, part b2).

usage: python3 bench/ns2/seeds/probes/ecn_ts_header.py [--seeds N] [--rates 1e-05,0.0001,...]
"""
import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import qoslab_run  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
GROUPS = ["ecntcp14", "ecntcp128", "ecntcp512", "ecntcp1460"]


def ours(exe, rate, seed, header):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read()
    old = "loss = { byte = 0.0001, ecn = true }"
    assert old in sc
    sc = sc.replace(old, f"loss = {{ byte = {rate}, ecn = true }}", 1)
    if header:
        sc = sc.replace("timestamps = true", f'timestamps = true\nheader = "{header}"')
    r = qoslab_run.summary(exe, sc, seed)
    g = {}
    for fl in r["flows"]:
        name = re.sub(r"_\d+$", "", fl["name"])
        if name.startswith("ecn"):
            g.setdefault(name, []).append(fl["send_payload_bps"] / 1e3)
    return {k: sum(v) / len(v) for k, v in g.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--rates", default="1e-05,0.0001,0.001,0.005")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    ns2 = {}
    for r in csv.DictReader(open(os.path.join(os.path.dirname(HERE), "measured",
                                              "rfc4828_ecn_ns2.csv"))):
        if r["part"] == "b2" and int(r["seed"]) <= a.seeds:
            ns2.setdefault((r["rate"], r["group"]), []).append(float(r["send_kbps"]))
    print("| b | group | ns-2.35 | ours, 40 B header | ours, 50 B header | ns2_compat, 40 B | "
          "ns2_compat, 50 B |\n|---|---|---|---|---|---|---|")
    for rate in a.rates.split(","):
        runs = {h: [ours(a.qoslab, rate, s, h) for s in range(1, a.seeds + 1)]
                for h in (None, "50B")}
        for g in GROUPS:
            v = ns2[(rate, g)]
            n = sum(v) / len(v)
            cells = []
            for grp in (g, g.replace("ecntcp", "ecnns2tcp")):
                for h in (None, "50B"):
                    x = sum(r[grp] for r in runs[h]) / a.seeds
                    cells.append(f"{x:.2f} ({100 * (x / n - 1):+.1f} %)")
            print(f"| {rate} | {g} | {n:.2f} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} |",
                  flush=True)


if __name__ == "__main__":
    main()
