#!/usr/bin/env python3
"""ns-2.35 test-suite-friendly.tcl cases ported: ns-2.35 | qoslab, means over seeds.

Cases: `smoothCA` (two standard TFRC flows with ns-2.35's default TFRC, smoothCA.toml),
`voip` (a TFRC-SP flow of 120-byte packets and a SACK TCP on a 0.2 Mb/s RED bottleneck,
voip.toml) and `tfrcOnly` (the voip test's TFRC-SP flow alone: no drops, nothing random,
compared point by point; tfrcOnly is voip.toml without the TCP).

ns-2: the suite's test itself, unmodified, run by friendly.tcl with a seed of the default
RNG (RED's drop decisions are the only randomness). First, with the suite's own seed, its
output is checked point by point against the checked-in test-output-friendly/<case>.gz;
then seeds 1..N (seed 1 = the suite's run). Read from the suite's samples (temp.s: each
sender's counter every 0.1 s; TFRC ndatapack_, TCP ack_) and its flow monitor on r1->r2
(per-fid drops and departures). qoslab: the .toml as written (RFC 5348 / RFC 4828 TFRC),
and with `ns2_compat = true` on the TFRC flows, and (voip, smoothCA) with
`ns2_use_mark_p = true` on the RED queues; and with RFC 5348 §4.5's oscillation prevention
(`oscillation_prevention = true`), in RFC mode with the RFC's q2 = 0.9 and with `ns2_compat`
at ns-2's q2 = df_ = 0.95 (ns-2's `ca_ 1`, as shipped; findings 31 and 36).

usage: python3 bench/ns2/seeds/suite/friendly.py --case smoothCA|voip|tfrcOnly [--seeds N]
       [--only-oscillation] [--data-suffix _s40]
Writes ns-2's per-seed values to crates/qoslab-sim/tests/data/ns2/suite_friendly_<case>.csv
(the data of crates/qoslab-sim/tests/ns2_suite/friendly.rs).
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, HERE)
import suiteref  # noqa: E402

DATA = os.path.join(ROOT, "crates", "qoslab-sim", "tests", "data", "ns2", "suite_friendly_{}.csv")
EXE = os.path.join(ROOT, "target", "release", "qoslab")

# Per case: the columns compared, ns-2's value of each from (samples, monitor), ours from
# a run's flows.csv rows.
#   samples: {label: [(t, counter)]}; monitor: {fid: (drops, departures)}


def at(samples, label, t):
    """The sender counter sampled at time t (the suite samples every 0.1 s from 0)."""
    v = [c for (x, c) in samples[label] if x <= t + 1e-6]
    return v[-1] if v else 0


CASES = {
    "smoothCA": {
        "toml": "smoothCA.toml",
        "cols": ["tf1_0_16", "tf1_16_30", "tf2_16_30", "tf2_30_40"],
    },
    "voip": {
        "toml": "voip.toml",
        "cols": ["sp_sent", "sp_drops", "tcp_acked", "tcp_drops"],
    },
}


def ns2_values(case, samples, mon):
    if case == "smoothCA":
        # (the suite prints no flow monitor for smoothCA: no ns-2 drop counts)
        return {"tf1_0_16": at(samples, 1, 16.0), "tf1_16_30": at(samples, 1, 30.0) - at(samples, 1, 16.0),
                "tf2_16_30": at(samples, 2, 30.0), "tf2_30_40": at(samples, 2, 39.9) - at(samples, 2, 30.0)}
    return {"sp_sent": at(samples, 1, 19.9), "sp_drops": mon[0][0],
            "tcp_acked": at(samples, 2, 19.9), "tcp_drops": mon[1][0]}


def run_ns2(case, seed, d):
    for f in ("test-suite-friendly.tcl", "misc_simple.tcl", "support.tcl"):
        shutil.copy(os.path.join(suiteref.TESTDIR, f), d)
    out = subprocess.run(["nice", "ns", os.path.join(HERE, "friendly.tcl"), case, str(seed)],
                         cwd=d, capture_output=True, text=True).stdout
    samples = {}
    for line in open(os.path.join(d, "temp.s")):
        x = line.split()
        samples.setdefault(int(x[1]), []).append((float(x[0]), int(x[2])))
    mon = {}
    for line in out.splitlines():
        x = line.split()
        if line.startswith("fid:") and x[2] == "drops":
            mon.setdefault(int(x[1]), [0, 0])[0] = int(x[3])
        elif line.startswith("fid:") and x[2] == "packets":
            mon.setdefault(int(x[1]), [0, 0])[1] = int(x[3])
    return samples, mon


def check_reference(case, d):
    """The suite's output (temp2.rands) against test-output-friendly/<case>.gz."""
    ref = suiteref.ref_series("friendly", case)
    got = {}
    for blk in open(os.path.join(d, "temp2.rands")).read().split("\n\n"):
        lines = [x for x in blk.strip().split("\n") if x.strip()]
        if lines and lines[0].startswith('"'):
            got[lines[0][1:].strip()] = [tuple(x.split()) for x in lines[1:]]
    n = sum(len(v) for v in ref.values())
    ok = got == ref
    print(f"ns-2.35 today vs test-output-friendly/{case}.gz: {n} points in "
          f"{len(ref)} series, {'identical' if ok else 'DIFFERENT'}")
    return ok


