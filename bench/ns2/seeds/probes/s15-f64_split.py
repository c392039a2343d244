#!/usr/bin/env python3
"""Finding 54, session 15 (s15-f64): how two sums order a packet and a nofeedback expiry that
coincide in exact arithmetic, in doubles (ns-2.35: the send chain (t + g) + g against the
nofeedback delay t + 2g, `Scheduler::clock() + delay`) and in integer nanoseconds (ours before
option 25: t + G + G with G = g rounded, against t + round(2g)). Random clocks t per binade
and send gaps g (14-B packets at 5..40 B/s, the std14 / sp14 floor at p = 0.5..0.85).
Python floats are IEEE doubles with round-to-nearest-even, as ns-2's on x86-64.

usage: python3 s15-f64_split.py [--n 200000] [--seed 1]
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print("| clock (s) | doubles: send earlier | equal | later | integer ns: earlier | same ns | later |")
    print("|---|---|---|---|---|---|---|")
    for lo, hi in [(1, 8), (8, 32), (32, 128), (128, 256), (256, 600), (1024, 2048)]:
        d = [0, 0, 0]
        z = [0, 0, 0]
        for _ in range(a.n):
            t = rng.uniform(lo, hi)
            g = 14 / rng.uniform(5, 40)
            x, y = (t + g) + g, t + 2 * g
            d[0 if x < y else 1 if x == y else 2] += 1
            tn, gn, g2 = round(t * 1e9), round(g * 1e9), round(2 * g * 1e9)
            xi, yi = tn + 2 * gn, tn + g2
            z[0 if xi < yi else 1 if xi == yi else 2] += 1
        f = [v / a.n for v in d + z]
        print(f"| {lo}-{hi} | " + " | ".join(f"{v:.3f}" for v in f) + " |")


if __name__ == "__main__":
    main()
