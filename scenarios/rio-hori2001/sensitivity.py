#!/usr/bin/env python3
"""Sensitivity of the rio-hori2001 queue statistics to one scenario choice at a time.

For each variation: copy scenarios/rio-hori2001/base.toml to a temporary directory, apply
the variation's text edits (one line or a few), set the TCP variant and AF12's RIO
parameters of each table row, run `qoslab run FILE --seed S --out DIR -q` for seeds 1..N
and read DIR/summary.json and DIR/queue_series.csv. Prints, per variation and row, the
mean over the seeds of:

  ql_ave / ql_std / ql_zero  queue seen by arriving packets at G1->G2 (waiting, excluding
                             the packet in service): the definition used by `reproduce`
  ql_tavg                    time-averaged queue length (waiting)
  ewma                       time average of RIO's Out (all-packet) EWMA, sampled every 1 ms
  ewma_std                   its standard deviation over the samples
  thr                        bit rate leaving the G1->G2 queue (headers included)
  gput                       unique payload delivered (goodput), all flows
  out%                       share of Out (yellow) packets among the arrivals at G1->G2

and the published value of the row (Table 1 or 2) beside it.

Usage: sensitivity.py [--seeds N] [--jobs J] [--rows quick|all] [VARIATION[+VARIATION...] ...]
       sensitivity.py --list
Binary: $QOSLAB or /work/wt/target-rioq/release/qoslab or target/release/qoslab.
"""

import argparse
import concurrent.futures as cf
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BASE = os.path.join(HERE, "base.toml")
DATA = os.path.join(ROOT, "data", "rio-hori2001")

RIO_LINE = re.compile(r"^queue = \{ kind = \"rio\".*$", re.M)
TCP_VARIANT = re.compile(r'^variant = "reno"$', re.M)


def rio_line(min_th, max_th, maxp_den, w_q=0.002):
    return (
        'queue = { kind = "rio", limit = "300p", coupling = "coupled", '
        "in = { min_th = 200, max_th = 250, max_p = 0.02, w_q = 0.002 }, "
        "out = { min_th = %d, max_th = %d, max_p = %r, w_q = %r } }"
        % (min_th, max_th, 1.0 / maxp_den, w_q)
    )


def sub1(pattern, repl):
    """An edit: replace the single match of `pattern` (a regex, multiline) by `repl`."""

    def f(text):
        new, n = re.subn(pattern, repl, text, flags=re.M)
        if n != 1:
            raise SystemExit("edit %r matched %d times" % (pattern, n))
        return new

    return f


TSW = r'conditioner = \[\{ kind = "tsw2cm", window = "1s",'
DELAY = r'^delay = \{ from = "3ms", to = "8ms" \}$'
TARGETS = r'target = \[\n(  "5Mbps",.*\n)(  "1Mbps",.*\n)\] \}\]'

def tcp_default(key, value):
    """Set `key = value` in [defaults.tcp] (replacing an existing line)."""

    def f(text):
        pat = r"^%s = .*$" % re.escape(key)
        if re.search(pat, text, flags=re.M):
            return re.sub(pat, "%s = %s" % (key, value), text, count=1, flags=re.M)
        return text.replace("[defaults.tcp]\n", "[defaults.tcp]\n%s = %s\n" % (key, value), 1)

    return f


def targets(order):
    """Reassign the 5/1 Mb/s targets: order is a 20-char string of '5' and '1'."""
    vals = ['"%sMbps"' % c for c in order]
    body = "  " + ", ".join(vals[:10]) + ",\n  " + ", ".join(vals[10:]) + ",\n"

    def f(text):
        new, n = re.subn(TARGETS, "target = [\n" + body + "] }]", text)
        if n != 1:
            raise SystemExit("targets edit matched %d times" % n)
        return new

    return f


