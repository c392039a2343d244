#!/usr/bin/env python3
"""ns-2.35 test-suite-newreno.tcl cases ported: ns-2.35 | qoslab on one deterministic run.

ns-2: newreno.tcl here (the suite's tests stand-alone, case on the command line); its trace
is first checked point by point against the suite's checked-in reference output
test-output-newreno/<case>.gz: raw2xg's "packets" series (every enqueue and dequeue of a TCP
packet on r1->k1 at (time, 1 + (seqno mod 90) / 100), fid 1), its "drops" series, and the
"acks" series of the ACKs on k1->r1. qoslab: newreno.toml here (mapping in its header),
rewritten per case (variant, Limited Transmit, ns2_compat, drop list).

Compared: the r1->k1 queue's counters of data packets (arrivals = ns-2's '+', dequeues '-',
drops 'd', the scripted drops included) at checkpoints every 10 ms from 1.21 s to 5.99 s,
each at least 0.5 ms away from any ns-2 event on that link; ours from runs cut at the
checkpoint (`duration` = the checkpoint: a run covers [0, duration)); and the whole run's
totals: retransmissions, timeouts. With --write, the ns-2 side of the ported cases goes to
crates/qoslab-sim/tests/data/ns2/suite_newreno_<case>.csv (the data of
crates/qoslab-sim/tests/ns2_suite/newreno.rs).

usage: python3 bench/ns2/seeds/suite/newreno.py [--case NAME ...] [--write]
"""
import argparse
import gzip
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
REF = "/usr/share/doc/ns2/examples/tcl/test/test-output-newreno/{}.gz"
DATA = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "suite_newreno_{}.csv")
EXE = os.path.join(ROOT, "target", "release", "qoslab")
WRAP = 90
DROPS3 = "[13, 25, 27]"
DROPS9 = "[13, 14, 15, 16, 17, 18, 19, 20, 24]"
# case: (our variant, Limited Transmit, ns2_compat, drop list in our count)
CASES = {
    "newreno_B": ("newreno", True, False, DROPS3),
    "newreno_B_noLT": ("newreno", False, False, DROPS3),
    "newreno": ("newreno", True, False, DROPS3),
    "newreno_noLT": ("newreno", False, False, DROPS3),
    "reno": ("reno", True, True, DROPS3),
    "reno_noLT": ("reno", False, True, DROPS3),
    "newreno1": ("newreno", True, False, DROPS9),
    "newreno1_BF": ("newreno", True, False, DROPS9),
    "reno1": ("reno", True, True, DROPS9),
    "newreno1_B": ("newreno", True, False, DROPS9),
    # not a suite test (no reference output): Sack1 with the drops of "newreno"
    "sack_drops3": ("sack", True, False, DROPS3),
}


def ref_series(case):
    """The reference file's named series (first occurrence of each name), as lists of
    (time, y) strings."""
    out = {}
    for blk in gzip.open(REF.format(case), "rt").read().split("\n\n"):
        lines = blk.strip().split("\n")
        if lines and lines[0].startswith('"') and lines[0][1:] not in out:
            out[lines[0][1:]] = [tuple(x.split()) for x in lines[1:] if x.strip()]
    return out


def ns2_trace(case, d):
    tr, smp = os.path.join(d, "all.tr"), os.path.join(d, "samples.csv")
    res = subprocess.run(["ns", os.path.join(HERE, "newreno.tcl"), case, tr, smp], check=True,
                         cwd=d, capture_output=True, text=True).stdout.strip()
    ev = [l.split() for l in open(tr)]
    return ev, res


def y(seq):
    v = 1 + int(seq) % WRAP * 0.01
    return "%g" % v


def check_reference(case, ev):
    if not os.path.exists(REF.format(case)):
        print(f"{case}: no reference output in the suite (not a suite test)")
        return False
    ref = ref_series(case)
    pk = [(f[1], y(f[10])) for f in ev if f[0] in "+-" and f[2] == "2" and f[3] == "3"
          and f[4] == "tcp"]
    dr = [(f[1], y(f[10])) for f in ev if f[0] == "d" and f[2] == "2" and f[3] == "3"]
    ak = [(f[1], y(f[10])) for f in ev if f[0] in "+-" and f[2] == "3" and f[3] == "2"
          and f[4] == "ack"]
    ok = [pk == ref["packets"], sorted(set(dr)) == sorted(set(ref["drops"])), ak == ref["acks"]]
    print(f"ns-2.35 today vs test-output-newreno/{case}.gz: packets {len(pk)}/"
          f"{len(ref['packets'])}, drops {len(dr)}/{len(set(ref['drops']))}, acks {len(ak)}/"
          f"{len(ref['acks'])}: {'identical' if all(ok) else 'DIFFERENT ' + str(ok)}")
    return all(ok)


def ns2_counts(ev):
    """Events of 1040-byte data packets on r1->k1: (time, kind)."""
    return [(float(f[1]), f[0]) for f in ev
            if f[2] == "2" and f[3] == "3" and f[4] == "tcp" and f[5] == "1040"
            and f[0] in "+-d"]


def counts_at(evs, t):
    c = {"+": 0, "-": 0, "d": 0}
    for te, k in evs:
        if te < t:
            c[k] += 1
    return c["+"], c["-"], c["d"]


