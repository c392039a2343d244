#!/usr/bin/env python3
"""Differential run of the RIO seed (Hori et al. 2001): published | ns-2.35 | qoslab per cell.

Two qoslab columns: `qoslab` is our reproduction (`qoslab reproduce`, base.toml as is: its TCP
has `ns2_compat = true`, the Reno of the seed's 2000-era ns-2), `qoslab rfc` is the same
scenario with `ns2_compat = false` (RFC-mode TCP, which for Reno is ns-2.35's Reno: it
waits for the timer after a second loss in a window), run with `qoslab run`. ns-2.35 runs
its own 2.35 TCP, so `qoslab rfc` is the like-for-like column.

usage: python3 bench/ns2/seeds/rio_hori2001.py [--tables 4,1,2] [--seeds N] [--dur S]
                                               [--reuse] [--qoslab PATH]

For each cell of the chosen tables it runs ns-2.35 (`ns`, bench/ns2/seeds/rio_hori2001.tcl) for
seeds 1..N and qoslab (`qoslab reproduce rio-hori2001 --table T --seeds N --jobs 1`), then
prints the published value, the ns-2 mean, our mean and the differences. ns-2 per-run values
are kept in bench/ns2/seeds/measured/rio_hori2001_ns2.csv (--reuse reads them instead of
rerunning ns-2). One core at a time (the machine is shared): runs are sequential.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import ns2trace  # noqa: E402

RESULTS = os.path.join(HERE, "measured", "rio_hori2001_ns2.csv")
COLS = ["ql_zero", "ql_ave", "ql_std", "throughput"]
DEC = {"ql_zero": 3, "ql_ave": 2, "ql_std": 2, "throughput": 2}


def cells(table):
    """(qoslab CSV keys, ns-2 run parameters) per row of a table, in the table's order."""
    out = []
    if table == "4":
        for maxth in (150, 200, 250):
            for den in (10, 20, 50):
                keys = {"w_qout": "0.002", "maxth": str(maxth), "maxp": f"1/{den}"}
                out.append((keys, ("Reno", 60, maxth, den, 0.002)))
    elif table == "1":
        for minth in (20, 40, 60, 80, 100):
            for tcp in ("Reno", "Newreno", "Sack"):
                out.append(({"minth_out": str(minth), "tcp": tcp}, (tcp, minth, 200, 10, 0.002)))
    elif table == "2":
        for tcp in ("Reno", "Newreno", "Sack"):
            for den in (2, 5, 10, 20, 50, 100):
                out.append(({"tcp": tcp, "maxp": f"1/{den}"}, (tcp, 60, 200, den, 0.002)))
    else:
        raise SystemExit(f"table {table}: only 1, 2 and 4 (4a) are scripted")
    return out


def run_key(p, seed, dur):
    return f"{p[0]} {p[1]} {p[2]} 1/{p[3]} {p[4]} seed={seed} dur={dur}"


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[row["run"]] = {c: float(row[c]) for c in COLS}
    return res


def save_results(res):
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + COLS)
        for k in sorted(res):
            w.writerow([k] + [f"{res[k][c]:.6f}" for c in COLS])


def run_ns2(p, seed, dur):
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        args = ["nice", "ns", os.path.join(HERE, "rio_hori2001.tcl"), p[0], str(p[1]), str(p[2]),
                str(p[3]), str(p[4]), str(seed), tr, str(dur)]
        subprocess.run(args, check=True, cwd=d, stdout=subprocess.DEVNULL)
        return ns2trace.stats(tr, 5.0, float(dur))


def run_qoslab(exe, table, seeds):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["nice", exe, "reproduce", "rio-hori2001", "--table", table, "--seeds",
                        str(seeds), "--jobs", "1", "--out", d], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
        ours = {}
        with open(os.path.join(d, f"table_{table}.csv")) as f:
            for row in csv.DictReader(f):
                ours[tuple(sorted((k, row[k]) for k in row if k not in (
                    "column", "runs", "ours_mean", "ours_ci95", "published", "diff",
                    "diff_pct")))+(("column", row["column"]),)] = row
        return ours


