#!/usr/bin/env python3
"""Helpers of bench/run.sh.

  summarize.py ours WORKLOAD STDERR_FILE SUMMARY_JSON   -> one JSON line for a `qoslab run`
  summarize.py ns3  WORKLOAD NS3_JSON_FILE              -> the ns-3 line in the same fields
  summarize.py table RESULTS.jsonl                      -> table of medians, ratio to ns-3
"""
import json
import re
import statistics
import sys

FIELDS = ("wall_s", "events", "events_per_s", "bottleneck_pkts", "pkts_per_wall_s", "goodput_mbps", "drops")


def line(sim, workload, wall, events, pkts, goodput, drops):
    return json.dumps({
        "sim": sim, "workload": workload, "wall_s": round(wall, 4), "events": events,
        "events_per_s": round(events / wall), "bottleneck_pkts": pkts,
        "pkts_per_wall_s": round(pkts / wall), "goodput_mbps": round(goodput, 3), "drops": drops,
    })


def ours(workload, err_file, summary_file):
    # `qoslab run` prints "wall 0.293 s, 1817688 events, 6.21 M events/s" on stderr.
    m = re.search(r"wall ([0-9.]+) s, (\d+) events", open(err_file).read())
    if not m:
        sys.exit(f"no wall-time line in {err_file}")
    r = json.load(open(summary_file))
    q = next(q for q in r["queues"] if q["link"] == "G1->G2")
    drops = sum(sum(row) for row in q["total"]["drops"])
    print(line("qoslab", workload, float(m.group(1)), int(m.group(2)), q["total"]["departures"],
               r["aggregate"]["goodput_bps"] / 1e6, drops))


def ns3(workload, f):
    d = json.loads(open(f).read().strip().splitlines()[-1])
    print(line("ns-3.44", workload, d["wall_run_s"], d["events"], d["bottleneck_pkts_dequeued"],
               d["goodput_mbps"], d["bottleneck_pkts_dropped"]))


def table(f):
    rows, meta = {}, []
    for l in open(f):
        if not l.strip():
            continue
        d = json.loads(l)
        if d.get("sim") == "meta":
            meta.append(d)
            continue
        rows.setdefault((d["sim"], d["workload"]), []).append(d)
    for m in meta:
        print("#", " ".join(f"{k}={v}" for k, v in m.items() if k != "sim"))
    med = {k: {f: statistics.median(r[f] for r in v) for f in FIELDS} | {"n": len(v),
           "wall_min": min(r["wall_s"] for r in v), "wall_max": max(r["wall_s"] for r in v)}
           for k, v in rows.items()}
    print("| sim | workload | runs | wall s (median, range) | events | events/s | bottleneck pkts "
          "| pkts/wall-s | goodput Mb/s | drops | speed-up vs ns-3 (pkts/wall-s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (sim, wl), m in sorted(med.items(), key=lambda kv: (kv[0][1], kv[0][0] != "qoslab")):
        ref = med.get(("ns-3.44", wl))
        ratio = f"{m['pkts_per_wall_s'] / ref['pkts_per_wall_s']:.1f}x" if ref and sim != "ns-3.44" else "-"
        print(f"| {sim} | {wl} | {m['n']} | {m['wall_s']:.3f} ({m['wall_min']:.3f}-{m['wall_max']:.3f}) "
              f"| {m['events']:,.0f} | {m['events_per_s']:,.0f} | {m['bottleneck_pkts']:,.0f} "
              f"| {m['pkts_per_wall_s']:,.0f} | {m['goodput_mbps']:.2f} | {m['drops']:,.0f} | {ratio} |")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"ours": ours, "ns3": ns3, "table": table}[cmd](*args)
