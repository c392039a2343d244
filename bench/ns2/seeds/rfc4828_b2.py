#!/usr/bin/env python3
"""RFC 4828 §4.5.1 (Tables 5, 6) and App. B.2 (Table 10): configured byte drop rates,
published | ns-2.35 | qoslab per cell.

ns-2: bench/ns2/seeds/rfc4828_b2.tcl (ErrorModel `unit byte` on A -> B; SACK TCP per segment
size, Agent/TFRC `voip_` TFRC-SP and standard TFRC, 14 B); qoslab:
scenarios/rfc4828/b2-byte-drop.toml with its `@loss` line set to each byte drop rate. Both:
mean per flow over 50..100 s, ten flows per group, mean of seeds 1..N. TCP send rate =
payload bytes sent incl. retransmissions (the RFC's convention), TFRC send rate = every byte
on the wire. Two qoslab TFRC columns: RFC 4828 / RFC 5348 (sp14, std14) and `ns2_compat`
(sp14ns2, std14ns2).

usage: python3 bench/ns2/seeds/rfc4828_b2.py [--seeds N] [--reuse] [--rates 0.0001,...]
                                             [--app-backlog]
--app-backlog: the `ns2_compat` TFRC groups also get `app_backlog = true` (ns-2's CBR-fed
Agent/TFRC queues the application's packets: finding 37).
ns-2 per-run values are kept in bench/ns2/seeds/measured/rfc4828_b2_ns2.csv.
"""
import argparse
import csv
import os
import re
import subprocess

import qoslab_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RESULTS = os.path.join(HERE, "measured", "rfc4828_b2_ns2.csv")
TCP_SIZES = [14, 128, 256, 512, 1460, 4000, 8000]
NS2_GROUPS = [f"tcp{s}" for s in TCP_SIZES] + ["sp14", "std14"]
# Every byte drop rate of Tables 5, 6 and 10.
RATES = ["0.00001", "0.0001", "0.001", "0.005", "0.01", "0.02", "0.04", "0.05"]


def published():
    """{(b, group): (published send rate Kb/s, source)}."""
    out = {}

    def rows(name):
        lines = [l for l in open(os.path.join(ROOT, "data", "rfc4828", name))
                 if not l.startswith("#")]
        return list(csv.DictReader(lines))
    for t in ("table5.csv", "table6.csv"):
        for r in rows(t):
            out[(fmt_b(r["byte_drop_rate"]), f"tcp{r['segment_bytes']}")] = (
                float(r["tcp_send_rate_kbps"]), t[:-4].replace("table", "T"))
    for r in rows("table10.csv"):
        b = fmt_b(r["byte_drop_rate"])
        out.setdefault((b, f"tcp{r['tcp_segment_bytes']}"),
                       (float(r["tcp_send_rate_kbps"]), "T10"))
        out[(b, "sp14")] = (float(r["tfrc_sp_send_rate_kbps"]), "T10")
        out[(b, "std14")] = (float(r["std_tfrc_send_rate_kbps"]), "T10")
    return out


def fmt_b(s):
    return repr(float(s))


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for row in csv.DictReader(f):
                res[(fmt_b(row["b"]), int(row["seed"]), row["group"])] = (
                    float(row["send_kbps"]), float(row["goodput_kbps"]))
    return res


def save_results(res):
    with open(RESULTS, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["b", "seed", "group", "send_kbps", "goodput_kbps"])
        for k in sorted(res, key=lambda k: (float(k[0]), k[1], NS2_GROUPS.index(k[2]))):
            w.writerow(list(k) + [f"{res[k][0]:.4f}", f"{res[k][1]:.4f}"])


def ns2(b, seed):
    args = ["ns", os.path.join(HERE, "rfc4828_b2.tcl"), b, str(seed)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    got = {m.group(1): (float(m.group(2)), float(m.group(3))) for m in re.finditer(
        r"group=(\w+) b=\S+ send_kbps=([0-9.]+) goodput_kbps=([0-9.]+)", out)}
    if set(got) != set(NS2_GROUPS):
        raise SystemExit(f"ns-2 output incomplete: {' '.join(args)}\n{out}")
    return got


def ours(exe, b, seed, backlog=False):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read()
    if backlog:
        from rfc4828_b1_tfrc import with_backlog
        sc = with_backlog(sc)
    old = "loss = { byte = 0.0001, ecn = true }"
    if old not in sc:
        raise SystemExit("b2-byte-drop.toml's @loss line changed: update rfc4828_b2.py")
    r = qoslab_run.summary(exe, sc.replace(old, f"loss = {{ byte = {b}, ecn = true }}", 1), seed)
    g = {}
    for fl in r["flows"]:
        name = re.sub(r"_?\d+$", "", fl["name"])
        v = fl["send_payload_bps"] if fl["kind"] == "tcp" else fl["send_rate_bps"]
        g.setdefault(name, []).append(v / 1e3)
    return {k: sum(v) / len(v) for k, v in g.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--rates", default=",".join(RATES))
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    ap.add_argument("--app-backlog", action="store_true")
    a = ap.parse_args()
    rates = [fmt_b(x) for x in a.rates.split(",")]
    pub = published()
    res = load_results()
    for b in rates:
        for s in range(1, a.seeds + 1):
            if not a.reuse or (b, s, NS2_GROUPS[0]) not in res:
                for g, v in ns2(b, s).items():
                    res[(b, s, g)] = v
                save_results(res)
    q = {(b, s): ours(a.qoslab, b, s, a.app_backlog) for b in rates
         for s in range(1, a.seeds + 1)}
    print(f"\n### RFC 4828 B.2: send rate per flow, Kb/s (mean of seeds 1..{a.seeds}; "
          "TCP payload incl. retransmissions, TFRC wire bytes)\n")
    print("| byte drop rate | group | published | ns-2.35 | ns-2 range | qoslab | qoslab range "
          "| qoslab - ns-2 | qoslab ns2_compat | ns2_compat - ns-2 | published - ns-2 |")
    print("|" + "---|" * 11)
    for b in rates:
        for g in NS2_GROUPS:
            ns = [res[(b, s, g)][0] for s in range(1, a.seeds + 1)]
            ou = [q[(b, s)][g] for s in range(1, a.seeds + 1)]
            n, o = sum(ns) / len(ns), sum(ou) / len(ou)
            comp = "—"
            dcomp = "—"
            if g in ("sp14", "std14"):
                oc = [q[(b, s)][g + "ns2"] for s in range(1, a.seeds + 1)]
                c = sum(oc) / len(oc)
                comp = f"{c:.2f}"
                dcomp = d(c, n)
            p = pub.get((b, g))
            ptxt = "—" if p is None else f"{p[0]:.2f} ({p[1]})"
            print(f"| {b} | {g} | {ptxt} | {n:.2f} | {min(ns):.2f}..{max(ns):.2f} | {o:.2f} | "
                  f"{min(ou):.2f}..{max(ou):.2f} | {d(o, n)} | {comp} | {dcomp} | "
                  f"{'—' if p is None else d(p[0], n)} |")


def d(x, n):
    return f"{x - n:+.2f} ({100 * (x - n) / n:+.1f}%)" if n else f"{x - n:+.2f}"


if __name__ == "__main__":
    main()
