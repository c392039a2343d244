#!/usr/bin/env python3
"""Finding 54, session 16 (s16-ca): ns-2.35's effective `ca_` factor against ours.

ns-2.35 (tcp/tfrc.cc nextpkt(): xrate = rate_*sqrtrtt_/sqrt(rttcur_) with `ca_ 1`; update_rtt():
rttcur_ = now - (timestamp_echo + timestamp_offset) in double seconds, sqrtrtt_ its root's EWMA
with df_ = 0.95) is RFC 5348 §4.5 with q2 = 0.95, our formula. What differs is the sample: ns-2's
is computed at the magnitude of the absolute clock, so at a constant RTT it takes one value per
binade of the clock, and the factor's sign follows.

  consts [WIRE...]       ns-2's sample ((ts + d1) + d2) - ts minus d1 + d2, per binade of ts: the
                         most frequent value and its share of ts (the rest: ts + d1 crossing the
                         binade's end); B.1 / B.2 path (1 Gb/s, 120 ms each way; data WIRE bytes,
                         default 46 232 1500; 40-B feedback)
  ns2 TRACE...           traces of build_s16ca_trace_ns2.sh's ns
                         (TFRC_CA_TRACE=1 ns rfc4828_b2.tcl B SEED 2> TRACE): the factor at every
                         nextpkt() and feedback, the samples above the base RTT, and each
                         nofeedback expiry with a packet due at it by the sign of the factor
                         that scheduled the packet (TFRC fids 71..80 sp14, 81..90 std14)
  run QOSLAB B SEED OUT [--ca] [--only-ns2-set]
                         ours on scenarios/rfc4828/b2-byte-drop.toml (+ app_backlog, the loss line
                         set to B), a binary built with probes/s16-ca_ours_probe.patch: stderr
                         (RS / TX lines) to OUT; prints the ns2_compat TFRC groups' send rates.
                         --ca adds oscillation_prevention = true, oscillation_q2 = 0.95 (ns-2's
                         `ca_ 1`) to the ns2_compat TFRC flows; S16CA_O26=1 in the environment
                         turns option 26 on in that binary; --entry: the loss at the link's entry
                         (`at = "entry"`, ns-2's `$ns lossmodel`)
  ours TRACE...          the factor at each feedback and the samples above the base, from `run`'s
                         traces, ns2_compat TFRC flows (sp14: 46-B packets, std14: 14 B)
  pairs --ours T.. --ns2 T..   two packets of one flow within 1 us, per 100 packets
  ns2echo TRACE...       ns-2.35 (the SR / SP lines): standard 14 B pairs of packets under 368 ns apart,
                         whether the second arrived and how many reports echo it
  bumps --ours T.. --ns2 T..   samples above the base RTT: the echoed packet the second of the
                         flow's own pair (another of its packets within 1 us before it) or not
                         (ours: the echoed send time; ns-2: now - sample, report at arrival)

Every run `nice -n 19`.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
CATS = [">1 bump", ">1 tiny", "==1", "<1 tiny", "<1 bump"]
BASE = 0.240000688


def cat(f):
    e = f - 1.0
    if e == 0:
        return "==1"
    if e > 1e-12:
        return ">1 bump"
    if e > 0:
        return ">1 tiny"
    if e < -1e-12:
        return "<1 bump"
    return "<1 tiny"


def consts(args):
    wire = [int(x) for x in (args or ["46", "232", "1500"])]
    binades = [(0.5, 1), (1, 2), (2, 4), (4, 8), (8, 16), (16, 32), (32, 64), (64, 128), (128, 256), (256, 512), (512, 1024)]
    print("| data wire B | " + " | ".join(f"[{a}, {b}) s" for a, b in binades) + " |")
    print("|---|" + "---|" * len(binades))
    for w in wire:
        d1, d2 = 8.0 * w / 1e9 + 0.12, 8.0 * 40 / 1e9 + 0.12
        row = []
        for a, b in binades:
            vals = collections.Counter()
            for k in range(4000):
                ts = a + (b - a) * (k + 0.5) / 4000
                vals[((ts + d1) + d2) - ts - (d1 + d2)] += 1
            v, n = vals.most_common(1)[0]
            row.append(f"{v:+.2e} ({n / 4000:.2f})")
        print(f"| {w} | " + " | ".join(row) + " |")


def ns2_group(fid):
    return "sp14" if fid <= 80 else "std14"


def ns2(files):
    res, fdist, fb, bumps, nfb = (collections.Counter() for _ in range(5))
    for fn in files:
        per = collections.defaultdict(list)
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "CA":
                per[int(w[3])].append(("CA", float(w[1]), float(w[5]), float(w[7]), float(w[9])))
            elif w[0] == "RS":
                fid, t, samp, sq = int(w[3]), float(w[1]), float(w[5]), float(w[9])
                per[fid].append(("RS", t))
                g = ns2_group(fid)
                nfb[g] += 1
                bumps[g] += samp > BASE + 1e-10
                if 50 <= t < 100:
                    fb[(g, cat(sq / samp ** 0.5))] += 1
        for fid, lines in per.items():
            g = ns2_group(fid)
            for i, x in enumerate(lines):
                if x[0] != "CA":
                    continue
                if 50 <= x[1] < 100:
                    fdist[(g, cat(x[2]))] += 1
                j = i - 1
                if j < 0 or lines[j][0] != "CA":
                    continue
                prev = lines[j]
                # an expiry's nextpkt(): rate_ halved since the previous nextpkt(), no feedback between
                if abs(x[3] * 2 - prev[3]) >= 1e-9 * prev[3]:
                    continue
                if abs(prev[1] - x[1]) < 1e-9:       # a packet at the same instant went first
                    if j < 1 or lines[j - 1][0] != "CA":
                        continue
                    sched, kind = lines[j - 1], "packet first"
                else:
                    sched = prev
                    due = sched[1] + 14.0 / sched[4]
                    kind = "expiry first" if abs(due - x[1]) <= 1e-6 else "expiry, no packet due"
                res[(g, kind, cat(sched[2]))] += 1
    print("Nofeedback expiries by the factor of the nextpkt() that scheduled the packet due (all times):\n")
    print("| group | expiry | " + " | ".join("f " + c for c in CATS) + " |")
    print("|---|---|" + "---|" * len(CATS))
    for g in ("sp14", "std14"):
        for k in ("packet first", "expiry first", "expiry, no packet due"):
            print(f"| {g} | {k} | " + " | ".join(str(res[(g, k, c)]) for c in CATS) + " |")
    print("\nThe factor at nextpkt() calls and after feedbacks, 50..100 s (shares):\n")
    print("| group | where | n | " + " | ".join("f " + c for c in CATS) + " | samples above base |")
    print("|---|---|---|" + "---|" * len(CATS) + "---|")
    for g in ("sp14", "std14"):
        for name, d in (("nextpkt()", fdist), ("feedback", fb)):
            n = sum(d[(g, c)] for c in CATS)
            extra = f"{bumps[g] / nfb[g]:.4f} of {nfb[g]}" if name == "feedback" else ""
            print(f"| {g} | {name} | {n} | " + " | ".join(f"{d[(g, c)] / n:.3f}" for c in CATS) + f" | {extra} |")


def ours(files):
    fb, bumps, nfb = (collections.Counter() for _ in range(3))
    for fn in files:
        for ln in open(fn):
            w = ln.split()
            if not w or w[0] != "RS" or w[7] != "true":
                continue
            g = "sp14" if float(w[5]) > 14 else "std14"
            t, samp, f = int(w[1]) / 1e9, float(w[9]), float(w[13])
            nfb[g] += 1
            bumps[g] += samp > BASE + 1e-10
            if 50 <= t < 100:
                fb[(g, cat(f))] += 1
    print("| group | feedbacks 50..100 s | " + " | ".join("f " + c for c in CATS) + " | samples above base |")
    print("|---|---|" + "---|" * len(CATS) + "---|")
    for g in ("sp14", "std14"):
        n = sum(fb[(g, c)] for c in CATS)
        print(f"| {g} | {n} | " + " | ".join(f"{fb[(g, c)] / n:.3f}" for c in CATS)
              + f" | {bumps[g] / nfb[g]:.4f} of {nfb[g]} |")


def pairs(our_files, ns2_files):
    def count(files, ours_side):
        c, n = collections.Counter(), collections.Counter()
        for fn in files:
            last = {}
            for ln in open(fn):
                w = ln.split()
                if ours_side:
                    if not w or w[0] != "TX" or w[7] != "true":
                        continue
                    g, t, key = ("sp14" if float(w[5]) > 14 else "std14"), int(w[1]) * 1e-9, w[3]
                else:
                    if not w or w[0] != "CA":
                        continue
                    g, t, key = ns2_group(int(w[3])), float(w[1]), int(w[3])
                n[g] += 1
                if key in last and t - last[key] <= 1e-6 + 1e-12:
                    c[(g, "same instant" if t - last[key] < 0.5e-9 else "1..1000 ns")] += 1
                last[key] = t
        return c, n
    print("| side | group | packets | pairs at one instant | pairs 1..1000 ns apart | pairs per 100 packets |")
    print("|---|---|---|---|---|---|")
    for side, files, o in (("ours", our_files, True), ("ns-2.35", ns2_files, False)):
        c, n = count(files, o)
        for g in ("sp14", "std14"):
            a, b = c[(g, "same instant")], c[(g, "1..1000 ns")]
            print(f"| {side} | {g} | {n[g]} | {a} | {b} | {100 * (a + b) / n[g]:.2f} |")


def bumps(our_files, ns2_files):
    import bisect
    res = collections.Counter()
    for fn in our_files:
        tx, rs = collections.defaultdict(list), []
        for ln in open(fn):
            w = ln.split()
            if not w or w[7] != "true":
                continue
            g = "sp14" if float(w[5]) > 14 else "std14"
            if w[0] == "TX":
                tx[w[3]].append(int(w[1]))
            elif w[0] == "RS" and float(w[9]) > BASE + 1e-10:
                rs.append((g, w[3], int(w[15])))
        for g, key, tr in rs:
            lst = tx[key]
            k = bisect.bisect_left(lst, tr)
            res[("ours", g, k > 0 and tr - lst[k - 1] <= 1000)] += 1
    for fn in ns2_files:
        sends, rs = collections.defaultdict(list), []
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "CA":
                sends[int(w[3])].append(float(w[1]))
            elif w[0] == "RS" and float(w[5]) > BASE + 1e-10:
                rs.append((int(w[3]), float(w[1]), float(w[5])))
        for fid, t, samp in rs:
            lst = sends[fid]
            k = bisect.bisect_right(lst, t - samp + 1e-9)
            if k:
                res[("ns-2.35", ns2_group(fid), k > 1 and lst[k - 1] - lst[k - 2] <= 1e-6)] += 1
    print("| side | group | queued samples from a flow's own pair | others |")
    print("|---|---|---|---|")
    for side in ("ours", "ns-2.35"):
        for g in ("sp14", "std14"):
            print(f"| {side} | {g} | {res[(side, g, True)]} | {res[(side, g, False)]} |")


def ns2echo(files):
    res = collections.Counter()
    for fn in files:
        ca, sink_fid, sr, sp = (collections.defaultdict(list), {}, collections.defaultdict(list),
                                collections.defaultdict(list))
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "CA":
                ca[int(w[3])].append(float(w[1]))
            elif w[0] == "SR":
                sink_fid[w[3]] = int(w[5])
                sr[int(w[5])].append(round(float(w[15]) * 1e12))
            elif w[0] == "SP":
                sp[w[3]].append(round(float(w[5]) * 1e12))
        echoes = collections.defaultdict(collections.Counter)
        for k, v in sp.items():
            echoes[sink_fid.get(k, -1)].update(v)
        for fid, sends in ca.items():
            if fid <= 80:
                continue
            arrived = collections.Counter(sr[fid])
            for a, b in zip(sends, sends[1:]):
                if 0 < b - a < 368e-9:
                    kb = round(b * 1e12)
                    res[("second arrived" if arrived[kb] else "second lost", echoes[fid][kb])] += 1
    print("| std14 pairs 0 < gap < 368 ns | reports echoing the second | pairs |")
    print("|---|---|---|")
    for (k, n), c in sorted(res.items()):
        print(f"| {k} | {n} | {c} |")


def run(exe, b, seed, out, ca, only, entry=False):
    sys.path.insert(0, os.path.dirname(HERE))
    from rfc4828_b1_tfrc import with_backlog
    sc = with_backlog(open(os.path.join(ROOT, "scenarios", "rfc4828", "b2-byte-drop.toml")).read())
    old = "loss = { byte = 0.0001, ecn = true }"
    if old not in sc:
        raise SystemExit("b2-byte-drop.toml's @loss line changed")
    at = ', at = "entry"' if entry else ""
    sc = sc.replace(old, f"loss = {{ byte = {b}, ecn = true{at} }}", 1)
    blocks = []
    for bl in re.split(r"(?m)^(?=\[\[)", sc):
        m = re.search(r'(?m)^name = "(\w+?)_\{i\}"', bl)
        if only and bl.startswith("[[flow]]") and m and not re.fullmatch(r"tcp\d+|sp14ns2|std14ns2", m.group(1)):
            continue
        if ca and re.search(r'(?m)^kind = "tfrc"', bl) and re.search(r"(?m)^ns2_compat = true", bl):
            bl = re.sub(r"(?m)^ns2_compat = true$",
                        "ns2_compat = true\noscillation_prevention = true\noscillation_q2 = 0.95", bl, count=1)
        blocks.append(bl)
    d = tempfile.mkdtemp()
    f = os.path.join(d, "s.toml")
    open(f, "w").write("".join(blocks))
    env = dict(os.environ, S16CA_PROBE="1")
    with open(out, "w") as err:
        subprocess.run(["nice", "-n", "19", exe, "run", f, "--seed", str(seed), "--out", d, "-q"],
                       stderr=err, env=env, check=True)
    r = json.load(open(os.path.join(d, "summary.json")))
    g = {}
    for fl in r["flows"]:
        name = re.sub(r"_?\d+$", "", fl["name"])
        if name in ("sp14ns2", "std14ns2"):
            g.setdefault(name, []).append(fl["send_rate_bps"] / 1e3)
    print(seed, " ".join(f"{k} {sum(v) / len(v):.4f}" for k, v in sorted(g.items())))


def main():
    a = sys.argv[1:]
    if not a:
        raise SystemExit(__doc__)
    cmd, rest = a[0], a[1:]
    if cmd == "consts":
        consts(rest)
    elif cmd == "ns2":
        ns2(sorted(set(sum((glob.glob(x) for x in rest), []))))
    elif cmd == "ours":
        ours(sorted(set(sum((glob.glob(x) for x in rest), []))))
    elif cmd == "pairs":
        i = rest.index("--ns2")
        pairs(rest[rest.index("--ours") + 1:i], rest[i + 1:])
    elif cmd == "ns2echo":
        ns2echo(sorted(set(sum((glob.glob(x) for x in rest), []))))
    elif cmd == "bumps":
        i = rest.index("--ns2")
        bumps(rest[rest.index("--ours") + 1:i], rest[i + 1:])
    elif cmd == "run":
        flags = [x for x in rest if x.startswith("--")]
        pos = [x for x in rest if not x.startswith("--")]
        run(pos[0], pos[1], pos[2], pos[3], "--ca" in flags, "--only-ns2-set" in flags, "--entry" in flags)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