def tfrc_keys(sc, compat, ca):
    """Adds `ns2_compat = true` and (ca = q2) RFC 5348 §4.5 to every TFRC flow."""
    if compat:
        sc = sc.replace('kind = "tfrc"', 'kind = "tfrc"\nns2_compat = true')
    if ca is not None:
        sc = sc.replace('kind = "tfrc"', f'kind = "tfrc"\noscillation_prevention = true\noscillation_q2 = {ca}')
    return sc


def ours(case, seed, compat, markp, toml=None, duration=None, ca=None):
    sc = open(os.path.join(HERE, toml or CASES[case]["toml"])).read()
    sc = tfrc_keys(sc, compat, ca)
    if markp:
        sc = sc.replace('mean_pkt_size = "500B" }', 'mean_pkt_size = "500B", ns2_use_mark_p = true }')
    if duration is not None:
        sc = sc.replace('duration = "20s"', f'duration = "{round(duration * 1e6)}us"')
    if case == "tfrcOnly":
        sc = sc[:sc.index('[[flow]]\nname = "tcp1"')]
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", EXE, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        rows = {r["flow"]: r for r in csv.DictReader(open(os.path.join(d, "flows.csv")))}
    if case == "smoothCA":
        return rows
    return rows


def ours_values(case, seed, compat, markp, ca=None):
    if case == "smoothCA":
        a = ours(case, seed, compat, markp, ca=ca)
        # sent per window from runs cut at 16 and 30 s (a run covers [0, duration))
        sc16 = ours_cut(seed, compat, markp, 16.0, ca)
        sc30 = ours_cut(seed, compat, markp, 30.0, ca)
        return {"tf1_0_16": int(sc16["tf1"]["data_pkts"]),
                "tf1_16_30": int(sc30["tf1"]["data_pkts"]) - int(sc16["tf1"]["data_pkts"]),
                "tf2_16_30": int(sc30["tf2"]["data_pkts"]),
                "tf2_30_40": int(a["tf2"]["data_pkts"]) - int(sc30["tf2"]["data_pkts"]),
                "tf1_drops": int(a["tf1"]["data_dropped"]), "tf2_drops": int(a["tf2"]["data_dropped"])}
    r = ours(case, seed, compat, markp, ca=ca)
    return {"sp_sent": int(r["voip"]["data_pkts"]), "sp_drops": int(r["voip"]["data_dropped"]),
            "tcp_acked": round(float(r["tcp1"]["goodput_bps"]) * 20 / 8 / 1460),
            "tcp_drops": int(r["tcp1"]["data_dropped"])}


def ours_cut(seed, compat, markp, t, ca=None):
    sc = open(os.path.join(HERE, "smoothCA.toml")).read()
    sc = sc.replace('duration = "40s"', f'duration = "{t}s"')
    sc = tfrc_keys(sc, compat, ca)
    if markp:
        sc = sc.replace('mean_pkt_size = "500B" }', 'mean_pkt_size = "500B", ns2_use_mark_p = true }')
    if t <= 16.0:
        sc = sc[:sc.index('[[flow]]\nname = "tf2"')]
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "s.toml")
        open(f, "w").write(sc)
        subprocess.run(["nice", EXE, "run", f, "--seed", str(seed), "--out", d, "-q"], check=True)
        rows = {r["flow"]: r for r in csv.DictReader(open(os.path.join(d, "flows.csv")))}
    rows.setdefault("tf2", {"data_pkts": 0})
    return rows


