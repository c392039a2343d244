#!/usr/bin/env python3
"""RFC 4828 App. B.1 / B.2, the "ECN TCP" columns (Tables 7, 8, 9: configured packet drop
rates; Table 10: configured byte drop rates): published | ns-2.35 | qoslab.

The RFC: "we configure the router to randomly drop or mark packets at a specified rate";
ECN TCP = "TCP flows with timestamps and ECN" (SACK, 1460 B in Tables 7-9; Table 10: the
segment size of 14..1460 B with the highest rate).

ns-2 (an ErrorModel with markecn_ true on the forward path; ecn_ 1, timestamps_ true):
  B.1: bench/ns2/seeds/rfc4828_table7_tcp.tcl <p> <seed> ecn (ten flows, RTT 240 ms);
  B.2: bench/ns2/seeds/rfc4828_b2.tcl <b> <seed> ecn (ten flows per segment size).
qoslab: B.1: scenarios/rfc4828/table7/sack-packet-loss.toml (the topology of the ns-2
script) with its loss line set to `{ packet = p, ecn = true }` and its ten flows given
`ecn = true`, `timestamps = true` (and again with `ns2_compat = true`); B.2: the ECN groups of
b2-byte-drop.toml (`ecntcp<S>`, `ecnns2tcp<S>` with ns2_compat), its `@loss` line set to each
rate. Our marking loss marks ECT packets and drops the others; our TCP sends
retransmissions not-ECT (RFC 3168 §6.1.5), so those can still be dropped.
Send rate per flow over 50..100 s: B.1 wire bytes (1500 B per data packet, as the Table 7
TCP comparison), B.2 payload bytes (the RFC's convention for Tables 5, 6, 10); mean of ten
flows and seeds 1..N.

usage: python3 bench/ns2/seeds/rfc4828_ecn.py [--seeds N] [--reuse] [--part b1,b2]
ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc4828_ecn_ns2.csv.
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
RESULTS = os.path.join(HERE, "measured", "rfc4828_ecn_ns2.csv")
SIZES = [14, 128, 256, 512, 1460]


def rows(name):
    lines = [l for l in open(os.path.join(ROOT, "data", "rfc4828", name))
             if not l.startswith("#")]
    return list(csv.DictReader(lines))


def key(x):
    return repr(float(x))


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        for r in csv.DictReader(open(RESULTS)):
            res[(r["part"], key(r["rate"]), int(r["seed"]), r["group"])] = float(r["send_kbps"])
    return res


def save_results(res):
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["part", "rate", "seed", "group", "send_kbps"])
        for k in sorted(res, key=lambda k: (k[0], float(k[1]), k[2], k[3])):
            w.writerow(list(k) + [f"{res[k]:.4f}"])


def ns2(part, rate, seed):
    if part == "b1":
        args = ["nice", "ns", os.path.join(HERE, "rfc4828_table7_tcp.tcl"), rate, str(seed), "ecn"]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        return {"ecntcp": float(re.search(r"send_kbps=([0-9.]+)", out).group(1))}
    args = ["nice", "ns", os.path.join(HERE, "rfc4828_b2.tcl"), rate, str(seed), "ecn"]
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(args, check=True, capture_output=True, text=True, cwd=d).stdout
    got = {m.group(1): float(m.group(2)) for m in re.finditer(
        r"group=(\w+) b=\S+ send_kbps=([0-9.]+)", out)}
    if set(got) != {f"ecntcp{s}" for s in SIZES}:
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return got


def table7_ecn(rate, ns2_compat):
    """scenarios/rfc4828/table7/sack-packet-loss.toml (ns-2's topology for Table 7) with the
    loss marking ECT packets and its ten flows ECN-capable with timestamps."""
    base = os.path.join("table7", "sack-packet-loss.toml")
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", base)).read()
    subs = [("loss = { packet = 0.01 }", f"loss = {{ packet = {rate}, ecn = true }}"),
            ('start_jitter = "1s"\n', 'start_jitter = "1s"\necn = true\ntimestamps = true\n'
             + ("ns2_compat = true\n" if ns2_compat else ""))]
    for old, new in subs:
        if old not in sc:
            raise SystemExit(f"{base}: {old!r} not found; update rfc4828_ecn.py")
        sc = sc.replace(old, new, 1)
    return sc


def ours(exe, part, rate, seed):
    if part == "b1":
        # Two runs: RFC 3168 ECN TCP (ecntcp) and with ns2_compat (ecnns2tcp).
        out = {}
        for g, compat in (("ecntcp", False), ("ecnns2tcp", True)):
            r = qoslab_run.summary(exe, table7_ecn(rate, compat), seed)
            out[g] = sum(fl["send_rate_bps"] for fl in r["flows"]) / len(r["flows"]) / 1e3
        return out
    base, old, new = ("b2-byte-drop.toml", "loss = { byte = 0.0001, ecn = true }",
                      f"loss = {{ byte = {rate}, ecn = true }}")
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", base)).read()
    if old not in sc:
        raise SystemExit(f"{base}: {old!r} not found; update rfc4828_ecn.py")
    r = qoslab_run.summary(exe, sc.replace(old, new, 1), seed)
    g = {}
    for fl in r["flows"]:
        name = re.sub(r"_\d+$", "", fl["name"])
        if name.startswith("ecn"):
            g.setdefault(name, []).append(fl["send_payload_bps"] / 1e3)
    return {k: sum(v) / len(v) for k, v in g.items()}


def mean(v):
    return sum(v) / len(v)


def d(a, b):
    return f"{a - b:+.2f} ({100 * (a - b) / b:+.1f}%)" if b else f"{a - b:+.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--part", default="b1,b2")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    res = load_results()
    parts = a.part.split(",")
    if "b1" in parts:
        pub = {}
        for t, col in (("table7_ecn.csv", "T7"), ("table8.csv", "T8"), ("table9.csv", "T9")):
            for r in rows(t):
                pub.setdefault(key(r["packet_drop_rate"]), {})[col] = (
                    float(r["ecn_tcp_send_rate_kbps"]), r["ecn_unrealistic"] == "true")
        rates = sorted(pub, key=float)
        for p in rates:
            for s in seeds:
                if not a.reuse or ("b1", p, s, "ecntcp") not in res:
                    for g, v in ns2("b1", p, s).items():
                        res[("b1", p, s, g)] = v
                    save_results(res)
        print(f"\n### RFC 4828 B.1, ECN TCP (1460 B, timestamps, ECN), send rate per flow, Kb/s "
              f"(wire bytes; mean of seeds 1..{a.seeds}, ranges over the seeds)\n")
        print("| packet drop/mark rate | published T7 / T8 / T9 | ns-2.35 | ns-2 range | qoslab | "
              "qoslab range | qoslab - ns-2 | qoslab ns2_compat | ns2_compat - ns-2 | "
              "published (mean of 3) - ns-2 |")
        print("|" + "---|" * 10)
        for p in rates:
            q = [ours(a.qoslab, "b1", p, s) for s in seeds]
            n = [res[("b1", p, s, "ecntcp")] for s in seeds]
            o = [x["ecntcp"] for x in q]
            c = [x["ecnns2tcp"] for x in q]
            pv = [pub[p][t][0] for t in ("T7", "T8", "T9")]
            star = "*" if pub[p]["T7"][1] else ""
            print(f"| {float(p):g}{star} | {' / '.join(f'{x:.2f}' for x in pv)} | {mean(n):.2f} | "
                  f"{min(n):.2f}..{max(n):.2f} | {mean(o):.2f} | {min(o):.2f}..{max(o):.2f} | "
                  f"{d(mean(o), mean(n))} | {mean(c):.2f} | {d(mean(c), mean(n))} | "
                  f"{d(mean(pv), mean(n))} |")
    if "b2" in parts:
        pub = {key(r["byte_drop_rate"]): (int(r["tcp_segment_bytes"]),
                                          float(r["ecn_tcp_send_rate_kbps"]),
                                          r["ecn_unrealistic"] == "true")
               for r in rows("table10.csv")}
        rates = sorted(pub, key=float)
        for b in rates:
            for s in seeds:
                if not a.reuse or ("b2", b, s, "ecntcp14") not in res:
                    for g, v in ns2("b2", b, s).items():
                        res[("b2", b, s, g)] = v
                    save_results(res)
        print(f"\n### RFC 4828 Table 10, ECN TCP per segment size, send rate per flow, Kb/s "
              f"(payload bytes; mean of seeds 1..{a.seeds}, ranges over the seeds; published "
              "at the segment size Table 10 gives; best = the size with the highest rate)\n")
        print("| byte drop/mark rate | segment | published | ns-2.35 | ns-2 range | qoslab | "
              "qoslab range | qoslab - ns-2 | qoslab ns2_compat | ns2_compat - ns-2 |")
        print("|" + "---|" * 10)
        for b in rates:
            q = [ours(a.qoslab, "b2", b, s) for s in seeds]
            best = {}
            for size in SIZES:
                n = [res[("b2", b, s, f"ecntcp{size}")] for s in seeds]
                o = [x[f"ecntcp{size}"] for x in q]
                c = [x[f"ecnns2tcp{size}"] for x in q]
                for who, v in (("ns2", n), ("ours", o), ("compat", c)):
                    if who not in best or mean(v) > best[who][1]:
                        best[who] = (size, mean(v))
                seg, pv, unreal = pub[b]
                ptxt = f"{pv:.2f}{'*' if unreal else ''}" if size == seg else "—"
                print(f"| {float(b):g} | {size} | {ptxt} | {mean(n):.2f} | {min(n):.2f}..{max(n):.2f} "
                      f"| {mean(o):.2f} | {min(o):.2f}..{max(o):.2f} | {d(mean(o), mean(n))} | "
                      f"{mean(c):.2f} | {d(mean(c), mean(n))} |")
            print(f"| {float(b):g} | best | {pub[b][1]:.2f} ({pub[b][0]} B) | "
                  f"{best['ns2'][1]:.2f} ({best['ns2'][0]} B) | | "
                  f"{best['ours'][1]:.2f} ({best['ours'][0]} B) | | | "
                  f"{best['compat'][1]:.2f} ({best['compat'][0]} B) | |")


if __name__ == "__main__":
    main()
