#!/usr/bin/env python3
"""Finding 41 probe (session 13, s13-yellow): ns-2.35's trTCM against ours on ns-2's own
arrivals. Runs s13-yellow_rfc2963_stats.tcl with a trace of the edge links C1 -> ER1 and
C5 -> ER1 (CBS 30 000 B), then colours each link's arrivals ("+" events, where dsRED/edge
meters) three ways: ns-2's own per-code-point counters (the edge's `getStat pkts`), a
replica of ns-2's rule (dsPolicy.cc TRTCMPolicy: tokens cir*dt added in double at each
arrival, capped at CBS/PBS, buckets full at 0; red if Tp < B, else yellow if Tc < B) and
`qoslab condition` with a trTCM stage; prints the counts and the packets where the replica
and ours disagree. The trace's times have 6 decimals (1 us = 0.25..1.25 B of tokens), so a
bucket often holds exactly B bytes: ns-2's double sum may miss such a tie by one ulp where ours
(integer bit*ns tokens) does not; the replica in exact fractions shows it.

    python3 bench/ns2/seeds/probes/s13-yellow_trtcm_replay.py [--seed 1] [--dur 20]
"""
import argparse, os, subprocess, tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
TCL = os.path.join(HERE, "s13-yellow_rfc2963_stats.tcl")
CBS = 30000
# ns-2 node ids in the script: ER1 0, ER2 1, then C(k) = 2k, K(k) = 2k + 1.
LINKS = {1: 2, 5: 10}


def replica(arrivals, cir_bps, cbs, pir_bps, pbs, num=float):
    """ns-2's rule; `num` = float (ns-2's double) or Fraction (exact, as ours)."""
    cir, pir = num(cir_bps) / 8, num(pir_bps) / 8
    cb, pb, last = num(cbs), num(pbs), num(0)
    out = []
    for t, size in arrivals:
        tok = cir * (t - last)
        cb = cb + tok if cb + tok <= cbs else num(cbs)
        tok = pir * (t - last)
        pb = pb + tok if pb + tok <= pbs else num(pbs)
        last = t
        if pb - size < 0:
            out.append("red")
        elif cb - size < 0:
            pb -= size
            out.append("yellow")
        else:
            cb -= size
            pb -= size
            out.append("green")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dur", type=float, default=20.0)
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "edge.tr")
        r = subprocess.run(["nice", "-n", "19", a.ns, TCL, str(CBS), str(a.seed), str(a.dur), "0", "43", tr],
                           cwd=d, stdout=subprocess.PIPE, text=True, check=True)
        counters = {}
        for line in r.stdout.splitlines():
            f = line.split()
            if f and f[0].startswith("S"):
                counters[int(f[0][1:])] = list(map(int, f[1:4]))
        arr = {k: [] for k in LINKS}
        for line in open(tr):
            f = line.split()
            if f[0] == "+" and int(f[3]) == 0:
                for k, node in LINKS.items():
                    if int(f[2]) == node:
                        arr[k].append((f[1], int(f[5])))
        for k, pkts in arr.items():
            cir = 2_000_000 * k
            rep = replica([(float(t), s) for t, s in pkts], cir, CBS, 2 * cir, 2 * CBS)
            exact = replica([(Fraction(t), s) for t, s in pkts], cir, CBS, 2 * cir, 2 * CBS, Fraction)
            trace = os.path.join(d, f"c{k}.csv")
            with open(trace, "w") as w:
                w.write("time,size\n")
                for t, s in pkts:
                    w.write(f"{t},{s}\n")
            chain = os.path.join(d, f"c{k}.toml")
            with open(chain, "w") as w:
                w.write(f'[[stage]]\nkind = "trtcm"\ncir = "{cir}bps"\ncbs = "{CBS}B"\n'
                        f'pir = "{2 * cir}bps"\npbs = "{2 * CBS}B"\n')
            out = os.path.join(d, f"c{k}_out.csv")
            subprocess.run(["nice", "-n", "19", a.qoslab, "condition", "--chain", chain, "--trace", trace,
                            "--out", out], check=True, stderr=subprocess.DEVNULL)
            ours = [line.rstrip("\n").split(",")[-1] for line in open(out)][1:]
            assert len(ours) == len(rep), (len(ours), len(rep))
            cnt = lambda xs: [xs.count(c) for c in ("green", "yellow", "red")]  # noqa: E731
            diff = [i for i in range(len(rep)) if rep[i] != ours[i]]
            xdiff = sum(1 for i in range(len(rep)) if exact[i] != ours[i])
            print(f"C{k} (CIR {cir / 1e6:g} Mb/s), seed {a.seed}, 0..{a.dur:g} s, {len(pkts)} arrivals: "
                  f"green/yellow/red ns-2 counters {counters[k]}, ns-2 replica {cnt(rep)}, "
                  f"qoslab {cnt(ours)}; packets where the double replica and qoslab differ: {len(diff)}, "
                  f"the exact replica and qoslab: {xdiff}")
            for i in diff[:5]:
                print(f"  #{i} t={pkts[i][0]} size={pkts[i][1]}: replica {rep[i]}, qoslab {ours[i]}")


if __name__ == "__main__":
    main()
