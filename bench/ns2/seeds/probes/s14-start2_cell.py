"""Finding 54, session 14 (s14-start2): does ns-2.35's standard TFRC 14 B group send less in the
RFC 4828 B.1 cell (all five groups on one path) than alone, and which group changes it?

Runs a copy of bench/ns2/seeds/rfc4828_b1_tfrc.tcl in which only the named groups are created
(the `set groups` list is filtered; nothing else changes), per seed, and prints the std14 group's
mean send rate over 50..100 s (Kb/s, mean ± 95 % CI over seeds, ci.py) per variant, and the
difference of each variant to the first one with Welch's rule (difference ± sqrt(h1² + h2²)).
Per-seed values are kept in /tmp/s14-start2_cell.csv so a re-run adds seeds only.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s14-start2_cell.py --p 0.5 --seeds 1-200 \
           --variants all,std14,-std1460,-sp14,-sp200,-std200 [--group std14]
  all      the cell as checked in (five groups)
  std14    only the std14 group (ten flows)
  -NAME    the cell without group NAME
  +NAME    std14 and NAME only
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402

TCL = os.path.join(HERE, "..", "rfc4828_b1_tfrc.tcl")
ALL = ["std1460", "sp14", "std14", "sp200", "std200"]
CACHE = "/tmp/s14-start2_cell.csv"


def groups_of(v, group):
    if v == "all":
        return ALL
    if v.startswith("-"):
        return [g for g in ALL if g != v[1:]]
    if v.startswith("+"):
        return [g for g in ALL if g in (group, v[1:])]
    return [g for g in ALL if g in v.split("+")]


def script(keep, d):
    src = open(TCL).read()
    m = re.search(r"set groups \{\n(.*?)\n\}\n", src, re.S)
    assert m, "rfc4828_b1_tfrc.tcl's groups list changed"
    lines = [ln for ln in m.group(1).split("\n") if ln.split()[0].lstrip("{") in keep]
    src = src[:m.start(1)] + "\n".join(lines) + src[m.end(1):]
    # `done` divides by ten flows per group; groups not created print 0 (parsed and ignored).
    path = os.path.join(d, "cell_" + "_".join(keep) + ".tcl")
    with open(path, "w") as f:
        f.write(src)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", default="0.5")
    ap.add_argument("--seeds", default="1-100")
    ap.add_argument("--variants", default="all,std14")
    ap.add_argument("--group", default="std14")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    cache = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            for r in csv.reader(f):
                cache[(r[0], r[1], int(r[2]), r[3])] = float(r[4])
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for v in a.variants.split(","):
            keep = groups_of(v, a.group)
            path = script(keep, d)
            xs = []
            for s in range(lo, hi + 1):
                k = (v, a.p, s, a.group)
                if k not in cache:
                    out = subprocess.run(["nice", "-n", "19", "ns", path, a.p, str(s)], check=True,
                                         capture_output=True, text=True).stdout
                    for m in re.finditer(r"group=(\w+) p=\S+ send_kbps=([0-9.]+)", out):
                        if m.group(1) in keep:
                            cache[(v, a.p, s, m.group(1))] = float(m.group(2))
                    with open(CACHE, "w", newline="") as f:
                        w = csv.writer(f)
                        for kk, x in sorted(cache.items()):
                            w.writerow(list(kk) + [f"{x:.6f}"])
                xs.append(cache[k])
            res[v] = xs
    base = a.variants.split(",")[0]
    bm, bh = ci.mean_ci(res[base])
    print(f"\n{a.group}, p = {a.p}, seeds {lo}..{hi}, 50..100 s, Kb/s (mean ± 95 % CI)\n")
    print(f"| variant | groups on the path | {a.group} | vs {base} | difference ± CI |")
    print("|---|---|---|---|---|")
    for v, xs in res.items():
        m, h = ci.mean_ci(xs)
        dd, dh = m - bm, math.sqrt(h * h + bh * bh)
        print(f"| {v} | {' '.join(groups_of(v, a.group))} | {m:.4f} ± {h:.4f} | "
              f"{100 * (m - bm) / bm:+.1f} % | {dd:+.4f} ± {dh:.4f}"
              f"{' (outside)' if abs(dd) > dh else ''} |")


if __name__ == "__main__":
    main()
