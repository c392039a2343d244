#!/usr/bin/env python3
"""Finding 54, session 16 (s16-pairs): why our TFRC-SP 14 B makes fewer own-packet pairs than
ns-2.35's in B.2 b = 0.02 with ns-2's configuration (loss at the entry, the `ca_` factor,
options 1-26). TFRC-SP (sp14) only.

Inputs: ns-2.35 traces of ../build_s16ca_trace_ns2.sh's ns (`TFRC_CA_TRACE=1`; CA / RS lines at
the sender, and for `sink` SR / SP lines at the receiver), ours from a binary built with
probes/s16-pairs_ours_probe.patch (TX / RS lines as s16-ca's, plus NF: a nofeedback expiry
before its rate cut, with the packet due and the factor) run by
`S16CA_O26=1 s16-ca_factor.py run BIN 0.02 SEED OUT --ca --entry`.

  expiries --ours T.. --ns2 T..   nofeedback expiries by phase (before / after the flow's first
                                  queued RTT sample), the timer's regime (2R or 2s/X) and the
                                  sign of the factor of the packet due; pairs among them
  queued --ours T.. --ns2 T..     queued RTT samples by their excess over the base RTT (ns),
                                  all and each flow's first
  sink NS2TRACE..                 ns-2.35's sink: data arrivals at the nack timer's instant
                                  (last report + 1.5 x 0.240000688 s, within 1 us), which went
                                  first, and whether the arrival was reported at that instant

Every run `nice -n 19`.
"""
import collections
import sys

B = 0.240000688


def cat(f):
    return "f>1" if f > 1 else ("f=1" if f == 1 else "f<1")


def ns2_flows(files):
    for fn in files:
        per = collections.defaultdict(list)
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "CA" and int(w[3]) <= 80:
                per[int(w[3])].append(("CA", float(w[1]), float(w[5]), float(w[7])))
            elif w[0] == "RS" and int(w[3]) <= 80:
                per[int(w[3])].append(("RS", float(w[1]), float(w[5]), float(w[7])))
        yield from per.values()


def ours_flows(files):
    for fn in files:
        per = collections.defaultdict(list)
        for ln in open(fn):
            w = ln.split()
            if len(w) < 8 or w[0] not in ("TX", "RS", "NF") or w[7] != "true" or float(w[5]) <= 14:
                continue
            t = int(w[1]) * 1e-9
            if w[0] == "TX":
                per[w[3]].append(("TX", t, float(w[9])))
            elif w[0] == "RS":
                per[w[3]].append(("RS", t, float(w[9]), float(w[11])))
            else:
                per[w[3]].append(("NF", t, float(w[17])))
        yield from per.values()


def expiries_ns2(files):
    c = collections.Counter()
    for L in ns2_flows(files):
        fq = next((x[1] for x in L if x[0] == "RS" and x[2] > B + 1e-10), 1e9)
        ref = rtt = None
        for i, x in enumerate(L):
            if x[0] == "RS":
                ref, rtt = x[1], x[3]
                continue
            if i < 2 or L[i - 1][0] != "CA":
                continue
            p = L[i - 1]
            # an expiry's nextpkt(): rate_ halved since the previous nextpkt(), no feedback between
            if abs(x[3] * 2 - p[3]) >= 1e-9 * p[3]:
                continue
            pair = x[1] - p[1] <= 1e-6 + 1e-12
            reg = "start" if ref is None or rtt is None else (
                "2R" if abs(x[1] - ref - 2 * rtt) < 1e-6 else "2s/X")
            sched = L[i - 2] if pair else p
            if sched[0] == "CA":
                c[("pre" if x[1] < fq else "post", reg, cat(sched[2]), pair)] += 1
            ref = x[1]
    return c