VARIATIONS = {
    "base": ("base.toml as committed (500-B packets on the wire, IW 2, tick 10 ms, rwnd 1000)", []),
    # packet size on the wire (base.toml has header = "0B" since SENSITIVITY.md; hdr40 is the
    # earlier 540-B setting, hdr0 a no-op kept so that the study's names still run)
    "hdr40": ('header = "40B": 540-B data packets on the wire (later ns-2, useHeaders_ true)',
              [tcp_default("header", '"40B"')]),
    "hdr0": ('header = "0B": 500-B data packets on the wire (ns-2 of 2000: no TCP/IP header added)',
             [tcp_default("header", '"0B"')]),
    "mss460": ('mss = "460B": 500-B packets on the wire, 460-B payload', [tcp_default("mss", '"460B"')]),
    # ns-2 (2000) TCP defaults
    "iw1": ("init_cwnd = 1 (ns-2 windowInit_ 1 of the era)", [tcp_default("init_cwnd", "1")]),
    "tick100": ('clock_granularity = "100ms" (ns-2 tcpTick_ 0.1 of the era; min RTO 2 ticks)',
                [tcp_default("clock_granularity", '"100ms"')]),
    "ns2era": ('header 0 B + IW 1 + tick 100 ms (all three ns-2 2000 defaults)',
               [tcp_default("header", '"0B"'), tcp_default("init_cwnd", "1"),
                tcp_default("clock_granularity", '"100ms"')]),
    "rwnd20": ('rwnd = "20p" (ns-2 window_ 20)', [tcp_default("rwnd", '"20p"')]),
    "rwnd32": ('rwnd = "32p"', [tcp_default("rwnd", '"32p"')]),
    "rwnd40": ('rwnd = "40p"', [tcp_default("rwnd", '"40p"')]),
    "rwnd64": ('rwnd = "64p"', [tcp_default("rwnd", '"64p"')]),
    "delack": ('delayed_ack = "100ms" (ns-2 DelAckSink interval_)', [tcp_default("delayed_ack", '"100ms"')]),
    "ack1": ('ack_size = "1B" (ACK size sensitivity; base 40 B)', [tcp_default("ack_size", '"1B"')]),
    # TSW tagger
    "tsw0.5": ("TSW window 0.5 s", [sub1(TSW, TSW.replace('"1s"', '"500ms"').replace("\\", ""))]),
    "tsw2": ("TSW window 2 s", [sub1(TSW, TSW.replace('"1s"', '"2s"').replace("\\", ""))]),
    "tsw0.1": ("TSW window 0.1 s", [sub1(TSW, TSW.replace('"1s"', '"100ms"').replace("\\", ""))]),
    # target assignment and access delays
    "targets-long": ("5 Mb/s targets on S11..S20 (the longest RTTs)", [targets("1" * 10 + "5" * 10)]),
    "targets-alt": ("5 Mb/s targets on odd S1, S3, .. S19", [targets("51" * 10)]),
    "delay-equal": ("all access delays 5.5 ms (mean of 3..8)", [sub1(DELAY, 'delay = "5.5ms"')]),
    "delay-6": ("access delays 3,4,5,6,7,8 ms cycled (integer ms)",
                [sub1(DELAY, "delay = [" + ", ".join('"%dms"' % (3 + i % 6) for i in range(20)) + "]")]),
    "delay-rev": ("access delays 8..3 ms (reverse order)", [sub1(DELAY, 'delay = { from = "8ms", to = "3ms" }')]),
    # statistics window
    "warmup0": ("statistics over 0..20 s (warmup 0) instead of 5..20 s", [sub1(r'^warmup = "5s"$', 'warmup = "0s"')]),
    # queue
    "rev-q-big": ("reverse (G2->G1) queue 1000 p", [sub1(r'^reverse_queue = .*$', 'reverse_queue = { kind = "drop-tail", limit = "1000p" }')]),
}


def rows(which):
    """(label, table, key for the published csv, tcp, min_th, max_th, maxp_den)."""
    tcps = ["Reno", "Newreno", "Sack"]
    out = []
    mins = [20, 60, 100] if which == "quick" else [20, 40, 60, 80, 100]
    for m in mins:
        for t in tcps:
            out.append(("T1 minth=%d %s" % (m, t), "1", (str(m), t), t, m, 200, 10))
    dens = [2, 5, 20, 50] if which == "quick" else [2, 5, 20, 50, 100]
    for t in tcps:
        for d in dens:
            out.append(("T2 maxp=1/%d %s" % (d, t), "2", (t, "1/%d" % d), t, 60, 200, d))
    return out


def published():
    pub = {}
    for name, keys in (("table1.csv", ("minth_out", "tcp")), ("table2.csv", ("tcp", "maxp"))):
        with open(os.path.join(DATA, name)) as f:
            rd = csv.DictReader(l for l in f if not l.startswith("#"))
            for r in rd:
                pub[(name[5], tuple(r[k] for k in keys))] = r
    # Table 2's 1/10 rows are Table 1's minth 60 rows (same setting).
    return pub


def binary():
    for b in (os.environ.get("QOSLAB"), "/work/wt/target-rioq/release/qoslab",
              os.path.join(ROOT, "target", "release", "qoslab")):
        if b and os.path.exists(b):
            return b
    raise SystemExit("no qoslab binary: cargo build --release -p qoslab")


