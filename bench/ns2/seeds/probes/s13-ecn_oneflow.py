#!/usr/bin/env python3
"""Issue 14, session 13 (findings 20 / 40): RFC 4828 B.2's ECN TCP cells without the 50-s
window's noise. Ten ECN SACK flows of one segment size over a long run (default 5000 s) on
rfc4828_b2.tcl's path, ns-2.35 (`s13-ecn_oneflow.tcl`) against ours
(`scenarios/rfc4828/b2-byte-drop.toml` with only its `ecnns2tcp<S>` group kept, `ns2_compat`,
`header = "50B"`: ns-2's 10 timestamp bytes, finding 40, and no warm-up): data packets sent
per flow over the whole run, mean ± 95 % CI over flows × seeds (`ci.py`).

usage: python3 bench/ns2/seeds/probes/s13-ecn_oneflow.py [--seeds 5] [--duration 5000]
       [--cells 0.001:1460,0.005:512] [--nosyn]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import qoslab_run  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


def ns2(b, size, seed, dur, nosyn):
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(["nice", "ns", os.path.join(HERE, "s13-ecn_oneflow.tcl"), b,
                              str(size), str(seed), str(dur)] + (["nosyn"] if nosyn else []),
                             check=True, capture_output=True, text=True, cwd=d).stdout
    return [int(m.group(1)) for m in re.finditer(r"sent=(\d+)", out)]


def ours(exe, b, size, seed, dur):
    sc = open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read()
    head, rest = sc.split("[[flow]]", 1)
    blocks = ["[[flow]]" + x for x in rest.split("[[flow]]")]
    keep = [x for x in blocks if f'name = "ecnns2tcp{size}_{{i}}"' in x]
    assert len(keep) == 1
    head = head.replace('duration = "100s"', f'duration = "{dur}s"').replace(
        'warmup = "50s"', 'warmup = "0s"')
    old = "loss = { byte = 0.0001, ecn = true }"
    assert old in head
    head = head.replace(old, f"loss = {{ byte = {b}, ecn = true }}", 1)
    flow = keep[0].replace("timestamps = true", 'timestamps = true\nheader = "50B"')
    r = qoslab_run.summary(exe, head + flow, seed)
    return [fl["total"]["data_pkts"] for fl in r["flows"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--duration", type=int, default=5000)
    ap.add_argument("--cells", default="0.001:1460,0.005:512")
    ap.add_argument("--nosyn", action="store_true",
                    help="ns-2 with syn_ false (no SYN, which ndatapack_ counts, before the data)")
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    print(f"ns-2 syn_ {'false' if a.nosyn else 'true'}; "
          f"data packets sent per flow over {a.duration} s (10 flows x seeds 1..{a.seeds}), "
          "mean ± 95 % CI; Kb/s = payload rate\n")
    print("| b | size | ns-2.35 | Kb/s | ours ns2_compat, 50 B | Kb/s | ours - ns-2 |")
    print("|---|---|---|---|---|---|---|")
    for cell in a.cells.split(","):
        b, size = cell.split(":")
        size = int(size)
        n, q = [], []
        for s in range(1, a.seeds + 1):
            n += ns2(b, size, s, a.duration, a.nosyn)
            q += ours(a.qoslab, b, size, s, a.duration)
        kb = lambda v: ci.mean_ci(v)[0] * size * 8 / a.duration / 1e3  # noqa: E731
        print(f"| {b} | {size} | {ci.fmt(n, 1)} | {kb(n):.3f} | {ci.fmt(q, 1)} | {kb(q):.3f} | "
              f"{ci.rel(n, q)} |", flush=True)


if __name__ == "__main__":
    main()
