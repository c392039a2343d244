#!/usr/bin/env python3
"""RFC 4828 App. B.3 / B.4 (Tables 12-21 set-ups: drop-tail in packets or bytes, RED and
Adaptive RED in packet or byte mode, web traffic): published | ns-2.35 | qoslab.

ns-2: bench/ns2/seeds/rfc4828_b3.tcl (PagePool/WebTraf with the object-size and gap
distributions of ns-2's tcl/test/test-suite-webtraf.tcl, 10 pages x 10 objects per session);
qoslab: scenarios/rfc4828/b3-droptail.toml with the same web parameters written into both
[[web]] pools and `@sessions` / `@revsessions` set per row. Both: mean send rate per flow of
the five TCP and five TFRC-SP flows over 50..100 s (Kb/s, wire bytes) and the group's pooled
drop rate at R1->R2. The published values (Table 12) come from web.tcl's heavier objects
(ParetoII mean 60, shape 1.05, as our reproduction uses), so they are printed for orientation:
ns-2.35 vs qoslab is the like-for-like comparison.

--queue selects the bottleneck queue (both simulators, mapping in README.md): 100p (Table 12,
the default), 50000B (drop-tail in bytes, Tables 13-16), red-p (RED packet mode, Table 17),
red-b (RED byte mode, queue in bytes, Tables 18-19), ared-b (Adaptive RED, byte mode, Tables
20-21), red-b-markp / ared-b-markp (the same with ns-2.35's default use_mark_p_ true, ours
with ns2_use_mark_p = true: finding 12), ared-b-ns2slope (ns-2's ared-b against ours with
ns2_gentle_initial_max_p = true: finding 13); a suffix -m runs ns-2's TCP matched to ours
(syn_ false, rtxcur_init_ 1: finding 17), -mw besides restores ns-2's web agents' initial
window before every transfer (finding 22), -w the latter alone; --request none runs our web pools without the
request leg (the model before issue 14's session 6); --mss the long-lived TCP segment (1460,
or 512 for Tables 14, 19, 21). Published
values are printed for Tables 12 and 13 only (17-21 are withheld from the seed; 12's and 13's
come from web.tcl's heavier objects, orientation only).

usage: python3 bench/ns2/seeds/rfc4828_b3.py [--sessions 25,100,400] [--seeds N] [--reuse]
                                             [--queue 100p] [--mss 1460]
                                             [--objects ns2suite|webtcl]
ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc4828_b3_ns2.csv (--objects webtcl:
web.tcl's ParetoII(60, 1.05) objects on both sides, the RFC's; then the published values are
like-for-like and the ns-2 runs go to measured/rfc4828_b3_s8web_ns2.csv; README section 12).
"""
import argparse
import csv
import os
import re
import subprocess
import tempfile

import qoslab_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc4828_b3_ns2.csv")
# --objects webtcl: web.tcl's object sizes on both sides; ns-2 runs kept apart from the above.
RESULTS_WEBTCL = os.path.join(HERE, "measured", "rfc4828_b3_s8web_ns2.csv")
# Web object sizes, ParetoII (mean packets, shape): "ns2suite" = ns-2's
# tcl/test/test-suite-webtraf.tcl (this bench's rows before session 8), "webtcl" = Floyd's
# web.tcl (RFC 4828's Tables 12-16 and qoslab's [[web]] default). The other web parameters are
# the same in both (10 pages x 10 objects, Exp(1 s) page gaps, Exp(10 ms) object gaps).
OBJECTS = {"ns2suite": (10, 1.2), "webtcl": (60, 1.05)}
QUEUES = ["100p", "50000B", "red-p", "red-b", "ared-b", "red-b-markp", "ared-b-markp",
          "ared-b-ns2slope"]
# "<queue>-m": ns-2's TCP matched to ours (syn_ false, rtxcur_init_ 1: rfc4828_b3.tcl);
# "<queue>-mw": besides, ns-2's web agents start every transfer with windowInit_ (finding 22);
# "<queue>-w": that without -m (ns-2's own TCP start-up)
QUEUES += [q + "-m" for q in QUEUES] + [q + "-mw" for q in QUEUES] + [q + "-w" for q in QUEUES]
# Rows whose ns-2 side is another row's (only our configuration differs).
NS2_SIDE = {"ared-b-ns2slope": "ared-b"}
# Our @queue lines for the byte-mode RED rows (the same text as scenarios/rfc4828/run.sh).
RED_BYTES = ('queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", '
             'max_p = 0.1, w_q = 0.002, gentle = false, wait = true, byte_mode = true, '
             'queue_unit = "bytes", mean_pkt_size = "500B" }  # @queue')
ARED_BYTES = ('queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", '
              'max_p = 0.1, w_q = 0.002, gentle = true, wait = true, byte_mode = true, '
              'queue_unit = "bytes", mean_pkt_size = "500B", adaptive = true }  # @queue')
