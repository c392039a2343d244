#!/usr/bin/env python3
"""Finding 31 (issue 14, session 11): why our TFRC-SP loses more packets than ns-2's in
test-suite-friendly.tcl's `voip` at the same send rate. Per TFRC-SP / TCP arrival at the RED
queue r1 -> r2: the queue before it, the RED average it produced, and the verdict, in both
simulators; then per variant (means of seeds 1..N):

  SP arrivals / drops / loss, TCP loss (whole run), and over 8..20 s (after the slow-start
  overshoot): the time average of RED's average, its mean at TFRC-SP and at TCP arrivals,
  the mean gentle-RED p_b at TFRC-SP arrivals, the TFRC-SP loss rate;
  and two checks that RED and the drop counting are not the difference: (1) ns-2's recorded
  averages follow the RED estimator step by step (max error, busy arrivals), (2) the drop rule
  (ns-2 red.cc: count, wait_, gentle, `qlen > 1`) replayed with a fresh RNG on each run's
  recorded (average, queue) sequence gives back that run's drop counts per flow.
ns-2 also reports its TFRC sender's packets sent over 8..19.95 s against the integral of
rate_/packetSize_ (what it would send without ca_'s spacing factor).

ns-2: suite_friendly_voip_red.tcl (the suite's test unmodified, probes around it), as shipped
(ca_ 1) and with ca_ 0. qoslab: only with --ours-bin, a binary built from the tree with
voip_red_probe.patch (QPROBE; QCA for RFC 5348 §4.5), run on suite/voip.toml as written (RFC
TFRC-SP) and with `ns2_compat = true` on the TFRC flow, each with and without §4.5.

With --ablation (and --ours-bin): our `ns2_compat` TFRC-SP with each ns-2 TFRC behaviour
(`Ns2Compat` field) switched off alone, and with it alone on (the patch's QNS2OFF): TFRC-SP
sent / drops / loss, TCP acknowledged / drops.

usage: python3 bench/ns2/seeds/probes/suite_friendly_voip_red.py [--seeds N] [--ours-bin PATH]
       [--ablation]
Writes nothing.
"""
import argparse
import csv
import os
import random
import shutil
import statistics as st
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "suite"))
import suiteref  # noqa: E402

VOIP = os.path.join(os.path.dirname(HERE), "suite", "voip.toml")
W_Q, MIN_TH, MAX_TH, MAX_P = 0.002, 5.0, 15.0, 0.1
LINK_BPS = 200_000


def p_b(avg):
    """Gentle RED's p_b (the suite's thresholds, max_p 0.1)."""
    if avg < MIN_TH:
        return 0.0
    if avg < MAX_TH:
        return MAX_P * (avg - MIN_TH) / (MAX_TH - MIN_TH)
    return min(1.0, MAX_P + (1 - MAX_P) * (avg - MAX_TH) / MAX_TH)


def ns2_arrivals(path):
    """[t, flow (0 TFRC, 1 TCP), bytes, queue before, average after, dropped] per arrival at
    2 -> 3. An `a` line follows the `+` of the arrival that changed the average (its time is
    printed with fewer digits); no `a` line: the average did not change."""
    ev, avg, q, last = [], 0.0, 0, None
    for line in open(path):
        x = line.split()
        if not x:
            continue
        if x[0] == "a":
            avg = float(x[2])
            if last is not None and abs(float(x[1]) - last[0]) <= 1e-5 * max(1.0, last[0]):
                last[4] = avg
            continue
        if len(x) < 8 or x[2] != "2" or x[3] != "3":
            continue
        t, fl = float(x[1]), int(x[7])
        if x[0] == "+":
            last = [t, fl, int(x[5]), q, avg, False]
            ev.append(last)
            q += 1
        elif x[0] == "-":
            q -= 1
        elif x[0] == "d":
            q -= 1
            assert last is not None and abs(last[0] - t) < 1e-9 and last[1] == fl, line
            last[5] = True
    return ev


