#!/usr/bin/env python3
"""RFC 4828 App. B.1, TFRC columns of Tables 7, 8, 9: published | ns-2.35 | qoslab per drop rate.

ns-2: bench/ns2/seeds/rfc4828_b1_tfrc.tcl (Agent/TFRC, voip_ 1 for TFRC-SP, CBR-fed, ErrorModel
on A -> B); qoslab: scenarios/rfc4828/b1-packet-drop.toml with its `@loss` line set to each
rate. Both: mean send rate per flow (Kb/s, every byte on the wire incl. the header, the RFC's
convention for TFRC) over 50..100 s, ten flows per group, mean of seeds 1..N. Two qoslab
columns: the RFC 5348 / RFC 4828 flows (groups std1460_, sp14_, ...) and the same flows with
`ns2_compat` (groups std1460ns2_, ...: ns-2's TFRC loss-event and timeout details).

usage: python3 bench/ns2/seeds/rfc4828_b1_tfrc.py [--seeds N] [--reuse] [--qoslab PATH]
                                                   [--app-backlog]
--app-backlog: the `ns2_compat` TFRC groups also get `app_backlog = true` (the application
queues in an unbounded send buffer, as ns-2's CBR-fed Agent/TFRC does: finding 37).
ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc4828_b1_tfrc_ns2.csv.
"""
import argparse
import csv
import os
import re
import subprocess

import qoslab_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc4828_b1_tfrc_ns2.csv")
GROUPS = ["std1460", "sp14", "std14", "sp200", "std200"]
# (published file, its column) per group
PUB = {"std1460": ("table7_tfrc.csv", "tfrc_send_rate_kbps"),
       "sp14": ("table8.csv", "tfrc_sp_send_rate_kbps"),
       "std14": ("table8.csv", "std_tfrc_send_rate_kbps"),
       "sp200": ("table9.csv", "tfrc_sp_send_rate_kbps"),
       "std200": ("table9.csv", "std_tfrc_send_rate_kbps")}
TITLE = {"std1460": "Table 7, standard TFRC (1460 B, <= 100 pkt/s)",
         "sp14": "Table 8, TFRC-SP (14 B + 32 B, 5.6 Kb/s of data)",
         "std14": "Table 8, standard TFRC (14 B + 32 B, 5.6 Kb/s of data)",
         "sp200": "Table 9, TFRC-SP (200 B + 32 B, 100 pkt/s)",
         "std200": "Table 9, standard TFRC (200 B + 32 B, 100 pkt/s)"}


def published(name, col):
    rows = [l for l in open(os.path.join(ROOT, "data", "rfc4828", name)) if not l.startswith("#")]
    return {r["packet_drop_rate"]: float(r[col]) for r in csv.DictReader(rows)}


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[(row["p"], int(row["seed"]), row["group"])] = float(row["send_kbps"])
    return res


def save_results(res):
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["p", "seed", "group", "send_kbps"])
        for k in sorted(res, key=lambda k: (float(k[0]), k[1], k[2])):
            w.writerow(list(k) + [f"{res[k]:.3f}"])


def ns2(p, seed):
    args = ["nice", "ns", os.path.join(HERE, "rfc4828_b1_tfrc.tcl"), p, str(seed)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    got = {m.group(1): float(m.group(2))
           for m in re.finditer(r"group=(\w+) p=\S+ send_kbps=([0-9.]+)", out)}
    if set(got) != set(GROUPS):
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return got


def with_backlog(sc):
    """`app_backlog = true` in every TFRC flow block that has `ns2_compat = true`."""
    parts = sc.split("[[flow]]")
    for i, b in enumerate(parts[1:], 1):
        if 'kind = "tfrc"' in b and "ns2_compat = true" in b:
            parts[i] = b.replace("ns2_compat = true", "ns2_compat = true\napp_backlog = true", 1)
    return "[[flow]]".join(parts)


def ours(exe, p, seed, backlog=False):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b1-packet-drop.toml")).read()
    if backlog:
        sc = with_backlog(sc)
    old = "loss = { packet = 0.01, ecn = true }"
    if old not in sc:
        raise SystemExit("b1-packet-drop.toml's @loss line changed: update rfc4828_b1_tfrc.py")
    r = qoslab_run.summary(exe, sc.replace(old, f"loss = {{ packet = {p}, ecn = true }}", 1), seed)
    g = {}
    for fl in r["flows"]:
        g.setdefault(re.sub(r"_?\d+$", "", fl["name"]), []).append(fl["send_rate_bps"] / 1e3)
    return {k: sum(v) / len(v) for k, v in g.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    ap.add_argument("--app-backlog", action="store_true")
    a = ap.parse_args()
    pubs = {g: published(*PUB[g]) for g in GROUPS}
    rates = list(pubs["std1460"])
    res = load_results()
    for p in rates:
        for s in range(1, a.seeds + 1):
            if not a.reuse or (p, s, GROUPS[0]) not in res:
                for g, v in ns2(p, s).items():
                    res[(p, s, g)] = v
                save_results(res)
    q = {(p, s): ours(a.qoslab, p, s, a.app_backlog) for p in rates
         for s in range(1, a.seeds + 1)}
    nc = "qoslab ns2_compat + app_backlog" if a.app_backlog else "qoslab ns2_compat"
    for g in GROUPS:
        print(f"\n### RFC 4828 {TITLE[g]}: send rate per flow, Kb/s (mean of seeds "
              f"1..{a.seeds}, ranges over the seeds; diffs against ns-2)\n")
        print("| drop rate | published | ns-2.35 | ns-2 range | qoslab | qoslab range | "
              f"qoslab - ns-2 | {nc} | ns2_compat - ns-2 | published - ns-2 |")
        print("|" + "---|" * 10)
        for p in rates:
            ns = [res[(p, s, g)] for s in range(1, a.seeds + 1)]
            ou = [q[(p, s)][g] for s in range(1, a.seeds + 1)]
            oc = [q[(p, s)][g + "ns2"] for s in range(1, a.seeds + 1)]
            n, o, c = (sum(x) / len(x) for x in (ns, ou, oc))
            pub = pubs[g].get(p)

            def d(x):
                return f"{x - n:+.2f} ({100 * (x - n) / n:+.1f}%)" if n else f"{x - n:+.2f}"
            print(f"| {p} | {'—' if pub is None else f'{pub:.2f}'} | {n:.2f} | "
                  f"{min(ns):.2f}..{max(ns):.2f} | {o:.2f} | {min(ou):.2f}..{max(ou):.2f} | {d(o)} | "
                  f"{c:.2f} | {d(c)} | {'—' if pub is None else d(pub)} |")


if __name__ == "__main__":
    main()
