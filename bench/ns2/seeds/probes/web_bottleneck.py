#!/usr/bin/env python3
"""The traffic at RFC 4828 B.3/B.4's bottleneck (R1 -> R2) in ns-2.35 and in qoslab, and the
web transfers behind it (issue 14, finding 22).

ns-2: probes/web_bottleneck.tcl (rfc4828_b3.tcl with WebTraf's request/response trace, each
response's initial window and per-transfer counters) with a queue trace of R1 -> R2 and RED's
average at every arrival. qoslab: a binary built with the local, never committed
instrumentation probes/arrival_trace.patch (`git apply` it, `cargo build --release -p
qoslab`, copy the binary, `git checkout crates/`), which with QOSLAB_TRACE_LINK=0 and
QOSLAB_TRACE_FILE writes one line per arrival at R1 -> R2 (time, flow, size, kind, seq,
endpoints, bytes waiting, RED's average after it, verdict) and with QOSLAB_WEB_LOG one line
per web response started / completed. Our scenario is rfc4828_b3.py's for the same row.

Over 50..100 s, per seed, then mean ± standard error over the seeds: arrivals and bytes per
group (long-lived TCP, TFRC-SP, forward web pool "web": responses and request ACKs, reverse
pool "webrev": requests and response ACKs), the standard deviation of the bytes arriving in
10 ms / 100 ms / 500 ms windows, per group and in all, the queue (bytes waiting) seen by
arrivals, RED's average (time-weighted mean, share of time at or above max_th = 7500 B),
early and forced drops (ns-2: a drop is forced when the average it saw is >= max_th), and
per forward-pool response started in 50..95 s: size class, duration (start to completion),
timeouts; for ns-2 also the share of responses that start with a window of one packet.

usage: python3 bench/ns2/seeds/probes/web_bottleneck.py <queue, e.g. red-b-m> <sessions>
           <seeds> <instrumented qoslab binary> [--ours-queue red-b-m]
"""
import argparse
import bisect
import collections
import math
import os
import statistics as st
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import rfc4828_b3  # noqa: E402
from red_drops import red_arrival_averages  # noqa: E402  (this directory)

ROOT = rfc4828_b3.ROOT
T0, T1 = 50.0, 100.0
MAXTH = 7500.0
GROUPS = ("tcp", "tfrc", "web", "webrev")
SIZE_CLASSES = [(1, 1), (2, 2), (3, 5), (6, 12), (13, 50), (51, 10 ** 9)]


def ns2_group(fid):
    return "tcp" if fid <= 5 else "tfrc" if fid <= 10 else ("web" if fid == 100 else "webrev")


def ns2_arrivals(tr):
    """(t, group, size, verdict, bytes waiting before, RED average after) per arrival."""
    at, av = red_arrival_averages(tr)
    qb, pend = 0, None
    for line in open(tr):
        f = line.split()
        ev, t, size, fid = f[0], float(f[1]), int(f[5]), int(f[7])
        if ev == "+":
            if pend:
                yield pend
            i = bisect.bisect_right(at, t) - 1
            pend = [t, ns2_group(fid), size, "+", qb, av[i] if i >= 0 else 0.0]
            qb += size
        elif ev == "-":
            qb -= size
        elif ev == "d":
            qb -= size
            if pend and pend[0] == t and pend[2] == size:
                pend[3] = "f" if pend[5] >= MAXTH else "e"
    if pend:
        yield pend


def ours_arrivals(tr):
    names = ["tcp"] * 5 + ["tfrc"] * 5 + ["web", "webrev"]
    for line in open(tr):
        f = line.split()
        yield [int(f[0]) * 1e-9, names[int(f[1])], int(f[2]), f[11], int(f[9]), float(f[10])]


def arrival_stats(evs):
    out = collections.Counter()
    win = {g: collections.Counter() for g in GROUPS}
    qb_sum = qb_n = qb_hi = 0
    prev = None
    tot = above = s_avg = 0.0
    for t, g, size, vd, qb, avg in evs:
        if prev is not None and t >= T0 and t < T1:
            dt = t - max(prev[0], T0)
            tot += dt
            s_avg += prev[1] * dt
            above += dt if prev[1] >= MAXTH else 0.0
        prev = (t, avg)
        if not T0 <= t < T1:
            continue
        out[f"{g} arrivals"] += 1
        out[f"{g} kb/s"] += size * 8 / (T1 - T0) / 1e3
        win[g][int((t - T0) / 0.01)] += size
        qb_sum += qb
        qb_n += 1
        qb_hi += qb >= MAXTH
        if vd in ("e", "f"):
            out[f"{g} {'early' if vd == 'e' else 'forced'} drops"] += 1
    nwin = int(round((T1 - T0) / 0.01))
    for span in (1, 10, 50):
        series = {g: [sum(win[g][i + j] for j in range(span)) for i in range(0, nwin, span)]
                  for g in GROUPS}
        series["all"] = [sum(v) for v in zip(*series.values())]
        for g, v in series.items():
            m = sum(v) / len(v)
            out[f"sd of {g} bytes per {span * 10} ms"] = math.sqrt(
                sum((x - m) ** 2 for x in v) / len(v))
    out["mean queue at arrival (B)"] = qb_sum / qb_n
    out["share of arrivals seeing >= 7500 B"] = qb_hi / qb_n
    out["RED average, time mean (B)"] = s_avg / tot
    out["share of time average >= max_th"] = above / tot
    out["TFRC-SP drop rate"] = (out["tfrc early drops"] + out["tfrc forced drops"]) / max(
        1, out["tfrc arrivals"])
    return out


