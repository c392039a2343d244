#!/usr/bin/env python3
"""Finding 41 probe (session 13, s13-yellow): per-LAN diagnostics of RFC 2963 App. A without
shapers (CBS 30 000 B by default) in ns-2.35 and qoslab, seeds 1..N, over [2, 102) s.

Per LAN (CIR): data packets sent, yellow packets the trTCM marked, the share of them lost
(ns-2: the core's drops + edrops of the LAN's yellow code point; qoslab: yellow bytes sent −
delivered), timeouts per flow, retransmitted packets, and yellow delivered (Mb/s).

    python3 bench/ns2/seeds/probes/s13-yellow_lanstats.py [--seeds 10] [--ns ns] [--set KEY=VALUE ...]

`--set` adds `KEY = VALUE` lines to the qoslab scenario's `[defaults.tcp]` (e.g.
`--set 'rwnd="43p"'`); `--win` sets ns-2's `window_` (default 43).
"""
import argparse, os, statistics as st, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import rfc2963  # noqa: E402
import qoslab_run  # noqa: E402
import ci  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
TCL = os.path.join(HERE, "s13-yellow_rfc2963_stats.tcl")
PKT = 1500


def run_ns2(ns, cbs, seed, win):
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["nice", "-n", "19", ns, TCL, str(cbs), str(seed), "102", "2", str(win)],
                           cwd=d, stdout=subprocess.PIPE, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0].startswith("S"):
            v = list(map(int, f[1:]))
            k = int(f[0][1:])
            out[k] = {"sent": v[9], "yellow": v[1], "ylost": v[6] + v[7], "yforced": v[6],
                      "timeouts": v[11] / 10, "retx": v[10], "ydeliv": v[4] - v[6] - v[7]}
    return out


def run_ours(exe, cbs, seed, extra):
    sc = rfc2963.scenario(cbs).replace("[defaults.tcp]\n", "[defaults.tcp]\n" + extra)
    s, rows = qoslab_run.run(exe, sc, seed)
    out = {}
    for fl in s["flows"]:
        k = (int(fl["name"][1:]) - 1) // 10 + 1
        m = fl["measured"]
        d = out.setdefault(k, {"sent": 0, "yellow": 0, "ylost": 0, "timeouts": 0, "retx": 0, "ydeliv": 0})
        d["sent"] += m["data_pkts"]
        d["yellow"] += m["bytes_by_color"][1] / PKT
        d["ylost"] += (m["bytes_by_color"][1] - m["delivered_by_color"][1]) / PKT
        d["ydeliv"] += m["delivered_by_color"][1] / PKT
        d["timeouts"] += m["timeouts"] / 10
        d["retx"] += m["retx_pkts"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--cbs", type=int, default=30000)
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--win", type=int, default=43)
    ap.add_argument("--no-ns", action="store_true", help="qoslab only")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(a.first, a.first + a.seeds)
    extra = "".join(s + "\n" for s in a.set)
    sides = [("qoslab", lambda s: run_ours(a.qoslab, a.cbs, s, extra))]
    if not a.no_ns:
        sides.insert(0, ("ns-2", lambda s: run_ns2(a.ns, a.cbs, s, a.win)))
    res = {name: [f(s) for s in seeds] for name, f in sides}
    print(f"CBS {a.cbs} B, seeds {seeds.start}..{seeds.stop - 1}; qoslab extra: {a.set or 'none'}; "
          f"ns-2 window_ {a.win}\n")
    print("| LAN (CIR) | side | data pkts | yellow marked | yellow lost % | timeouts/flow | retx pkts | yellow Mb/s |")
    print("|---|---|---|---|---|---|---|---|")
    for k in range(1, 11):
        for name, _ in sides:
            rs = [r[k] for r in res[name]]
            def m(key):
                return st.mean(r[key] for r in rs)
            yl = [100 * r["ylost"] / r["yellow"] for r in rs]
            yd = [r["ydeliv"] * PKT * 8 / 100e6 for r in rs]
            mu, h = ci.mean_ci(yd) if len(yd) > 1 else (yd[0], 0.0)
            print(f"| C{k} ({2 * ((k - 1) % 5 + 1)}) | {name} | {m('sent'):.0f} | {m('yellow'):.0f} | "
                  f"{st.mean(yl):.2f} | {m('timeouts'):.1f} | {m('retx'):.0f} | {mu:.3f} ± {h:.3f} |")


if __name__ == "__main__":
    main()
