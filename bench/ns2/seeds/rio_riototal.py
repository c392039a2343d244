#!/usr/bin/env python3
"""RIO seed, Table 4b (prompt feedback) and Table 3 (w_qout != w_In) against an ns-2.35 whose
RIO-C Out average is the paper's (issue 14, session 13; README section 14.1, finding 2).

ns-2.35's RIO-C computes Out's average as (1 - w_Out) avg_Out + w_In qlen_In + w_Out qlen_Out
(diffserv/dsredq.cc, calcAvg): with the paper's w_In = 0.002 and w_Out = 1 (Table 4b, Fig. 6)
that is qlen_Out + 0.002 qlen_In, not the total queue (findings 2, 8). The binary built by
bench/ns2/build_riototal_ns2.sh (dsRED's p_a capped as in section 14, plus
dsredq_riototal.patch) has `setMREDMode RIO-C-TOTAL`: avg_Out = (1 - w_Out) avg_Out +
w_Out (qlen_In + qlen_Out), Hori et al. sec. 3.C and ours. rio_hori2001.tcl takes the mode as
its 10th argument.

Per cell, means ± 95 % CI (ci.py) over seeds 1..N: published (withheld in the seed copy for
Tables 3 and 4b) | ns-2.35 capped + RIO-C-TOTAL | qoslab rfc (base.toml, ns2_compat = false:
the like-for-like column of section 1) | qoslab rfc+hw (rfc with rto_ssthresh =
"ns2-half-window", ns-2.35's timeout rule, finding 43) | qoslab (base.toml as is, ns2_compat =
true: what `qoslab reproduce` reports). For Table 4b also ns-2.35 capped with the stock RIO-C
(--stock-seeds, default 10): what finding 2's rule does to the prompt-feedback queue.

usage: python3 bench/ns2/seeds/rio_riototal.py [--tables 4b,3] [--seeds N] [--stock-seeds N]
                                               [--repro-seeds N] [--reuse] [--export N]
                                               [--ns PATH] [--capped PATH]
                                               [--qoslab PATH]

Per-run values (ns-2 and ours) are kept in measured/rio_riototal_runs.csv; --reuse reads them
instead of rerunning. Runs are sequential (one core; run it under nice -n 19).
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ci  # noqa: E402
import qoslab_run  # noqa: E402
import rio_hori2001 as rio  # noqa: E402
import rio_capped  # noqa: E402
from rio_capped import g1g2_stats, scenario  # noqa: E402

RESULTS = os.path.join(HERE, "measured", "rio_riototal_runs.csv")
COLS = ["ql_zero", "ql_ave", "ql_std", "throughput", "drops", "early", "forced", "ql_p90",
        "ql_p99"]
DEC = {"ql_zero": 3, "ql_ave": 2, "ql_std": 2, "throughput": 2, "drops": 0, "early": 0,
       "forced": 0, "ql_p90": 1, "ql_p99": 1}
# The bounds: 5 % on throughput, 10 % on queue and drop statistics.
BOUND = {"ql_ave": 0.10, "ql_std": 0.10, "throughput": 0.05, "drops": 0.10, "early": 0.10,
         "forced": 0.10, "ql_p90": 0.10, "ql_p99": 0.10}
SHOW = {"4b": ["ql_zero", "ql_ave", "ql_std", "throughput", "drops"],
        "3": ["ql_ave", "ql_p90", "ql_p99", "ql_std", "throughput", "drops"]}
OURS = ("rfc", "rfc+hw", "repro")


def cells(table):
    """(label, ns-2 parameters (tcp, minth, maxth, den, w_out, w_in)) per row, in order."""
    if table == "4b":
        return [({"maxth": str(m), "maxp": f"1/{d}"}, ("Reno", 60, m, d, 1.0, rio.W_IN))
                for m in (150, 200, 250) for d in (10, 20, 50)]
    if table == "3":
        return [({"w_qout": w}, ("Reno", 60, 200, 10, float(w), rio.W_IN))
                for w in rio.TABLE3_W]
    raise SystemExit(f"table {table}: only 4b and 3")


def key(side, p, seed):
    return f"{side} {p[0]} {p[1]} {p[2]} 1/{p[3]} w_out={p[4]} w_in={p[5]} seed={seed}"


def run_ns2(exe, p, seed, mred, series=None):
    """One 20-s ns-2 run in MRED mode `mred` (rio_capped.py's runner)."""
    return rio_capped.run_ns2(exe, p, seed, "20", [mred] + ([series] if series else []),
                              ("nice", "-n", "19"))


def run_ours(exe, p, seed, mode):
    _, out = qoslab_run.run(exe, scenario(p, mode), seed, ["queues.csv"])
    return g1g2_stats(out)


def load():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[row["run"]] = {c: float(row[c]) for c in COLS}
    return res


def save(res):
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + COLS)
        for k in sorted(res):
            w.writerow([k] + [f"{res[k][c]:.6f}" for c in COLS])


EXPORT = os.path.join(rio.ROOT, "crates", "qoslab-sim", "tests", "data", "ns2",
                      "rio_hori2001_riototal.csv")


