#!/usr/bin/env python3
"""Finding 54, session 14 (s14-f54): time-resolved send rates of RFC 4828 B.1 TFRC flows,
ns-2.35 against our `ns2_compat` + `app_backlog` single-flow probe.

ns-2: s14-f54_bins.tcl (the B.1 set-up, N flows of one group per run, wire bytes per bin).
ours: `tfrc_high_loss_probe` (crates/qoslab-algo/src/tfrc/ns2_tests.rs) with TFRC_PROBE_BIN,
one flow per seed. Prints, per window, the mean send rate per flow (Kb/s) ± 95 % CI over
flows (ns-2's flows of one run share its RNG but do not interact: 1 Gb/s, no queue).

usage: nice -n 19 python3 s14-f54_bins.py <group> <p> [--flows 400] [--ns2-per-run 10]
          [--end 200] [--bin 5] [--windows 0-50,50-100,100-150,150-200] [--off opt,opt]
          [--ns BINARY] [--series]
"""
import argparse
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402


def test_binary():
    c = [p for p in glob.glob(os.path.join(ROOT, "target", "release", "deps", "qoslab_algo-*"))
         if not p.endswith(".d")]
    return max(c, key=os.path.getmtime)


def ours(group, p, flows, end, binw, off, extra_env):
    env = dict(os.environ, TFRC_PROBE=f"{group} {p} {flows} {end}", TFRC_PROBE_BACKLOG="1",
               TFRC_PROBE_BIN=str(binw), TFRC_PROBE_OFF=off, **extra_env)
    out = subprocess.run(["nice", "-n", "19", test_binary(), "--ignored", "--nocapture",
                          "--exact", "tfrc::ns2_tests::tfrc_high_loss_probe"],
                         env=env, check=True, capture_output=True, text=True).stdout
    return [[int(x) for x in l.split()[2:]] for l in out.splitlines() if l.startswith("BINS ")]


def ns2(group, p, flows, per_run, end, binw, ns):
    rows = []
    seed = 0
    while len(rows) < flows:
        seed += 1
        n = min(per_run, flows - len(rows))
        out = subprocess.run(["nice", "-n", "19", ns, os.path.join(HERE, "s14-f54_bins.tcl"),
                              str(p), str(seed), group, str(n), str(end), str(binw)],
                             check=True, capture_output=True, text=True).stdout
        rows += [[int(x) for x in l.split()[2:]] for l in out.splitlines()
                 if l.startswith("BINS ")]
    return rows


def window(rows, a, b, binw):
    i, j = int(a // binw), int(b // binw)
    return [sum(r[i:j]) * 8 / (b - a) / 1000 for r in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--flows", type=int, default=400)
    ap.add_argument("--ns2-per-run", type=int, default=10)
    ap.add_argument("--end", type=int, default=200)
    ap.add_argument("--bin", type=int, default=5)
    ap.add_argument("--windows", default="0-50,50-100,100-150,150-200")
    ap.add_argument("--off", default="")
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--series", action="store_true")
    a = ap.parse_args()
    q = ours(a.group, a.p, a.flows, a.end, a.bin, a.off, {})
    n = ns2(a.group, a.p, a.flows, a.ns2_per_run, a.end, a.bin, a.ns)
    print(f"{a.group} p={a.p}: {len(q)} flows ours (off: {a.off or '-'}), {len(n)} ns-2 "
          f"({a.ns2_per_run} per run, {a.ns})")
    print("| window (s) | ns-2.35 Kb/s | ours Kb/s | ours − ns-2 | verdict |")
    print("|---|---|---|---|---|")
    for w in a.windows.split(","):
        lo, hi = (float(x) for x in w.split("-"))
        nw, qw = window(n, lo, hi, a.bin), window(q, lo, hi, a.bin)
        print(f"| {w} | {ci.fmt(nw, 3)} | {ci.fmt(qw, 3)} | {ci.rel(nw, qw)} | "
              f"{ci.verdict(nw, qw, 0.05)} |")
    if a.series:
        print("\nbin start, ns-2, ours (Kb/s, mean over flows)")
        for i in range(len(n[0])):
            nm = sum(r[i] for r in n) / len(n) * 8 / a.bin / 1000
            qm = sum(r[i] for r in q) / len(q) * 8 / a.bin / 1000
            print(f"{i * a.bin:5d} {nm:7.3f} {qm:7.3f} {100 * (qm - nm) / nm if nm else 0:+6.1f}%")


if __name__ == "__main__":
    main()
