#!/usr/bin/env python3
"""Adaptive RED in both simulators (finding 13): max_p and the average queue of R1 -> R2
sampled every 0.5 s (at k x 0.5 + 0.25 s, between possible max_p changes), and the long-lived
TCP flows' sent / retransmitted packets, timeouts and drops over 50..100 s.

ns-2: bench/ns2/seeds/rfc4828_b3.tcl with RED_SAMPLE=<file> (ns-2's RED settings after reset,
then `t cur_max_p_ ave_ curq_`) and its "tcpflow" lines. qoslab: needs a binary built with
probes/ared_maxp_debug.patch applied (a local instrumentation of sim.rs, not committed to the
engine: with QOSLAB_DEBUG_MAXP set, every queue sample prints `MAXP t link max_p avg bytes`
to stderr), run on the scenario rfc4828_b3.py writes plus [output] sample_interval 250 ms.

usage: git apply bench/ns2/seeds/probes/ared_maxp_debug.patch && cargo build --release -p qoslab
       python3 bench/ns2/seeds/probes/ared_trajectory.py [--queue ared-b] [--seeds 3]
       git checkout crates/qoslab-sim/src/sim.rs
"""
import argparse
import json
import os
import re
import statistics as st
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import rfc4828_b3 as b3  # noqa: E402

ROOT = b3.ROOT


def ns2_run(queue, n, seed, d):
    f = os.path.join(d, "ns2_red.txt")
    out = subprocess.run(["nice", "ns", os.path.join(b3.HERE, "rfc4828_b3.tcl"), str(n), queue,
                          str(seed)], check=True, capture_output=True, text=True, cwd=d,
                         env={**os.environ, "RED_SAMPLE": f}).stdout
    traj, params = {}, ""
    for line in open(f):
        if line.startswith("#"):
            params = params or line.strip()
            continue
        t, mp, av, _ = line.split()
        traj[round(float(t), 3)] = (float(mp), float(av))
    flows = {int(m.group(1)): [int(x) for x in m.groups()[1:]] for m in re.finditer(
        r"tcpflow=(\d+) sent=(\d+) rexmit=(\d+) timeouts=(\d+) arrivals=(\d+) drops=(\d+)", out)}
    return traj, flows, params


def ours_run(exe, queue, n, seed, d):
    sc = b3.scenario(queue, 1460, n) + '\n[output]\nsample_interval = "250ms"\nmonitor = ["R1->R2"]\n'
    f = os.path.join(d, "s.toml")
    open(f, "w").write(sc)
    err = subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"],
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "QOSLAB_DEBUG_MAXP": "1"}).stderr
    traj = {}
    for line in err.splitlines():
        p = line.split()
        if len(p) == 6 and p[0] == "MAXP" and p[2] == "0":
            t = round(float(p[1]), 3)
            if abs((t * 4) % 2 - 1) < 1e-6:
                traj[t] = (float(p[3]), float(p[4]))
    if not traj:
        raise SystemExit("no MAXP lines: build qoslab with probes/ared_maxp_debug.patch")
    r = json.load(open(os.path.join(d, "summary.json")))
    flows = {}
    for i in range(1, 6):
        m = [x for x in r["flows"] if x["name"] == f"tcp{i}"][0]["measured"]
        flows[i] = [m["data_pkts"], m["retx_pkts"], m["timeouts"], m["data_dropped"],
                    m["fast_recoveries"]]
    return traj, flows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", default="ared-b")
    ap.add_argument("--sessions", type=int, default=25)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    print(f"### Adaptive RED trajectories, queue {a.queue}, {a.sessions} sessions, 50..100 s\n")
    print("| seed | sim | max_p mean | max_p min..max | avg queue mean (B) | sd | share < 4500 B "
          "| share > 5500 B | share > 7500 B | TCP sent / retx / timeouts / drops |")
    print("|" + "---|" * 10)
    params = ""
    for s in range(1, a.seeds + 1):
        with tempfile.TemporaryDirectory() as d:
            nt, nf, params = ns2_run(a.queue, a.sessions, s, d)
        with tempfile.TemporaryDirectory() as d:
            ot, of = ours_run(a.qoslab, a.queue, a.sessions, s, d)
        ts = [t for t in sorted(nt) if t in ot and 50 <= t < 100]
        for name, tr, fl in (("ns-2.35", nt, nf), ("qoslab", ot, of)):
            mp = [tr[t][0] for t in ts]
            av = [tr[t][1] for t in ts]
            tot = [sum(fl[i][k] for i in fl) for k in range(4)] if name == "qoslab" else \
                [sum(fl[i][k] for i in fl) for k in (0, 1, 2, 4)]
            print(f"| {s} | {name} | {st.mean(mp):.4f} | {min(mp):.4f}..{max(mp):.4f} | "
                  f"{st.mean(av):.0f} | {st.pstdev(av):.0f} | {sum(x < 4500 for x in av) / len(av):.2f} | "
                  f"{sum(x > 5500 for x in av) / len(av):.2f} | {sum(x > 7500 for x in av) / len(av):.2f} | "
                  f"{' / '.join(map(str, tot))} |")
    print(f"\nns-2's RED after reset (last seed): `{params}`")


if __name__ == "__main__":
    main()
