#!/usr/bin/env python3
"""Finding 54, session 15 (s15-opt24): the first loss interval's seed, ns-2.35 against ours.

One B.1 flow per seed (tfrc_high_loss.tcl traced with /work/ns2-s13-voip/ns-trace, TFRC_TRACE=1;
ours: the algo crate's tfrc_high_loss_probe, TFRC_PROBE_TRACE=1, ns2_compat + backlog). Takes each
flow's first receiver report with 0 < p < 1 (the seed's report: adjust_history()'s p, sent at the
arrival revealing the first loss; p = 1 is option 22's case) and
  - ns-2.35: checks it against b_to_p(xr * s, rtt_, tzero_, s) (ns-2's bisection, recomputed here)
    with tzero_ = 0.6 s and 0.5 s (the sender's after one / two RTT samples at R = 0.24 s),
  - both: tabulates p by the report's X_recv (packets/s), the most frequent X_recv values.

usage: nice -n 19 python3 s15-opt24_seed.py <group> <p> --seeds 1-200 --qoslab-test <algo test binary>
"""
import argparse
import collections
import math
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "/work/ns2-s13-voip/ns-trace"
SIZE = {"std14": 14, "std200": 200, "std1460": 1460, "sp14": 1460, "sp200": 1460}
PKT = {"std14": 14, "std200": 200, "std1460": 1460, "sp14": 14, "sp200": 200}


def p_to_b(p, rtt, tzero, psize):
    if p < 0 or rtt < 0:
        return 25e6
    res = rtt * math.sqrt(2 * p / 3)
    res += min(1.0, 3 * math.sqrt(3 * p / 8)) * (tzero * p * (1 + 32 * p * p))
    return 25e6 if res < 1e-7 else min(psize / res, 25e6)


def b_to_p(b, rtt, tzero, psize):
    p, step = 0.5, 0.25
    for _ in range(31):
        r = p_to_b(p, rtt, tzero, psize)
        if 0.95 * b < r < 1.05 * b:
            return p
        p = p + step if r > b else p - step
        step /= 2
    return p


def first_seed(lines):
    for ln in lines:
        f = ln.split()
        if f and f[0] == "RP":
            d = dict(zip(f[2::2], f[3::2]))
            p = float(d["p"])
            if 0 < p < 1:
                return p, float(d["xr"]), float(d.get("rtt", "nan"))
            if p >= 1:
                return None
    return None


def ns2(group, p, seed):
    r = subprocess.run(["nice", "-n", "19", NS, os.path.join(HERE, "tfrc_high_loss.tcl"), p,
                        str(seed), group, "12", "0"], env=dict(os.environ, TFRC_TRACE="1"),
                       capture_output=True, text=True)
    return first_seed((r.stdout + r.stderr).splitlines())


def ours(binary, group, p, n):
    env = dict(os.environ, TFRC_PROBE=f"{group} {p} {n} 60", TFRC_PROBE_BACKLOG="1",
               TFRC_PROBE_TRACE="1")
    r = subprocess.run(["nice", "-n", "19", binary, "--ignored", "--nocapture", "--exact",
                        "tfrc::ns2_tests::tfrc_high_loss_probe"], env=env, capture_output=True,
                       text=True)
    flows, cur = [], None
    for ln in r.stderr.splitlines():
        if ln.startswith("SEED "):
            cur = [] if ln.split()[1] == "ns2" else None
            if cur is not None:
                flows.append(cur)
        elif cur is not None:
            cur.append(ln)
    return [first_seed(fl) for fl in flows]


def table(name, seeds):
    by = collections.defaultdict(list)
    for s in seeds:
        if s:
            by[round(s[1], 3)].append(s[0])
    print(f"\n{name}: {sum(1 for s in seeds if s)} flows with a seed report 0 < p < 1; "
          "p by X_recv (most frequent X_recv):\n")
    print("| X_recv pkt/s | flows | p values (count) |")
    print("|---|---|---|")
    for xr, ps in sorted(by.items(), key=lambda kv: -len(kv[1]))[:8]:
        c = collections.Counter(round(x, 6) for x in ps)
        print(f"| {xr} | {len(ps)} | " + ", ".join(f"{v} ({k})" for v, k in c.most_common(4))
              + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--qoslab-test", default="")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    ns = [ns2(a.group, a.p, s) for s in range(lo, hi + 1)]
    s_eq, s_pkt = SIZE[a.group], PKT[a.group]
    m6 = sum(1 for x in ns if x and x[2] > 0 and abs(b_to_p(x[1] * s_pkt, x[2], 0.6, s_eq) - x[0]) < 1e-6)
    m5 = sum(1 for x in ns if x and x[2] > 0 and abs(b_to_p(x[1] * s_pkt, x[2], 0.5, s_eq) - x[0]) < 1e-6)
    n = sum(1 for x in ns if x and x[2] > 0)
    either = [x for x in ns if x and x[2] > 0
              and min(abs(b_to_p(x[1] * s_pkt, x[2], t, s_eq) - x[0]) for t in (0.6, 0.5)) < 1e-6]
    print(f"ns-2.35, {n} seed reports with rtt_ > 0: b_to_p(xr*{s_pkt}, rtt_, tzero_, {s_eq}) "
          f"reproduces p exactly with tzero_ = 0.6 s in {m6}, with 0.5 s in {m5}, with one of "
          f"them in {len(either)}")
    for x in ns:
        if x and x[2] > 0 and x not in either:
            print(f"  not reproduced: p {x[0]} xr {x[1]} rtt {x[2]}")
    table("ns-2.35", ns)
    if a.qoslab_test:
        table("ours", ours(a.qoslab_test, a.group, a.p, hi - lo + 1))


if __name__ == "__main__":
    main()