TCP_NAMES = {"Reno": "reno", "Newreno": "newreno", "Sack": "sack"}


def run_qoslab_rfc(exe, p, seed):
    """qoslab run of base.toml with this cell's settings and ns2_compat = false."""
    base = open(os.path.join(ROOT, "scenarios", "rio-hori2001", "base.toml")).read()
    tcp, minth, maxth, den, w = p
    old_out = ("out = { min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 } }")
    assert old_out in base, "base.toml's AF12 line changed: update rio_hori2001.py"
    sc = base.replace(old_out, f"out = {{ min_th = {minth}, max_th = {maxth}, "
                      f"max_p = {1.0 / den!r}, w_q = {w!r} }} }}")
    assert 'variant = "reno"' in base and "ns2_compat = true" in base
    sc = sc.replace('variant = "reno"', f'variant = "{TCP_NAMES[tcp]}"')
    sc = sc.replace("ns2_compat = true", "ns2_compat = false")
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "rio.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"],
                       check=True, cwd=ROOT)
        with open(os.path.join(d, "queues.csv")) as q:
            for row in csv.DictReader(q):
                if row["link"] == "G1->G2":
                    return {"ql_zero": float(row["ql_p_empty"]), "ql_ave": float(row["ql_mean"]),
                            "ql_std": float(row["ql_std"]),
                            "throughput": float(row["throughput_bps"]) / 1e6}
    raise SystemExit("qoslab run: no G1->G2 queue in queues.csv")


def fmt(v, c):
    return "—" if v is None else f"{v:.{DEC[c]}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", default="4")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dur", default="20")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    res = load_results()
    for table in a.tables.split(","):
        rows = cells(table)
        for keys, p in rows:
            for s in range(1, a.seeds + 1):
                k = run_key(p, s, a.dur)
                if k not in res or not a.reuse:
                    res[k] = run_ns2(p, s, a.dur)
                    save_results(res)
        ours = run_qoslab(a.qoslab, table, a.seeds)
        rfc = {}
        for keys, p in rows:
            rs = [run_qoslab_rfc(a.qoslab, p, s) for s in range(1, a.seeds + 1)]
            rfc[p] = {c: sum(r[c] for r in rs) / len(rs) for c in COLS}
        print(f"\n### Table {table}{'a' if table == '4' else ''} (ns-2.35 and qoslab: mean of "
              f"seeds 1..{a.seeds}; diff = value - ns-2)\n")
        print("| " + " | ".join(keys for keys in rows[0][0]) +
              " | column | published | ns-2.35 | qoslab rfc | rfc - ns-2 | qoslab | "
              "qoslab - ns-2 | published - ns-2 |")
        print("|" + "---|" * (len(rows[0][0]) + 8))
        for keys, p in rows:
            runs = [res[run_key(p, s, a.dur)] for s in range(1, a.seeds + 1)]
            for c in COLS:
                k = tuple(sorted(keys.items())) + (("column", c),)
                if k not in ours:
                    continue
                ns = sum(r[c] for r in runs) / len(runs)
                q = float(ours[k]["ours_mean"])
                pub = ours[k]["published"]
                pub = float(pub) if pub not in ("", None) else None
                r = rfc[p][c]

                def d(x):
                    rel = f" ({100 * (x - ns) / ns:+.0f}%)" if ns and c != "ql_zero" else ""
                    return f"{x - ns:+.{DEC[c]}f}{rel}"
                dpub = "—" if pub is None else d(pub)
                print("| " + " | ".join(keys.values()) +
                      f" | {c} | {fmt(pub, c)} | {fmt(ns, c)} | {fmt(r, c)} | {d(r)} | "
                      f"{fmt(q, c)} | {d(q)} | {dpub} |")


if __name__ == "__main__":
    main()
