#!/usr/bin/env python3
"""RFC 4828 App. B.3, Table 12 (drop-tail in packets, web traffic): published | ns-2.35 | qoslab.

ns-2: bench/ns2/seeds/rfc4828_b3.tcl (PagePool/WebTraf with the object-size and gap
distributions of ns-2's tcl/test/test-suite-webtraf.tcl, 10 pages x 10 objects per session);
qoslab: scenarios/rfc4828/b3-droptail.toml with the same web parameters written into both
[[web]] pools and `@sessions` / `@revsessions` set per row. Both: mean send rate per flow of
the five TCP and five TFRC-SP flows over 50..100 s (Kb/s, wire bytes) and the group's pooled
drop rate at R1->R2. The published values (Table 12) come from web.tcl's heavier objects
(ParetoII mean 60, shape 1.05, as our reproduction uses), so they are printed for orientation:
ns-2.35 vs qoslab is the like-for-like comparison.

usage: python3 bench/ns2/seeds/rfc4828_b3.py [--sessions 25,100,400] [--seeds N] [--reuse]
ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc4828_b3_ns2.csv.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc4828_b3_ns2.csv")
QUEUE = 100
# ns-2's tcl/test/test-suite-webtraf.tcl create-session distributions; counts of web.tcl.
WEB = ('pages_per_session = 10\n'
       'objects_per_page = { dist = "constant", value = 10 }\n'
       'inter_page = { dist = "exponential", mean = "1s" }\n'
       'inter_object = { dist = "exponential", mean = "10ms" }\n'
       'object_size = { dist = "pareto2", mean = 10, shape = 1.2 }\n')
COLS = ["tcp_send_kbps", "tcp_drop_rate", "tfrc_send_kbps", "tfrc_drop_rate"]


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[(int(row["sessions"]), int(row["seed"]))] = {c: float(row[c]) for c in COLS}
    return res


def save_results(res):
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sessions", "seed"] + COLS)
        for k in sorted(res):
            w.writerow(list(k) + [f"{res[k][c]:.5f}" for c in COLS])


def ns2(n, seed):
    args = ["nice", "ns", os.path.join(HERE, "rfc4828_b3.tcl"), str(n), str(QUEUE), str(seed)]
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(args, check=True, capture_output=True, text=True, cwd=d).stdout
    r = {}
    for m in re.finditer(r"group=(\w+) sessions=\S+ send_kbps=([0-9.]+) drop_rate=([0-9.]+)", out):
        r[f"{m.group(1)}_send_kbps"] = float(m.group(2))
        r[f"{m.group(1)}_drop_rate"] = float(m.group(3))
    if set(r) != set(COLS):
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return r


def scenario(n):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b3-droptail.toml")).read()
    for old, new in ((f"sessions = 100  # @sessions", f"sessions = {n}  # @sessions\n" + WEB),
                     (f"sessions = 50  # @revsessions",
                      f"sessions = {n // 2}  # @revsessions\n" + WEB)):
        if old not in sc:
            raise SystemExit(f"b3-droptail.toml: {old!r} not found; update rfc4828_b3.py")
        sc = sc.replace(old, new, 1)
    if 'limit = "100p" }  # @queue' not in sc:
        raise SystemExit("b3-droptail.toml: @queue is not 100p; update rfc4828_b3.py")
    return sc


def ours(exe, n, seed):
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(scenario(n))
        subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        r = json.load(open(os.path.join(d, "summary.json")))
    out = {}
    for g in ("tcp", "tfrc"):
        fl = [x for x in r["flows"] if re.fullmatch(g + r"\d+", x["name"])]
        out[f"{g}_send_kbps"] = sum(x["send_rate_bps"] for x in fl) / len(fl) / 1e3
        sent = sum(x["measured"]["data_pkts"] for x in fl)
        out[f"{g}_drop_rate"] = sum(x["measured"]["data_dropped"] for x in fl) / max(sent, 1)
    return out


def published():
    rows = [l for l in open(os.path.join(ROOT, "data", "rfc4828", "table12.csv"))
            if not l.startswith("#")]
    m = {"tcp_send_kbps": "tcp_send_rate_kbps", "tcp_drop_rate": "tcp_drop_rate",
         "tfrc_send_kbps": "tfrc_sp_send_rate_kbps", "tfrc_drop_rate": "tfrc_sp_drop_rate"}
    return {int(r["web_sessions"]): {c: float(r[m[c]]) for c in COLS} for r in csv.DictReader(rows)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", default="25,100,400")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    ns_list = [int(x) for x in a.sessions.split(",")]
    res = load_results()
    for n in ns_list:
        for s in range(1, a.seeds + 1):
            if not a.reuse or (n, s) not in res:
                res[(n, s)] = ns2(n, s)
                save_results(res)
    pub = published()
    print(f"\n### RFC 4828 Table 12 set-up (drop-tail {QUEUE} packets, ns-2 example web "
          f"parameters): mean of seeds 1..{a.seeds}, ranges over the seeds\n")
    print("| web sessions | column | published (web.tcl objects) | ns-2.35 | ns-2 range | qoslab | "
          "qoslab range | qoslab - ns-2 |")
    print("|" + "---|" * 8)
    for n in ns_list:
        q = [ours(a.qoslab, n, s) for s in range(1, a.seeds + 1)]
        for c in COLS:
            nv = [res[(n, s)][c] for s in range(1, a.seeds + 1)]
            qv = [x[c] for x in q]
            nm, qm = sum(nv) / len(nv), sum(qv) / len(qv)
            dec = 2 if "kbps" in c else 4
            p = pub.get(n, {}).get(c)
            rel = f" ({100 * (qm - nm) / nm:+.1f}%)" if nm else ""
            print(f"| {n} | {c} | {'—' if p is None else f'{p:.{dec}f}'} | {nm:.{dec}f} | "
                  f"{min(nv):.{dec}f}..{max(nv):.{dec}f} | {qm:.{dec}f} | "
                  f"{min(qv):.{dec}f}..{max(qv):.{dec}f} | {qm - nm:+.{dec}f}{rel} |")


if __name__ == "__main__":
    main()
