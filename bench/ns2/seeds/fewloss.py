#!/usr/bin/env python3
"""Issue 14, DONE_WHEN.md section 5 item 5 (session 12): long-lived flows with few losses,
where three seeds are noise, and RFC 4828 Table 11's measured per-size drop rates:
published | ns-2.35 | qoslab as mean ± 95 % CI over seeds 1..N (ci.py; "within" = inside the
issue's bound, 5 % on send rates / throughput, 10 % on drop rates, or the two CIs overlap).

  --part b1      RFC 4828 B.1, Table 7 TCP (SACK) send rate at p (default 0.001):
                 rfc4828_table7_tcp.tcl | scenarios/rfc4828/table7/sack-packet-loss.toml
                 (rfc4828_table7.ns2 / .ours), and the same flows with ns-2's timer
                 (`ns2_compat = true`, findings 39, 42)
  --part b2      RFC 4828 B.2 at byte drop rates b (default 0.00001,0.0001): every TCP segment
                 size's send rate (payload incl. retransmissions) and pooled packet drop rate,
                 TFRC-SP / standard TFRC 14 B; and Table 11 (1500-B TCP and 46-B TFRC-SP packet
                 drop rates and their ratio): rfc4828_b2.tcl (its `pktdrop` lines) |
                 scenarios/rfc4828/b2-byte-drop.toml
  --part ecn     RFC 4828 B.1, Table 7's ECN TCP column at p (default 0.001,0.1): ns-2's marking
                 ErrorModel (rfc4828_ecn.ns2) | ours in RFC 3168 mode and with ns2_compat
                 (rfc4828_ecn.ours)
  --part rfc2963 RFC 2963 App. A without shapers, CBS (default 30000) B: green / yellow / total
                 Mb/s per LAN (rfc2963.run_ns2 / .run_qoslab; ns-2 runs cached in
                 measured/rfc2963_ns2.csv as rfc2963.py does)

usage: python3 bench/ns2/seeds/fewloss.py --part b1|b2|rfc2963 [--seeds 10] [--values ...]
           [--reuse]
ns-2 per-run values of b1 and b2: bench/ns2/seeds/measured/fewloss_ns2.csv.
"""
import argparse
import csv
import os
import re
import statistics
import subprocess

import ci
import qoslab_run
import rfc2963
import rfc4828_b2
import rfc4828_ecn
import rfc4828_table7

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "fewloss_ns2.csv")
B2_GROUPS = rfc4828_b2.NS2_GROUPS


def load():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for r in csv.DictReader(f):
                res[(r["part"], r["value"], int(r["seed"]), r["column"])] = float(r["x"])
    return res


def save(new):
    res = {**load(), **new}
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["part", "value", "seed", "column", "x"])
        for k in sorted(res, key=lambda k: (k[0], float(k[1]), k[2], k[3])):
            w.writerow(list(k) + [f"{res[k]:.6f}"])


def b1_ours_compat(exe, p, seed):
    """rfc4828_table7.ours() with the ten flows in ns2_compat (ns-2's retransmission timer)."""
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "table7", "sack-packet-loss.toml")).read()
    for old, new in (("loss = { packet = 0.01 }", f"loss = {{ packet = {p} }}"),
                     ('start_jitter = "1s"\n', 'start_jitter = "1s"\nns2_compat = true\n')):
        if sc.count(old) != 1:
            raise SystemExit(f"sack-packet-loss.toml: {old!r} not found once; update fewloss.py")
        sc = sc.replace(old, new, 1)
    r = qoslab_run.summary(exe, sc, seed)
    rates = [fl["send_rate_bps"] / 1e3 for fl in r["flows"]]
    return sum(rates) / len(rates)


