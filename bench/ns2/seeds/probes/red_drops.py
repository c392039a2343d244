#!/usr/bin/env python3
"""Per-group early / forced / overflow drops at RED's R1 -> R2 queue of the RFC 4828 B.3/B.4
set-up in ns-2.35 (issue 14, finding 12).

Runs bench/ns2/seeds/rfc4828_b3.tcl with its trace argument (a queue trace of R1 -> R2 and
RED's average at every arrival) and classifies each drop over 50..100 s by the average the
arriving packet saw: >= max_th (2 max_th when gentle) = forced (with use_mark_p_ true, the
*-markp queues, these are drops ns-2 takes through its early-drop code with p_b = 1), waiting
bytes >= the limit = overflow, otherwise early. Groups: long-lived TCP (flow ids 1-5), TFRC-SP (6-10), web (100:
forward pool, 101: reverse pool), split by packet size.

usage: python3 bench/ns2/seeds/probes/red_drops.py <sessions> <queue: red-b|red-p|ared-b[-markp]> <seed> [mss]
"""
import bisect
import collections
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TCL = os.path.join(HERE, "..", "rfc4828_b3.tcl")


def red_arrival_averages(tr):
    """(times, RED averages) of the arrivals in the `.red` sample file beside trace `tr`
    (lines `a <t> <avg>` written by rfc4828_b3.tcl's RED probe)."""
    at, av = [], []
    for line in open(tr + ".red"):
        k, t, v = line.split()
        if k == "a":
            at.append(float(t))
            av.append(float(v))
    return at, av


def group(fid, size):
    if fid <= 5:
        return "tcp"
    if fid <= 10:
        return "tfrc"
    return f"web{fid}/{size}B"


def main():
    n, queue, seed = sys.argv[1], sys.argv[2], sys.argv[3]
    mss = sys.argv[4] if len(sys.argv) > 4 else "1460"
    byte = queue.startswith(("red-b", "ared-b"))
    max_th = 7500.0 if byte else 15.0
    forced_from = 2 * max_th if queue.startswith("ared") else max_th
    limit = 50000 if byte else 100
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        out = subprocess.run(["ns", TCL, n, queue, seed, mss, tr], check=True,
                             capture_output=True, text=True, cwd=d).stdout
        at, av = red_arrival_averages(tr)
        arr = collections.Counter()
        drops = collections.Counter()
        qb = 0  # waiting bytes (or packets) in R1 -> R2's queue
        above = 0.0
        last_t, last_avg = 50.0, None
        for line in open(tr):
            f = line.split()
            ev, t, size, fid = f[0], float(f[1]), int(f[5]), int(f[7])
            unit = size if byte else 1
            if ev == "+":
                qlen_before = qb
                qb += unit
                if t >= 50.0:
                    arr[group(fid, size)] += 1
            elif ev == "-":
                qb -= unit
            elif ev == "d":
                qb -= unit
                if t < 50.0:
                    continue
                i = bisect.bisect_right(at, t) - 1
                avg = av[i] if i >= 0 else 0.0
                if qlen_before >= limit:
                    kind = "overflow"
                elif avg >= forced_from:
                    kind = "forced"
                else:
                    kind = "early"
                drops[(group(fid, size), kind)] += 1
        # time-weighted share of time with avg >= forced_from, and mean avg, over 50..100 s
        i0 = bisect.bisect_right(at, 50.0)
        tot, s_avg = 0.0, 0.0
        for i in range(max(i0, 1), len(at)):
            dt = at[i] - at[i - 1] if at[i - 1] >= 50.0 else at[i] - 50.0
            tot += dt
            s_avg += av[i - 1] * dt
            if av[i - 1] >= forced_from:
                above += dt
    print(out.strip())
    print(f"avg over 50..100 s: mean {s_avg / tot:.1f}, share of time >= {forced_from:g}: "
          f"{above / tot:.3f}")
    groups = sorted(arr)
    print("| group | arrivals | early | forced | overflow | drop rate | forced share |")
    print("|---|---|---|---|---|---|---|")
    for g in groups:
        e, fo, ov = (drops[(g, k)] for k in ("early", "forced", "overflow"))
        tot_d = e + fo + ov
        print(f"| {g} | {arr[g]} | {e} | {fo} | {ov} | {tot_d / arr[g]:.4f} | "
              f"{fo / tot_d if tot_d else 0:.2f} |")
    E = sum(v for (g, k), v in drops.items() if k == "early")
    F = sum(v for (g, k), v in drops.items() if k == "forced")
    O = sum(v for (g, k), v in drops.items() if k == "overflow")
    print(f"all: early {E}, forced {F}, overflow {O}")


if __name__ == "__main__":
    main()
