#!/usr/bin/env python3
"""RFC 4828 App. B.3, Tables 15 and 16 set-ups: published | ns-2.35 | qoslab, with 95 % CIs.

Table 15: drop-tail queue of 50 000 B at the 3 Mb/s link, N long-lived SACK TCP (1460 B) and
N TFRC-SP flows (200 B + 32 B every 10 ms) with 10 N web sessions (and 5 N reverse ones);
Table 16: the same with standard TFRC instead of TFRC-SP. ns-2: rfc4828_b3.tcl with
B3_FLOWS=N, B3_TFRC=sp|standard and web.tcl's objects (WEB_OBJSIZE="60 1.05", the RFC's; README
section 12), queue `50000B-mw` (ns-2's TCP start-up matched to ours and every web transfer
starting with windowInit_, the like-for-like row of section 12) or `50000B-w` (ns-2's own
SYN and 3 s initial RTO, window restored). qoslab: scenarios/rfc4828/b3-droptail.toml with
the rows' lines as scenarios/rfc4828/run.sh writes them for Tables 15 and 16 (`@n` = N,
`@queue` 50000B, `@variant`), through rfc4828_b3.scenario() (web.tcl's objects = our [[web]]
default); two qoslab columns: our RFC 4828 TFRC-SP / RFC 5348 TFRC and the same flows with
`ns2_compat = true` (ns-2's TFRC rules: loss events and timeout term, README section 4, and
its rate rules, finding 31). Both: mean
send rate per flow over 50..100 s (Kb/s, wire bytes: 1500 B / 232 B packets) and the group's
pooled drop rate at R1 -> R2. The published TCP send rate counts payload (1460 of 1500 B),
so published - ns-2 carries a -2.7 % offset on TCP send; ns-2.35 vs qoslab is like for like.

usage: python3 bench/ns2/seeds/rfc4828_t1516.py [--table 15|16] [--sessions 10,50,100,200]
           [--seeds 10] [--queue 50000B-mw|50000B-w] [--reuse]
ns-2 per-run values: bench/ns2/seeds/measured/rfc4828_t1516_ns2.csv.
"""
import argparse
import csv
import os

import ci
import qoslab_run
import rfc4828_b3

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc4828_t1516_ns2.csv")
COLS = rfc4828_b3.COLS
QUEUES = ["50000B-mw", "50000B-w", "50000B"]


def load():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for r in csv.DictReader(f):
                res[(int(r["table"]), r["queue"], int(r["sessions"]), int(r["seed"]))] = {
                    c: float(r[c]) for c in COLS}
    return res


def save(res):
    res = {**load(), **res}
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["table", "queue", "sessions", "seed"] + COLS)
        for k in sorted(res, key=lambda k: (k[0], QUEUES.index(k[1]), k[2], k[3])):
            w.writerow(list(k) + [f"{res[k][c]:.5f}" for c in COLS])


def ns2(table, queue, n, seed):
    env = dict(os.environ, WEB_OBJSIZE="60 1.05", B3_FLOWS=str(n // 10),
               B3_TFRC="standard" if table == 16 else "sp")
    args = ["ns", os.path.join(HERE, "rfc4828_b3.tcl"), str(n), queue, str(seed), "1460"]
    return rfc4828_b3.run_ns2(args, env)


def scenario(table, n, compat=False):
    """Our row: rfc4828_b3's 50000B scenario with web.tcl's objects, then run.sh's Table 15 / 16
    lines (`@n` = n / 10 on its six lines, `@variant` standard for Table 16)."""
    sc = rfc4828_b3.scenario("50000B", 1460, n, "segment", "webtcl")
    k = n // 10
    if sc.count("count = 5  # @n\n") != 6:
        raise SystemExit("b3-droptail.toml: expected six `count = 5  # @n` lines")
    sc = sc.replace("count = 5  # @n\n", f"count = {k}  # @n\n")
    old = 'variant = "sp"  # @variant\n'
    if old not in sc:
        raise SystemExit("b3-droptail.toml: @variant line not found")
    new = (old if table == 15 else 'variant = "standard"  # @variant\n') + (
        "ns2_compat = true\n" if compat else "")
    sc = sc.replace(old, new, 1)
    return sc


def ours(exe, table, n, seed, compat=False):
    r = qoslab_run.summary(exe, scenario(table, n, compat), seed)
    return rfc4828_b3.group_rates(r, flows=n // 10)


def published(table):
    rows = [l for l in open(os.path.join(ROOT, "data", "rfc4828", f"table{table}.csv"))
            if not l.startswith("#")]
    pre = "tfrc_sp" if table == 15 else "tfrc"
    m = {"tcp_send_kbps": "tcp_send_rate_kbps", "tcp_drop_rate": "tcp_drop_rate",
         "tfrc_send_kbps": f"{pre}_send_rate_kbps", "tfrc_drop_rate": f"{pre}_drop_rate"}
    return {int(r["web_sessions"]): {c: float(r[m[c]]) for c in COLS}
            for r in csv.DictReader(rows)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", type=int, default=15, choices=[15, 16])
    ap.add_argument("--sessions", default="10,50,100,200")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--queue", default="50000B-mw", choices=QUEUES)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    rows = [int(x) for x in a.sessions.split(",")]
    for n in rows:
        if n % 10 or n < 10:
            raise SystemExit(f"--sessions: {n} is not a multiple of 10 (N = sessions / 10 flows)")
    res = load()
    seeds = range(1, a.seeds + 1)
    for n in rows:
        for s in seeds:
            k = (a.table, a.queue, n, s)
            if not a.reuse or k not in res:
                res[k] = ns2(a.table, a.queue, n, s)
                save({k: res[k]})
    pub = published(a.table)
    variants = [False, True]
    q = {(n, c): [ours(a.qoslab, a.table, n, s, c) for s in seeds] for n in rows for c in variants}
    kind = "TFRC-SP" if a.table == 15 else "standard TFRC"
    print(f"\n### RFC 4828 Table {a.table} set-up (drop-tail 50 000 B, N TCP + N {kind}, 10 N "
          f"web sessions, web.tcl objects), ns-2 `{a.queue}`: mean ± 95 % CI over seeds "
          f"1..{a.seeds}\n")
    hdr = ["sessions (N)", "column", "published", "ns-2.35", "qoslab", "qoslab − ns-2", "verdict"]
    hdr += ["qoslab `ns2_compat` TFRC", "`ns2_compat` − ns-2", "verdict"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for n in rows:
        for c in COLS:
            nv = [res[(a.table, a.queue, n, s)][c] for s in seeds]
            dec = 2 if "kbps" in c else 4
            bound = 0.05 if "kbps" in c else 0.10
            p = pub.get(n, {}).get(c)
            cells = [f"{n} ({n // 10})", c, "—" if p is None else f"{p:.{dec}f}", ci.fmt(nv, dec)]
            for v in variants:
                qv = [x[c] for x in q[(n, v)]]
                cells += [ci.fmt(qv, dec), ci.rel(nv, qv), ci.verdict(nv, qv, bound)]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
