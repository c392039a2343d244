#!/usr/bin/env python3
"""Side-by-side table of TCP agreement with ns-3 on the peer dumbbell (issue 3).

  compare.py ours VARIANT QUEUE SEED SUMMARY_JSON   -> one JSON line for a `qoslab run`
  compare.py table NS3.jsonl OURS.jsonl             -> markdown table (means over runs)
  compare.py reference NS3.jsonl MEASURED_UTC       -> bench/ns3_reference.json (stdout)

NS3.jsonl comes from bench/ns3/dumbbell_flows.cc (bench/ns3/run.sh), OURS.jsonl from
`compare.py ours` over scenarios/bench/dumbbell-{droptail,red}.toml with the flows' variant
set to newreno or sack.
"""
import json
import statistics
import sys


def jain(xs):
    s = sum(xs)
    return s * s / (len(xs) * sum(x * x for x in xs))


def ours(variant, queue, seed, path):
    d = json.load(open(path))
    g = [f["goodput_bps"] / 1e6 for f in d["flows"]]
    q = next(q for q in d["queues"] if q["link"] == "G1->G2")
    drops = sum(sum(row) for row in q["total"]["drops"])
    print(json.dumps({"sim": "qoslab", "queue": queue, "variant": variant, "run": int(seed),
                      "goodput_mbps": round(sum(g), 4), "jain": round(jain(g), 4),
                      "bottleneck_pkts_dequeued": q["total"]["departures"],
                      "bottleneck_pkts_dropped": drops,
                      "flow_goodput_mbps": [round(x, 4) for x in g]}))


def table(ns3_file, ours_file):
    rows = {}
    for f, label in ((ns3_file, None), (ours_file, None)):
        for l in open(f):
            d = json.loads(l)
            if d["sim"] == "qoslab":
                key = ("qoslab " + d["variant"], d["queue"])
            else:
                key = ("ns-3 newreno" + (" + SACK" if d["sack"] else ""), d["queue"])
            rows.setdefault(key, []).append(d)
    print("| queue | TCP | runs | goodput Mb/s (mean, range) | Jain (mean) | bottleneck pkts | drops |")
    print("|---|---|---|---|---|---|---|")
    for queue in ("droptail", "red"):
        for key in sorted(k for k in rows if k[1] == queue):
            rs = rows[key]
            g = [r["goodput_mbps"] for r in rs]
            mean = lambda f: statistics.mean(r[f] for r in rs)
            print(f"| {queue} | {key[0]} | {len(rs)} | {statistics.mean(g):.2f} ({min(g):.2f}-{max(g):.2f}) "
                  f"| {mean('jain'):.3f} | {mean('bottleneck_pkts_dequeued'):,.0f} "
                  f"| {mean('bottleneck_pkts_dropped'):,.0f} |")


def reference(ns3_file, measured_utc):
    """The whole of bench/ns3_reference.json, from the runs bench/ns3/run.sh just made: every
    recorded ns-3 figure the tests read comes from this command (issue 17)."""
    runs = [json.loads(l) for l in open(ns3_file) if l.strip()]
    doc = {
        "what": "ns-3 3.44 runs of bench/ns3/dumbbell_flows.cc (our own ns-3 program of the "
                "bench dumbbell, the workload of the shared peer /work/shared/peers/ns3_dumbbell.cc, "
                "printing each flow's goodput), SACK off and on; RED over RngRun 1..N, drop-tail "
                "one run (no randomness). The reference for scenarios/bench/dumbbell-{red,droptail}.toml, "
                "read by crates/qoslab-sim/tests/tcp_validation.rs. Written by bench/ns3/run.sh; "
                "nothing in it is edited by hand.",
        "measured_utc": measured_utc,
        "command": "bash bench/ns3/run.sh %d" % max(r["run"] for r in runs),
        "runs": runs,
    }
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"ours": ours, "table": table, "reference": reference}[cmd](*args)
