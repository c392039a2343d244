#!/usr/bin/env python3
"""Finding 41 probe (session 12): RFC 2963 App. A without shapers, CBS 30 000 B, yellow
throughput per LAN over seeds 1..N.

Columns: ns-2.35 as shipped (the cached runs of measured/rfc2963_ns2.csv), ns-2.35 with
dsRED's p_a capped (bench/ns2/build_capped_ns2.sh's ns-capped, run here; pass its path with
--capped), and qoslab in three TCP settings: the scenario as is (RFC mode), with ns-2's
timeout ssthresh rule (`rto_ssthresh = "ns2-half-window"`) and with `ns2_compat = true`.

    python3 bench/ns2/seeds/probes/rfc2963_yellow.py --capped /work/ns2-capped/ns-capped [--seeds 10]
"""
import argparse, os, shutil, statistics as st, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import rfc2963  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--capped", help="path of the capped ns-2.35 binary (column skipped if absent)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--cbs", type=int, default=30000)
    ap.add_argument("--qoslab", default=os.path.join(ROOT, "target", "release", "qoslab"))
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    cached = rfc2963.load_results()
    missing = [s for s in seeds if (a.cbs, s, 1) not in cached]
    if missing:
        raise SystemExit(f"no cached ns-2 runs for seeds {missing}: run fewloss.py --part rfc2963 first")
    cap = {}
    if a.capped:
        d = tempfile.mkdtemp()
        os.symlink(os.path.abspath(a.capped), os.path.join(d, "ns"))
        os.environ["PATH"] = d + os.pathsep + os.environ["PATH"]
        for s in seeds:
            for lan, v in rfc2963.run_ns2(a.cbs, s).items():
                cap.setdefault(lan, []).append(v["yellow"])
        shutil.rmtree(d)
    variants = {"qoslab (RFC mode)": "", "qoslab + ns-2 timeout ssthresh": 'rto_ssthresh = "ns2-half-window"\n',
                "qoslab `ns2_compat`": "ns2_compat = true\n"}
    orig = rfc2963.scenario
    ours = {}
    for name, extra in variants.items():
        rfc2963.scenario = lambda c, extra=extra: orig(c).replace("[defaults.tcp]\n", "[defaults.tcp]\n" + extra)
        for s in seeds:
            for lan, v in rfc2963.run_qoslab(a.qoslab, a.cbs, s).items():
                ours.setdefault((name, lan), []).append(v["yellow"])
    rfc2963.scenario = orig
    cols = ["ns-2.35 as shipped"] + (["ns-2.35 capped"] if cap else []) + list(variants)
    print(f"Yellow Mb/s per LAN, CBS {a.cbs} B, mean over seeds 1..{a.seeds}; (difference to ns-2.35 as shipped)\n")
    print("| LAN | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for lan in range(1, 11):
        base = rfc2963.mbps(st.mean(cached[(a.cbs, s, lan)]["yellow"] for s in seeds))
        cells = [f"{base:.3f}"]
        vals = ([cap[lan]] if cap else []) + [ours[(n, lan)] for n in variants]
        for v in vals:
            q = rfc2963.mbps(st.mean(v))
            cells.append(f"{q:.3f} ({100 * (q - base) / base:+.1f} %)")
        print(f"| {lan} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
