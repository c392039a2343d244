#!/usr/bin/env python3
"""ns-2.35 test-suite-rio.tcl cases ported: ns-2.35 | qoslab, means over seeds.

ns-2: the suite's test itself, unmodified, run by rio.tcl with a seed of the default RNG
(RIO's drop decisions are the only randomness). With the suite's own seed its r1->r2 packet
trace is first checked point by point against the checked-in test-output-rio/<case>.gz;
then seeds 1..N. qoslab: rio_notGentle.toml (case notGentle), or the same file with the
strict test's settings (case strict: In 10..20, Out 3..9, both max_p 0.1; no gentle region:
`Queue/RED/RIO set gentle_ false` in ns-2.35's ns-default.tcl, unlike Queue/RED's true, and
the strict test sets none of gentle_ / in_gentle_ / out_gentle_ — the running queue prints
0 for all three. Session 9 had turned gentle on here; corrected in session 10, finding 34).

Three qoslab columns (with_mode): our default RIO; "rio.cc" (`wait`, rio.cc's sampling: finding
33); "ns2-rules" (also rio.cc's Out count kept at forced drops and ns-2's ssthresh at every
timeout: finding 34).

Compared on r1->r2 over 1..20 s (tcp2, the In flow, starts at 1 s): per flow, data packets
dequeued (ns-2 '-' events; ours: delivered data packets) and dropped; the queue seen by
arrivals (../ns2trace.py) and the link's throughput.

usage: python3 bench/ns2/seeds/suite/rio.py [--case notGentle|strict] [--seeds N]
Writes ns-2's per-seed values to crates/qoslab-sim/tests/data/ns2/suite_rio_<case>.csv (the
data of crates/qoslab-sim/tests/ns2_suite/riocase.rs).
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
ROOT = os.path.abspath(os.path.join(SEEDS_DIR, "..", "..", ".."))
sys.path.insert(0, SEEDS_DIR)
sys.path.insert(0, HERE)
import ns2trace  # noqa: E402
import suiteref  # noqa: E402

DATA = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "suite_rio_{}.csv")
EXE = os.path.join(ROOT, "target", "release", "qoslab")
COLS = ["out_pkts", "out_drops", "in_pkts", "in_drops", "ql_ave", "ql_std", "throughput"]
T0, T1 = 1.0, 20.0
NOTGENTLE = ('in = { min_th = 3, max_th = 15, max_p = 0.02, w_q = 0.002 }, '
             'out = { min_th = 3, max_th = 15, max_p = 0.005, w_q = 0.002 }')
STRICT = ('in = { min_th = 10, max_th = 20, max_p = 0.1, w_q = 0.002 }, '
          'out = { min_th = 3, max_th = 9, max_p = 0.1, w_q = 0.002 }')


def scenario(case):
    sc = open(os.path.join(HERE, "rio_notGentle.toml")).read()
    if case == "strict":
        assert sc.count(NOTGENTLE) == 2
        sc = sc.replace(NOTGENTLE, STRICT)
    return sc


def ns2(case, seed, check=False):
    with tempfile.TemporaryDirectory() as d:
        for f in ("test-suite-rio.tcl", "misc_simple.tcl"):
            shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
        subprocess.run(["nice", "ns", os.path.join(HERE, "rio.tcl"), case, str(seed)], cwd=d,
                       capture_output=True)
        tr = os.path.join(d, "all.tr")
        ok = suiteref.check_packets("rio", case, tr, "2", "3") if check else None
        q = os.path.join(d, "q.tr")
        n = {"-0": 0, "d0": 0, "-1": 0, "d1": 0}
        with open(tr) as f, open(q, "w") as g:
            for line in f:
                x = line.split()
                if x[2] == "2" and x[3] == "3":
                    g.write(line)
                    if x[4] == "tcp" and x[0] in "-d" and T0 <= float(x[1]) < T1:
                        n[x[0] + x[7]] += 1
        st = ns2trace.stats(q, T0, T1)
    return {"out_pkts": n["-0"], "out_drops": n["d0"], "in_pkts": n["-1"], "in_drops": n["d1"],
            "ql_ave": st["ql_ave"], "ql_std": st["ql_std"], "throughput": st["throughput"]}, ok


MODES = ("default", "rio.cc", "ns2-rules")


def with_mode(sc, mode):
    """Our RIO and TCP per mode: "default" as the file (Clark & Fang's RIO, RFC TCP);
    "rio.cc" adds ns-2's `wait` and rio.cc's sampling (session 9/10); "ns2-rules" also rio.cc's
    Out count kept at forced drops and ns-2's ssthresh at every timeout (session 11,
    finding 34)."""
    if mode == "default":
        return sc
    rio_cc = 'mean_pkt_size = "500B", wait = true, ns2_avg_on_in_arrivals = true, '
    if mode == "ns2-rules":
        rio_cc += "ns2_out_forced_keeps_count = true, "
        tcp = 'clock_granularity = "100ms"\n'
        assert sc.count(tcp) == 1
        sc = sc.replace(tcp, tcp + 'rto_ssthresh = "ns2-half-window"\n')
    assert sc.count('mean_pkt_size = "500B", in =') == 2
    return sc.replace('mean_pkt_size = "500B", in =', rio_cc + "in =")


def ours(case, seed, mode="default"):
    sc = with_mode(scenario(case), mode)
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", EXE, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        fl = {r["flow"]: r for r in csv.DictReader(open(os.path.join(d, "flows.csv")))}
        q = [r for r in csv.DictReader(open(os.path.join(d, "queues.csv"))) if r["link"] == "r1->r2"][0]
    return {"out_pkts": int(fl["tcp1"]["delay_pkts"]), "out_drops": int(fl["tcp1"]["data_dropped"]),
            "in_pkts": int(fl["tcp2"]["delay_pkts"]), "in_drops": int(fl["tcp2"]["data_dropped"]),
            "ql_ave": float(q["ql_mean"]), "ql_std": float(q["ql_std"]),
            "throughput": float(q["throughput_bps"]) / 1e6}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=["notGentle", "strict"], default="notGentle")
    ap.add_argument("--seeds", type=int, default=10)
    a = ap.parse_args()
    _, ok = ns2(a.case, 0, check=True)
    seeds = range(1, a.seeds + 1)
    n = {s: ns2(a.case, s)[0] for s in seeds}
    with open(DATA.format(a.case), "w", newline="") as f:
        f.write(f"# ns-2.35 (Debian package ns2 2.35): tcl/test/test-suite-rio.tcl test \"{a.case}\", "
                "unmodified, run by\n# bench/ns2/seeds/suite/rio.tcl (default RNG seeded) from "
                "bench/ns2/seeds/suite/rio.py; with the suite's seed\n# its r1->r2 trace equals "
                f"test-output-rio/{a.case}.gz ({'checked' if ok else 'NOT EQUAL'}). Over [{T0}, {T1}) s "
                "on r1->r2: data packets dequeued\n# and dropped of tcp1 (fid 0, Out) and tcp2 "
                "(fid 1, In); queue seen by arrivals (ns2trace.py); throughput Mb/s.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["seed"] + COLS)
        for s in seeds:
            w.writerow([s] + [n[s][c] if isinstance(n[s][c], int) else f"{n[s][c]:.6f}" for c in COLS])
    o = {m: {s: ours(a.case, s, m) for s in seeds} for m in MODES}
    print(f"\n### test-suite-rio {a.case} (r1->r2, {T0:g}..{T1:g} s; mean of seeds 1..{a.seeds}, "
          "ranges)\n")
    print("qoslab: Clark & Fang's RIO (our default); rio.cc: with `wait = true` and "
          "`ns2_avg_on_in_arrivals = true` (ns-2.35 queue/rio.cc); ns2-rules: rio.cc plus "
          "`ns2_out_forced_keeps_count = true` and TCP `rto_ssthresh = \"ns2-half-window\"`\n")
    print("| column | ns-2.35 | ns-2 range | qoslab | - ns-2 | rio.cc | rio.cc range | - ns-2 | "
          "ns2-rules | ns2-rules range | - ns-2 |")
    print("|" + "---|" * 11)
    for c in COLS:
        nv = [n[s][c] for s in seeds]
        nm = sum(nv) / len(nv)
        row = f"| {c} | {nm:.3f} | {min(nv):.3f}..{max(nv):.3f} |"
        for m in MODES:
            v = [o[m][s][c] for s in seeds]
            vm = sum(v) / len(v)
            rng = "" if m == "default" else f" {min(v):.3f}..{max(v):.3f} |"
            row += f" {vm:.3f} |{rng} {100 * (vm - nm) / nm:+.1f}% |"
        print(row)


if __name__ == "__main__":
    main()
