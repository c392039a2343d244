#!/usr/bin/env python3
"""Finding 54 (issue 14, session 13, s13-f54): distributions of one long TFRC flow's events,
from a trace in the format of bench/ns2/s13-voip_tfrc_trace.patch (ns-2.35's traced TFRC,
/work/ns2-s13-voip/ns-trace with TFRC_TRACE=1 on probes/tfrc_high_loss.tcl) or of our probe
(TFRC_PROBE_TRACE=1 on `tfrc_high_loss_probe`, crates/qoslab-algo/src/tfrc/ns2_tests.rs).
Over [SKIP, end): packets sent per s, feedbacks and nofeedback expiries per s, quantiles of
the reported p, X_recv (packets/s), the rate set after a feedback, the inter-feedback gap and
inter-send gap, the share of time with the allowed rate at its floor (<= FLOOR B/s).

usage: python3 s13-f54_dist.py [--skip 50] [--floor 0.25] TRACE...
"""
import argparse


def q(v, qs=(0.05, 0.25, 0.5, 0.75, 0.95)):
    if not v:
        return "-"
    v = sorted(v)
    return " ".join(f"{v[min(len(v) - 1, int(len(v) * x))]:.4g}" for x in qs) + f" (mean {sum(v) / len(v):.4g})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip", type=float, default=50.0)
    ap.add_argument("--floor", type=float, default=0.25)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    tx = fb = nf = 0
    ps, xr, rate, gfb, gtx, prp = [], [], [], [], [], []
    floor_t = span = 0.0
    for path in a.traces:
        last_fb = last_tx = None
        cur_rate, last_t, end = None, a.skip, a.skip
        for line in open(path):
            w = line.split()
            if not w or w[0] not in ("TX", "FB", "NF", "RP"):
                continue
            t = float(w[1])
            end = max(end, t)
            if t >= a.skip and cur_rate is not None:
                if cur_rate <= a.floor:
                    floor_t += t - last_t
                last_t = t
            if w[0] == "TX":
                cur_rate = float(w[w.index("rate") + 1])
                if t >= a.skip:
                    tx += 1
                    if last_tx is not None:
                        gtx.append(t - last_tx)
                last_tx = t
            elif w[0] == "FB":
                cur_rate = float(w[w.index("rate") + 1])
                if t >= a.skip:
                    fb += 1
                    ps.append(float(w[w.index("p") + 1]))
                    xr.append(float(w[w.index("xr") + 1]))
                    rate.append(cur_rate)
                    if last_fb is not None:
                        gfb.append(t - last_fb)
                last_fb = t
            elif w[0] == "NF":
                cur_rate = float(w[w.index("rate") + 1])
                if t >= a.skip:
                    nf += 1
            elif w[0] == "RP" and t >= a.skip:
                prp.append(float(w[w.index("p") + 1]))
        span += end - a.skip
    print(f"span {span:.0f} s: TX {tx / span:.4f}/s, FB {fb / span:.4f}/s, NF {nf / span:.4f}/s, "
          f"time at rate <= {a.floor} B/s {floor_t / span:.3f}")
    print("quantiles 5/25/50/75/95 %:")
    print("  p at FB     ", q(ps))
    print("  X_recv pkt/s", q(xr))
    print("  rate after FB", q(rate))
    print("  FB gap s    ", q(gfb))
    print("  TX gap s    ", q(gtx))
    print(f"  FB with p=0 {sum(1 for x in ps if x == 0) / max(1, len(ps)):.3f}, X_recv=0 "
          f"{sum(1 for x in xr if x == 0) / max(1, len(xr)):.3f}")


if __name__ == "__main__":
    main()
