#!/usr/bin/env python3
"""Finding 54, session 14 (s14-std14): the distribution over flows of packets sent per time bin,
ns-2.35 against our `ns2_compat` + `app_backlog` probe, for one B.1 TFRC group.

Uses s14-f54_bins.py's runners (ns-2: s14-f54_bins.tcl, N flows per run; ours:
`tfrc_high_loss_probe` with TFRC_PROBE_BIN, one flow per seed). Per bin: mean packets per flow,
the fraction of flows with fewer than 1 / 2 / 5 packets in the bin, and the 10/25/50/75/90 %
quantiles of packets per flow. Wire packet size from the group (14 B + 32 B = 46 B, ...).

usage: nice -n 19 python3 s14-std14_dist.py <group> <p> [--flows 800] [--bin 10] [--end 200]
          [--cache DIR] [--off opt,opt] [--ns BINARY]
"""
import argparse
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bins", os.path.join(HERE, "s14-f54_bins.py"))
bins = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bins)

WIRE = {"std14": 46, "sp14": 46, "std200": 232, "sp200": 232, "std1460": 1500}


def q(xs, f):
    s = sorted(xs)
    return s[min(len(s) - 1, int(f * len(s)))]


def rows(side, a):
    path = os.path.join(a.cache, f"{side}_{a.group}_{a.p}_{a.flows}_{a.end}_{a.bin}_{a.off}.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    if side == "ours":
        r = bins.ours(a.group, a.p, a.flows, a.end, a.bin, a.off, {})
    else:
        r = bins.ns2(a.group, a.p, a.flows, 10, a.end, a.bin, a.ns)
    with open(path, "w") as f:
        json.dump(r, f)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--flows", type=int, default=800)
    ap.add_argument("--bin", type=int, default=10)
    ap.add_argument("--end", type=int, default=200)
    ap.add_argument("--cache", default="/tmp/s14std14")
    ap.add_argument("--off", default="")
    ap.add_argument("--ns", default="ns")
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    w = WIRE[a.group]
    sides = {"ns-2.35": rows("ns2", a), "ours": rows("ours", a)}
    print(f"{a.group} p={a.p}, {a.bin}-s bins, packets per flow and bin "
          f"({', '.join(f'{k} {len(v)} flows' for k, v in sides.items())}; off: {a.off or '-'})")
    print("| bin (s) | side | mean | < 1 | < 2 | < 5 | q10 | q25 | q50 | q75 | q90 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    nb = len(next(iter(sides.values()))[0])
    for i in range(nb):
        for name, rs in sides.items():
            pk = [r[i] / w for r in rs]
            n = len(pk)
            fr = [sum(1 for x in pk if x < t) / n for t in (1, 2, 5)]
            qs = " | ".join(f"{q(pk, f):.0f}" for f in (0.1, 0.25, 0.5, 0.75, 0.9))
            print(f"| {i * a.bin}-{(i + 1) * a.bin} | {name} | {sum(pk) / n:.2f} | "
                  f"{fr[0]:.3f} | {fr[1]:.3f} | {fr[2]:.3f} | {qs} |")


if __name__ == "__main__":
    main()
