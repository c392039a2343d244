#!/usr/bin/env python3
"""Finding 41 (session 13, s13-yellow): RFC 2963 App. A without shapers, CBS 30 000 B, yellow
and total Mb/s per LAN, ns-2.35 against qoslab in RFC mode (RFC 6675 SACK) and with ns-2.35's
Sack1 recovery (`sack_pipe = "ns2-sack1"`), mean ± 95 % CI over seeds 1..N and the issue-14
verdict (5 % or overlapping CIs).

ns-2 runs are rfc2963.py's (cached in measured/rfc2963_ns2.csv; missing seeds are run and
added).

    python3 bench/ns2/seeds/probes/s13-yellow_sack1.py [--seeds 40] [--set 'KEY = VALUE' ...]

`--set` replaces the second column's `[defaults.tcp]` addition (default
`sack_pipe = "ns2-sack1"`); give it more than once for several lines.
"""
import argparse, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import rfc2963  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


def ours(exe, cbs, seeds, extra):
    orig = rfc2963.scenario
    rfc2963.scenario = lambda c: orig(c).replace("[defaults.tcp]\n", "[defaults.tcp]\n" + extra)
    try:
        return [rfc2963.run_qoslab(exe, cbs, s) for s in seeds]
    finally:
        rfc2963.scenario = orig


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--cbs", type=int, default=30000)
    ap.add_argument("--set", action="append")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    res = rfc2963.load_results()
    for s in seeds:
        if (a.cbs, s, 1) not in res:
            for k, v in rfc2963.run_ns2(a.cbs, s).items():
                res[(a.cbs, s, k)] = v
            rfc2963.save_results(res)
    extra = "".join(l + "\n" for l in (a.set or ['sack_pipe = "ns2-sack1"']))
    cols = [("RFC mode", ours(a.qoslab, a.cbs, seeds, "")),
            (" / ".join(x.strip() for x in extra.splitlines()), ours(a.qoslab, a.cbs, seeds, extra))]
    print(f"RFC 2963 App. A without shapers, CBS {a.cbs} B, Mb/s over 2..102 s, mean ± 95 % CI "
          f"over seeds 1..{a.seeds}; qoslab − ns-2 and the verdict (5 % or CIs overlap)\n")
    head = ["LAN (CIR)", "colour", "ns-2.35"]
    for name, _ in cols:
        head += [f"qoslab {name}", "− ns-2", "verdict"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for k in range(1, 11):
        for c in ("yellow", "total"):
            def val(d):
                return rfc2963.mbps(sum(d[k][x] for x in rfc2963.COLOURS) if c == "total" else d[k][c])
            nv = [val({k: res[(a.cbs, s, k)]}) for s in seeds]
            cells = [f"C{k} ({2 * ((k - 1) % 5 + 1)})", c, ci.fmt(nv, 3)]
            for _, runs in cols:
                qv = [val(o) for o in runs]
                cells += [ci.fmt(qv, 3), ci.rel(nv, qv), ci.verdict(nv, qv, 0.05)]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
