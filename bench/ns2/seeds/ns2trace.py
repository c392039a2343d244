"""Statistics of one ns-2 queue trace (trace-queue of a single link), as qoslab measures them.

Queue seen by arrivals: packets waiting in the queue (not the one being transmitted) just
before each arrival ('+'), over [warmup, duration); ql_zero is the fraction of arrivals that
find it empty; ql_p90 / ql_p99 are nearest-rank percentiles (the smallest length k with at
least ceil(q n) arrivals seeing <= k, as qoslab's stats.rs computes them). Throughput: bits dequeued ('-') in [warmup, duration) over that time.
"""
import math
import sys


def stats(path, warmup, duration):
    q = 0
    n = 0
    s = 0.0
    s2 = 0.0
    zero = 0
    bits = 0
    drops = 0
    hist = {}
    with open(path) as f:
        for line in f:
            ev = line[0]
            t = float(line[2:line.index(" ", 2)])
            if ev == "+":
                if warmup <= t < duration:
                    n += 1
                    s += q
                    s2 += q * q
                    if q == 0:
                        zero += 1
                    hist[q] = hist.get(q, 0) + 1
                q += 1
            elif ev == "-":
                q -= 1
                if warmup <= t < duration:
                    bits += 8 * int(line.split()[5])
            elif ev == "d":
                q -= 1
                if warmup <= t < duration:
                    drops += 1
    if n == 0:
        raise SystemExit(f"{path}: no arrivals in [{warmup}, {duration}) (did ns-2 stop early?)")
    mean = s / n

    def pct(frac):
        target = max(math.ceil(frac * n), 1)
        acc = 0
        for k in sorted(hist):
            acc += hist[k]
            if acc >= target:
                return k
        return max(hist)
    var = max(s2 / n - mean * mean, 0.0)
    return {
        "arrivals": n,
        "ql_zero": zero / n,
        "ql_ave": mean,
        "ql_std": math.sqrt(var),
        "throughput": bits / (duration - warmup) / 1e6,
        "drops": drops,
        "ql_p90": pct(0.9),
        "ql_p99": pct(0.99),
    }


if __name__ == "__main__":
    r = stats(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
    print(" ".join(f"{k}={v}" for k, v in r.items()))
