#!/usr/bin/env python3
"""Differential run of RFC 2963 App. A with no shaper anywhere: ns-2.35 | qoslab per LAN.

ns-2.35 has the trTCM policer and a three-precedence dsRED (RIO-C) but no rate-adaptive
shaper, so the network compared is App. A's with every customer router C1..C10 marking with
its trTCM only (scenarios/rfc2963/base.toml with C6..C10's trRAS removed). Per LAN (customer
router C_k): green, yellow and total throughput in Mb/s over [2, 102) s, as Tables A.2/A.5
report them (bits of data packets, 1500 B on the wire, that crossed ER1->ER2).

The RFC's own "no shaper" rows (A.5: C1..C5; A.2's values are not in the seed copy) come
from a network where C6..C10 do shape (with the G-trRAS), so they are printed for orientation only: the like-for-like comparison is ns-2.35 vs
qoslab on the same all-trTCM network, where C1..C5 and C6..C10 are two identical groups.

usage: python3 bench/ns2/seeds/rfc2963.py [--seeds N] [--cbs BYTES] [--reuse] [--qoslab PATH]

ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc2963_ns2.csv (--reuse reads them).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import qoslab_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc2963_ns2.csv")
COLOURS = ["green", "yellow", "red"]
DUR, WARM = 102.0, 2.0
PKT = 1500


def published_a5():
    """RFC 2963 Table A.5's rows (C1..C5: green, yellow, total), from the transcription in
    data/rfc2963/table_a5.csv. (Table A.2 has no values in the seed copy.)"""
    out = {}
    with open(os.path.join(ROOT, "data", "rfc2963", "table_a5.csv")) as f:
        for row in csv.DictReader(l for l in f if not l.startswith("#")):
            out[int(row["router"][1:])] = {c: float(row[c]) for c in ("green", "yellow", "total")}
    return out


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[(int(row["cbs"]), int(row["seed"]), int(row["lan"]))] = {
                    c: int(row[c]) for c in COLOURS}
    return res


def save_results(res):
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["cbs", "seed", "lan"] + COLOURS)
        for k in sorted(res):
            w.writerow(list(k) + [res[k][c] for c in COLOURS])


def run_ns2(cbs, seed):
    args = ["nice", "ns", os.path.join(HERE, "rfc2963.tcl"), str(cbs), str(seed)]
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(args, cwd=d, stdout=subprocess.PIPE, text=True)
    if r.returncode != 0 or "done" not in r.stdout:
        raise SystemExit(f"ns-2 failed (exit {r.returncode}): {' '.join(args)}\n{r.stdout}")
    out = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0].startswith("C") and f[1] in COLOURS:
            out.setdefault(int(f[0][1:]), {})[f[1]] = int(f[2])
    return out


def scenario(cbs):
    """base.toml with C6..C10's trRAS removed and the given CBS (PBS = 2 CBS, trRAS gone)."""
    base = open(os.path.join(ROOT, "scenarios", "rfc2963", "base.toml")).read()
    lines = base.splitlines(keepends=True)
    ras = [i for i, l in enumerate(lines) if l.strip().startswith('{ kind = "trras"')]
    if len(ras) != 1:
        raise SystemExit("base.toml: expected one trras line (C6..C10); update rfc2963.py")
    del lines[ras[0]]
    sc = "".join(lines)
    n = sc.count('cbs = "3KB"') + sc.count('pbs = "6KB"')
    if n != 4:
        raise SystemExit("base.toml: expected cbs 3KB / pbs 6KB on both customer blocks")
    sc = sc.replace('cbs = "3KB"', f'cbs = "{cbs}B"').replace('pbs = "6KB"', f'pbs = "{2 * cbs}B"')
    return sc.replace('name = "rfc2963"', 'name = "rfc2963 no shaper (ns-2 differential)"')


def run_qoslab(exe, cbs, seed):
    s = qoslab_run.summary(exe, scenario(cbs), seed)
    out = {}
    for fl in s["flows"]:
        i = int(fl["name"][1:])
        k = (i - 1) // 10 + 1
        d = out.setdefault(k, {c: 0 for c in COLOURS})
        for c, b in zip(COLOURS, fl["measured"]["delivered_by_color"]):
            d[c] += b // PKT if b % PKT == 0 else b / PKT
    return out


def mbps(pkts):
    return pkts * PKT * 8 / (DUR - WARM) / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--cbs", type=int, default=3000)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    res = load_results()
    for s in range(1, a.seeds + 1):
        if not a.reuse or (a.cbs, s, 1) not in res:
            for k, v in run_ns2(a.cbs, s).items():
                res[(a.cbs, s, k)] = v
            save_results(res)
    ours = [run_qoslab(a.qoslab, a.cbs, s) for s in range(1, a.seeds + 1)]
    print(f"\n### RFC 2963 App. A, no shaper anywhere, CBS {a.cbs} B (Mb/s over 2..102 s; "
          f"mean of seeds 1..{a.seeds}, ranges over the seeds; diff = qoslab - ns-2)\n")
    pub = published_a5()
    print("| LAN | CIR | colour | RFC A.5 (C6..C10 shaped) | ns-2.35 | ns-2 range | qoslab | "
          "qoslab range | qoslab - ns-2 |")
    print("|" + "---|" * 9)
    for k in range(1, 11):
        cir = 2 * ((k - 1) % 5 + 1)
        for ci, c in enumerate(COLOURS + ["total"]):
            def val(d):
                return mbps(sum(d[k][x] for x in COLOURS) if c == "total" else d[k][c])
            ns = [val({k: res[(a.cbs, s, k)]}) for s in range(1, a.seeds + 1)]
            q = [val(o) for o in ours]
            nm, qm = sum(ns) / len(ns), sum(q) / len(q)
            p5 = f"{pub[k][c]:.2f}" if k in pub and c in pub[k] else "—"
            rel = f" ({100 * (qm - nm) / nm:+.1f}%)" if nm > 0.05 else ""
            print(f"| C{k} | {cir} | {c} | {p5} | {nm:.2f} | {min(ns):.2f}..{max(ns):.2f}"
                  f" | {qm:.2f} | {min(q):.2f}..{max(q):.2f} | {qm - nm:+.2f}{rel} |")


if __name__ == "__main__":
    sys.exit(main())
