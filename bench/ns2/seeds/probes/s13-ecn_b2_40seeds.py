#!/usr/bin/env python3
"""Issue 14, session 13 (findings 20 / 40): RFC 4828 B.2's ECN TCP cells (Table 10, configured
byte mark rate b) over N seeds a side, means ± 95 % CI (`ci.py`). ns-2.35 per-seed values are
the cache `measured/rfc4828_ecn_ns2.csv` (part b2), the missing seeds are run with
`rfc4828_b2.tcl <b> <seed> ecn` and added to it; ours is `scenarios/rfc4828/b2-byte-drop.toml`
with its `@loss` line set to b, the `ecnns2tcp<S>` groups (`ns2_compat`), once as checked in
(40 B header) and once with `header = "50B"` on the ECN flows (finding 40: ns-2.35's TCP with
`timestamps_ true` puts 10 more bytes on the wire, and the byte mark rate sees them).

usage: python3 bench/ns2/seeds/probes/s13-ecn_b2_40seeds.py [--seeds 40] [--rates 0.001,0.005]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import rfc4828_ecn  # noqa: E402
from ecn_ts_header import ours  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SIZES = [14, 128, 256, 512, 1460]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--rates", default="0.001,0.005")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    res = rfc4828_ecn.load_results()
    for rate in a.rates.split(","):
        b = rfc4828_ecn.key(rate)
        for s in seeds:
            if ("b2", b, s, "ecntcp14") not in res:
                for g, v in rfc4828_ecn.ns2("b2", rate, s).items():
                    res[("b2", b, s, g)] = v
                rfc4828_ecn.save_results(res)
    print(f"seeds 1..{a.seeds} a side; send rate per flow, Kb/s (payload), mean ± 95 % CI; "
          "verdict: the DONE_WHEN rule (5 % or CIs overlap)\n")
    print("| b | size | ns-2.35 | ns-2 per-seed range | ns2_compat 40 B | vs ns-2 | verdict | "
          "ns2_compat 50 B | vs ns-2 | verdict |\n|---|---|---|---|---|---|---|---|---|---|")
    for rate in a.rates.split(","):
        b = rfc4828_ecn.key(rate)
        runs = {h: [ours(a.qoslab, rate, s, h) for s in seeds] for h in (None, "50B")}
        for size in SIZES:
            n = [res[("b2", b, s, f"ecntcp{size}")] for s in seeds]
            cells = []
            for h in (None, "50B"):
                q = [r[f"ecnns2tcp{size}"] for r in runs[h]]
                cells += [ci.fmt(q, 3), ci.rel(n, q), ci.verdict(n, q, 0.05)]
            print(f"| {rate} | {size} | {ci.fmt(n, 3)} | {min(n):.2f}..{max(n):.2f} | "
                  + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
