"""Finding 54, session 14 (s14-start2): the first 10 s of single B.1 TFRC flows, ns-2.35 (traced
build, `TFRC_TRACE=1 /work/ns2-s13-voip/ns-trace probes/tfrc_high_loss.tcl`) against our probe
(`TFRC_PROBE_TRACE=1`, same TX / NF / RP / FB line format), one flow per seed. Per flow: packets
sent in 0..10 s, the first feedback reporting p > 0 (time, p, the sender's rate after it), and
whether the flow is stuck (no packet for >= 10 s starting before 5 s; traces run to 40 s, ours to 60 s: the probe measures from 50 s). Prints the means over
flows that are not stuck and over all flows.

usage: nice -n 19 python3 s14-start2_first10.py <group> <p> --seeds 1-200 --qoslab-test <algo test binary>
"""
import argparse
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "/work/ns2-s13-voip/ns-trace"


def parse(lines):
    tx, fbs = [], []
    for ln in lines:
        f = ln.split()
        if not f:
            continue
        if f[0] == "TX":
            tx.append(float(f[1]))
        elif f[0] == "FB":
            d = dict(zip(f[2::2], f[3::2]))
            fbs.append((float(f[1]), float(d["p"]), float(d["rate"]), d.get("st", "?")))
    return sorted(tx), sorted(fbs)


def summary(tx, fbs):
    t0 = tx[0] if tx else 0.0
    n10 = sum(1 for t in tx if t < 10.0)
    gaps = [(b - a, a) for a, b in zip(tx, tx[1:] + [max(40.0, tx[-1])])]
    stuck = any(g >= 10.0 and a < 5.0 for g, a in gaps)
    first = next(((t, p, r) for t, p, r, _ in fbs if p > 0), None)
    nfb0 = sum(1 for t, p, r, _ in fbs if p == 0)
    ss_peak = max((r for t, p, r, _ in fbs if p == 0), default=0.0)
    return dict(t0=t0, n10=n10, stuck=stuck, first=first, nfb0=nfb0, ss_peak=ss_peak)


def ns2_flow(group, p, seed):
    env = dict(os.environ, TFRC_TRACE="1")
    r = subprocess.run(["nice", "-n", "19", NS, os.path.join(HERE, "tfrc_high_loss.tcl"), p,
                        str(seed), group, "40", "0"], env=env, capture_output=True, text=True)
    return parse((r.stdout + r.stderr).splitlines())


def ours_flows(binary, group, p, n):
    env = dict(os.environ, TFRC_PROBE=f"{group} {p} {n} 60", TFRC_PROBE_BACKLOG="1",
               TFRC_PROBE_TRACE="1")
    r = subprocess.run(["nice", "-n", "19", binary, "--ignored", "--nocapture", "--exact",
                        "tfrc::ns2_tests::tfrc_high_loss_probe"], env=env, capture_output=True,
                       text=True)
    # one flow per "SEED ns2 <n>" line (the probe's RFC-mode flows come first: skipped)
    flows, cur = [], None
    for ln in r.stderr.splitlines():
        if ln.startswith("SEED "):
            cur = [] if ln.split()[1] == "ns2" else None
            if cur is not None:
                flows.append(cur)
        elif cur is not None:
            cur.append(ln)
    return [parse(fl) for fl in flows]


def report(name, sums):
    ns = [s for s in sums if not s["stuck"]]
    print(f"| {name} | {len(sums)} | {sum(s['stuck'] for s in sums)} | "
          f"{statistics.fmean(s['n10'] for s in sums):.2f} | "
          f"{statistics.fmean(s['n10'] for s in ns):.2f} | "
          f"{statistics.fmean(s['nfb0'] for s in ns):.2f} | "
          f"{statistics.fmean(s['ss_peak'] for s in ns):.1f} | "
          f"{statistics.median(s['first'][0] - s['t0'] for s in ns if s['first']):.3f} | "
          f"{statistics.median(s['first'][1] for s in ns if s['first']):.3f} | "
          f"{statistics.fmean(s['first'][1] for s in ns if s['first']):.3f} | "
          f"{statistics.median(s['first'][2] for s in ns if s['first']):.1f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("p")
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--qoslab-test", default="")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    print("| side | flows | stuck | pkts 0..10 s all | not stuck | p = 0 feedbacks before the first "
          "p > 0 (not stuck) | slow-start peak rate B/s | first p > 0 feedback: s after start "
          "(median) | its p median | mean | rate after it B/s (median) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    report("ns-2.35", [summary(*ns2_flow(a.group, a.p, s)) for s in range(lo, hi + 1)])
    if a.qoslab_test:
        report("ours", [summary(*x) for x in ours_flows(a.qoslab_test, a.group, a.p,
                                                         hi - lo + 1)])


if __name__ == "__main__":
    main()
