#!/usr/bin/env python3
"""Helpers of bench/run.sh: the one place that formats benchmark results.

  summarize.py ours WORKLOAD WALL_S CPU_S STDERR_FILE SUMMARY_JSON -> one JSON line for a `qoslab run`
  summarize.py ns2  WORKLOAD WALL_S CPU_S NS2_JSON_FILE            -> the ns-2.35 line, same fields
  summarize.py ns3  WORKLOAD WALL_S CPU_S NS3_JSON_FILE            -> the ns-3 line, same fields
  summarize.py table RESULTS.jsonl                            -> table of medians and ratios

WALL_S is the whole process (fork to exit, measured by run.sh), CPU_S its user + sys CPU
time (on a loaded machine the fairer comparison); loop_s the simulation loop
where the simulator lets us measure it (ours: the run loop `qoslab run` prints on stderr;
ns-2: Tcl clock around `$ns run`; ns-3: Simulator::Run()). ns-2 does not count its events
(null).
"""
import json
import re
import statistics
import sys

FIELDS = ("wall_s", "cpu_s", "loop_s", "events", "events_per_s", "bottleneck_pkts", "pkts_per_wall_s",
          "goodput_mbps", "drops")


def line(sim, workload, wall, cpu, loop, events, pkts, goodput, drops):
    return json.dumps({
        "sim": sim, "workload": workload, "wall_s": round(wall, 4), "cpu_s": round(cpu, 3),
        "loop_s": round(loop, 4),
        "events": events, "events_per_s": round(events / loop) if events is not None else None,
        "bottleneck_pkts": pkts, "pkts_per_wall_s": round(pkts / wall),
        "goodput_mbps": round(goodput, 3), "drops": drops,
    })


def ours(workload, wall, cpu, err_file, summary_file):
    # `qoslab run` prints "wall 0.293 s, 1817688 events, 6.21 M events/s" on stderr.
    m = re.search(r"wall ([0-9.]+) s, (\d+) events", open(err_file).read())
    if not m:
        sys.exit(f"no wall-time line in {err_file}")
    r = json.load(open(summary_file))
    q = next(q for q in r["queues"] if q["link"] == "G1->G2")
    drops = sum(sum(row) for row in q["total"]["drops"])
    print(line("qoslab", workload, float(wall), float(cpu), float(m.group(1)), int(m.group(2)),
               q["total"]["departures"], r["aggregate"]["goodput_bps"] / 1e6, drops))


def ns2(workload, wall, cpu, f):
    d = json.loads(open(f).read().strip().splitlines()[-1])
    print(line("ns-2.35", workload, float(wall), float(cpu), d["loop_s"], None, d["bottleneck_pkts"],
               d["goodput_mbps"], d["drops"]))


def ns3(workload, wall, cpu, f):
    d = json.loads(open(f).read().strip().splitlines()[-1])
    print(line("ns-3.44", workload, float(wall), float(cpu), d["wall_run_s"], d["events"],
               d["bottleneck_pkts_dequeued"], d["goodput_mbps"], d["bottleneck_pkts_dropped"]))


def median(rows, f):
    v = [r[f] for r in rows if r.get(f) is not None]
    return statistics.median(v) if v else None


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


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
    med = {k: {f: median(v, f) for f in FIELDS} | {"n": len(v),
           "wall_min": min(r["wall_s"] for r in v), "wall_max": max(r["wall_s"] for r in v)}
           for k, v in rows.items()}
    print("| sim | workload | runs | wall s, whole process (median, range) | CPU s | loop s | events "
          "| events/s | bottleneck pkts | pkts/wall-s | goodput Mb/s | drops "
          "| ours vs ns-2 (wall) | ours vs ns-2 (CPU) | ours vs ns-2 (pkts/wall-s) | ours vs ns-3 (pkts/wall-s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    order = {"qoslab": 0, "ns-2.35": 1, "ns-3.44": 2}
    for (sim, wl), m in sorted(med.items(), key=lambda kv: (kv[0][1], order.get(kv[0][0], 9))):
        r2, r3 = med.get(("ns-2.35", wl)), med.get(("ns-3.44", wl))
        mine = sim == "qoslab"
        w2 = f"{r2['wall_s'] / m['wall_s']:.1f}x" if r2 and mine else "-"
        c2 = f"{r2['cpu_s'] / m['cpu_s']:.1f}x" if r2 and mine and m['cpu_s'] else "-"
        p2 = f"{m['pkts_per_wall_s'] / r2['pkts_per_wall_s']:.1f}x" if r2 and mine else "-"
        p3 = f"{m['pkts_per_wall_s'] / r3['pkts_per_wall_s']:.1f}x" if r3 and mine else "-"
        print(f"| {sim} | {wl} | {m['n']} | {m['wall_s']:.3f} ({m['wall_min']:.3f}-{m['wall_max']:.3f}) "
              f"| {fmt(m['cpu_s'], '.3f')} | {fmt(m['loop_s'], '.3f')} | {fmt(m['events'], ',.0f')} | {fmt(m['events_per_s'], ',.0f')} "
              f"| {m['bottleneck_pkts']:,.0f} | {m['pkts_per_wall_s']:,.0f} | {m['goodput_mbps']:.2f} "
              f"| {m['drops']:,.0f} | {w2} | {c2} | {p2} | {p3} |")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"ours": ours, "ns2": ns2, "ns3": ns3, "table": table}[cmd](*args)
