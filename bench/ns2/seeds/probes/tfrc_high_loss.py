#!/usr/bin/env python3
"""ns-2.35 side of bench/ns2/seeds/TFRC_HIGH_LOSS.md: runs tfrc_high_loss.tcl (ONE flow of
RFC 4828 B.1 with ns-2's own `debug_`/`printLoss_` diagnostics) for seeds 1..N and prints the
statistics the qoslab probe prints (crates/qoslab-algo/src/tfrc/ns2_tests.rs,
`tfrc_high_loss_probe`), over [50 s, end):
  send Kb/s on the wire; time-mean of the sender's rate_ (data bytes/s, from the rate after
  each "SlowStart/Increase/Decrease" and "NO FEEDBACK" line); reports per second and their
  mean loss event rate p (the sink's "loss_rate" at each report; 0 before the first loss);
  nofeedback expiries per second.

usage: python3 tfrc_high_loss.py <group> <p> [--seeds N] [--end S]
"""
import argparse
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FROM = 50.0


def run(group, p, seed, end):
    args = ["stdbuf", "-oL", "nice", "ns", os.path.join(HERE, "tfrc_high_loss.tcl"),
            str(p), str(seed), group, str(end), str(FROM)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    kbps = None
    rate_pts = []  # (t, rate_ after the event)
    reports = []   # (t, p)
    nofb = 0
    arrays = []    # (t, sample[0..4]) after each report
    pkts = 0
    for line in out.splitlines():
        m = re.match(r"([0-9.]+): sample 0:\s*(\d+) 1:\s*(\d+) 2:\s*(\d+) 3:\s*(\d+) 4:\s*(\d+)", line)
        if m:
            arrays.append((float(m.group(1)), [int(m.group(i)) for i in range(2, 7)]))
        m = re.search(r"RESULT send_kbps=([0-9.]+) pkts=(\d+)", line)
        if m:
            kbps = float(m.group(1))
            pkts = int(m.group(2))
        m = re.match(r"(?:SlowStart|Increase|Decrease): now:\s*([0-9.]+) rate:\s*([0-9.]+)", line)
        if m and "delta" in line or (m and not line.startswith("SlowStart: round_id")):
            if m:
                rate_pts.append((float(m.group(1)), float(m.group(2))))
        m = re.match(r"NO FEEDBACK: time:\s*([0-9.]+) rate:\s*([0-9.]+)", line)
        if m:
            t = float(m.group(1))
            rate_pts.append((t, float(m.group(2))))
            if t >= FROM:
                nofb += 1
        m = re.match(r"time: ([0-9.]+) loss_rate: ([0-9.]+)\s*$", line)
        if m:
            reports.append((float(m.group(1)), float(m.group(2))))
    if kbps is None:
        raise SystemExit(f"no RESULT: {' '.join(args)}")
    # time-mean of rate_ over [FROM, end)
    rate_pts.sort()
    xt, cur, last = 0.0, 0.0, FROM
    for t, r in rate_pts:
        if t <= FROM:
            cur = r
            continue
        if t >= end:
            break
        xt += cur * (t - last)
        cur, last = r, t
    xt += cur * (end - last)
    rep = [q for t, q in reports if t >= FROM]
    return kbps, xt / (end - FROM), rep, nofb, shifts(arrays), pkts


def shifts(arrays):
    """Loss events started in [FROM, end): the number of shifts of ns-2's loss-interval array
    between consecutive reports (printLoss_ prints sample[0..4] after each report; k shifts
    leave new[k+1..4] == old[1..4-k]; the smallest consistent k is taken)."""
    n = 0
    prev = None
    for t, arr in arrays:
        if prev is not None and t >= FROM:
            for k in range(0, 5):
                if arr[k + 1:5] == prev[1:5 - k] and (k > 0 or arr[0] >= prev[0]):
                    n += k
                    break
            else:
                n += 4  # more than 3 shifts between two reports: at least 4
        prev = arr
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--end", type=float, default=1000.0)
    a = ap.parse_args()
    k = x = 0.0
    reps = []
    nofb = ev = pk = 0
    for seed in range(1, a.seeds + 1):
        kb, xm, rep, nf, e, n = run(a.group, a.p, seed, a.end)
        ev += e
        pk += n
        k += kb / a.seeds
        x += xm / a.seeds
        reps += rep
        nofb += nf
    span = (a.end - FROM) * a.seeds
    # NB: ns-2 prints loss_rate only when the average interval is > 0 (after the first loss).
    print(f"ns-2 {a.group} p={a.p}: send {k:.2f} Kb/s, mean rate_ {x:.1f} B/s data, "
          f"reports {len(reps) / span:.3f}/s, mean p {sum(reps) / max(1, len(reps)):.4f}, "
          f"nofeedback {nofb / span:.4f}/s, events/packet {ev / max(1, pk):.4f}")


if __name__ == "__main__":
    main()