def b2_ns2(b, seed):
    """{group_send: Kb/s, group_drop: pooled packet drop rate} of one ns-2 B.2 run."""
    args = ["ns", os.path.join(HERE, "rfc4828_b2.tcl"), b, str(seed)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    r = {}
    for m in re.finditer(r"group=(\w+) b=\S+ send_kbps=([0-9.]+) goodput_kbps=", out):
        r[f"{m.group(1)}_send"] = float(m.group(2))
    for m in re.finditer(r"pktdrop name=(\w+) arrivals=(\d+) dropped=(\d+) timeouts=(\d+)", out):
        r[f"{m.group(1)}_drop"] = int(m.group(3)) / max(int(m.group(2)), 1)
        if m.group(1).startswith("tcp"):
            r[f"{m.group(1)}_timeouts"] = int(m.group(4)) / 10  # per flow
    if len(r) != 2 * len(B2_GROUPS) + len(B2_GROUPS) - 2:
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return r


def b2_ours(exe, b, seed):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read()
    old = "loss = { byte = 0.0001, ecn = true }"
    if old not in sc:
        raise SystemExit("b2-byte-drop.toml's @loss line changed: update fewloss.py")
    r = qoslab_run.summary(exe, sc.replace(old, f"loss = {{ byte = {b}, ecn = true }}", 1), seed)
    g = {}
    for fl in r["flows"]:
        name = re.sub(r"_?\d+$", "", fl["name"])
        v = fl["send_payload_bps"] if fl["kind"] == "tcp" else fl["send_rate_bps"]
        d = g.setdefault(name, [[], 0, 0])
        d[0].append(v / 1e3)
        d[1] += fl["measured"]["data_pkts"]
        d[2] += fl["measured"]["data_dropped"]
    out = {}
    for k, (v, pk, dr) in g.items():
        out[f"{k}_send"] = statistics.fmean(v)
        out[f"{k}_drop"] = dr / max(pk, 1)
    return out


def ns2_values(part, values, seeds, reuse, fn):
    res = load()
    for v in values:
        for s in seeds:
            if reuse and any(k[:3] == (part, v, s) for k in res):
                continue
            got = fn(v, s)
            save({(part, v, s, c): x for c, x in got.items()})
            res = load()
    return res


def row(cells):
    print("| " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", required=True, choices=["b1", "b2", "ecn", "rfc2963"])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--values", help="b1: packet drop rates; b2: byte drop rates; rfc2963: CBS")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = list(range(1, a.seeds + 1))
    if a.part == "b1":
        vals = (a.values or "0.001").split(",")
        res = ns2_values("b1", vals, seeds, a.reuse,
                         lambda p, s: {"tcp_send": rfc4828_table7.ns2(p, s)})
        pub = {}
        for l in open(os.path.join(ROOT, "data", "rfc4828", "table7.csv")):
            f = l.strip().split(",")
            if l.startswith("#") or not f[0][:1].isdigit():
                continue
            pub[repr(float(f[0]))] = float(f[1])
        print(f"\n### RFC 4828 B.1, Table 7 TCP (SACK) send rate per flow, Kb/s: mean ± 95 % CI "
              f"over seeds 1..{a.seeds}\n")
        row(["p", "published", "ns-2.35", "qoslab", "qoslab − ns-2", "verdict",
             "qoslab `ns2_compat`", "− ns-2", "verdict"])
        print("|---|---|---|---|---|---|---|---|---|")
        for p in vals:
            nv = [res[("b1", p, s, "tcp_send")] for s in seeds]
            qv = [rfc4828_table7.ours(a.qoslab, p, s) for s in seeds]
            cv = [b1_ours_compat(a.qoslab, p, s) for s in seeds]
            row([p, f"{pub.get(repr(float(p)), float('nan')):.2f}", ci.fmt(nv, 2), ci.fmt(qv, 2),
                 ci.rel(nv, qv), ci.verdict(nv, qv, 0.05), ci.fmt(cv, 2), ci.rel(nv, cv),
                 ci.verdict(nv, cv, 0.05)])
    elif a.part == "ecn":
        vals = (a.values or "0.001,0.1").split(",")
        res = ns2_values("ecn", vals, seeds, a.reuse,
                         lambda p, s: {"ecntcp_send": rfc4828_ecn.ns2("b1", p, s)["ecntcp"]})
        print(f"\n### RFC 4828 B.1, Table 7 ECN TCP send rate per flow, Kb/s: mean ± 95 % CI "
              f"over seeds 1..{a.seeds}\n")
        row(["p", "ns-2.35", "qoslab RFC 3168", "− ns-2", "verdict", "qoslab ns2_compat",
             "− ns-2", "verdict"])
        print("|---|---|---|---|---|---|---|---|")
        for p in vals:
            nv = [res[("ecn", p, s, "ecntcp_send")] for s in seeds]
            q = [rfc4828_ecn.ours(a.qoslab, "b1", p, s) for s in seeds]
            cells = [p, ci.fmt(nv, 2)]
            for g in ("ecntcp", "ecnns2tcp"):
                qv = [x[g] for x in q]
                cells += [ci.fmt(qv, 2), ci.rel(nv, qv), ci.verdict(nv, qv, 0.05)]
            row(cells)
    elif a.part == "b2":
        vals = [rfc4828_b2.fmt_b(x) for x in (a.values or "0.00001,0.0001").split(",")]
        res = ns2_values("b2", vals, seeds, a.reuse, b2_ns2)
        pub = rfc4828_b2.published()
        q = {(b, s): b2_ours(a.qoslab, b, s) for b in vals for s in seeds}
        print(f"\n### RFC 4828 B.2: send rate per flow (Kb/s; TCP payload incl. retransmissions, "
              f"TFRC wire bytes) and pooled packet drop rate: mean ± 95 % CI over seeds "
              f"1..{a.seeds}\n")
        row(["b", "group", "published send", "ns-2.35 send", "qoslab send", "qoslab − ns-2",
             "verdict", "ns-2.35 drop", "qoslab drop", "qoslab − ns-2", "verdict"])
        print("|" + "---|" * 11)
        for b in vals:
            # sp14ns2 / std14ns2: our same TFRC flows with ns2_compat, against ns-2's sp14 / std14
            for g in B2_GROUPS + ["sp14ns2", "std14ns2"]:
                ng = g.replace("ns2", "")
                cells = [b, g, "—" if (b, ng) not in pub else f"{pub[(b, ng)][0]:.2f} "
                         f"({pub[(b, ng)][1]})"]
                for c, dec, bound in (("send", 2, 0.05), ("drop", 5, 0.10)):
                    nv = [res[("b2", b, s, f"{ng}_{c}")] for s in seeds]
                    qv = [q[(b, s)][f"{g}_{c}"] for s in seeds]
                    cells += [ci.fmt(nv, dec), ci.fmt(qv, dec), ci.rel(nv, qv),
                              ci.verdict(nv, qv, bound)]
                row(cells)
        t11 = {}
        for l in open(os.path.join(ROOT, "data", "rfc4828", "table11.csv")):
            f = l.strip().split(",")
            if f[0][:1].isdigit():
                t11[repr(float(f[0]))] = [float(x) for x in f[1:4]]
        print(f"\n### RFC 4828 Table 11: packet drop rates of 1500-B TCP and 46-B TFRC-SP packets "
              f"(the RFC computed 1 − (1 − b)^N for 1500 B and 56 B) and their ratio: mean ± 95 % "
              f"CI over seeds 1..{a.seeds}\n")
        row(["b", "column", "published (computed)", "1 − (1 − b)^N", "ns-2.35", "qoslab",
             "qoslab − ns-2", "verdict"])
        print("|" + "---|" * 8)
        for b in vals:
            p = t11.get(b, [float("nan")] * 3)
            fb = float(b)
            cols = [("TCP 1500 B", "tcp1460_drop", 1 - (1 - fb) ** 1500, p[0]),
                    ("TFRC-SP 46 B", "sp14_drop", 1 - (1 - fb) ** 46, p[1])]
            for name, c, formula, pv in cols:
                nv = [res[("b2", b, s, c)] for s in seeds]
                qv = [q[(b, s)][c] for s in seeds]
                row([b, name, f"{pv:g}", f"{formula:.5f}", ci.fmt(nv, 5), ci.fmt(qv, 5),
                     ci.rel(nv, qv), ci.verdict(nv, qv, 0.10)])
            nv = [res[("b2", b, s, "tcp1460_drop")] / max(res[("b2", b, s, "sp14_drop")], 1e-9)
                  for s in seeds]
            qv = [q[(b, s)]["tcp1460_drop"] / max(q[(b, s)]["sp14_drop"], 1e-9) for s in seeds]
            row([b, "ratio", f"{p[2]:g}", f"{(1 - (1 - fb) ** 1500) / (1 - (1 - fb) ** 46):.2f}",
                 ci.fmt(nv, 2), ci.fmt(qv, 2), ci.rel(nv, qv), ci.verdict(nv, qv, 0.10)])
    else:
        cbs = int(a.values or 30000)
        res = rfc2963.load_results()
        for s in seeds:
            if not a.reuse or (cbs, s, 1) not in res:
                for k, v in rfc2963.run_ns2(cbs, s).items():
                    res[(cbs, s, k)] = v
                rfc2963.save_results(res)
        ours = [rfc2963.run_qoslab(a.qoslab, cbs, s) for s in seeds]
        print(f"\n### RFC 2963 App. A, no shaper anywhere, CBS {cbs} B: Mb/s over 2..102 s, "
              f"mean ± 95 % CI over seeds 1..{a.seeds}\n")
        row(["LAN", "CIR", "colour", "ns-2.35", "qoslab", "qoslab − ns-2", "verdict"])
        print("|---|---|---|---|---|---|---|")
        for k in range(1, 11):
            cir = 2 * ((k - 1) % 5 + 1)
            for c in ("green", "yellow", "total"):
                def val(d):
                    return rfc2963.mbps(sum(d[k][x] for x in rfc2963.COLOURS) if c == "total"
                                        else d[k][c])
                nv = [val({k: res[(cbs, s, k)]}) for s in seeds]
                qv = [val(o) for o in ours]
                row([f"C{k}", str(cir), c, ci.fmt(nv, 3), ci.fmt(qv, 3), ci.rel(nv, qv),
                     ci.verdict(nv, qv, 0.05)])


if __name__ == "__main__":
    main()