VARIANT_TOML = {"Reno": "reno", "Newreno": "newreno", "Sack": "sack"}


def scenario_text(edits, tcp, min_th, max_th, den):
    text = open(BASE).read()
    for e in edits:
        text = e(text)
    text = sub1(RIO_LINE.pattern, rio_line(min_th, max_th, den))(text)
    text = sub1(TCP_VARIANT.pattern, 'variant = "%s"' % VARIANT_TOML[tcp])(text)
    text = sub1(r'^sample_interval = .*$', 'sample_interval = "1ms"')(text)
    return text


def run_one(args):
    binpath, text, seed, tmp = args
    d = tempfile.mkdtemp(dir=tmp)
    path = os.path.join(d, "s.toml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(d, "out")
    subprocess.run([binpath, "run", path, "--seed", str(seed), "--out", out, "-q"], check=True)
    s = json.load(open(os.path.join(out, "summary.json")))
    q = next(q for q in s["queues"] if q["link"] == "G1->G2")
    L = q["length"]
    m = q["measured"]
    avgs = []
    pk = []
    with open(os.path.join(out, "queue_series.csv")) as f:
        for r in csv.DictReader(f):
            if float(r["time_s"]) >= s["warmup_s"] and r["link"] == "G1->G2":
                avgs.append(float(r["avg"]))
                pk.append(int(r["pkts"]))
    res = {
        "ql_ave": L["mean"],
        "ql_std": L["std"],
        "ql_zero": L["p_empty"],
        "ql_tavg": L["time_mean"],
        "t_zero": sum(1 for x in pk if x == 0) / max(1, len(pk)),
        "ewma": statistics.fmean(avgs),
        "ewma_std": statistics.pstdev(avgs),
        "thr": q["throughput_bps"] / 1e6,
        "gput": s["aggregate"]["goodput_bps"] / 1e6,
        "out%": 100.0 * m["arrivals_by_color"][1] / max(1, m["arrivals"]),
    }
    subprocess.run(["rm", "-rf", d])
    return res


COLS = ["ql_ave", "ql_std", "ql_zero", "ql_tavg", "t_zero", "ewma", "ewma_std", "thr", "gput", "out%"]
PUB = {"ql_ave": "ql_ave", "ql_std": "ql_std", "ql_zero": "ql_zero", "thr": "throughput"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rows", default="quick", choices=["quick", "all"])
    ap.add_argument("--json", help="append the results (one JSON object per row) to this file")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("variations", nargs="*", default=["base"])
    a = ap.parse_args()
    if a.list:
        for k, (desc, _) in VARIATIONS.items():
            print("%-14s %s" % (k, desc))
        return
    binpath = binary()
    pub = published()
    tmp = tempfile.mkdtemp(prefix="rio-sens-")
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for v in a.variations:
            # "a+b": the edits of a, then those of b
            parts = [VARIATIONS[p] for p in v.split("+")]
            desc = " + ".join(p[0] for p in parts)
            edits = [e for p in parts for e in p[1]]
            print("== %s: %s (seeds 1..%d)" % (v, desc, a.seeds))
            print("%-22s" % "row" + "".join("%9s" % c for c in COLS) + " | pub: ave   std  zero   thr")
            rs = rows(a.rows)
            jobs = []
            for r in rs:
                text = scenario_text(edits, r[3], r[4], r[5], r[6])
                jobs.append([ex.submit(run_one, (binpath, text, s, tmp)) for s in range(1, a.seeds + 1)])
            for r, js in zip(rs, jobs):
                res = [j.result() for j in js]
                mean = {c: statistics.fmean(x[c] for x in res) for c in COLS}
                p = pub.get((r[1], r[2]), {})
                line = "%-22s" % r[0] + "".join(
                    ("%9.3f" if c in ("ql_zero", "t_zero") else "%9.2f") % mean[c] for c in COLS)
                line += " | %6s %5s %5s %6s" % tuple(p.get(PUB[c], "") for c in ("ql_ave", "ql_std", "ql_zero", "thr"))
                print(line, flush=True)
                if a.json:
                    with open(a.json, "a") as f:
                        f.write(json.dumps({"variation": v, "row": r[0], "table": r[1], "key": r[2],
                                            "seeds": a.seeds, "mean": mean,
                                            "published": {c: p.get(PUB[c]) for c in PUB}}) + "\n")
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
