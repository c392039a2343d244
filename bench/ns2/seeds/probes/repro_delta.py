#!/usr/bin/env python3
"""Before/after deltas of `qoslab reproduce NAME --quick` table CSVs (issue 14: the rto_ssthresh
default). usage: repro_delta.py BEFORE_DIR AFTER_DIR NAME...  (dirs as given to --out/..)
Per table: cells whose value changed, how many moved closer to / further from the published
value, and the changed cells (published | before | after)."""
import csv
import glob
import os
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    before, after, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    for n in names:
        for p in sorted(glob.glob(os.path.join(before, n, "table_*.csv"))):
            if p.endswith("_runs.csv"):
                continue
            q = os.path.join(after, n, os.path.basename(p))
            if not os.path.exists(q):
                continue
            a, b = rows(p), rows(q)
            if not a or "ours_mean" not in a[0]:
                continue
            key = [k for k in a[0] if k not in ("runs", "ours_mean", "ours_ci95", "published",
                                                "diff", "diff_pct")]
            changed, closer, further, lines = 0, 0, 0, []
            rel_b, rel_a = [], []
            for x, y in zip(a, b):
                if [x[k] for k in key] != [y[k] for k in key]:
                    raise SystemExit(f"{p}: rows differ")
                o, m = float(x["ours_mean"]), float(y["ours_mean"])
                pub0 = x.get("published") or ""
                if pub0 not in ("", "nan") and float(pub0) != 0:
                    rel_b.append(abs(o / float(pub0) - 1))
                    rel_a.append(abs(m / float(pub0) - 1))
                if abs(o - m) <= 1e-9 * max(1.0, abs(o)):
                    continue
                changed += 1
                pub = x.get("published") or ""
                tag = ""
                if pub not in ("", "nan"):
                    pv = float(pub)
                    if abs(m - pv) < abs(o - pv):
                        closer += 1
                        tag = "closer"
                    else:
                        further += 1
                        tag = "further"
                lines.append(f"| {n} {os.path.basename(p)[:-4]} | {' '.join(x[k] for k in key)} | "
                             f"{pub or '—'} | {o:.4g} | {m:.4g} | {tag} |")
            mad = (f"; mean |ours/published - 1| {100 * sum(rel_b) / len(rel_b):.1f} % -> "
                   f"{100 * sum(rel_a) / len(rel_a):.1f} %") if rel_b else ""
            print(f"{n} {os.path.basename(p)}: {len(a)} cells, {changed} changed, "
                  f"{closer} closer to published, {further} further{mad}")
            for l in lines:
                print("   ", l)


if __name__ == "__main__":
    main()