# ns-2's tcl/test/test-suite-webtraf.tcl create-session distributions; counts of web.tcl.
WEB = ('pages_per_session = 10\n'
       'objects_per_page = { dist = "constant", value = 10 }\n'
       'inter_page = { dist = "exponential", mean = "1s" }\n'
       'inter_object = { dist = "exponential", mean = "10ms" }\n')
COLS = ["tcp_send_kbps", "tcp_drop_rate", "tfrc_send_kbps", "tfrc_drop_rate"]


def load_results(path=RESULTS):
    res = {}
    if os.path.exists(path):
        with open(path) as f:
            for row in csv.DictReader(f):
                k = (row.get("queue") or "100p", int(row.get("mss") or 1460),
                     int(row["sessions"]), int(row["seed"]))
                res[k] = {c: float(row[c]) for c in COLS}
    return res


def save_results(res, path=RESULTS):
    # Merge with the file as it is now, so runs of other queues saved meanwhile (by another
    # invocation) are kept; this invocation's values win for its own keys.
    res = {**load_results(path), **res}
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["queue", "mss", "sessions", "seed"] + COLS)
        for k in sorted(res, key=lambda k: (QUEUES.index(k[0]), k[1], k[2], k[3])):
            w.writerow(list(k) + [f"{res[k][c]:.5f}" for c in COLS])


def ns2(queue, mss, n, seed, objects="ns2suite"):
    m = re.search(r"-(?:mw|m|w)$", queue)
    base, m = (queue[:m.start()], m.group(0)) if m else (queue, "")
    qarg = (base[:-1] if base.endswith("p") and base[:-1].isdigit() else base) + m
    args = ["ns", os.path.join(HERE, "rfc4828_b3.tcl"), str(n), qarg, str(seed), str(mss)]
    env = dict(os.environ)
    env.pop("WEB_OBJSIZE", None)
    if objects != "ns2suite":
        env["WEB_OBJSIZE"] = "%s %s" % OBJECTS[objects]
    return run_ns2(args, env)


