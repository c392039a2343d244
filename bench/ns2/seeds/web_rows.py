#!/usr/bin/env python3
"""Issue 14, DONE_WHEN.md section 5 item 3 (session 12): the B.3/B.4 web rows that were outside
the bounds on 3 seeds, re-run like for like (`<queue>-mw`: ns-2's TCP start-up matched to ours,
finding 17, and fresh initial windows on its recycled web agents, finding 22) over more seeds,
as mean ± 95 % CI (ci.py). Each row is rfc4828_b3.py's (same scripts, same mapping, ns-2's
test-suite-webtraf.tcl objects as in sections 8-11; ns-2 runs cached in
measured/rfc4828_b3_ns2.csv), only the summary differs.

--objects webtcl: web.tcl's objects on both sides (section 12; ns-2 runs cached in
measured/rfc4828_b3_s8web_ns2.csv). With --compat, a second qoslab column runs the TFRC-SP flows with `ns2_compat = true` (ns-2's
TFRC rules, finding 31).

usage: python3 bench/ns2/seeds/web_rows.py --rows 50000B-mw:1460:25,red-p-mw:1460:100 [--seeds 10]
           [--compat] [--objects ns2suite|webtcl]
"""
import argparse
import os

import ci
import qoslab_run
import rfc4828_b3

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def ours_compat(exe, queue, mss, n, seed, objects="ns2suite"):
    """rfc4828_b3.ours() with the TFRC-SP flows in ns2_compat."""
    sc = rfc4828_b3.scenario(queue, mss, n, "segment", objects)
    old = 'variant = "sp"  # @variant\n'
    if sc.count(old) != 1:
        raise SystemExit("@variant line not found; update web_rows.py")
    sc = sc.replace(old, old + "ns2_compat = true\n", 1)
    return rfc4828_b3.group_rates(qoslab_run.summary(exe, sc, seed))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", required=True, help="queue:mss:sessions,...")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--compat", action="store_true")
    ap.add_argument("--objects", default="ns2suite", choices=sorted(rfc4828_b3.OBJECTS))
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    rows = [(q, int(m), int(n)) for q, m, n in (r.split(":") for r in a.rows.split(","))]
    seeds = range(1, a.seeds + 1)
    path = rfc4828_b3.RESULTS if a.objects == "ns2suite" else rfc4828_b3.RESULTS_WEBTCL
    res = rfc4828_b3.load_results(path)
    for q, m, n in rows:
        for s in seeds:
            if (q, m, n, s) not in res:
                res[(q, m, n, s)] = rfc4828_b3.ns2(q, m, n, s, a.objects)
                rfc4828_b3.save_results(res, path)
    print(f"\n### B.3/B.4 web rows, ns-2 `-mw` vs qoslab: mean ± 95 % CI over seeds 1..{a.seeds} "
          f"({a.objects} objects)\n")
    hdr = ["queue, MSS, sessions", "column", "ns-2.35", "qoslab", "qoslab − ns-2", "verdict"]
    if a.compat:
        hdr += ["qoslab `ns2_compat` TFRC-SP", "− ns-2", "verdict"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for q, m, n in rows:
        ours = [rfc4828_b3.ours(a.qoslab, q, m, n, s, "segment", a.objects) for s in seeds]
        comp = ([ours_compat(a.qoslab, q, m, n, s, a.objects) for s in seeds] if a.compat
                else None)
        for c in rfc4828_b3.COLS:
            nv = [res[(q, m, n, s)][c] for s in seeds]
            qv = [x[c] for x in ours]
            dec = 2 if "kbps" in c else 4
            bound = 0.05 if "kbps" in c else 0.10
            cells = [f"{q}, {m}, {n}", c, ci.fmt(nv, dec), ci.fmt(qv, dec), ci.rel(nv, qv),
                     ci.verdict(nv, qv, bound)]
            if comp:
                cv = [x[c] for x in comp]
                cells += [ci.fmt(cv, dec), ci.rel(nv, cv), ci.verdict(nv, cv, bound)]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
