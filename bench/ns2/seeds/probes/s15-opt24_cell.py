#!/usr/bin/env python3
"""Finding 54, session 15 (s15-opt24): RFC 4828 B.1 at one packet drop rate, every TFRC group,
ours (`ns2_compat` + `app_backlog`, b1.ours) against ns-2.35's per-seed values of the cell
(all five groups, rfc4828_b1_tfrc.tcl) kept by s14-start2 in
measured/s14-start2_cell_ns2.csv (seeds 1..400 at p = 0.5), mean send rate per flow over
50..100 s, Kb/s, mean ± 95 % CI over seeds and ci.py's verdict (5 % or the CIs overlap).

--ns2-t0 300: against ns-2.35's cell with every start and the window shifted by 300 s
(probes/s15-opt24_offset.py cell, per-seed values in measured/s15-opt24_cell_t0_300_ns2.csv).

--ours-t0 300: ours with every flow's start shifted by 300 s (`start = "300s"`, duration and
warm-up likewise), a check that our integer-nanosecond clock gives the same rates at any offset.

--base PATH adds a column with another qoslab binary (e.g. main's, without option 24) on the
same seeds. Our per-seed values are kept in /tmp/s15-opt24_cell_<binary-tag>.csv so that a
re-run only adds seeds.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s15-opt24_cell.py --p 0.5 --seeds 1-400 \
           [--groups std14,sp14] [--qoslab target/release/qoslab] [--base /tmp/main-qoslab]
"""
import argparse
import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import qoslab_run  # noqa: E402
import re  # noqa: E402
import rfc4828_b1_tfrc as b1  # noqa: E402

NS2 = os.path.join(HERE, "..", "measured", "s14-start2_cell_ns2.csv")
NS2_T0 = os.path.join(HERE, "..", "measured", "s15-opt24_cell_t0_300_ns2.csv")


def seeds_of(spec):
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def ns2_values(p, t0="0"):
    out = {}
    with open(NS2 if t0 == "0" else NS2_T0) as f:
        for variant, pv, seed, group, x in csv.reader(f):
            if variant in ("all", f"t0_{t0}") and pv == p:
                out[(int(seed), group)] = float(x)
    return out


def ours_shifted(exe, p, seed, t0):
    """b1.ours() with every flow's start, the duration and the warm-up shifted by t0 s."""
    sc = b1.with_backlog(open(os.path.join(b1.ROOT, "scenarios", "rfc4828",
                                           "b1-packet-drop.toml")).read())
    for old, new in (("loss = { packet = 0.01, ecn = true }", f"loss = {{ packet = {p}, ecn = true }}"),
                     ('duration = "100s"', f'duration = "{t0 + 100}s"'),
                     ('warmup = "50s"', f'warmup = "{t0 + 50}s"')):
        assert sc.count(old) == 1, f"b1-packet-drop.toml changed: {old}"
        sc = sc.replace(old, new)
    sc = sc.replace('start_jitter = "1s"', f'start = "{t0}s"\nstart_jitter = "1s"')
    r = qoslab_run.summary(exe, sc, seed)
    g = {}
    for fl in r["flows"]:
        g.setdefault(re.sub(r"_?\d+$", "", fl["name"]), []).append(fl["send_rate_bps"] / 1e3)
    return {k: sum(v) / len(v) for k, v in g.items()}


def ours(exe, p, seeds, t0=0):
    tag = hashlib.sha1(open(exe, "rb").read()).hexdigest()[:12] + (f"_t0_{t0}" if t0 else "")
    path = f"/tmp/s15-opt24_cell_{tag}.csv"
    have = {}
    if os.path.exists(path):
        with open(path) as f:
            for pv, seed, group, x in csv.reader(f):
                have[(pv, int(seed), group)] = float(x)
    for s in seeds:
        if (p, s, "std14ns2") not in have:
            row = ours_shifted(exe, p, s, t0) if t0 else b1.ours(exe, p, s, True)
            with open(path, "a", newline="") as f:
                w = csv.writer(f)
                for g, v in row.items():
                    have[(p, s, g)] = v
                    w.writerow([p, s, g, f"{v:.6f}"])
    return {(s, g): v for (pv, s, g), v in have.items() if pv == p}, tag


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", default="0.5")
    ap.add_argument("--seeds", default="1-400")
    ap.add_argument("--groups", default=",".join(b1.GROUPS))
    ap.add_argument("--qoslab", default=os.path.join(b1.ROOT, "target", "release", "qoslab"))
    ap.add_argument("--base", default=None)
    ap.add_argument("--ns2-t0", default="0")
    ap.add_argument("--ours-t0", type=int, default=0)
    a = ap.parse_args()
    seeds = list(seeds_of(a.seeds))
    ns = ns2_values(a.p, a.ns2_t0)
    missing = [s for s in seeds if (s, "std14") not in ns]
    if missing:
        raise SystemExit(f"no ns-2.35 values for seeds {missing[:5]}... in {NS2}")
    q, tag = ours(a.qoslab, a.p, seeds, a.ours_t0)
    base = ours(a.base, a.p, seeds) if a.base else None
    print(f"\n### B.1 p = {a.p}, seeds {seeds[0]}..{seeds[-1]}, 50..100 s, Kb/s, ns-2.35 "
          f"shifted by T0 = {a.ns2_t0} s "
          f"(ours: {a.qoslab} [{tag}]" + (f", base: {a.base} [{base[1]}]" if base else "")
          + ")\n")
    head = "| group | ns-2.35 | ours | diff | verdict |"
    if base:
        head += " base | base diff | base verdict |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for g in a.groups.split(","):
        n = [ns[(s, g)] for s in seeds]
        o = [q[(s, g + "ns2")] for s in seeds]
        row = f"| {g} | {ci.fmt(n, 4)} | {ci.fmt(o, 4)} | {ci.rel(n, o)} | {ci.verdict(n, o, 0.05)} |"
        if base:
            bo = [base[0][(s, g + "ns2")] for s in seeds]
            row += f" {ci.fmt(bo, 4)} | {ci.rel(n, bo)} | {ci.verdict(n, bo, 0.05)} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