def expiries_ours(files):
    c = collections.Counter()
    for L in ours_flows(files):
        fq = next((x[1] for x in L if x[0] == "RS" and x[2] > B + 1e-10), 1e9)
        ref, txs, seen = None, [], False
        for x in L:
            if x[0] == "TX":
                txs.append(x)
                continue
            if x[0] == "RS":
                ref, seen = x[1], True
                continue
            if len(txs) < 2:
                ref = x[1]
                continue
            pair = x[1] - txs[-1][1] <= 1e-6 + 1e-12
            reg = "start" if ref is None or not seen else (
                "2R" if abs(x[1] - ref - 2 * x[2]) < 1e-6 else "2s/X")
            sched = txs[-2] if pair else txs[-1]
            c[("pre" if x[1] < fq else "post", reg, cat(sched[2]), pair)] += 1
            ref = x[1]
    return c


def expiries(ours, ns2):
    A, O = expiries_ns2(ns2), expiries_ours(ours)
    print("| phase | regime | factor of the packet due | ns-2.35 expiries | pairs | ours expiries | pairs |")
    print("|---|---|---|---|---|---|---|")
    for ph in ("pre", "post"):
        for reg in ("start", "2R", "2s/X"):
            for f in ("f>1", "f=1", "f<1"):
                a, o = A[(ph, reg, f, True)], O[(ph, reg, f, True)]
                an, on = a + A[(ph, reg, f, False)], o + O[(ph, reg, f, False)]
                if an + on:
                    print(f"| {ph} | {reg} | {f} | {an} | {a} ({a / max(an, 1):.2f}) | {on} | {o} ({o / max(on, 1):.2f}) |")


def queued(ours, ns2):
    for name, flows, idx in (("ns-2.35", ns2_flows(ns2), 2), ("ours", ours_flows(ours), 2)):
        allq, firstq, nflows = collections.Counter(), collections.Counter(), 0
        for L in flows:
            nflows += 1
            first = True
            for x in L:
                if x[0] == "RS" and x[idx] > B + 1e-10:
                    k = round((x[idx] - B) * 1e9)
                    allq[k] += 1
                    if first:
                        firstq[k] += 1
                        first = False
        print(f"{name}: flows {nflows}, with a queued sample {sum(firstq.values())}; queued samples "
              f"{sum(allq.values())}, by excess (ns) {allq.most_common(6)}; each flow's first {firstq.most_common(4)}")


def sink(files):
    c = collections.Counter()
    for fn in files:
        fidof, ev = {}, collections.defaultdict(list)
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "SR":
                fidof[w[3]] = int(w[5])
                ev[w[3]].append(("SR", float(w[1]), float(w[15]), w[9]))
            elif w[0] == "SP":
                ev[w[3]].append(("SP", float(w[1]), float(w[5]), float(w[7])))
        for s, L in ev.items():
            g = "sp14" if fidof.get(s, 99) <= 80 else "std14"
            reps = []
            for j, x in enumerate(L):
                if x[0] == "SP":
                    reps.append(x[1])
                    continue
                prev = [r for r in reps[-3:] if r < x[1] - 1e-12]
                if not prev:
                    continue
                d = x[1] - (prev[-1] + 1.5 * B)
                if abs(d) >= 1e-6:
                    continue
                tf = any(abs(r - x[1]) < 1e-12 for r in reps[-2:])
                now = any(y[0] == "SP" and abs(y[1] - x[1]) < 1e-12 for y in L[j + 1:j + 3])
                tie = "tie (<1e-12 s)" if abs(d) < 1e-12 else "within 1 us"
                c[(g, tie, "timer first" if tf else "arrival first", "u=" + x[3],
                   "arrival reported at once" if now else "not reported")] += 1
    print("| group | arrival vs the timer | first | urgent | the arrival | n |")
    print("|---|---|---|---|---|---|")
    for k, v in sorted(c.items()):
        print("| " + " | ".join(k) + f" | {v} |")


def main():
    a = sys.argv[1:]
    if not a:
        raise SystemExit(__doc__)
    cmd, rest = a[0], a[1:]
    if cmd in ("expiries", "queued"):
        i = rest.index("--ns2")
        (expiries if cmd == "expiries" else queued)(rest[rest.index("--ours") + 1:i], rest[i + 1:])
    elif cmd == "sink":
        sink(rest)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
