#!/usr/bin/env python3
"""ns-2.35 test-suite-sack.tcl "sack1" ported: ns-2.35 | qoslab on one deterministic run.

ns-2: sack1.tcl here (the suite's test stand-alone); its trace is first checked point by
point against the suite's checked-in reference output test-output-sack/sack1.gz (the
"packets" series: every enqueue and dequeue of a TCP packet on r1->k1 at (time, seqno mod 90
/ 100); the "drops" series). qoslab: sack1.toml here (mapping in its header).

Compared: the r1->k1 queue's counters of data packets (arrivals, dequeues, drops) at
checkpoints every 10 ms from 1.22 s to 4.99 s, each at least 0.5 ms away from any ns-2 event
on that link (so the 88 us by which ns-2's 48-byte SACK ACKs delay its packets cannot put a
checkpoint between the two simulators' copies of one event); ours from runs cut at the
checkpoint (`duration` = the checkpoint: a run covers [0, duration)); and the whole run's
totals. Writes the ns-2 side to crates/qoslab-sim/tests/data/ns2/suite_sack1.csv (the data
of crates/qoslab-sim/tests/ns2_suite/tcp.rs).

With --case sack1a / sack1b / sack1c, the suite's neighbouring tests on the same topology
(three drops, window 20; many drops, window 26 / 27; all start at 0 s) are run the same way
by rewriting the window and start time of both scripts; their reference output is checked
likewise, the comparison printed, and the ns-2 side written to tests/data/ns2/suite_<case>.csv
(ported with `sack_pipe = "ns2-sack1"`, finding 25 of bench/ns2/seeds/README.md). Every
case is compared twice: as sack1.toml (RFC 6675) and with `sack_pipe = "ns2-sack1"`.

usage: python3 bench/ns2/seeds/suite/sack1.py [--case sack1|sack1a|sack1b|sack1c]
"""
import argparse
import gzip
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
REF = "/usr/share/doc/ns2/examples/tcl/test/test-output-sack/{}.gz"
# case: (window_, start of the FTP in s)
CASES = {"sack1": (14, 1.0), "sack1a": (20, 0.0), "sack1b": (26, 0.0), "sack1c": (27, 0.0)}
CASE = "sack1"
DATA = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "suite_{}.csv")
EXE = os.path.join(ROOT, "target", "release", "qoslab")
WRAP = 90


def ref_series():
    """The reference file's named series as lists of (time, y) strings."""
    out = {}
    for blk in gzip.open(REF.format(CASE), "rt").read().split("\n\n"):
        lines = blk.strip().split("\n")
        if lines and lines[0].startswith('"'):
            out[lines[0][1:]] = [tuple(x.split()) for x in lines[1:]]
    return out


def ns2_trace(d):
    tr, smp = os.path.join(d, "all.tr"), os.path.join(d, "samples.csv")
    w, start = CASES[CASE]
    tcl = open(os.path.join(HERE, "sack1.tcl")).read()
    tcl = tcl.replace("window_ 14", f"window_ {w}").replace('at 1.0 "$ftp1 start"',
                                                          f'at {start} "$ftp1 start"')
    open(os.path.join(d, "case.tcl"), "w").write(tcl)
    res = subprocess.run(["ns", os.path.join(d, "case.tcl"), tr, smp], check=True, cwd=d,
                         capture_output=True, text=True).stdout.strip()
    ev = [l.split() for l in open(tr)]
    return ev, res


def check_reference(ev):
    """ns-2 today against the checked-in reference: raw2xg's "packets" (+ and - of TCP
    packets on link 2->3, y = (seqno mod 90) / 100) and "drops" series."""
    ref = ref_series()
    pk, dr = [], []
    for f in ev:
        if f[2] == "2" and f[3] == "3" and f[4] == "tcp":
            y = int(f[10]) % WRAP * 0.01
            p = (f[1], ("%g" % y) if y else "0")
            if f[0] in "+-":
                pk.append(p)
            elif f[0] == "d":
                dr.append(p)
    ok_p = pk == ref["packets"]
    ok_d = sorted(set(dr)) == sorted(set(ref["drops"]))
    print(f"ns-2.35 today vs test-output-sack/{CASE}.gz: packets {len(pk)} vs "
          f"{len(ref['packets'])} points, {'identical' if ok_p else 'DIFFERENT'}; drops "
          f"{dr} {'identical' if ok_d else 'DIFFERENT'}")
    return ok_p and ok_d


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
    out = []
    for i in range(round(CASES[CASE][1] * 100) + 22, 500):
        t = i / 100
        if all(abs(t - te) >= 0.0005 for te, _ in evs):
            out.append(t)
    return out


