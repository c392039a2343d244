#!/usr/bin/env python3
"""ns-2.35 test-suite-adaptive-red.tcl "red1Adapt" ported: ns-2.35 | qoslab, means over seeds.

ns-2: red1Adapt.tcl here (the suite's test stand-alone). First, with the suite's own seed
(the default RNG untouched), its r1->r2 packet trace is checked point by point against the
checked-in reference test-output-adaptive-red/red1Adapt.gz. Then seeds 1..N (seed 1 is the
default RNG's own seed, so seed 1 is the suite's run). qoslab: red1Adapt.toml here, as
written (our Adaptive RED, the paper's gentle line from the current max_p, no use_mark_p)
and with ns-2's two RED deviations on (`ns2_use_mark_p`, `ns2_gentle_initial_max_p`).

Compared on r1->r2 over 3..50 s, measured alike (../ns2trace.py for ns-2): the queue seen by
arrivals (mean, std, share empty, p90), throughput, drops; ns-2's max_p (sampled every 0.5 s)
is printed for orientation (ours is not an output).

usage: python3 bench/ns2/seeds/suite/red1Adapt.py [--seeds N]
Writes ns-2's per-seed values to crates/qoslab-sim/tests/data/ns2/suite_red1Adapt.csv (the
data of crates/qoslab-sim/tests/ns2_suite/ared.rs).
"""
import argparse
import csv
import os
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

DATA = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "suite_red1Adapt.csv")
COLS = ["ql_ave", "ql_std", "ql_zero", "ql_p90", "throughput", "drops"]
T0, T1 = 3.0, 50.0


def ns2(seed, check=False):
    with tempfile.TemporaryDirectory() as d:
        tr, rc = os.path.join(d, "q.tr"), os.path.join(d, "red.csv")
        out = subprocess.run(["nice", "ns", os.path.join(HERE, "red1Adapt.tcl"), str(seed), tr, rc],
                             check=True, cwd=d, capture_output=True, text=True).stdout.strip()
        ok = suiteref.check_packets("adaptive-red", "red1Adapt", tr, "2", "3") if check else None
        st = ns2trace.stats(tr, T0, T1)
        mp = [float(r["cur_max_p"]) for r in csv.DictReader(open(rc)) if T0 <= float(r["time_s"]) < T1]
    r = {c: float(st[c]) for c in COLS}
    r["max_p_mean"] = sum(mp) / len(mp)
    return r, ok, out


def ours(exe, seed, compat):
    sc = open(os.path.join(HERE, "red1Adapt.toml")).read()
    if compat:
        sc = sc.replace("adaptive = true }", "adaptive = true, ns2_use_mark_p = true, "
                        "ns2_gentle_initial_max_p = true }")
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        q = [r for r in csv.DictReader(open(os.path.join(d, "queues.csv"))) if r["link"] == "r1->r2"][0]
    return {"ql_ave": float(q["ql_mean"]), "ql_std": float(q["ql_std"]),
            "ql_zero": float(q["ql_p_empty"]), "ql_p90": float(q["ql_p90"]),
            "throughput": float(q["throughput_bps"]) / 1e6,
            "drops": float(q["drops_early"]) + float(q["drops_forced"]) + float(q["drops_overflow"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    _, ok, out0 = ns2(0, check=True)
    print("ns-2 (suite seed):", out0)
    seeds = range(1, a.seeds + 1)
    n = {s: ns2(s)[0] for s in seeds}
    with open(DATA, "w", newline="") as f:
        f.write("# ns-2.35 (Debian package ns2 2.35): tcl/test/test-suite-adaptive-red.tcl test "
                "\"red1Adapt\", stand-alone as\n# bench/ns2/seeds/suite/red1Adapt.tcl (written for "
                "qoslab, issue 14), run by bench/ns2/seeds/suite/red1Adapt.py;\n# with the suite's "
                "seed its r1->r2 trace equals test-output-adaptive-red/red1Adapt.gz "
                f"({'checked' if ok else 'NOT EQUAL'}).\n# r1->r2 over [{T0}, {T1}) s, "
                "bench/ns2/seeds/ns2trace.py: queue seen by arrivals (mean, std, share empty, "
                "p90),\n# throughput (Mb/s), drops; max_p_mean: ns-2's cur_max_p_ sampled every "
                "0.5 s.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["seed"] + COLS + ["max_p_mean"])
        for s in seeds:
            w.writerow([s] + [f"{n[s][c]:.6f}" for c in COLS + ["max_p_mean"]])
    o = {s: ours(a.qoslab, s, False) for s in seeds}
    oc = {s: ours(a.qoslab, s, True) for s in seeds}
    print(f"\n### test-suite-adaptive-red red1Adapt (r1->r2, {T0:g}..{T1:g} s; mean of seeds "
          f"1..{a.seeds}, ranges)\n")
    print("| column | ns-2.35 | ns-2 range | qoslab | qoslab range | qoslab - ns-2 | "
          "qoslab ns-2 RED options | options - ns-2 |")
    print("|" + "---|" * 8)
    for c in COLS:
        nv, ov, cv = ([d[s][c] for s in seeds] for d in (n, o, oc))
        nm, om, cm = (sum(v) / len(v) for v in (nv, ov, cv))

        def d(x):
            return f"{x - nm:+.3f}" + (f" ({100 * (x - nm) / nm:+.1f}%)" if nm else "")
        print(f"| {c} | {nm:.3f} | {min(nv):.3f}..{max(nv):.3f} | {om:.3f} | "
              f"{min(ov):.3f}..{max(ov):.3f} | {d(om)} | {cm:.3f} | {d(cm)} |")
    mp = [n[s]["max_p_mean"] for s in seeds]
    print(f"\nns-2 max_p over {T0:g}..{T1:g} s: mean {sum(mp) / len(mp):.4f} "
          f"(seeds {min(mp):.4f}..{max(mp):.4f})")


if __name__ == "__main__":
    main()