def tfrc_only():
    with tempfile.TemporaryDirectory() as d:
        samples, mon = run_ns2("tfrcOnly", 0, d)
        ok = check_reference("tfrcOnly", d)
    print("ns-2 flow monitor (fid: drops, departures):", mon)
    ns = [(round(t, 1), c) for t, c in samples[1]]
    print("\n### test-suite-friendly tfrcOnly: TFRC-SP packets sent per 0.1 s (ns-2's output)\n")
    print("| interval ending | ns-2.35 | qoslab | qoslab ns2_compat |\n|---|---|---|---|")
    first = None
    prev = [0, 0, 0]
    tot = None
    for t, c in ns:
        if t < 2.1 or t > 19.9:
            prev = [c, 0, 0] if t < 2.1 else prev
            continue
        o = int(ours("tfrcOnly", 1, False, False, toml="voip.toml", duration=t)["voip"]["data_pkts"])
        oc = int(ours("tfrcOnly", 1, True, False, toml="voip.toml", duration=t)["voip"]["data_pkts"])
        row = [c - prev[0], o - prev[1], oc - prev[2]]
        if t <= 5.0 or t in (10.0, 15.0, 19.9):
            print(f"| {t:.1f} | {row[0]} | {row[1]} | {row[2]} |")
        if row[0] != row[1] and first is None:
            first = (t, row)
        prev = [c, o, oc]
        tot = prev
    print(f"\ntotal sent by 19.9 s: ns-2 {tot[0]}, qoslab {tot[1]}, ns2_compat {tot[2]}; "
          f"first interval that differs: {first}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=["smoothCA", "voip", "tfrcOnly"], required=True)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--only-oscillation", action="store_true",
                    help="only the variants with RFC 5348 §4.5 (oscillation_prevention)")
    ap.add_argument("--data-suffix", default="",
                    help="write ns-2's values to suite_friendly_<case><suffix>.csv "
                         "(e.g. _s40 with --seeds 40; the tests' 10-seed files have none)")
    a = ap.parse_args()
    if a.case == "tfrcOnly":
        tfrc_only()
        return
    with tempfile.TemporaryDirectory() as d:
        run_ns2(a.case, 0, d)
        ok = check_reference(a.case, d)
    seeds = range(1, a.seeds + 1)
    cols = CASES[a.case]["cols"]
    n = {}
    for s in seeds:
        with tempfile.TemporaryDirectory() as d:
            n[s] = ns2_values(a.case, *run_ns2(a.case, s, d))
    with open(DATA.format(a.case + a.data_suffix), "w", newline="") as f:
        f.write(f"# ns-2.35 (Debian package ns2 2.35): tcl/test/test-suite-friendly.tcl test "
                f"\"{a.case}\", unmodified, run by\n# bench/ns2/seeds/suite/friendly.tcl (default "
                f"RNG seeded) from bench/ns2/seeds/suite/friendly.py; with the suite's seed\n# its "
                f"output equals test-output-friendly/{a.case}.gz ({'checked' if ok else 'NOT EQUAL'}). "
                "Packets from the suite's sender counters\n# (TFRC ndatapack_, TCP ack_; "
                "x_a_b = sent in [a, b) s), drops from its flow monitor on r1->r2.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["seed"] + cols)
        for s in seeds:
            w.writerow([s] + [n[s][c] for c in cols])
    # (label, ns2_compat, ns2_use_mark_p, RFC 5348 §4.5 q2 or None)
    variants = [("qoslab", False, False, None), ("ns2_compat TFRC", True, False, None),
                ("ns2_compat + use_mark_p", True, True, None),
                ("qoslab + §4.5 (q2 0.9)", False, False, 0.9),
                ("ns2_compat + §4.5 (q2 0.95 = df_)", True, False, 0.95)]
    if a.only_oscillation:
        variants = variants[3:]
    o = {v[0]: {s: ours_values(a.case, s, v[1], v[2], v[3]) for s in seeds} for v in variants}
    print(f"\n### test-suite-friendly {a.case} (mean of seeds 1..{a.seeds}, ranges)\n")
    print("| column | ns-2.35 | ns-2 range | " + " | ".join(f"{v[0]} | - ns-2" for v in variants) + " |")
    print("|" + "---|" * (3 + 2 * len(variants)))
    for c in cols:
        nv = [n[s][c] for s in seeds]
        nm = sum(nv) / len(nv)
        cells = []
        for v in variants:
            ov = [o[v[0]][s][c] for s in seeds]
            om = sum(ov) / len(ov)
            cells.append(f"{om:.1f} ({min(ov)}..{max(ov)})")
            cells.append(f"{100 * (om - nm) / nm:+.1f}%" if nm else "—")
        print(f"| {c} | {nm:.1f} | {min(nv)}..{max(nv)} | " + " | ".join(cells) + " |")
    if a.case == "smoothCA":
        for v in variants:
            dr = [(o[v[0]][s]["tf1_drops"], o[v[0]][s]["tf2_drops"]) for s in seeds]
            print(f"\n{v[0]}: drops tf1 / tf2 over 0..40 s, mean {sum(x for x, _ in dr) / len(dr):.1f}"
                  f" / {sum(y for _, y in dr) / len(dr):.1f} (ns-2's suite run, seed 1: 37 / 25)")


if __name__ == "__main__":
    main()
