#!/usr/bin/env python3
"""Copies the ns-2 per-seed values of the RIO cells that cargo tests check from
bench/ns2/seeds/measured/rio_hori2001_ns2.csv into crates/qoslab-sim/tests/data/ns2/
rio_hori2001_tables.csv (with its source header). The cells are listed in CELLS below and in
crates/qoslab-sim/tests/ns2_suite/rio_tables.rs.

usage: python3 bench/ns2/seeds/export_test_data.py
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SRC = os.path.join(HERE, "measured", "rio_hori2001_ns2.csv")
DST = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "rio_hori2001_tables.csv")
# (tcp, minth_out, maxth_out, maxp_den, w_qout, ns-2 w_in)
CELLS = [
    ("Reno", 60, 200, 5, "0.002", None), ("Reno", 60, 200, 100, "0.002", None),
    ("Sack", 60, 200, 50, "0.002", None), ("Sack", 60, 200, 100, "0.002", None),
]
# Table 1 (maxth_out 200, maxp 1/10)
CELLS += [
    ("Newreno", 80, 200, 10, "0.002", None), ("Reno", 100, 200, 10, "0.002", None),
    ("Sack", 100, 200, 10, "0.002", None),
]
# Table 3 (Reno, (60, 200, 1/10), w_qout swept): the ns-2 runs with In's weight = w_qout
CELLS += [
    ("Reno", 60, 200, 10, "0.1", "0.1"), ("Reno", 60, 200, 10, "0.5", "0.5"),
    ("Reno", 60, 200, 10, "1", "0.999"),
]
HEADER = """# ns-2.35 (Debian package ns2 2.35) reference: the RIO seed (Hori et al. 2001), cells of
# Tables 1-3 where ns-2.35 and qoslab's RFC-mode TCP agree (bench/ns2/seeds/README.md).
# Source: bench/ns2/seeds/rio_hori2001.tcl (written for qoslab, issue 14), run as
#   ns bench/ns2/seeds/rio_hori2001.tcl <tcp> <minth_out> <maxth_out> <maxp_den> <w_qout> <seed> <trace> 20 [w_in]
# (w_in = ns-2's In weight: 0.002 unless given; Table 3 rows use w_in = w_qout, 0.999 at
# w_qout = 1 to avoid ns-2's SIGFPE) and its bottleneck trace read by ns2trace.py over
# 5..20 s: ql_* = queue seen by arrivals (packets waiting; p90/p99 nearest-rank),
# throughput = Mb/s dequeued. Exported by bench/ns2/seeds/export_test_data.py.
"""


def main():
    rows = list(csv.DictReader(open(SRC)))
    out = []
    for tcp, minth, maxth, den, w, w_in in CELLS:
        for seed in (1, 2, 3):
            k = f"{tcp} {minth} {maxth} 1/{den} {float(w)} seed={seed} dur=20"
            if w_in is not None:
                k += f" w_in={w_in}"
            r = [x for x in rows if x["run"] == k]
            if not r:
                raise SystemExit(f"no ns-2 run {k!r} in {SRC}")
            r = r[0]
            out.append([tcp, minth, maxth, den, w, seed, w_in or "0.002"] +
                       [r[c] or "" for c in ("ql_ave", "throughput", "ql_p90", "ql_p99")])
    with open(DST, "w", newline="") as f:
        f.write(HEADER)
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["tcp", "minth_out", "maxth_out", "maxp_den", "w_qout", "seed", "ns2_w_in",
                     "ql_ave", "throughput", "ql_p90", "ql_p99"])
        wr.writerows(out)


if __name__ == "__main__":
    main()
