#!/usr/bin/env python3
"""Headline gaps of RESULTS.md from the CSVs `qoslab reproduce rfc4828` writes.

    python3 scenarios/rfc4828/headline.py [OUT_DIR]     (default out/reproduce/rfc4828)

For each simulated table: the median of |ours - published| / published over its published
cells, split into the columns that follow the RFCs' rules (the headline) and the second
columns that run the same flows with ns-2's behaviour (`*_ns2_*`, TcpParams::ns2_compat /
ns-2's TFRC), labelled as such (issue 17: the two are never pooled).
"""
import csv
import glob
import os
import statistics
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "out/reproduce/rfc4828"
rows = []
for path in glob.glob(os.path.join(out, "table_*.csv")):
    name = os.path.basename(path)[len("table_"):-len(".csv")]
    if not name.isdigit():
        continue
    rfc, ns2 = [], []
    for r in csv.DictReader(open(path)):
        if not r.get("published") or not r.get("diff_pct"):
            continue
        gap = abs(float(r["diff_pct"]))
        (ns2 if "_ns2_" in r["column"] else rfc).append(gap)
    rows.append((int(name), rfc, ns2))
print("| table | RFC-behaviour columns: median gap (cells) | ns-2-behaviour columns: median gap (cells) |")
print("|---|---|---|")
for t, rfc, ns2 in sorted(rows):
    f = lambda xs: f"{statistics.median(xs):.1f} % ({len(xs)})" if xs else "-"
    print(f"| {t} | {f(rfc)} | {f(ns2)} |")
