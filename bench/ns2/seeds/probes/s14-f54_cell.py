#!/usr/bin/env python3
"""Finding 54, session 14 (s14-f54): one `ns2_compat` + `app_backlog` TFRC group of RFC 4828
B.1 (scenarios/rfc4828/b1-packet-drop.toml's block of that group, alone on the path) in the
engine, send rate per flow over several windows, against ns-2.35 (s14-f54_bins.tcl, 10 flows
per run) and our sans-IO single-flow probe (s14-f54_bins.py's `ours`).

usage: nice -n 19 python3 s14-f54_cell.py <group> <p> [--seeds 40] [--windows 0-50,50-100,...]
          [--extra "oscillation_prevention = true;oscillation_q2 = 0.95"]
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ci  # noqa: E402
import qoslab_run  # noqa: E402
bins = __import__("s14-f54_bins")

ROOT = bins.ROOT


def scenario(group, p, warmup, duration, count, extra=""):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b1-packet-drop.toml")).read()
    head, *blocks = sc.split("[[flow]]")
    head = head.replace("loss = { packet = 0.01, ecn = true }",
                        f"loss = {{ packet = {p}, ecn = true }}", 1)
    head = re.sub(r'duration = "\d+s"', f'duration = "{duration}s"', head, count=1)
    head = re.sub(r'warmup = "\d+s"', f'warmup = "{warmup}s"', head, count=1)
    keep = [b for b in blocks if f'name = "{group}ns2_{{i}}"' in b]
    assert len(keep) == 1, group
    b = keep[0].replace("ns2_compat = true", "ns2_compat = true\napp_backlog = true", 1)
    b = b.replace("count = 10", f"count = {count}", 1)
    if extra:
        b = b.replace("app_backlog = true", "app_backlog = true\n" + extra.replace(";", "\n"), 1)
    return head + "[[flow]]" + b


def engine(exe, group, p, seeds, lo, hi, count=10, extra=""):
    xs = []
    for s in seeds:
        r = qoslab_run.summary(exe, scenario(group, p, lo, hi, count, extra), s)
        xs += [f["send_rate_bps"] / 1e3 for f in r["flows"]]
    return xs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--windows", default="0-50,50-100,100-150,150-200")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--extra", default="",
                    help="scenario lines added to the group, ';'-separated")
    a = ap.parse_args()
    ws = [tuple(int(x) for x in w.split("-")) for w in a.windows.split(",")]
    end = max(hi for _, hi in ws)
    nflows = 10 * a.seeds
    n = bins.ns2(a.group, a.p, nflows, 10, end, 5, a.ns)
    q = bins.ours(a.group, a.p, nflows, end, 5, "", {})
    print(f"{a.group} p={a.p}: engine {a.seeds} seeds x 10 flows; ns-2 {nflows} flows "
          f"(10 per run); probe {nflows} flows")
    print("| window (s) | ns-2.35 | engine | engine − ns-2 | verdict | probe | probe − ns-2 |")
    print("|---|---|---|---|---|---|---|")
    for lo, hi in ws:
        e = engine(a.qoslab, a.group, a.p, range(1, a.seeds + 1), lo, hi, extra=a.extra)
        nw, qw = bins.window(n, lo, hi, 5), bins.window(q, lo, hi, 5)
        print(f"| {lo}-{hi} | {ci.fmt(nw, 3)} | {ci.fmt(e, 3)} | {ci.rel(nw, e)} | "
              f"{ci.verdict(nw, e, 0.05)} | {ci.fmt(qw, 3)} | {ci.rel(nw, qw)} |", flush=True)


if __name__ == "__main__":
    main()
