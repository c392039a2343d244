#!/usr/bin/env python3
"""Cell-by-cell comparison of two `qoslab reproduce rfc4828` reports (REPORT.txt format):
per table, the cells whose value changed, the median |ours - published| / published before
and after (published cells only), and the mean relative change of every cell.

    python3 scenarios/rfc4828/report_delta.py OLD_REPORT NEW_REPORT [--cells 12,13]

--cells prints the changed cells of those tables (published | old | new).
"""
import argparse
import re
import statistics


def parse(path):
    """{table: {(keys..., column): (ours, published or None)}} in report order."""
    tables, name, col_start, keys = {}, None, None, []
    for line in open(path):
        m = re.match(r"^Table (\w+) — ", line)
        if m:
            name, col_start, keys = m.group(1), None, []
            tables[name] = {}
            continue
        if name is None:
            continue
        if line.startswith("  ") and " column " in line and "ours" in line:
            col_start = line.index(" column ") + 1
            continue
        if col_start is None or not line.strip() or len(line) <= col_start:
            continue
        head, rest = line[:col_start].split(), line[col_start:].split()
        if len(rest) < 2 or not re.match(r"^[a-z][a-z0-9_]*$", rest[0]):
            continue
        if head:
            keys = head
        try:
            ours = float(rest[1])
        except ValueError:
            continue
        pub = None
        if len(rest) > 3 and rest[3] != "—":
            try:
                pub = float(rest[3])
            except ValueError:
                pub = None
        tables[name][tuple(keys) + (rest[0],)] = (ours, pub)
    return tables


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--cells", default="")
    a = ap.parse_args()
    old, new = parse(a.old), parse(a.new)
    print("| table | cells | changed | median gap to published, old | new | cells closer / further "
          "| mean |new/old - 1| |")
    print("|---|---|---|---|---|---|---|")
    for t in new:
        if t not in old:
            continue
        cells = [k for k in new[t] if k in old[t]]
        changed = [k for k in cells if old[t][k][0] != new[t][k][0]]
        go = [abs(old[t][k][0] / old[t][k][1] - 1) for k in cells if old[t][k][1]]
        gn = [abs(new[t][k][0] / new[t][k][1] - 1) for k in cells if new[t][k][1]]
        closer = sum(1 for k in changed if new[t][k][1] and
                     abs(new[t][k][0] - new[t][k][1]) < abs(old[t][k][0] - old[t][k][1]))
        further = sum(1 for k in changed if new[t][k][1] and
                      abs(new[t][k][0] - new[t][k][1]) > abs(old[t][k][0] - old[t][k][1]))
        rel = [abs(new[t][k][0] / old[t][k][0] - 1) for k in changed if old[t][k][0]]
        med = (lambda v: f"{100 * statistics.median(v):.1f} %" if v else "—")
        print(f"| {t} | {len(cells)} | {len(changed)} | {med(go)} | {med(gn)} | "
              f"{closer} / {further} | {100 * statistics.mean(rel):.1f} % |" if rel else
              f"| {t} | {len(cells)} | 0 | {med(go)} | {med(gn)} | — | — |")
    for t in [x for x in a.cells.split(",") if x]:
        print(f"\n#### Table {t}: published | old | new\n")
        print("| cell | published | old | new | new/old - 1 |")
        print("|---|---|---|---|---|")
        for k, (v, p) in new[t].items():
            o = old[t].get(k, (None, None))[0]
            if o is None or o == v:
                continue
            r = f"{100 * (v / o - 1):+.1f} %" if o else "—"
            print(f"| {' '.join(k)} | {'—' if p is None else p} | {o} | {v} | {r} |")


if __name__ == "__main__":
    main()