def ns2_responses(stdout):
    """(size, start, duration, timeouts, initial window) of forward responses (servers are
    the even node ids >= 12, WS_i) started in [T0, T1 - 5)."""
    start, iw, rows = {}, {}, []
    for line in stdout.splitlines():
        x = line.split()
        if x[:2] == ["resp", "+"] and int(x[6]) >= 12 and int(x[6]) % 2 == 0:
            start[(x[2], x[3])] = float(x[8])
        elif x and x[0] == "respiw":
            iw[(x[1], x[2])] = int(x[4])
        elif x and x[0] == "respstat" and (x[1], x[2]) in start:
            t0 = start[(x[1], x[2])]
            if T0 <= t0 < T1 - 5:
                rows.append((int(x[3]), t0, float(x[8]) - t0, int(x[6]), iw.get((x[1], x[2]))))
    return rows


def ours_responses(log):
    start, rows = {}, []
    for line in open(log):
        x = line.split()
        if x[2] != "0":
            continue
        k = tuple(x[3:6])
        if x[1] == "+":
            start[k] = (int(x[7]) * 1e-9, math.ceil(int(x[6]) / 512))
        elif k in start:
            t0, size = start.pop(k)
            if T0 <= t0 < T1 - 5:
                rows.append((size, t0, int(x[8]) * 1e-9 - t0, int(x[6]), None))
    return rows


def response_stats(rows):
    out = {}
    for lo, hi in SIZE_CLASSES:
        r = [x for x in rows if lo <= x[0] <= hi]
        name = f"{lo}" if lo == hi else f"{lo}-{hi}" if hi < 10 ** 9 else f">= {lo}"
        if r:
            out[f"responses of {name} packets: n"] = len(r)
            out[f"responses of {name} packets: median duration (s)"] = st.median(
                x[2] for x in r)
            out[f"responses of {name} packets: timeouts per response"] = st.mean(
                x[3] for x in r)
    iws = [x[4] for x in rows if x[4] is not None]
    if iws:
        out["responses starting with one packet (share)"] = sum(1 for v in iws if v == 1) / len(iws)
    return out


def run_ns2(queue, n, seed):
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        out = subprocess.run(["nice", "ns", os.path.join(HERE, "web_bottleneck.tcl"), str(n),
                              queue, str(seed), "1460", tr], check=True, capture_output=True,
                             text=True, cwd=d).stdout
        return arrival_stats(ns2_arrivals(tr)) | response_stats(ns2_responses(out))


def run_ours(exe, queue, n, seed):
    with tempfile.TemporaryDirectory() as d:
        sc = os.path.join(d, "s.toml")
        with open(sc, "w") as f:
            f.write(rfc4828_b3.scenario(queue, 1460, n))
        tr, log = os.path.join(d, "a.tr"), os.path.join(d, "web.log")
        env = dict(os.environ, QOSLAB_TRACE_LINK="0", QOSLAB_TRACE_FILE=tr, QOSLAB_WEB_LOG=log)
        subprocess.run(["nice", exe, "run", sc, "--seed", str(seed), "--out", d, "-q"],
                       check=True, cwd=ROOT, env=env)
        if not os.path.exists(tr):
            raise SystemExit(f"{exe} wrote no arrival trace: build it with probes/arrival_trace.patch")
        return arrival_stats(ours_arrivals(tr)) | response_stats(ours_responses(log))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("queue")
    ap.add_argument("sessions", type=int)
    ap.add_argument("seeds", type=int)
    ap.add_argument("qoslab")
    ap.add_argument("--ours-queue", help="our row (default: the ns-2 queue)")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    ns = [run_ns2(a.queue, a.sessions, s) for s in seeds]
    us = [run_ours(a.qoslab, a.ours_queue or a.queue, a.sessions, s) for s in seeds]
    print(f"| R1 -> R2, 50..100 s, {a.sessions} sessions | ns-2.35 `{a.queue}` | qoslab | "
          "qoslab − ns-2 |")
    print("|---|---|---|---|")
    keys = list(dict.fromkeys([k for r in ns + us for k in r]))
    for k in keys:
        cell = []
        for rs in (ns, us):
            v = [r[k] for r in rs if k in r]
            if not v:
                cell.append(None)
                continue
            se = st.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else 0.0
            cell.append((st.mean(v), se))
        fmt = lambda m: f"{m:.4f}" if abs(m) < 1 else f"{m:.1f}"  # noqa: E731
        txt = [f"{fmt(c[0])} ± {fmt(c[1])}" if c else "—" for c in cell]
        d = (f"{100 * (cell[1][0] / cell[0][0] - 1):+.1f} %"
             if cell[0] and cell[1] and cell[0][0] else "—")
        print(f"| {k} | {txt[0]} | {txt[1]} | {d} |")


if __name__ == "__main__":
    main()
