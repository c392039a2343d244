#!/usr/bin/env python3
"""Finding 4's next step: per-flow drops, retransmissions and timeouts at the RIO seed's
bottleneck in both simulators, over the measurement window 5..20 s.

ns-2: bench/ns2/seeds/rio_hori2001.tcl (its trace of G1 -> G2: `d` events by flow id; its
"tcpflow" lines: ndatapack_, nrexmitpack_, nrexmit_ from 5 s to the end). qoslab: base.toml
with the cell's AF12 curve, the TCP variant and ns2_compat = false (rio_hori2001.py's "qoslab
rfc" column), per-flow counters of summary.json. Flows 1-10 have a 5 Mb/s target (mostly
In), 11-20 a 1 Mb/s target (mostly Out).

usage: python3 bench/ns2/seeds/probes/rio_flows.py [--tcp Sack] [--minth 20] [--maxth 200]
                                                  [--den 10] [--seeds 3]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ns2trace  # noqa: E402
import qoslab_run  # noqa: E402
import rio_hori2001 as rio  # noqa: E402


def ns2(tcp, minth, maxth, den, seed, exe="ns"):
    with tempfile.TemporaryDirectory() as d:
        tr = os.path.join(d, "q.tr")
        out = subprocess.run(["nice", exe, os.path.join(rio.HERE, "rio_hori2001.tcl"), tcp,
                              str(minth), str(maxth), str(den), "0.002", str(seed), tr, "20"],
                             check=True, capture_output=True, text=True, cwd=d).stdout
        drops = {i: 0 for i in range(1, 21)}
        for line in open(tr):
            f = line.split()
            if f[0] == "d" and float(f[1]) >= 5.0 and f[4] == "tcp":
                drops[int(f[7])] += 1
        st = ns2trace.stats(tr, 5.0, 20.0)
    # dsRED printStats at 5 s and at the end: per code point (10 In, 11 Out) TotPkts TxPkts
    # ldrops (buffer and forced) edrops (early); the window's = end - 5 s.
    tabs = [{}]
    for line in out.splitlines():
        f = line.split()
        if len(f) == 5 and f[0] in ("10", "11"):
            if f[0] in tabs[-1]:
                tabs.append({})
            tabs[-1][f[0]] = (int(f[3]), int(f[4]))
    st["cp"] = {c: tuple(tabs[-1][c][k] - tabs[0][c][k] for k in (0, 1)) for c in ("10", "11")}
    flows = {}
    for m in re.finditer(r"tcpflow=(\d+) sent=(\d+) rexmit=(\d+) timeouts=(\d+)", out):
        i = int(m.group(1))
        flows[i] = dict(sent=int(m.group(2)), retx=int(m.group(3)), to=int(m.group(4)),
                        drops=drops[i])
    return flows, st


def ours(exe, tcp, minth, maxth, den, seed):
    base = open(os.path.join(rio.ROOT, "scenarios", "rio-hori2001", "base.toml")).read()
    old_out = "out = { min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 } }"
    assert old_out in base
    sc = base.replace(old_out, f"out = {{ min_th = {minth}, max_th = {maxth}, "
                      f"max_p = {1.0 / den!r}, w_q = 0.002 }} }}")
    sc = sc.replace('variant = "reno"', f'variant = "{rio.TCP_NAMES[tcp]}"')
    sc = sc.replace("ns2_compat = true", "ns2_compat = false")
    r, out = qoslab_run.run(exe, sc, seed, ["queues.csv"])
    q = {}
    for row in out["queues.csv"]:
        if row["link"] == "G1->G2":
            q = {"ql_ave": float(row["ql_mean"]), "ql_std": float(row["ql_std"]),
                 "ql_zero": float(row["ql_p_empty"]),
                 "kinds": f"early {row['drops_early']}, forced {row['drops_forced']}, "
                          f"overflow {row['drops_overflow']}"}
    flows = {}
    for x in r["flows"]:
        i = int(x["name"][3:])
        m = x["measured"]
        flows[i] = dict(sent=m["data_pkts"], retx=m["retx_pkts"], to=m["timeouts"],
                        drops=m["data_dropped"], fr=m["fast_recoveries"])
    return flows, q


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tcp", default="Sack")
    ap.add_argument("--minth", type=int, default=20)
    ap.add_argument("--maxth", type=int, default=200)
    ap.add_argument("--den", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--qoslab", default=os.path.join(rio.ROOT, "target", "release", "qoslab"))
    ap.add_argument("--ns", default="ns", help="ns-2 binary (e.g. the p_a-capped build, README 14)")
    a = ap.parse_args()
    print(f"### RIO seed, {a.tcp}, AF12 ({a.minth}, {a.maxth}, 1/{a.den}), 5..20 s: per group of "
          "ten flows (1-10: 5 Mb/s target, 11-20: 1 Mb/s)\n")
    print("| seed | sim | ql_ave | ql_std | ql_zero | group | sent | drops | retx | timeouts | "
          "timeouts per drop | max timeouts of a flow | drop kinds (whole queue) |")
    print("|" + "---|" * 13)
    for s in range(1, a.seeds + 1):
        for name, (fl, q) in (("ns-2.35", ns2(a.tcp, a.minth, a.maxth, a.den, s, a.ns)),
                              ("qoslab rfc", ours(a.qoslab, a.tcp, a.minth, a.maxth, a.den, s))):
            for g, rng in (("1-10", range(1, 11)), ("11-20", range(11, 21))):
                t = {k: sum(fl[i][k] for i in rng) for k in ("sent", "drops", "retx", "to")}
                mx = max(fl[i]["to"] for i in rng)
                if "kinds" in q:
                    kinds = q["kinds"]
                else:
                    cp = q["cp"]
                    kinds = (f"In: ldrops {cp['10'][0]}, edrops {cp['10'][1]}; "
                             f"Out: ldrops {cp['11'][0]}, edrops {cp['11'][1]}")
                print(f"| {s} | {name} | {q['ql_ave']:.2f} | {q['ql_std']:.2f} | "
                      f"{q['ql_zero']:.3f} | {g} | {t['sent']} | {t['drops']} | {t['retx']} | "
                      f"{t['to']} | {t['to'] / max(t['drops'], 1):.3f} | {mx} | {kinds} |")


if __name__ == "__main__":
    main()
