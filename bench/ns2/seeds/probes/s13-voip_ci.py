#!/usr/bin/env python3
"""Finding 38, session 13 (branch s13-voip): our `ns2_compat` TFRC-SP in the friendly suite's
`voip` against ns-2.35 over seeds 1..40, per column mean ± 95 % half-width (bench/ns2/seeds/
ci.py), with `Ns2Compat` fields switched off one set at a time. Needs the ns2_suite test binary
built with s13-voip_ablation.patch applied (QNS2OFF; without it every set gives the full
`Ns2Compat::ns2()`); per-seed rows come from the voip tests' QSEEDS=1 output.
  ca0: voip_ns2_compat_tfrc_sp_matches_ns2_without_ca against suite_friendly_voip_ca0.csv
  ca1: voip_ns2_compat_with_oscillation_prevention_matches_ns2_as_shipped against
       suite_friendly_voip_s40.csv (ns-2 as shipped, ours with RFC 5348 §4.5 at q2 0.95)

usage: python3 bench/ns2/seeds/probes/s13-voip_ci.py --bin target/debug/deps/ns2_suite-HASH
       [OFF ...]     (OFF: comma-separated field names; "-" = none off)
With --trace DIR (binary also built with s13-voip_trace.patch): writes DIR/<case>/t<seed>.txt,
the QTRACE events of each seed, for s13-voip_slowstart.py's parse()/summary().
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from ci import mean_ci  # noqa: E402

DATA = os.path.join(HERE, "..", "..", "..", "..", "crates", "qoslab-sim", "tests", "data", "ns2")
TESTS = {
    "ca0": ("friendly::voip_ns2_compat_tfrc_sp_matches_ns2_without_ca", "suite_friendly_voip_ca0.csv"),
    "ca1": ("friendly::voip_ns2_compat_with_oscillation_prevention_matches_ns2_as_shipped",
            "suite_friendly_voip_s40.csv"),
}
COLS = ["sp_sent", "sp_drops", "tcp_acked", "tcp_drops"]


def ns2_rows(name):
    lines = [x for x in open(os.path.join(DATA, name)) if not x.startswith("#")]
    return [[float(v) for v in r[1:5]] for r in list(csv.reader(lines))[1:41]]


def ours(binary, test, off, trace_dir=None):
    env = dict(os.environ, QSEEDS="1", QNS2OFF=off)
    if trace_dir:
        env["QTRACE"] = "1"
    r = subprocess.run(["nice", "-n", "19", binary, test, "--exact", "--nocapture",
                        "--test-threads", "1"], capture_output=True, text=True, env=env)
    rows, cur = [], []
    for line in r.stderr.splitlines():
        if line.startswith("SEED"):
            x = line.split()
            rows.append([float(v) for v in x[2:6]])
            if trace_dir:
                os.makedirs(trace_dir, exist_ok=True)
                with open(os.path.join(trace_dir, f"t{x[1]}.txt"), "w") as f:
                    f.write("\n".join(cur) + "\n")
            cur = []
        elif line[:2] in ("TX", "RX", "RP", "FB", "NF", "EV"):
            cur.append(line)
    assert len(rows) == 40, f"{test}: {len(rows)} seeds (QSEEDS rows); stderr tail: {r.stderr[-500:]}"
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--trace")
    ap.add_argument("off", nargs="*", default=["-"])
    a = ap.parse_args()
    for off in a.off:
        off = "" if off == "-" else off
        for case, (test, data) in TESTS.items():
            ref = ns2_rows(data)
            tr = os.path.join(a.trace, case) if a.trace else None
            q = ours(a.bin, test, off, tr)
            cells = []
            for i, c in enumerate(COLS):
                mq, hq = mean_ci([r[i] for r in q])
                mn, hn = mean_ci([r[i] for r in ref])
                cells.append(f"{c} {mq:.1f} ± {hq:.1f} vs {mn:.1f} ± {hn:.1f} ({100 * (mq / mn - 1):+.1f} %)")
            print(f"off [{off}] {case}: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()