def checkpoints(evs):
    return [i / 100 for i in range(121, 600)
            if all(abs(i / 100 - te) >= 0.0005 for te, _ in evs)]


def scenario(case, t=None):
    variant, lt, ns2, drops = CASES[case]
    sc = open(os.path.join(HERE, "newreno.toml")).read()
    for a, b in [('variant = "newreno"', f'variant = "{variant}"'),
                 ("limited_transmit = true", f"limited_transmit = {str(lt).lower()}"),
                 (f"drop_list = {DROPS3}", f"drop_list = {drops}")]:
        assert a in sc, a
        sc = sc.replace(a, b)
    if ns2:
        sc += "ns2_compat = true\n"
    if t is not None:
        sc = sc.replace('duration = "6s"', f'duration = "{round(t * 1e6)}us"')
    return sc


def ours(case, t, d):
    f = os.path.join(d, "s.toml")
    open(f, "w").write(scenario(case, t))
    subprocess.run([EXE, "run", f, "--out", d, "-q"], check=True)
    q = [l.strip().split(",") for l in open(os.path.join(d, "queues.csv"))]
    r = dict(zip(q[0], [x for x in q if x[0] == "r1->k1"][0]))
    fl = [l.strip().split(",") for l in open(os.path.join(d, "flows.csv"))]
    fr = dict(zip(fl[0], fl[1]))
    tot = json.load(open(os.path.join(d, "summary.json")))["flows"][0]["total"]
    fr["timeouts"], fr["fast_recoveries"] = tot["timeouts"], tot["fast_recoveries"]
    drops = sum(int(r[k]) for k in ("drops_overflow", "drops_early", "drops_forced", "drops_loss"))
    return (int(r["arrivals"]), int(r["departures"]), drops), fr


def run_case(case, write):
    with tempfile.TemporaryDirectory() as d:
        ev, res = ns2_trace(case, d)
    ok = check_reference(case, ev)
    print("ns-2 sender at 6 s:", res)
    evs = ns2_counts(ev)
    cps = checkpoints(evs)
    rows = [(t,) + counts_at(evs, t) for t in cps]
    tot = counts_at(evs, 6.0)
    seen, retx = set(), 0
    for f in ev:  # data segments the sender puts on s1->r1 a second time
        if f[0] == "+" and f[2] == "0" and f[3] == "2" and f[4] == "tcp" and f[5] == "1040":
            retx += f[10] in seen
            seen.add(f[10])
    nrexmit = res.split("nrexmit=")[1].split()[0]
    if write:
        with open(DATA.format(case), "w") as f:
            f.write(f"# ns-2.35 (Debian package ns2 2.35) reference: tcl/test/test-suite-newreno.tcl test "
                    f"\"{case}\" (net4,\n# one TCP flow, ErrorModel/List drops), stand-alone as "
                    "bench/ns2/seeds/suite/newreno.tcl (written for qoslab,\n# issue 14), run as "
                    f"`ns newreno.tcl {case} all.tr samples.csv` by bench/ns2/seeds/suite/newreno.py, "
                    "whose\n# trace equals the suite's checked-in test-output-newreno/"
                    f"{case}.gz point by point ({'checked' if ok else 'NOT EQUAL'}).\n"
                    "# Data packets (1040 B) on r1->k1 counted over [0, t_s): arrivals (enqueues "
                    "'+'),\n# departures (dequeues, '-'), drops ('d', the scripted drops "
                    "included). Checkpoints every 10 ms, 0.5 ms clear of any event.\n"
                    f"# Last row (t_s = 6): the whole run; retransmissions {retx}, timeouts "
                    f"{nrexmit} (nrexmit_), ns-2 sender: {res}\n")
            f.write("t_s,arrivals,departures,drops\n")
            for r in rows + [(6.0,) + tot]:
                f.write(f"{r[0]:.2f},{r[1]},{r[2]},{r[3]}\n")
    first = None
    with tempfile.TemporaryDirectory() as d:
        for r in rows:
            o, _ = ours(case, r[0], d)
            if o != r[1:] and first is None:
                first = (r, o)
        o6, fr = ours(case, 6.0, d)
    print(f"\n### test-suite-newreno {case} (r1->k1 data packets; {len(rows)} checkpoints)\n")
    if first:
        n_ok = sum(1 for r in rows if r[0] < first[0][0])
        print(f"first checkpoint that differs: t = {first[0][0]:.2f} s (after {n_ok} equal), "
              f"ns-2 (arr, dep, drop) {first[0][1:]}, qoslab {first[1]}")
    else:
        print("every checkpoint agrees")
    print("\n| at 6 s | ns-2.35 | qoslab |\n|---|---|---|")
    for name, a, b in [("arrivals", tot[0], o6[0]), ("departures", tot[1], o6[1]),
                       ("drops", tot[2], o6[2]), ("retransmissions", retx, fr["retx_pkts"]),
                       ("timeouts", nrexmit, fr["timeouts"])]:
        print(f"| {name} | {a} | {b} |")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=sorted(CASES), action="append")
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    for case in a.case or ["newreno_B"]:
        run_case(case, a.write)


if __name__ == "__main__":
    main()