def ns2_sent_vs_rate(path):
    rows = [[float(v) for v in line.split()] for line in open(path)]
    at = lambda t: [r for r in rows if r[0] <= t + 1e-6][-1]  # noqa: E731
    integ = sum(r[1] / 120 * 0.1 for r in rows if 8.0 - 1e-6 <= r[0] < 19.95 - 1e-6)
    return at(19.95)[2] - at(8.0)[2], integ


def ours_arrivals(text):
    ev = []
    for line in text.splitlines():
        x = line.split()
        if x and x[0] == "Q":
            ev.append([int(x[1]) / 1e9, int(x[2]), int(x[3]), int(x[4]), float(x[5]), x[6] != "+"])
    return ev


def window(ev, lo=8.0, hi=20.0):
    e = [x for x in ev if lo <= x[0] < hi]
    tw = sum(a[4] * (b[0] - a[0]) for a, b in zip(e, e[1:])) / (e[-1][0] - e[0][0])
    sp = [x for x in e if x[1] == 0]
    tcp = [x for x in e if x[1] == 1]
    return {"tavg": tw, "avg_sp": st.mean(x[4] for x in sp), "avg_tcp": st.mean(x[4] for x in tcp),
            "pb_sp": st.mean(p_b(x[4]) for x in sp),
            "loss_sp_w": sum(x[5] for x in sp) / len(sp)}


def estimator_error(ev):
    """Max |recorded − (avg·(1 − w) + w·q)| over arrivals to a busy queue."""
    return max(abs(a[4] * (1 - W_Q) + W_Q * b[3] - b[4]) for a, b in zip(ev, ev[1:]) if b[3] > 0)


def replay(ev, rng):
    """ns-2 red.cc's decision on each recorded (average, queue); drops per flow."""
    drops, count, old = [0, 0], 0, False
    for t, fl, size, q, avg, _ in ev:
        count += 1
        if avg >= MIN_TH and q > 1:
            if avg >= 2 * MAX_TH:
                drops[fl] += 1
                count = 0
            elif not old:
                count, old = 1, True
            else:
                p = p_b(avg)
                c = count * p
                pa = 0.0 if c < 1 else (p / (2 - c) if c < 2 else 1.0)
                if rng.random() <= pa:
                    drops[fl] += 1
                    count = 0
        else:
            old = False
    return drops


def summary(name, runs, extra=""):
    n = len(runs)
    tot = lambda f: sum(f(ev) for ev in runs) / n  # noqa: E731
    sp_n = tot(lambda ev: sum(1 for x in ev if x[1] == 0))
    sp_d = tot(lambda ev: sum(1 for x in ev if x[1] == 0 and x[5]))
    tcp_n = tot(lambda ev: sum(1 for x in ev if x[1] == 1))
    tcp_d = tot(lambda ev: sum(1 for x in ev if x[1] == 1 and x[5]))
    w = [window(ev) for ev in runs]
    m = {k: st.mean(x[k] for x in w) for k in w[0]}
    rng = random.Random(1)
    rep = [0.0, 0.0]
    for ev in runs:
        for _ in range(20):
            d = replay(ev, rng)
            rep[0] += d[0] / 20 / n
            rep[1] += d[1] / 20 / n
    est = max(estimator_error(ev) for ev in runs)
    print(f"| {name} | {sp_n:.1f} | {sp_d:.1f} | {100 * sp_d / sp_n:.2f} % | {100 * tcp_d / tcp_n:.2f} % "
          f"| {m['tavg']:.2f} | {m['avg_sp']:.2f} | {m['avg_tcp']:.2f} | {m['pb_sp']:.4f} "
          f"| {100 * m['loss_sp_w']:.2f} % | {rep[0]:.1f} / {rep[1]:.1f} vs {sp_d:.1f} / {tcp_d:.1f} "
          f"| {est:.1e} |{extra}")


NS2_FIELDS = ["loss_event_needs_new_round", "tcp_rto_in_equation", "cap_timeout_factor",
              "recv_limit_floor", "loss_at_first_later_packet", "idle_report_after_arrival",
              "recv_limit_latest_report", "gradual_increase", "sp_ns2_short_counting"]