HEADER = """\
# ns-2.35 with dsRED's p_a capped and the paper's RIO-C Out average (binary of
# bench/ns2/build_riototal_ns2.sh: dsredq_cap.patch + dsredq_riototal.patch), the RIO
# seed (Hori et al. 2001) Table 4b (w_out 1) and Table 3 (w_out swept), In weight 0.002.
# Source: bench/ns2/seeds/rio_hori2001.tcl (written for qoslab, issue 14), run as
#   ns-riototal rio_hori2001.tcl Reno 60 <maxth> <den> <w_out> <seed> <trace> 20 0.002 \\
#     RIO-C-TOTAL
# statistics over 5..20 s (ns2trace.py; drops from the trace). Written by
# bench/ns2/seeds/rio_riototal.py --export (README section 14.1).
"""


def export(res, seeds):
    """The ns-2 RIO-C-TOTAL per-seed values of every Table 4b and Table 3 cell (seeds 1..N)
    for crates/qoslab-sim/tests/ns2_suite/rio_riototal.rs."""
    with open(EXPORT, "w", newline="") as f:
        f.write(HEADER)
        rows = []
        for t in ("4b", "3"):
            for _, p in cells(t):
                for s in range(1, seeds + 1):
                    k = key("ns2-total", p, s)
                    if k in res:
                        rows.append([t, p[2], p[3], repr(p[4]), s] +
                                    [f"{res[k][c]:.6g}" for c in COLS])
        for t in ("4b", "3"):
            n = {}
            for r in rows:
                if r[0] == t:
                    n[tuple(r[1:4])] = n.get(tuple(r[1:4]), 0) + 1
            f.write(f"# Table {t}: seeds per cell {min(n.values())}..{max(n.values())} "
                    f"(Table 3's w_out 1 row is Table 4b's (200, 1/10) cell, the same runs)\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["table", "maxth", "den", "w_out", "seed"] + COLS)
        w.writerows(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", default="4b,3")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--stock-seeds", type=int, default=10)
    ap.add_argument("--repro-seeds", type=int, default=10)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--export", type=int, metavar="N",
                    help="only write the ns-2 values of seeds 1..N for the tests (no runs)")
    ap.add_argument("--ns", default="/work/ns2-s13-rio4b/ns-riototal")
    ap.add_argument("--capped", default="/work/ns2-capped/ns-capped")
    ap.add_argument("--qoslab", default=os.path.join(rio.ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    res = load()
    if a.export:
        export(res, a.export)
        return
    seeds = range(1, a.seeds + 1)

    def get(side, p, s):
        k = key(side, p, s)
        if k not in res or not a.reuse:
            if side == "ns2-total":
                res[k] = run_ns2(a.ns, p, s, "RIO-C-TOTAL")
            elif side == "ns2-stock":
                res[k] = run_ns2(a.capped, p, s, "RIO-C")
            else:
                res[k] = run_ours(a.qoslab, p, s, side)
            save(res)
        return res[k]

    for t in a.tables.split(","):
        rows = cells(t)
        stock = t == "4b" and a.stock_seeds > 0
        print(f"\n### Table {t}: published (withheld) | ns-2.35 capped + RIO-C-TOTAL | qoslab rfc"
              f" | rfc+hw | qoslab (ns2_compat); mean ± 95 % CI over seeds 1..{a.seeds}"
              + (f"; ns-2.35 capped with stock RIO-C over seeds 1..{a.stock_seeds}" if stock
                 else "") + f"; qoslab (ns2_compat) over seeds 1..{min(a.repro_seeds, a.seeds)}"
              + "; verdict: ci.py (bound or overlapping CIs)\n")
        lab0 = list(rows[0][0].keys())
        head = lab0 + ["column", "ns-2 RIO-C-TOTAL", "qoslab rfc", "rfc − ns-2", "verdict",
                       "rfc+hw", "rfc+hw − ns-2", "verdict", "qoslab"]
        if stock:
            head.append("ns-2 stock RIO-C")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for label, p in rows:
            ns = [get("ns2-total", p, s) for s in seeds]
            ours = {m: [get(m, p, s) for s in (range(1, min(a.repro_seeds, a.seeds) + 1)
                                               if m == "repro" else seeds)] for m in OURS}
            st = [get("ns2-stock", p, s) for s in range(1, a.stock_seeds + 1)] if stock else []
            for c in SHOW[t]:
                nv = [r[c] for r in ns]
                cells_ = list(label.values()) + [c, ci.fmt(nv, DEC[c])]
                for m in OURS:
                    ov = [r[c] for r in ours[m]]
                    cells_.append(ci.fmt(ov, DEC[c]))
                    if m == "repro":
                        continue
                    if c == "ql_zero":
                        d = sum(ov) / len(ov) - sum(nv) / len(nv)
                        cells_ += [f"{d:+.3f}", "—"]
                    else:
                        cells_ += [ci.rel(nv, ov), ci.verdict(nv, ov, BOUND[c])]
                if stock:
                    cells_.append(ci.fmt([r[c] for r in st], DEC[c]))
                print("| " + " | ".join(cells_) + " |", flush=True)


if __name__ == "__main__":
    main()
