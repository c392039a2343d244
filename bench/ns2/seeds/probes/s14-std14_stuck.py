#!/usr/bin/env python3
"""Finding 54, session 14 (s14-std14): flows of one B.1 TFRC group that start "stuck" (a
silence of at least 10 s beginning within the first 5 s), ns-2.35 against our probe, from
1-s bins of s14-f54_bins.py's runners: how many, when their silence ends, and the mean send
rate of stuck and other flows by window.

usage: nice -n 19 python3 s14-std14_stuck.py <group> <p> [--flows 800] [--off opt,opt]
"""
import argparse
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bins", os.path.join(HERE, "s14-f54_bins.py"))
bins = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bins)
WIRE = {"std14": 46, "sp14": 46, "std200": 232, "sp200": 232, "std1460": 1500}


def first_silence(pk, start_by=5, length=10):
    i = 1
    while i < len(pk):
        if pk[i] == 0:
            j = i
            while j < len(pk) and pk[j] == 0:
                j += 1
            if j - i >= length and i <= start_by:
                return i, j
            i = j
        else:
            i += 1
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--flows", type=int, default=800)
    ap.add_argument("--off", default="")
    a = ap.parse_args()
    w = WIRE[a.group]
    sides = {"ns-2.35": bins.ns2(a.group, a.p, a.flows, 10, 200, 1, "ns"),
             "ours": bins.ours(a.group, a.p, a.flows, 200, 1, a.off, {})}
    print(f"{a.group} p={a.p}, {a.flows} flows a side (off: {a.off or '-'})")
    print("| side | stuck early | silence ends q25 / q50 / q75 / q90 (s) | flows with a >= 20 s "
          "silence after 10 s | Kb/s stuck / other: 0-10 | 10-50 | 50-100 | 100-150 | 150-200 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rows in sides.items():
        pks = [[x // w for x in r] for r in rows]
        st = [first_silence(pk) for pk in pks]
        ends = sorted(s[1] for s in st if s)
        qs = " / ".join(str(ends[int(f * len(ends))]) for f in (0.25, 0.5, 0.75, 0.9)) if ends else "-"
        late = 0
        for pk in pks:
            run, hit = 0, False
            for x in pk[10:]:
                run = run + 1 if x == 0 else 0
                hit = hit or run >= 20
            late += hit
        ids_s = [k for k, s in enumerate(st) if s]
        ids_o = [k for k, s in enumerate(st) if not s]

        def rate(ids, lo, hi):
            return sum(sum(rows[k][lo:hi]) for k in ids) / len(ids) / (hi - lo) * 8 / 1000 if ids else 0

        cells = " | ".join(f"{rate(ids_s, lo, hi):.3f} / {rate(ids_o, lo, hi):.3f}"
                           for lo, hi in ((0, 10), (10, 50), (50, 100), (100, 150), (150, 200)))
        print(f"| {name} | {len(ids_s)} ({len(ids_s) / len(rows):.3f}) | {qs} | {late} | {cells} |")


if __name__ == "__main__":
    main()
