#!/usr/bin/env python3
"""Differential run of the RIO seed (Hori et al. 2001): published | ns-2.35 | qoslab per cell.

Two qoslab columns: `qoslab` is our reproduction (`qoslab reproduce`, base.toml as is: its TCP
has `ns2_compat = true`, the Reno of the seed's 2000-era ns-2), `qoslab rfc` is the same
scenario with `ns2_compat = false` (RFC-mode TCP, which for Reno is ns-2.35's Reno: it
waits for the timer after a second loss in a window), run with `qoslab run`. ns-2.35 runs
its own 2.35 TCP, so `qoslab rfc` is the like-for-like column.

usage: python3 bench/ns2/seeds/rio_hori2001.py [--tables 4,1,2,3] [--seeds N] [--dur S]
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
import qoslab_run  # noqa: E402

RESULTS = os.path.join(HERE, "measured", "rio_hori2001_ns2.csv")
COLS = ["ql_zero", "ql_ave", "ql_std", "throughput", "ql_p90", "ql_p99", "in_ldrops",
        "in_edrops"]
# Columns every run must have (older rows of the results file lack the later ones).
BASIC = COLS[:4]
DEC = {"ql_zero": 3, "ql_ave": 2, "ql_std": 2, "throughput": 2, "ql_p90": 1, "ql_p99": 1,
       "in_ldrops": 0, "in_edrops": 0}
W_IN = 0.002  # AF11's (In's) EWMA weight, the paper's
# Table 3's rows (withheld in the seed: our choice, as `qoslab reproduce` runs them), spelled
# as the reproduce CSV spells them.
TABLE3_W = ["0.002", "0.01", "0.05", "0.1", "0.2", "0.5", "1"]


def ns2_w_in_for(w):
    """ns-2 In weight making RIO-C's Out average the whole queue's (w_in = w_out), except at
    w_out = 1, where 0.999: with both weights 1 the averages are integers, count * p_b hits 1.0
    exactly and ns-2.35 dies with SIGFPE in dsredq.cc's p_a = p_b / (1 - count p_b) (finding 6).
    """
    return 0.999 if w == 1.0 else w


def cells(table):
    """(qoslab CSV keys, ns-2 run parameters, printed keys) per row of a table, in order.

    ns-2 run parameters: (tcp, minth_out, maxth_out, maxp_den, w_out, w_in)."""
    out = []
    if table == "4":
        for maxth in (150, 200, 250):
            for den in (10, 20, 50):
                keys = {"w_qout": "0.002", "maxth": str(maxth), "maxp": f"1/{den}"}
                out.append((keys, ("Reno", 60, maxth, den, 0.002, W_IN)))
    elif table == "1":
        for minth in (20, 40, 60, 80, 100):
            for tcp in ("Reno", "Newreno", "Sack"):
                out.append(({"minth_out": str(minth), "tcp": tcp},
                            (tcp, minth, 200, 10, 0.002, W_IN)))
    elif table == "2":
        for tcp in ("Reno", "Newreno", "Sack"):
            for den in (2, 5, 10, 20, 50, 100):
                out.append(({"tcp": tcp, "maxp": f"1/{den}"},
                            (tcp, 60, 200, den, 0.002, W_IN)))
    elif table == "3":
        # Two ns-2 rows per w_qout: RIO-C as it is (In weight 0.002, so its Out average is
        # qlen_Out + (0.002 / w_qout) qlen_In in steady state, not the whole queue) and RIO-C
        # with In's weight = w_qout (the paper's Out average; In's own average then moves
        # with w_qout too). Both against the same qoslab cell.
        for w in TABLE3_W:
            wf = float(w)
            for win, label in ((W_IN, "0.002 (as is)"), (ns2_w_in_for(wf), "= w_qout")):
                if win == W_IN and label == "= w_qout":
                    continue
                out.append(({"w_qout": w}, ("Reno", 60, 200, 10, wf, win),
                            {"w_qout": w, "ns-2 w_In": label if wf != 1.0 or win == W_IN
                             else "0.999"}))
    else:
        raise SystemExit(f"table {table}: only 1, 2, 3 and 4 (4a) are scripted")
    return [c if len(c) == 3 else (c[0], c[1], c[0]) for c in out]


def run_key(p, seed, dur):
    k = f"{p[0]} {p[1]} {p[2]} 1/{p[3]} {p[4]} seed={seed} dur={dur}"
    return k if p[5] == W_IN else k + f" w_in={p[5]}"


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[row["run"]] = {c: float(row[c]) if row.get(c) not in (None, "") else None
                                   for c in COLS}
    return res


def save_results(res):
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + COLS)
        for k in sorted(res):
            w.writerow([k] + ["" if res[k].get(c) is None else f"{res[k][c]:.6f}"
                              for c in COLS])


def run_ns2(p, seed, dur):
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        args = ["nice", "ns", os.path.join(HERE, "rio_hori2001.tcl"), p[0], str(p[1]), str(p[2]),
                str(p[3]), str(p[4]), str(seed), tr, str(dur), str(p[5])]
        r = subprocess.run(args, cwd=d, stdout=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise SystemExit(f"ns-2 failed (exit {r.returncode}): {' '.join(args)}")
        st = ns2trace.stats(tr, 5.0, float(dur))
        # dsRED printStats: per code point TotPkts TxPkts ldrops edrops (whole run); 10 = In.
        for line in r.stdout.splitlines():
            f = line.split()
            if len(f) == 5 and f[0] == "10":
                st["in_ldrops"], st["in_edrops"] = float(f[3]), float(f[4])
        return st


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
    tcp, minth, maxth, den, w, _w_in_ns2_only = p
    old_out = ("out = { min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 } }")
    assert old_out in base, "base.toml's AF12 line changed: update rio_hori2001.py"
    sc = base.replace(old_out, f"out = {{ min_th = {minth}, max_th = {maxth}, "
                      f"max_p = {1.0 / den!r}, w_q = {w!r} }} }}")
    assert 'variant = "reno"' in base and "ns2_compat = true" in base
    sc = sc.replace('variant = "reno"', f'variant = "{TCP_NAMES[tcp]}"')
    sc = sc.replace("ns2_compat = true", "ns2_compat = false")
    _, out = qoslab_run.run(exe, sc, seed, ["queues.csv"])
    for row in out["queues.csv"]:
        if row["link"] == "G1->G2":
            return {"ql_zero": float(row["ql_p_empty"]), "ql_ave": float(row["ql_mean"]),
                    "ql_std": float(row["ql_std"]),
                    "throughput": float(row["throughput_bps"]) / 1e6,
                    "ql_p90": float(row["ql_p90"]), "ql_p99": float(row["ql_p99"])}
    raise SystemExit("qoslab run: no G1->G2 queue in queues.csv")


def fmt(v, c):
    return "—" if v is None else f"{v:.{DEC[c]}f}"


def need(table):
    return BASIC + (["ql_p90", "ql_p99"] if table == "3" else [])


def spread(xs, c):
    return f"{min(xs):.{DEC[c]}f}..{max(xs):.{DEC[c]}f}"


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
        for keys, p, _ in rows:
            for s in range(1, a.seeds + 1):
                k = run_key(p, s, a.dur)
                have = k in res and all(res[k].get(c) is not None for c in need(table))
                if not have or not a.reuse:
                    res[k] = run_ns2(p, s, a.dur)
                    save_results(res)
        ours = run_qoslab(a.qoslab, table, a.seeds)
        rfc = {}
        for keys, p, _ in rows:
            if p[:5] not in rfc:
                rfc[p[:5]] = [run_qoslab_rfc(a.qoslab, p, s) for s in range(1, a.seeds + 1)]
        print(f"\n### Table {table}{'a' if table == '4' else ''} (ns-2.35 and qoslab: mean of "
              f"seeds 1..{a.seeds}, ranges over the seeds; diff = value - ns-2)\n")
        label0 = rows[0][2]
        print("| " + " | ".join(label0) +
              " | column | published | ns-2.35 | ns-2 range | qoslab rfc | rfc range | "
              "rfc - ns-2 | qoslab | qoslab - ns-2 | published - ns-2 |")
        print("|" + "---|" * (len(label0) + 10))
        for keys, p, label in rows:
            runs = [res[run_key(p, s, a.dur)] for s in range(1, a.seeds + 1)]
            for c in need(table):
                k = tuple(sorted(keys.items())) + (("column", c),)
                if k not in ours:
                    continue
                nsv = [r[c] for r in runs]
                ns = sum(nsv) / len(nsv)
                q = float(ours[k]["ours_mean"])
                pub = ours[k]["published"]
                pub = float(pub) if pub not in ("", None) else None
                rv = [r[c] for r in rfc[p[:5]]]
                r = sum(rv) / len(rv)

                def d(x):
                    rel = f" ({100 * (x - ns) / ns:+.0f}%)" if ns and c != "ql_zero" else ""
                    return f"{x - ns:+.{DEC[c]}f}{rel}"
                dpub = "—" if pub is None else d(pub)
                print("| " + " | ".join(label.values()) +
                      f" | {c} | {fmt(pub, c)} | {fmt(ns, c)} | {spread(nsv, c)} | {fmt(r, c)} | "
                      f"{spread(rv, c)} | {d(r)} | {fmt(q, c)} | {d(q)} | {dpub} |")
        if table == "3":
            print("\nns-2 In (AF11) drops over the whole run (dsRED printStats, per seed: "
                  "ldrops = forced/buffer, edrops = early):\n")
            for keys, p, label in rows:
                runs = [res[run_key(p, s, a.dur)] for s in range(1, a.seeds + 1)]
                print(f"- w_qout {label['w_qout']}, ns-2 w_In {label['ns-2 w_In']}: ldrops " +
                      ", ".join(f"{r['in_ldrops']:.0f}" for r in runs) + "; edrops " +
                      ", ".join(f"{r['in_edrops']:.0f}" for r in runs))


if __name__ == "__main__":
    main()
