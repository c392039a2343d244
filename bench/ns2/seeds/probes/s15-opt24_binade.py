#!/usr/bin/env python3
"""Finding 54, session 15 (s15-opt24): B.1 TFRC single flows over 0..END s, per window of the
simulated clock's binades ([32, 64), [64, 128), ... s, where a double's grain doubles), ns-2.35
(traced build /work/ns2-s13-voip/ns-trace, TFRC_TRACE=1 on probes/tfrc_high_loss.tcl) against our
probe (`tfrc_high_loss_probe`, TFRC_PROBE_TRACE=1, ns2_compat + backlog): packets per second, and
the share of nofeedback expiries (NF lines) at which two packets leave at the same instant (a
packet due at the expiry sent first, then the expiry's own nextpkt(); s14-f54's coincidence),
plus feedbacks per second and the mean p and rate at feedbacks per window.

usage: nice -n 19 python3 s15-opt24_binade.py <group> <p> --flows 400 --end 600 \
           --qoslab-test <algo test binary> [--dir /tmp/s15-opt24_binade]
"""
import argparse
import glob
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "/work/ns2-s13-voip/ns-trace"


def windows(end):
    w, a = [], 8
    while a < end:
        w.append((a, min(2 * a, end)))
        a *= 2
    return w


def traces(a):
    os.makedirs(a.dir, exist_ok=True)
    for s in range(1, a.flows + 1):
        path = os.path.join(a.dir, f"ns_{a.group}_{a.p}_{a.end}_{s}.tr")
        if not os.path.exists(path):
            r = subprocess.run(["nice", "-n", "19", NS, os.path.join(HERE, "tfrc_high_loss.tcl"),
                                a.p, str(s), a.group, str(a.end), "50"],
                               env=dict(os.environ, TFRC_TRACE="1"), capture_output=True, text=True)
            with open(path, "w") as f:
                f.writelines(ln + "\n" for ln in (r.stdout + r.stderr).splitlines()
                             if ln[:3] in ("TX ", "NF ", "FB ", "RP "))
    env = dict(os.environ, TFRC_PROBE=f"{a.group} {a.p} {a.flows} {a.end}", TFRC_PROBE_BACKLOG="1",
               TFRC_PROBE_TRACE="1")
    r = subprocess.run(["nice", "-n", "19", a.qoslab_test, "--ignored", "--nocapture", "--exact",
                        "tfrc::ns2_tests::tfrc_high_loss_probe"], env=env, capture_output=True,
                       text=True)
    ours, cur = [], None
    for ln in r.stderr.splitlines():
        if ln.startswith("SEED "):
            cur = [] if ln.split()[1] == "ns2" else None
            if cur is not None:
                ours.append(cur)
        elif cur is not None:
            cur.append(ln)
    ns = [open(p).read().splitlines()
          for p in glob.glob(os.path.join(a.dir, f"ns_{a.group}_{a.p}_{a.end}_*.tr"))]
    return {"ns-2.35": ns[:a.flows], "ours": ours}


def stats(flows, w):
    n = len(flows)
    tx, nf, dbl, fb = [0] * len(w), [0] * len(w), [0] * len(w), [0] * len(w)
    ps, rates = [[] for _ in w], [[] for _ in w]
    for lines in flows:
        last, saw_nf = None, False
        for ln in lines:
            f = ln.split()
            if not f or f[0] not in ("TX", "NF", "FB"):
                continue
            t = float(f[1])
            i = next((j for j, (a, b) in enumerate(w) if a <= t < b), None)
            if f[0] == "NF":
                saw_nf = True
                if i is not None:
                    nf[i] += 1
            elif f[0] == "FB":
                if i is not None:
                    d = dict(zip(f[2::2], f[3::2]))
                    fb[i] += 1
                    ps[i].append(float(d["p"]))
                    rates[i].append(float(d["rate"]))
            else:
                if i is not None:
                    tx[i] += 1
                    if last is not None and t - last < 1e-6 and saw_nf:
                        dbl[i] += 1
                last, saw_nf = t, False
    return [(tx[i] / n / (b - a), dbl[i] / max(1, nf[i]), fb[i] / n / (b - a),
             statistics.fmean(ps[i]) if ps[i] else 0, statistics.fmean(rates[i]) if rates[i] else 0)
            for i, (a, b) in enumerate(w)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--flows", type=int, default=400)
    ap.add_argument("--end", type=int, default=600)
    ap.add_argument("--qoslab-test", required=True)
    ap.add_argument("--dir", default="/tmp/s15-opt24_binade")
    a = ap.parse_args()
    w = windows(a.end)
    sides = {k: stats(v, w) for k, v in traces(a).items()}
    print(f"\n### {a.group} p = {a.p}, {a.flows} single flows a side, 0..{a.end} s\n")
    print("| window (s) | side | packets/s | two packets at an NF expiry, share of expiries | "
          "feedbacks/s | mean p at feedback | mean rate set at feedback B/s |")
    print("|---|---|---|---|---|---|---|")
    for i, (lo, hi) in enumerate(w):
        for k, v in sides.items():
            x = v[i]
            print(f"| {lo}-{hi} | {k} | {x[0]:.3f} | {x[1]:.3f} | {x[2]:.3f} | {x[3]:.4f} | "
                  f"{x[4]:.2f} |")


if __name__ == "__main__":
    main()
