#!/usr/bin/env python3
"""Runs every published row of RFC 4828 Tables 5-21 (via run.sh) over several seeds and
prints markdown tables: ours (mean over seeds, [min, max]) beside the published value.

Usage: QOSLAB=path/to/qoslab results.py [SEEDS] [OUTDIR]      (defaults: 5, out/rfc4828)

Runs are shared where the scenario is the same: Tables 7, 8, 9 are one B.1 run per packet
drop rate; Tables 5, 6, 10, 11 are B.2 runs per byte drop rate (Table 5 = the 0.0001 run,
Table 6 = the 0.001 run). Ours: TCP send rates are payload bytes incl. retransmissions
(RFC 4828's TCP convention, see summarize.py); TFRC send rates every byte on the wire incl.
headers (the RFC's TFRC convention); drop rates pooled over the group's flows.
"""
import csv
import json
import os
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import summarize  # noqa: E402

data = os.path.join(here, "..", "..", "data", "rfc4828")
seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
outdir = sys.argv[2] if len(sys.argv) > 2 else "out/rfc4828"
cache = {}
walls = {}


def run(table, row, seed):
    key = (table, row, seed)
    if key not in cache:
        t0 = time.time()
        subprocess.run([os.path.join(here, "run.sh"), str(table), str(row), str(seed), outdir],
                       check=True, stdout=subprocess.DEVNULL)
        walls.setdefault(table, []).append(time.time() - t0)
        s = json.load(open(os.path.join(outdir, f"table{table}-{row}-s{seed}", "summary.json")))
        cache[key] = summarize.groups(s)
    return cache[key]


def ours(table, row, f):
    vals = [f(run(table, row, s)) for s in range(1, seeds + 1)]
    return statistics.fmean(vals), min(vals), max(vals)


def published(n):
    return list(csv.DictReader(open(os.path.join(data, f"table{n}.csv"))))


def cell(o, p=None, digits=2):
    m, lo, hi = o
    txt = f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
    if p in (None, ""):
        return txt
    p = float(p)
    ratio = f"{m / p:.2f}x" if p > 0 else "n/a"
    return f"{txt} / {p:.{digits}f} ({m - p:+.{digits}f}, {ratio})"


def table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def g(name, field):
    return lambda r: r[name][field]


tcp_send = "send_payload_kbps_mean"
for n, b in ((5, "0.0001"), (6, "0.001")):
    rows = []
    for p in published(n):
        s = p["segment_bytes"]
        rows.append([s, cell(ours(10, b, g(f"tcp{s}", "drop_rate_pooled")), p["packet_drop_rate"], 3),
                     cell(ours(10, b, g(f"tcp{s}", "send_payload_kbps_median")), p["tcp_send_rate_kbps"]),
                     cell(ours(10, b, g(f"tcp{s}", tcp_send))),
                     cell(ours(10, b, g(f"tcp{s}", "goodput_kbps_mean")), p["tcp_goodput_kbps"])])
    table(f"Table {n} (byte drop rate {b}): ours [min, max over {seeds} seeds] / published (diff, ratio)",
          ["segment B", "pkt drop rate", "TCP send, median of flows", "TCP send, mean of flows", "TCP goodput"], rows)

rows = []
for p in published("7_tfrc"):
    rows.append([p["packet_drop_rate"], cell(ours(8, p["packet_drop_rate"], g("std1460", "send_kbps_mean")), p["tfrc_send_rate_kbps"])])
table("Table 7, TFRC column (standard TFRC, 1460 B)", ["pkt drop rate", "TFRC send Kb/s"], rows)

for n, sz in ((8, 14), (9, 200)):
    rows = []
    for p in published(n):
        r = p["packet_drop_rate"]
        rows.append([r, cell(ours(8, r, g("tcp", tcp_send)), p["tcp_send_rate_kbps"]),
                     cell(ours(8, r, g(f"sp{sz}", "send_kbps_mean")), p["tfrc_sp_send_rate_kbps"]),
                     cell(ours(8, r, g(f"std{sz}", "send_kbps_mean")), p["std_tfrc_send_rate_kbps"])])
    table(f"Table {n} ({sz} B TFRC)", ["pkt drop rate", "TCP 1460 B", f"TFRC-SP {sz} B", f"Std TFRC {sz} B"], rows)

rows = []
for p in published(10):
    b = p["byte_drop_rate"].rstrip("0") if "." in p["byte_drop_rate"] else p["byte_drop_rate"]
    best = []
    for s in range(1, seeds + 1):
        res = run(10, b, s)
        seg = max((14, 128, 256, 512, 1460), key=lambda z: res[f"tcp{z}"][tcp_send])
        best.append((res[f"tcp{seg}"][tcp_send], seg))
    segs = sorted({z for _, z in best})
    v = [x for x, _ in best]
    rows.append([b, f"{p['tcp_segment_bytes']} / ours {','.join(map(str, segs))}",
                 cell((statistics.fmean(v), min(v), max(v)), p["tcp_send_rate_kbps"]),
                 cell(ours(10, b, g("sp14", "send_kbps_mean")), p["tfrc_sp_send_rate_kbps"]),
                 cell(ours(10, b, g("std14", "send_kbps_mean")), p["std_tfrc_send_rate_kbps"])])
table("Table 10 (byte drop rates; TCP = best of 14..1460 B segments per seed)",
      ["byte drop rate", "best TCP seg (published / ours)", "TCP send", "TFRC-SP 14 B", "Std TFRC 14 B"], rows)

rows = []
for p in published(11):
    b = p["byte_drop_rate"]
    tcp = ours(10, b, g("tcp1460", "drop_rate_pooled"))
    sp = ours(10, b, g("sp14", "drop_rate_pooled"))
    ratio = [run(10, b, s)["tcp1460"]["drop_rate_pooled"] / max(run(10, b, s)["sp14"]["drop_rate_pooled"], 1e-9)
             for s in range(1, seeds + 1)]
    rows.append([b, cell(tcp, p["tcp_packet_drop_rate"], 4), cell(sp, p["tfrc_packet_drop_rate"], 4),
                 cell((statistics.fmean(ratio), min(ratio), max(ratio)), p["tcp_tfrc_packet_drop_ratio"])])
table("Table 11 (measured drop rates of 1500 B TCP and 46 B TFRC packets; the RFC computed 1500 B and 56 B)",
      ["byte drop rate", "TCP pkt drop", "TFRC pkt drop", "ratio"], rows)

for n in range(12, 22):
    rows = []
    small = "tfrc" if n == 16 else "tfrc_sp"
    for p in published(n):
        w = p["web_sessions"]
        rows.append([w, cell(ours(n, w, g("tcp", "drop_rate_pooled")), p["tcp_drop_rate"], 3),
                     cell(ours(n, w, g("tcp", tcp_send)), p["tcp_send_rate_kbps"]),
                     cell(ours(n, w, g("tfrc", "drop_rate_pooled")), p[f"{small}_drop_rate"], 3),
                     cell(ours(n, w, g("tfrc", "send_kbps_mean")), p[f"{small}_send_rate_kbps"])])
    table(f"Table {n}", ["web sessions", "TCP drop", "TCP send", "TFRC drop", "TFRC send"], rows)

print("\n### Wall time per run (s)\n")
print("| run.sh table | runs | mean | max |")
print("|---|---|---|---|")
for t, w in sorted(walls.items()):
    print(f"| {t} | {len(w)} | {statistics.fmean(w):.2f} | {max(w):.2f} |")
