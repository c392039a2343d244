#!/usr/bin/env python3
"""Finding 54, session 15 (s15-f64): in ns-2.35's 12-digit traces (s14-f54's build,
bench/ns2/build_s14f54_nack_shift_ns2.sh; `TFRC_TRACE=1 <that ns> probes/tfrc_high_loss.tcl 0.5
SEED sp14 2000 50 > ns12_SEED.tr`, seeds 1..10), which nofeedback expiries follow a packet sent
at the same instant (within 1 us: the packet went first, the expiry's nextpkt() sends a second),
against the last feedback's RTT sample `rcur` (rttcur_) and filtered RTT `rtt` (rtt_): with
`ca_ 1` the send gap is size_/(rate_*sqrtrtt_/sqrt(rttcur_)), shorter when the latest sample is
below the filtered one. Also the distribution of the samples above the base RTT.

usage: python3 s15-f64_rcur.py /tmp/f54/ns12_*.tr
"""
import collections
import sys


def main():
    res = collections.Counter()
    samples = collections.Counter()
    base = None
    for f in sys.argv[1:]:
        prev, fb = None, None
        for ln in open(f):
            w = ln.split()
            if not w or w[0] not in ("TX", "NF", "FB", "RX", "RP"):
                continue
            if w[0] == "FB":
                d = dict(zip(w[2::2], w[3::2]))
                fb = (float(d["rtt"]), float(d["rcur"]))
                base = fb[1] if base is None else min(base, fb[1])
                samples[fb[1]] += 1
            elif w[0] == "NF" and fb is not None:
                first = prev is not None and prev[0] == "TX" and float(w[1]) - float(prev[1]) < 1e-6
                sign = "rcur < rtt" if fb[1] < fb[0] else "rcur > rtt" if fb[1] > fb[0] else "equal"
                res[("packet first" if first else "expiry alone or first", sign)] += 1
            prev = w
    print("| nofeedback expiry | rcur < rtt | equal | rcur > rtt |")
    print("|---|---|---|---|")
    for k in ("packet first", "expiry alone or first"):
        print(f"| {k} | {res[(k, 'rcur < rtt')]} | {res[(k, 'equal')]} | {res[(k, 'rcur > rtt')]} |")
    tot = sum(samples.values())
    above = collections.Counter()
    for v, n in samples.items():
        ns = round((v - base) * 1e9)
        above["base" if ns == 0 else "+1..299 ns" if ns < 300 else "+300..400 ns" if ns <= 400
              else "> +400 ns"] += n
    print(f"\nRTT samples at feedbacks: {tot}, base {base:.12f} s")
    for k in ("base", "+1..299 ns", "+300..400 ns", "> +400 ns"):
        print(f"- {k}: {above[k]} ({above[k] / tot:.4f})")


if __name__ == "__main__":
    main()
