#!/usr/bin/env python3
"""RIO seed with ns-2.35's dsRED p_a capped (issue 14, DONE_WHEN.md section 5 item 7; README 14).

Re-runs Table 1 (minth_out 20 and 40) and Table 4a of the RIO seed with a second ns-2.35 binary
whose diffserv/dsredq.cc caps p_a = p_b / (1 - count p_b) at 1 once count p_b >= 1, as ns-2's
own queue/red.cc does (bench/ns2/build_capped_ns2.sh, bench/ns2/dsredq_cap.patch), and prints
per cell: published | ns-2.35 as shipped (Debian /usr/bin/ns) | ns-2.35 capped | qoslab rfc
(base.toml with ns2_compat = false, the like-for-like column of README section 1), with the
differences, mean of seeds 1..N; and a second qoslab column, **rfc+hw**: the same with
`rto_ssthresh = "ns2-half-window"` (ns-2.35's TCP sets ssthresh = max(cwnd/2, 2) at every
timeout, finding 34; an ns-2 deviation, option off by default), which is finding 43's
explanation. Besides the queue statistics of README section 1 it gives the
bottleneck's drops in 5..20 s, split by dsRED printStats into early (edrops) and forced or
buffer drops (ldrops), In + Out, against ours (drops_early, drops_forced + drops_overflow).

usage: python3 bench/ns2/seeds/rio_capped.py [--seeds N] [--capped PATH] [--shipped PATH]
                                             [--tables 1,4] [--minth 20,40] [--reuse]
                                             [--qoslab PATH]

--tables takes 1 (minth_out 20 and 40 unless --minth names others, e.g. --minth 80,100),
2 (all 18 cells), 3 (each w_qout with ns-2's In weight as is and = w_qout, as rio_hori2001.py
runs it; adds the 90th/99th percentiles) and 4 (Table 4a).

ns-2 per-run values of both binaries are kept in measured/rio_capped_ns2.csv (--reuse reads
them). Runs are sequential (one core; the caller should run this under nice -n 19).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ns2trace  # noqa: E402
import qoslab_run  # noqa: E402
import rio_hori2001 as rio  # noqa: E402

RESULTS = os.path.join(HERE, "measured", "rio_capped_ns2.csv")
COLS = ["ql_zero", "ql_ave", "ql_std", "throughput", "drops", "early", "forced"]
# Table 3's percentiles (older rows of the results file lack them).
PCT = ["ql_p90", "ql_p99"]
DEC = {"ql_zero": 3, "ql_ave": 2, "ql_std": 2, "throughput": 2, "drops": 0, "early": 0,
       "forced": 0, "ql_p90": 1, "ql_p99": 1}
# The bounds: 5 % on throughput, 10 % on queue and drop statistics.
BOUND = {"ql_ave": 10, "ql_std": 10, "throughput": 5, "drops": 10, "early": 10, "forced": 10,
         "ql_p90": 10, "ql_p99": 10}


def cols_for(t):
    return COLS + (PCT if t == "3" else [])


def cells(tables, minths=(20, 40)):
    out = []
    for t in tables:
        for keys, p, label in rio.cells(t):
            if t == "1" and p[1] not in minths:
                continue
            out.append((t, keys, p, label))
    return out


def published():
    """Published values from the checked-in section 1 tables (measured/rio_hori2001_table*.md)."""
    pub = {}
    for t, name in (("1", "rio_hori2001_table1.md"), ("2", "rio_hori2001_table2.md"),
                    ("4", "rio_hori2001_table4a.md")):
        with open(os.path.join(HERE, "measured", name)) as f:
            head = None
            for line in f:
                if not line.startswith("|") or line.startswith("|---"):
                    continue
                cols = [c.strip() for c in line.strip().strip("|").split("|")]
                if head is None:
                    head = cols
                    continue
                row = dict(zip(head, cols))
                lab = tuple(row[h] for h in head[:head.index("column")])
                pub[(t, lab, row["column"])] = row["published"]
    return pub


def run_ns2(exe, p, seed, dur="20", extra=(), nice=("nice",)):
    """One ns-2 run of rio_hori2001.tcl (`extra`: its optional MRED-mode and series-file
    arguments); the queue statistics of section 1 and the 5 s..end drops split by dsRED
    printStats."""
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        args = [*nice, exe, os.path.join(HERE, "rio_hori2001.tcl"), p[0], str(p[1]), str(p[2]),
                str(p[3]), str(p[4]), str(seed), tr, dur, str(p[5]), *extra]
        r = subprocess.run(args, cwd=d, stdout=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise SystemExit(f"ns-2 failed (exit {r.returncode}): {' '.join(args)}")
        st = ns2trace.stats(tr, 5.0, float(dur))
    # dsRED printStats at 5 s and at the end: code points 10 (In), 11 (Out): TotPkts TxPkts
    # ldrops edrops; the window's counts are end - 5 s.
    tabs = [{}]
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 5 and f[0] in ("10", "11"):
            if f[0] in tabs[-1]:
                tabs.append({})
            tabs[-1][f[0]] = (int(f[3]), int(f[4]))
    ld = sum(tabs[-1][c][0] - tabs[0][c][0] for c in ("10", "11"))
    ed = sum(tabs[-1][c][1] - tabs[0][c][1] for c in ("10", "11"))
    return {"ql_zero": st["ql_zero"], "ql_ave": st["ql_ave"], "ql_std": st["ql_std"],
            "throughput": st["throughput"], "drops": st["drops"], "early": ed, "forced": ld,
            "ql_p90": st["ql_p90"], "ql_p99": st["ql_p99"]}


def scenario(p, mode):
    """base.toml with AF12's RIO settings of `p` and TCP mode `mode`: "rfc" (our RFC-mode TCP,
    `ns2_compat = false`), "rfc+hw" (the same with ns-2's timeout ssthresh rule, finding 43) or
    "repro" (the reproduction's own TCP, base.toml's `ns2_compat = true`)."""
    base = open(os.path.join(rio.ROOT, "scenarios", "rio-hori2001", "base.toml")).read()
    tcp, minth, maxth, den, w, _ = p
    old_out = "out = { min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 } }"
    assert old_out in base, "base.toml's AF12 line changed: update rio_capped.py"
    sc = base.replace(old_out, f"out = {{ min_th = {minth}, max_th = {maxth}, "
                      f"max_p = {1.0 / den!r}, w_q = {w!r} }} }}")
    sc = sc.replace('variant = "reno"', f'variant = "{rio.TCP_NAMES[tcp]}"')
    if mode != "repro":
        sc = sc.replace("ns2_compat = true", "ns2_compat = false" + (
            '\nrto_ssthresh = "ns2-half-window"' if mode == "rfc+hw" else ""))
    return sc


def g1g2_stats(out):
    """The core queue's statistics from a `qoslab run`'s queues.csv rows."""
    for row in out["queues.csv"]:
        if row["link"] == "G1->G2":
            e, fo, ov = (int(row[k]) for k in ("drops_early", "drops_forced", "drops_overflow"))
            return {"ql_zero": float(row["ql_p_empty"]), "ql_ave": float(row["ql_mean"]),
                    "ql_std": float(row["ql_std"]),
                    "throughput": float(row["throughput_bps"]) / 1e6,
                    "drops": e + fo + ov, "early": e, "forced": fo + ov,
                    "ql_p90": float(row["ql_p90"]), "ql_p99": float(row["ql_p99"])}
    raise SystemExit("qoslab run: no G1->G2 queue in queues.csv")


def run_ours(exe, p, seed, half_window=False):
    sc = scenario(p, "rfc+hw" if half_window else "rfc")
    _, out = qoslab_run.run(exe, sc, seed, ["queues.csv"])
    return g1g2_stats(out)


def load():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[row["run"]] = {c: float(row[c]) if row.get(c) not in (None, "") else None
                                   for c in COLS + PCT}
    return res


def save(res):
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + COLS + PCT)
        for k in sorted(res):
            w.writerow([k] + ["" if res[k].get(c) is None else f"{res[k][c]:.6f}"
                              for c in COLS + PCT])


def mean(xs):
    return sum(xs) / len(xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--tables", default="1,4")
    ap.add_argument("--capped", default="/work/ns2-capped/ns-capped")
    ap.add_argument("--shipped", default="ns")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--minth", default="20,40", help="Table 1's minth_out values (of 20..100)")
    ap.add_argument("--qoslab", default=os.path.join(rio.ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    res = load()
    pub = published()
    rows = cells(a.tables.split(","), [int(m) for m in a.minth.split(",")])
    for t, keys, p, label in rows:
        for s in range(1, a.seeds + 1):
            for name, exe in (("shipped", a.shipped), ("capped", a.capped)):
                k = f"{name} {rio.run_key(p, s, '20')}"
                if k not in res or not a.reuse or any(res[k].get(c) is None
                                                       for c in cols_for(t)):
                    res[k] = run_ns2(exe, p, s)
                    save(res)
    for t in a.tables.split(","):
        print(f"\n### Table {t}{'a' if t == '4' else ''}: published | ns-2.35 as shipped | "
              f"ns-2.35 capped | qoslab rfc (mean of seeds 1..{a.seeds}; diff = value - capped;"
              f" drops: 5..20 s, early / forced + overflow)\n")
        trows = [r for r in rows if r[0] == t]
        lab0 = list(trows[0][3].keys())
        print("| " + " | ".join(lab0) + " | column | published | ns-2 shipped | ns-2 capped | "
              "qoslab rfc | rfc range | capped - shipped | rfc - capped | in bound | "
              "qoslab rfc+hw | rfc+hw - capped | in bound |")
        print("|" + "---|" * (len(lab0) + 12))
        for _, keys, p, label in trows:
            sh = [res[f"shipped {rio.run_key(p, s, '20')}"] for s in range(1, a.seeds + 1)]
            ca = [res[f"capped {rio.run_key(p, s, '20')}"] for s in range(1, a.seeds + 1)]
            ou = [run_ours(a.qoslab, p, s) for s in range(1, a.seeds + 1)]
            hw = [run_ours(a.qoslab, p, s, True) for s in range(1, a.seeds + 1)]
            for c in cols_for(t):
                vs, vc, vo, vh = (mean([r[c] for r in x]) for x in (sh, ca, ou, hw))
                pv = pub.get((t, tuple(label.values()), c), "—")

                def d(x, ref):
                    rel = f" ({100 * (x - ref) / ref:+.0f}%)" if ref and c != "ql_zero" else ""
                    return f"{x - ref:+.{DEC[c]}f}{rel}"
                def ok(x):
                    if c in BOUND and vc:
                        return "yes" if abs(100 * (x - vc) / vc) <= BOUND[c] else "no"
                    return "—"
                rng = f"{min(r[c] for r in ou):.{DEC[c]}f}..{max(r[c] for r in ou):.{DEC[c]}f}"
                print("| " + " | ".join(label.values()) + f" | {c} | {pv} | {vs:.{DEC[c]}f} | "
                      f"{vc:.{DEC[c]}f} | {vo:.{DEC[c]}f} | {rng} | {d(vc, vs)} | {d(vo, vc)} | "
                      f"{ok(vo)} | {vh:.{DEC[c]}f} | {d(vh, vc)} | {ok(vh)} |", flush=True)


if __name__ == "__main__":
    main()