def ablation(binary, seeds):
    text = open(VOIP).read().replace('kind = "tfrc"', 'kind = "tfrc"\nns2_compat = true')
    print("\n### our `ns2_compat` TFRC-SP, ns-2 behaviours switched off (QNS2OFF)\n")
    print("| variant | TFRC-SP sent | drops | loss | TCP acked | TCP drops |\n|---|---|---|---|---|---|")
    configs = [("all on (`ns2_compat`)", []), ("all off (= RFC mode)", NS2_FIELDS)]
    configs += [(f"all but `{f}`", [f]) for f in NS2_FIELDS]
    configs += [(f"only `{f}`", [g for g in NS2_FIELDS if g != f]) for f in NS2_FIELDS]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.toml")
        open(path, "w").write(text)
        for name, off in configs:
            v = [0.0] * 4
            for s in seeds:
                subprocess.run(["nice", "-n", "19", binary, "run", path, "--seed", str(s), "--out", d,
                                "-q"], env=dict(os.environ, QNS2OFF=",".join(off)), check=True)
                rows = {r["flow"]: r for r in csv.DictReader(open(os.path.join(d, "flows.csv")))}
                for i, x in enumerate([int(rows["voip"]["data_pkts"]), int(rows["voip"]["data_dropped"]),
                                       round(float(rows["tcp1"]["goodput_bps"]) * 20 / 8 / 1460),
                                       int(rows["tcp1"]["data_dropped"])]):
                    v[i] += x / len(seeds)
            print(f"| {name} | {v[0]:.1f} | {v[1]:.1f} | {100 * v[1] / v[0]:.2f} % | {v[2]:.1f} | {v[3]:.1f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--ours-bin", help="qoslab built with voip_red_probe.patch")
    ap.add_argument("--ablation", action="store_true")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    if a.ablation:
        ablation(a.ours_bin, seeds)
        return
    print(f"### test-suite-friendly voip, per arrival at r1 -> r2 (means of seeds 1..{a.seeds})\n")
    print("| variant | SP arrivals | SP drops | SP loss | TCP loss | 8..20 s: time-avg RED avg "
          "| avg at SP arr. | avg at TCP arr. | p_b at SP arr. | SP loss | RED replay drops SP / TCP "
          "vs run | estimator max err |")
    print("|" + "---|" * 12)
    with tempfile.TemporaryDirectory() as d:
        for f in ("test-suite-friendly.tcl", "misc_simple.tcl", "support.tcl"):
            shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
        for ca in ("1", "0"):
            runs, sent, integ = [], 0.0, 0.0
            for s in seeds:
                subprocess.run(["nice", "-n", "19", "ns", os.path.join(HERE, "suite_friendly_voip_red.tcl"),
                                str(s), ca], cwd=d, capture_output=True)
                # (the suite's own cleanup then fails on the absent bin/getrc: exit status 1)
                runs.append(ns2_arrivals(os.path.join(d, "qtrace.tr")))
                a_, b_ = ns2_sent_vs_rate(os.path.join(d, "state.tr"))
                sent += a_ / len(seeds)
                integ += b_ / len(seeds)
            summary(f"ns-2.35 ca_ {ca}" + (" (as shipped)" if ca == "1" else ""), runs,
                    f" sent 8..19.95 s {sent:.1f} = {sent / integ:.3f} x integral of rate_/120 |")
    if not a.ours_bin:
        return
    for compat in (False, True):
        text = open(VOIP).read()
        if compat:
            text = text.replace('kind = "tfrc"', 'kind = "tfrc"\nns2_compat = true')
        for ca in (None, "0.95"):
            runs = []
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "s.toml")
                open(path, "w").write(text)
                env = dict(os.environ, QPROBE="1")
                if ca:
                    env["QCA"] = ca
                for s in seeds:
                    r = subprocess.run(["nice", "-n", "19", a.ours_bin, "run", path, "--seed", str(s),
                                        "--out", d, "-q"], env=env, capture_output=True, text=True,
                                       check=True)
                    runs.append(ours_arrivals(r.stderr))
            name = ("qoslab ns2_compat" if compat else "qoslab RFC") + (" + §4.5 (q2 0.95)" if ca else "")
            summary(name, runs, " |")


if __name__ == "__main__":
    main()
