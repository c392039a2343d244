#!/usr/bin/env python3
"""Finding 14's candidate (issue 14 audit, session 13, branch s13-audit): does a smaller maximum
RTO in ns-2.35 give RFC 4828 Table 6's large-segment TCP rates (1.87 / 3.20 / 5.76 Kb/s for
1460 / 4000 / 8000 B at b = 0.001), which both simulators' 60-s floor misses by 4.5-5.5x?

Runs bench/ns2/seeds/rfc4828_b2.tcl unchanged except `Agent/TCP set maxrto_` (a copy in a
temporary directory), seeds 1..N, and prints ns-2's mean ± 95 % CI per TCP group beside the
published value. ns-2 vs published only: no qoslab run.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s13-audit_maxrto.py [--seeds 10]
           [--maxrto 60,10] [--b 0.001]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import rfc4828_b2  # noqa: E402

TCL = os.path.join(HERE, "..", "rfc4828_b2.tcl")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--maxrto", default="60,10")
    ap.add_argument("--b", default="0.001")
    a = ap.parse_args()
    src = open(TCL).read()
    old = "Agent/TCP set maxrto_ 60\n"
    assert src.count(old) == 1, "rfc4828_b2.tcl's maxrto_ line changed"
    pub = rfc4828_b2.published()
    groups = [f"tcp{s}" for s in rfc4828_b2.TCP_SIZES]
    b = repr(float(a.b))
    print(f"\n### ns-2.35 B.2 TCP at b = {b} with maxrto_ changed, send Kb/s (payload), "
          f"mean ± 95 % CI over seeds 1..{a.seeds}\n")
    print("| group | published | " + " | ".join(f"maxrto_ {m}" for m in a.maxrto.split(",")) + " |")
    print("|" + "---|" * (2 + len(a.maxrto.split(","))))
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for m in a.maxrto.split(","):
            path = os.path.join(d, f"b2_{m}.tcl")
            with open(path, "w") as f:
                f.write(src.replace(old, f"Agent/TCP set maxrto_ {m}\n", 1))
            for s in range(1, a.seeds + 1):
                out = subprocess.run(["nice", "-n", "19", "ns", path, a.b, str(s)], check=True,
                                     capture_output=True, text=True).stdout
                for g, v in re.findall(r"group=(\w+) b=\S+ send_kbps=([0-9.]+)", out):
                    res.setdefault((m, g), []).append(float(v))
    for g in groups:
        p = pub.get((b, g))
        cells = []
        for m in a.maxrto.split(","):
            v = res[(m, g)]
            rel = f" ({100 * (sum(v) / len(v) / p[0] - 1):+.1f} %)" if p else ""
            cells.append(ci.fmt(v, 2) + rel)
        pub_cell = "—" if p is None else f"{p[0]:.2f} ({p[1]})"
        print(f"| {g} | {pub_cell} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