def run_ns2(args, env):
    """Runs one rfc4828_b3.tcl command (in a scratch directory) and returns its COLS."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(args, check=True, capture_output=True, text=True, cwd=d,
                             env=env).stdout
    r = {}
    for m in re.finditer(r"group=(\w+) sessions=\S+ send_kbps=([0-9.]+) drop_rate=([0-9.]+)", out):
        r[f"{m.group(1)}_send_kbps"] = float(m.group(2))
        r[f"{m.group(1)}_drop_rate"] = float(m.group(3))
    if set(r) != set(COLS):
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return r


def scenario(queue, mss, n, request="segment", objects="ns2suite"):
    queue = re.sub(r"-(?:mw|m|w)$", "", queue)
    base = "b3-droptail.toml" if queue in ("100p", "50000B") else "b4-red.toml"
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", base)).read()
    mean, shape = OBJECTS[objects]
    web = (WEB + f'object_size = {{ dist = "pareto2", mean = {mean}, shape = {shape} }}\n'
           f'request = "{request}"\n')
    for old, new in ((f"sessions = 100  # @sessions", f"sessions = {n}  # @sessions\n" + web),
                     (f"sessions = 50  # @revsessions",
                      f"sessions = {n // 2}  # @revsessions\n" + web)):
        if old not in sc:
            raise SystemExit(f"b3-droptail.toml: {old!r} not found; update rfc4828_b3.py")
        sc = sc.replace(old, new, 1)
    qline = re.search(r"^queue = .*  # @queue$", sc, re.M)
    if qline is None or "100p" not in qline.group(0):
        raise SystemExit(f"{base}: @queue is not 100p; update rfc4828_b3.py")
    new = {"100p": qline.group(0),
           "50000B": 'queue = { kind = "drop-tail", limit = "50000B" }  # @queue',
           "red-p": qline.group(0), "red-b": RED_BYTES, "ared-b": ARED_BYTES,
           "red-b-markp": RED_BYTES.replace(" }  # @queue", ", ns2_use_mark_p = true }  # @queue"),
           "ared-b-markp": ARED_BYTES.replace(" }  # @queue",
                                              ", ns2_use_mark_p = true }  # @queue"),
           "ared-b-ns2slope": ARED_BYTES.replace(
               " }  # @queue", ", ns2_gentle_initial_max_p = true }  # @queue")}[queue]
    sc = sc.replace(qline.group(0), new, 1)
    if mss != 1460:
        old = 'mss = "1460B"  # @mss'
        if old not in sc:
            raise SystemExit(f"{base}: {old!r} not found; update rfc4828_b3.py")
        sc = sc.replace(old, f'mss = "{mss}B"  # @mss', 1)
    return sc


def ours(exe, queue, mss, n, seed, request="segment", objects="ns2suite"):
    return group_rates(qoslab_run.summary(exe, scenario(queue, mss, n, request, objects), seed))


def group_rates(r, flows=None):
    """COLS from a qoslab summary: mean send rate per flow and drop rate of the tcpN and
    tfrcN groups (over the measurement window); `flows`, if given, the flows each must have."""
    out = {}
    for g in ("tcp", "tfrc"):
        fl = [x for x in r["flows"] if re.fullmatch(g + r"\d+", x["name"])]
        if flows is not None and len(fl) != flows:
            raise SystemExit(f"{g}: {len(fl)} flows, want {flows}")
        out[f"{g}_send_kbps"] = sum(x["send_rate_bps"] for x in fl) / len(fl) / 1e3
        sent = sum(x["measured"]["data_pkts"] for x in fl)
        out[f"{g}_drop_rate"] = sum(x["measured"]["data_dropped"] for x in fl) / max(sent, 1)
    return out


def published(queue, mss):
    queue = re.sub(r"-(?:mw|m|w)$", "", queue)
    table = {("100p", 1460): "12", ("50000B", 1460): "13", ("50000B", 512): "14"}.get(
        (queue, mss))
    if table is None:
        return {}
    rows = [l for l in open(os.path.join(ROOT, "data", "rfc4828", f"table{table}.csv"))
            if not l.startswith("#")]
    m = {"tcp_send_kbps": "tcp_send_rate_kbps", "tcp_drop_rate": "tcp_drop_rate",
         "tfrc_send_kbps": "tfrc_sp_send_rate_kbps", "tfrc_drop_rate": "tfrc_sp_drop_rate"}
    return {int(r["web_sessions"]): {c: float(r[m[c]]) for c in COLS} for r in csv.DictReader(rows)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", default="25,100,400")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--queue", default="100p", choices=QUEUES)
    ap.add_argument("--mss", type=int, default=1460)
    ap.add_argument("--request", default="segment", choices=["segment", "none"],
                    help="our web pools' request leg (default: ns-2 WebTraf's one segment)")
    ap.add_argument("--objects", default="ns2suite", choices=sorted(OBJECTS),
                    help="web object sizes on both sides: ns2suite = ParetoII(10, 1.2) of ns-2's "
                         "test-suite-webtraf.tcl (default), webtcl = ParetoII(60, 1.05) of "
                         "web.tcl (the RFC's); webtcl keeps its ns-2 runs in "
                         "measured/rfc4828_b3_s8web_ns2.csv")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    ns_list = [int(x) for x in a.sessions.split(",")]
    rpath = RESULTS if a.objects == "ns2suite" else RESULTS_WEBTCL
    res = load_results(rpath)
    nsq = NS2_SIDE.get(a.queue, a.queue)
    m = re.search(r"-(?:mw|m|w)$", a.queue)
    if m and a.queue[:m.start()] in NS2_SIDE:
        nsq = NS2_SIDE[a.queue[:m.start()]] + m.group(0)
    for n in ns_list:
        for s in range(1, a.seeds + 1):
            k = (nsq, a.mss, n, s)
            if not a.reuse or k not in res:
                res[k] = ns2(nsq, a.mss, n, s, a.objects)
                save_results(res, rpath)
    pub = published(a.queue, a.mss)
    objs = {"ns2suite": "ns-2 example web parameters, objects ParetoII(10, 1.2)",
            "webtcl": "web.tcl objects ParetoII(60, 1.05) on both sides"}[a.objects]
    print(f"\n### RFC 4828 App. B set-up, queue {a.queue}, long-lived TCP {a.mss} B ({objs}; "
          f"our request leg: {a.request}): mean of seeds 1..{a.seeds}, ranges over the seeds\n")
    pubh = "published (web.tcl objects)" if a.objects == "ns2suite" else "published"
    print(f"| web sessions | column | {pubh} | ns-2.35 | ns-2 range | qoslab | "
          "qoslab range | qoslab - ns-2 | ns-2 - published | qoslab - published |")
    print("|" + "---|" * 10)
    for n in ns_list:
        q = [ours(a.qoslab, a.queue, a.mss, n, s, a.request, a.objects)
             for s in range(1, a.seeds + 1)]
        for c in COLS:
            nv = [res[(nsq, a.mss, n, s)][c] for s in range(1, a.seeds + 1)]
            qv = [x[c] for x in q]
            nm, qm = sum(nv) / len(nv), sum(qv) / len(qv)
            dec = 2 if "kbps" in c else 4
            p = pub.get(n, {}).get(c)
            rel = f" ({100 * (qm - nm) / nm:+.1f}%)" if nm else ""
            vp = ["—", "—"] if p is None else [f"{100 * (v - p) / p:+.1f}%" for v in (nm, qm)]
            print(f"| {n} | {c} | {'—' if p is None else f'{p:.{dec}f}'} | {nm:.{dec}f} | "
                  f"{min(nv):.{dec}f}..{max(nv):.{dec}f} | {qm:.{dec}f} | "
                  f"{min(qv):.{dec}f}..{max(qv):.{dec}f} | {qm - nm:+.{dec}f}{rel} | "
                  f"{vp[0]} | {vp[1]} |")


if __name__ == "__main__":
    main()
