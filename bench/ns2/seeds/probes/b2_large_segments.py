#!/usr/bin/env python3
"""B.2 SACK TCP groups whose packets are lost at 25-55 % (b = 1e-4: 4000 / 8000 B, packet drop
rates 0.34 / 0.56; b = 0.001: 256 / 512 B, 0.25 / 0.44; issue 14 session 12, finding 42): our
send rate and timeouts per flow with ns-2's TCP rules switched on one by one, against ns-2.35's
10 seeds in measured/fewloss_ns2.csv (fewloss.py --part b2, which also records ns-2's
timeouts per flow). Options (all off by default in qoslab):
`ns2_compat` (ns-2's timer: integer ticks, backoff to 64x, SRTT discarded past 8x),
`rto_ssthresh = "ns2-half-window"` (ssthresh = max(cwnd/2, 2) at every timeout),
`sack_pipe = "ns2-sack1"` (ns-2's Sack1 recovery).

usage: python3 bench/ns2/seeds/probes/b2_large_segments.py [--seeds 10] [--b 0.0001]
           [--groups tcp4000,tcp8000]
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import fewloss  # noqa: E402
import qoslab_run  # noqa: E402

ROOT = fewloss.ROOT
VARIANTS = {
    "default": "",
    "ns2_compat": "ns2_compat = true\n",
    "ns2-half-window": 'rto_ssthresh = "ns2-half-window"\n',
    "ns2-sack1": 'sack_pipe = "ns2-sack1"\n',
    "all three": 'ns2_compat = true\nrto_ssthresh = "ns2-half-window"\nsack_pipe = "ns2-sack1"\n',
}


def scenario(b, extra, groups):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read()
    old = "loss = { byte = 0.0001, ecn = true }"
    assert old in sc
    sc = sc.replace(old, f"loss = {{ byte = {b}, ecn = true }}", 1)
    for g in groups:
        # the group's own [[flow]] block (the ECN groups have the same segment sizes)
        head = f'name = "{g}_{{i}}"\n'
        line = f'mss = "{g[3:]}B"\n'
        i = sc.index(head)
        j = sc.index(line, i)
        assert "[[flow]]" not in sc[i:j], g
        sc = sc[:j] + line + extra + sc[j + len(line):]
    return sc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--b", default="0.0001")
    ap.add_argument("--groups", default="tcp4000,tcp8000")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    b = repr(float(a.b))
    groups = a.groups.split(",")
    seeds = range(1, a.seeds + 1)
    res = fewloss.load()
    print(f"\n### B.2 b = {b}: send rate per flow (Kb/s, payload) and retransmission timeouts per "
          f"flow (50..100 s), mean ± 95 % CI over seeds 1..{a.seeds}\n")
    hdr = ["TCP rules"]
    for g in groups:
        hdr += [f"{g} send", "vs ns-2", f"{g} timeouts"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    ns = {g: [res[("b2", b, s, f"{g}_send")] for s in seeds] for g in groups}
    row = ["ns-2.35"]
    for g in groups:
        to = [res.get(("b2", b, s, f"{g}_timeouts")) for s in seeds]
        row += [ci.fmt(ns[g], 2), "", "—" if None in to else ci.fmt(to, 1)]
    print("| " + " | ".join(row) + " |")
    for name, extra in VARIANTS.items():
        send = {g: [] for g in groups}
        to = {g: [] for g in groups}
        for s in seeds:
            r = qoslab_run.summary(a.qoslab, scenario(b, extra, groups), s)
            for g in groups:
                fl = [f for f in r["flows"] if re.fullmatch(g + r"_\d+", f["name"])]
                send[g].append(sum(f["send_payload_bps"] for f in fl) / len(fl) / 1e3)
                to[g].append(sum(f["measured"]["timeouts"] for f in fl) / len(fl))
        row = [f"qoslab {name}"]
        for g in groups:
            row += [ci.fmt(send[g], 2), ci.rel(ns[g], send[g]), ci.fmt(to[g], 1)]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
