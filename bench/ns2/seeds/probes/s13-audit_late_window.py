#!/usr/bin/env python3
"""Finding 54 (issue 14 audit, session 13, s13-audit): the B.1 TFRC cells with `ns2_compat` +
`app_backlog` measured over 150..200 s instead of 50..100 s (both sides: a copy of
rfc4828_b1_tfrc.tcl with `mark` at 150 s and `done` at 200 s; b1-packet-drop.toml with
duration 200 s, warm-up 150 s), seeds 1..N, mean ± 95 % CI and ci.py's verdict. Tells a
start-up effect of the 50..100-s window from a steady-state difference.

usage: nice -n 19 python3 bench/ns2/seeds/probes/s13-audit_late_window.py 0.5 [N]
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ci  # noqa: E402
import qoslab_run  # noqa: E402
import rfc4828_b1_tfrc as b1  # noqa: E402


def main():
    p = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    exe = os.path.join(b1.ROOT, "target", "release", "qoslab")
    tcl = open(os.path.join(HERE, "..", "rfc4828_b1_tfrc.tcl")).read()
    for old, new in (('$ns at 50.0 "mark"', '$ns at 150.0 "mark"'),
                     ('$ns at 100.0 "done"', '$ns at 200.0 "done"')):
        assert tcl.count(old) == 1, old
        tcl = tcl.replace(old, new)
    sc = b1.with_backlog(open(os.path.join(b1.ROOT, "scenarios", "rfc4828",
                                           "b1-packet-drop.toml")).read())
    for old, new in (("loss = { packet = 0.01, ecn = true }",
                      f"loss = {{ packet = {p}, ecn = true }}"),
                     ('duration = "100s"', 'duration = "200s"'),
                     ('warmup = "50s"', 'warmup = "150s"')):
        assert sc.count(old) == 1, old
        sc = sc.replace(old, new)
    ns, q = {}, {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "b1_late.tcl")
        with open(path, "w") as f:
            f.write(tcl)
        for s in range(1, n + 1):
            out = subprocess.run(["nice", "-n", "19", "ns", path, p, str(s)], check=True,
                                 capture_output=True, text=True).stdout
            ns[s] = {m.group(1): float(m.group(2)) for m in
                     re.finditer(r"group=(\w+) p=\S+ send_kbps=([0-9.]+)", out)}
            g = {}
            for fl in qoslab_run.summary(exe, sc, s)["flows"]:
                g.setdefault(re.sub(r"_?\d+$", "", fl["name"]), []).append(
                    fl["send_rate_bps"] / 1e3)
            q[s] = {k: sum(v) / len(v) for k, v in g.items()}
    print(f"\n| cell (seeds 1..{n}) | ns-2.35 | ours ns2_compat + app_backlog | diff | verdict |")
    print("|---|---|---|---|---|")
    for g in b1.GROUPS:
        a = [ns[s][g] for s in ns]
        b = [q[s][g + "ns2"] for s in q]
        print(f"| B.1 p = {p} {g}, 150..200 s | {ci.fmt(a, 2)} | {ci.fmt(b, 2)} | "
              f"{ci.rel(a, b)} | {ci.verdict(a, b, 0.05)} |", flush=True)


if __name__ == "__main__":
    main()
