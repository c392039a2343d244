#!/usr/bin/env python3
"""Finding 4: where ns-2.35's RIO queue gets its extra drops and variance. Reads an ns-2
queue trace of the RIO bottleneck (rio_hori2001.tcl's), recomputes the coupled average
(EWMA, w = 0.002, queue before each arrival; idle decay ignored, the queue is rarely empty)
and prints, over [t0, t1): the drops by the average they saw (bins of 20 packets), the
maximum average, and the "stalls": stretches of more than `gap` seconds without any drop,
with the average at their start and end (an early-drop regime at p_b of 0.01-0.1 drops
every 10-100 arrivals, i.e. every 0.6-6 ms at 70 Mb/s).

usage: python3 bench/ns2/seeds/probes/rio_stalls.py TRACE [t0 [t1 [gap]]]
"""
import sys


def main():
    path = sys.argv[1]
    t0 = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    t1 = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    gap = float(sys.argv[4]) if len(sys.argv) > 4 else 0.1
    q, avg, w = 0, 0.0, 0.002
    bins, maxavg, drops = {}, 0.0, []
    seen = 0.0
    for line in open(path):
        f = line.split()
        ev, t = f[0], float(f[1])
        if ev == "+":
            avg = (1 - w) * avg + w * q
            seen = avg
            q += 1
        elif ev == "-":
            q -= 1
        elif ev == "d":
            q -= 1
            if t0 <= t < t1:
                b = int(seen // 20) * 20
                bins[b] = bins.get(b, 0) + 1
                drops.append((t, seen))
        if t0 <= t < t1:
            maxavg = max(maxavg, avg)
    print(f"drops {len(drops)} in [{t0}, {t1}); by average seen (bin start: count): "
          + ", ".join(f"{b}: {n}" for b, n in sorted(bins.items())))
    print(f"maximum average {maxavg:.1f}")
    st = [(a, b) for a, b in zip(drops, drops[1:]) if b[0] - a[0] > gap]
    print(f"stalls (no drop for > {gap} s): {len(st)}, total {sum(b[0] - a[0] for a, b in st):.2f} s; "
          "each: start s, length s, average at its start -> at the next drop")
    for a, b in st:
        print(f"  {a[0]:.3f} {b[0] - a[0]:.3f} {a[1]:.1f} -> {b[1]:.1f}")


if __name__ == "__main__":
    main()