def ours(t, d, mode=None):
    """Our run cut at t; mode: a `sack_pipe` value added to [defaults.tcp] (None: as
    sack1.toml, i.e. RFC 6675)."""
    sc = open(os.path.join(HERE, "sack1.toml")).read()
    if mode:
        sc = sc.replace('variant = "sack"', f'variant = "sack"\nsack_pipe = "{mode}"')
    sc = sc.replace('duration = "5s"', f'duration = "{round(t * 1e6)}us"')
    w, start = CASES[CASE]
    # our flow starts when ns-2's SYN is acknowledged, 0.21088 s after the FTP start
    sc = sc.replace('rwnd = "14p"', f'rwnd = "{w}p"').replace(
        'start = "1.21088s"', f'start = "{round((start + 0.21088) * 1e5)}0us"')
    f = os.path.join(d, "s.toml")
    open(f, "w").write(sc)
    subprocess.run([EXE, "run", f, "--out", d, "-q"], check=True)
    q = [l.split(",") for l in open(os.path.join(d, "queues.csv"))]
    h = q[0]
    r = dict(zip(h, [x for x in q if x[0] == "r1->k1"][0]))
    fl = [l.split(",") for l in open(os.path.join(d, "flows.csv"))]
    fr = dict(zip(fl[0], fl[1]))
    drops = sum(int(r[k]) for k in ("drops_overflow", "drops_early", "drops_forced", "drops_loss"))
    return (int(r["arrivals"]), int(r["departures"]), drops), fr


def main():
    global CASE
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=sorted(CASES), default="sack1")
    CASE = ap.parse_args().case
    with tempfile.TemporaryDirectory() as d:
        ev, res = ns2_trace(d)
    ok = check_reference(ev)
    print("ns-2 sender at 5 s:", res)
    evs = ns2_counts(ev)
    cps = checkpoints(evs)
    rows = [(t,) + counts_at(evs, t) for t in cps]
    tot = counts_at(evs, 5.0)
    seen, retx = set(), 0
    for f in ev:  # data segments the sender puts on s1->r1 a second time
        if f[0] == "+" and f[2] == "0" and f[3] == "2" and f[4] == "tcp":
            retx += f[10] in seen
            seen.add(f[10])
    with open(DATA.format(CASE), "w") as f:
        w, start = CASES[CASE]
        how = ("" if CASE == "sack1" else
               f"with window_ {w} and the FTP started at {start} s,\n# ")
        f.write("# ns-2.35 (Debian package ns2 2.35) reference: tcl/test/test-suite-sack.tcl test "
                f"\"{CASE}\" (SACK TCP, net0,\n# one TCP/Sack1 flow, drop-tail overflow), "
                "stand-alone as bench/ns2/seeds/suite/sack1.tcl (written for qoslab,\n# issue 14), "
                f"{how}run as `ns sack1.tcl all.tr samples.csv` by bench/ns2/seeds/suite/sack1.py"
                f"{'' if CASE == 'sack1' else ' --case ' + CASE}, "
                f"whose\n# trace equals the suite's checked-in test-output-sack/{CASE}.gz point by "
                f"point ({'checked' if ok else 'NOT EQUAL'}).\n"
                "# Data packets (1040 B) on r1->k1 counted over [0, t_s): arrivals (enqueue "
                "attempts, '+'),\n# departures (dequeues, '-'), drops ('d'). Checkpoints every "
                "10 ms, 0.5 ms clear of any event.\n# Last row (t_s = 5): the whole run; "
                f"retransmissions {retx}, timeouts 0 (nrexmit_), ns-2 sender: {res}\n")
        f.write("t_s,arrivals,departures,drops\n")
        for r in rows + [(5.0,) + tot]:
            f.write(f"{r[0]:.2f},{r[1]},{r[2]},{r[3]}\n")
    print(f"\n### test-suite-sack {CASE} (r1->k1 data packets; {len(rows)} checkpoints)\n")
    # qoslab as sack1.toml (RFC 6675), and with `sack_pipe = "ns2-sack1"` (finding 25)
    modes = [("qoslab", None), ("qoslab ns2-sack1", "ns2-sack1")]
    totals = []
    for label, mode in modes:
        first, n_eq = None, 0
        with tempfile.TemporaryDirectory() as d:
            for r in rows:
                o, _ = ours(r[0], d, mode)
                if o != r[1:] and first is None:
                    first = (r, o)
                n_eq += o == r[1:]
            totals.append(ours(5.0, d, mode))
        if first:
            print(f"{label}: first checkpoint that differs: t = {first[0][0]:.2f} s, ns-2 "
                  f"(arr, dep, drop) {first[0][1:]}, qoslab {first[1]}; {n_eq} of "
                  f"{len(rows)} checkpoints equal")
        else:
            print(f"{label}: every checkpoint agrees")
    print("\n| at 5 s | ns-2.35 | " + " | ".join(m[0] for m in modes) + " |\n|---|---|---|---|")
    for i, name in enumerate(["arrivals", "departures", "drops"]):
        print(f"| {name} | {tot[i]} | " + " | ".join(str(o[0][i]) for o in totals) + " |")
    print(f"| retransmissions | {retx} | " + " | ".join(o[1]["retx_pkts"] for o in totals) + " |")


if __name__ == "__main__":
    main()
