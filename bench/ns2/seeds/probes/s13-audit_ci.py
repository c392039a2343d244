#!/usr/bin/env python3
"""Issue 14 audit (session 13, branch s13-audit): the cells DONE_WHEN.md still listed as outside
with no explanation, re-run over more seeds with means ± 95 % CIs and bench/ns2/seeds/ci.py's
rule (within = inside the issue's bound, or the two 95 % intervals overlap).

Parts (each run is under a second on both sides, so 40 seeds are cheap):
  b1tfrc  B.1 TFRC / TFRC-SP send rates (rfc4828_b1_tfrc.py's two sides), ours `ns2_compat` +
          `app_backlog` (findings 37, 38), every group at --values (packet drop rates)
  b2tfrc  B.2 TFRC-SP / standard TFRC 14 B (rfc4828_b2.py's two sides), ours `ns2_compat` +
          `app_backlog`, at --values (byte drop rates)
  b1ecn   B.1 ECN TCP (1460 B, timestamps; rfc4828_ecn.py's two sides), RFC 3168 mode and
          `ns2_compat`, at --values (packet mark rates)
  b1tcp   B.1 Table 7 SACK TCP (probes/table7_tcp_timer.py's qoslab side, RFC mode and
          `ns2_compat`) against ns-2 with its TCP start-up matched (`syn_ false`,
          `rtxcur_init_ 1.0`, finding 17), at --values (packet drop rates)
  b2tcp   B.2 SACK TCP groups --groups (with --ns2-nosyn: against ns-2 with its TCP start-up
          matched, `syn_ false`, `rtxcur_init_ 1.0`, finding 17), RFC mode and with
          `ns2_compat` on those groups only
          (finding 42's probe scenario, probes/b2_large_segments.py), send rate and timeouts
          per flow
ns-2 seeds not in the existing caches (measured/rfc4828_b1_tfrc_ns2.csv,
measured/rfc4828_b2_ns2.csv, measured/fewloss_ns2.csv) are run and kept in
measured/s13-audit_ns2.csv; the existing caches are not rewritten.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s13-audit_ci.py --part b1tfrc --seeds 40 \
           --values 0.3,0.4,0.5
       nice -n 19 python3 bench/ns2/seeds/probes/s13-audit_ci.py --part b2tfrc --seeds 40 \
           --values 0.005,0.01,0.02,0.04,0.05
       nice -n 19 python3 bench/ns2/seeds/probes/s13-audit_ci.py --part b2tcp --seeds 40 \
           --values 0.001 --groups tcp256,tcp512
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ci  # noqa: E402
import fewloss  # noqa: E402
import qoslab_run  # noqa: E402
import rfc4828_b1_tfrc as b1  # noqa: E402
import rfc4828_b2 as b2  # noqa: E402
import rfc4828_ecn as ecn  # noqa: E402

ROOT = b1.ROOT
CACHE = os.path.join(HERE, "..", "measured", "s13-audit_ns2.csv")
b2ls = __import__("b2_large_segments")


def load_cache():
    res = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            for r in csv.DictReader(f):
                res[(r["part"], r["value"], int(r["seed"]), r["column"])] = float(r["x"])
    return res


def save_cache(res):
    with open(CACHE, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["part", "value", "seed", "column", "x"])
        for k in sorted(res, key=lambda k: (k[0], float(k[1]), k[2], k[3])):
            w.writerow(list(k) + [f"{res[k]:.6f}"])


def ns2_b1(p, seeds):
    old = b1.load_results()
    cache = load_cache()
    out = {}
    for s in seeds:
        if (p, s, "std1460") in old:
            row = {g: old[(p, s, g)] for g in b1.GROUPS}
        elif ("b1tfrc", p, s, "std1460") in cache:
            row = {g: cache[("b1tfrc", p, s, g)] for g in b1.GROUPS}
        else:
            row = b1.ns2(p, s)
            cache.update({("b1tfrc", p, s, g): v for g, v in row.items()})
            save_cache(cache)
        out[s] = row
    return out


def b2_ns2_nosyn(b, seed):
    """fewloss.b2_ns2() on a copy of rfc4828_b2.tcl with ns-2's TCP start-up matched to ours
    (`syn_ false`, `rtxcur_init_ 1.0`: no SYN, a 1-s initial RTO; finding 17)."""
    src = open(os.path.join(HERE, "..", "rfc4828_b2.tcl")).read()
    old = "Agent/TCP set maxrto_ 60\n"
    assert src.count(old) == 1, "rfc4828_b2.tcl's maxrto_ line changed"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "rfc4828_b2.tcl")
        with open(path, "w") as f:
            f.write(src.replace(old, old + "Agent/TCP set syn_ false\n"
                                "Agent/TCP set rtxcur_init_ 1.0\n", 1))
        saved = fewloss.HERE
        fewloss.HERE = d
        try:
            return fewloss.b2_ns2(b, seed)
        finally:
            fewloss.HERE = saved


def ns2_b2(b, seeds, nosyn=False):
    """{seed: {group_send, group_timeouts (TCP)}} from the caches or new ns-2 runs."""
    bk = repr(float(b))
    few = {} if nosyn else fewloss.load()
    part = "b2nosyn" if nosyn else "b2"
    cache = load_cache()
    out = {}
    for s in seeds:
        if nosyn:
            if (part, bk, s, "sp14_send") in cache:
                out[s] = {k[3]: v for k, v in cache.items() if k[:3] == (part, bk, s)}
            else:
                out[s] = b2_ns2_nosyn(b, s)
                cache.update({(part, bk, s, c): v for c, v in out[s].items()})
                save_cache(cache)
            continue
        if ("b2", bk, s, "sp14_send") in few:
            row = {k[3]: v for k, v in few.items() if k[:3] == ("b2", bk, s)}
        elif ("b2", bk, s, "sp14_send") in cache:
            row = {k[3]: v for k, v in cache.items() if k[:3] == ("b2", bk, s)}
        else:
            row = fewloss.b2_ns2(b, s)
            cache.update({("b2", bk, s, c): v for c, v in row.items()})
            save_cache(cache)
        out[s] = row
    return out


def ns2_ecn(p, seeds):
    old = ecn.load_results()
    cache = load_cache()
    out = {}
    for s in seeds:
        k = ("b1", ecn.key(p), s, "ecntcp")
        if k in old:
            out[s] = old[k]
        elif ("b1ecn", p, s, "ecntcp") in cache:
            out[s] = cache[("b1ecn", p, s, "ecntcp")]
        else:
            out[s] = ecn.ns2("b1", p, s)["ecntcp"]
            cache[("b1ecn", p, s, "ecntcp")] = out[s]
            save_cache(cache)
    return out


def ns2_b1tcp_nosyn(p, seeds):
    """rfc4828_table7_tcp.tcl with `syn_ false`, `rtxcur_init_ 1.0` (finding 17), per seed."""
    src = open(os.path.join(HERE, "..", "rfc4828_table7_tcp.tcl")).read()
    old = "Agent/TCP set maxrto_ 60\n"
    assert src.count(old) == 1, "rfc4828_table7_tcp.tcl's maxrto_ line changed"
    cache = load_cache()
    out = {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t7.tcl")
        with open(path, "w") as f:
            f.write(src.replace(old, old + "Agent/TCP set syn_ false\n"
                                "Agent/TCP set rtxcur_init_ 1.0\n", 1))
        for s in seeds:
            k = ("b1tcpnosyn", p, s, "send")
            if k not in cache:
                r = subprocess.run(["nice", "ns", path, p, str(s)], check=True,
                                   capture_output=True, text=True).stdout
                cache[k] = float(re.search(r"send_kbps=([0-9.]+)", r).group(1))
                save_cache(cache)
            out[s] = cache[k]
    return out


def verdict_row(label, ns, qo, bound, dec=2):
    return (f"| {label} | {ci.fmt(ns, dec)} | {ci.fmt(qo, dec)} | {ci.rel(ns, qo)} | "
            f"{ci.verdict(ns, qo, bound)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", required=True,
                    choices=["b1tfrc", "b2tfrc", "b1ecn", "b2tcp", "b1tcp"])
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--values", required=True)
    ap.add_argument("--groups", default="tcp256")
    ap.add_argument("--ns2-nosyn", action="store_true",
                    help="b2tcp: ns-2 with syn_ false, rtxcur_init_ 1.0 (finding 17)")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    print(f"\n### {a.part}, seeds 1..{a.seeds} each side: mean ± 95 % CI (ci.py), "
          "ours against ns-2.35\n")
    print("| cell | ns-2.35 | ours (`ns2_compat` unless named) | diff | verdict (5 % or CIs) |")
    print("|---|---|---|---|---|")
    for v in a.values.split(","):
        if a.part == "b1tfrc":
            ns = ns2_b1(v, seeds)
            q = {s: b1.ours(a.qoslab, v, s, True) for s in seeds}
            for g in b1.GROUPS:
                print(verdict_row(f"B.1 p = {v} {g}", [ns[s][g] for s in seeds],
                                  [q[s][g + "ns2"] for s in seeds], 0.05), flush=True)
        elif a.part == "b1tcp":
            import table7_tcp_timer as t7
            ns = ns2_b1tcp_nosyn(v, seeds)
            for mode, compat in (("RFC", False), ("ns2_compat", True)):
                q = [t7.ours(a.qoslab, v, s, compat) for s in seeds]
                print(verdict_row(f"B.1 TCP p = {v} {mode} vs ns-2 syn_ false, rtxcur_init_ 1",
                                  [ns[s] for s in seeds], q, 0.05), flush=True)
        elif a.part == "b1ecn":
            ns = ns2_ecn(v, seeds)
            q = {s: ecn.ours(a.qoslab, "b1", v, s) for s in seeds}
            for g, label in (("ecntcp", "RFC 3168"), ("ecnns2tcp", "ns2_compat")):
                print(verdict_row(f"B.1 ECN p = {v} {label}", [ns[s] for s in seeds],
                                  [q[s][g] for s in seeds], 0.05), flush=True)
        elif a.part == "b2tfrc":
            ns = ns2_b2(v, seeds)
            q = {s: b2.ours(a.qoslab, v, s, True) for s in seeds}
            for g in ("sp14", "std14"):
                print(verdict_row(f"B.2 b = {v} {g}", [ns[s][g + "_send"] for s in seeds],
                                  [q[s][g + "ns2"] for s in seeds], 0.05), flush=True)
        else:
            groups = a.groups.split(",")
            ns = ns2_b2(v, seeds, a.ns2_nosyn)
            for mode, extra in (("RFC", ""), ("ns2_compat", "ns2_compat = true\n")):
                send = {g: [] for g in groups}
                to = {g: [] for g in groups}
                sc = b2ls.scenario(repr(float(v)), extra, groups)
                for s in seeds:
                    r = qoslab_run.summary(a.qoslab, sc, s)
                    for g in groups:
                        fl = [f for f in r["flows"] if re.fullmatch(g + r"_\d+", f["name"])]
                        send[g].append(sum(f["send_payload_bps"] for f in fl) / len(fl) / 1e3)
                        to[g].append(sum(f["measured"]["timeouts"] for f in fl) / len(fl))
                for g in groups:
                    print(verdict_row(f"B.2 b = {v} {g} send, {mode}",
                                      [ns[s][g + "_send"] for s in seeds], send[g], 0.05, 3),
                          flush=True)
                    nto = [ns[s].get(g + "_timeouts") for s in seeds]
                    if None not in nto:  # older cached ns-2 runs lack timeouts
                        print(verdict_row(f"B.2 b = {v} {g} timeouts/flow, {mode}", nto, to[g],
                                          0.10, 1), flush=True)


if __name__ == "__main__":
    main()
