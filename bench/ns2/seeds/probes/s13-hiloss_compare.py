#!/usr/bin/env python3
"""Finding 39 (issue 14, session 13, s13-hiloss): RFC 4828 B.1's SACK TCP at high drop rates,
compared mechanism by mechanism on one long-lived flow: ns-2.35's traced Agent/TCP/Sack1
(`s13-hiloss_trace.tcl`) against our sender (`cargo run --release -p qoslab-sim --example
tcp_loss_trace`, RFC mode and `ns2_compat`), same path, agent settings and drop rate.

For each side, over seeds 1..N of SECONDS each (the first 100 s left out): sends per second
(new / retransmitted), timeouts and fast retransmits per second, the backoff exponent at each
timeout, the RTO that expired, the time spent backed off, and per backoff episode (a timeout
at backoff 0 until the backoff is reset by an RTT sample) its timeouts, duration and sends.

usage: python3 bench/ns2/seeds/probes/s13-hiloss_compare.py [--p 0.3] [--seeds 10]
       [--secs 2000] [--skip 100] [--modes ns2,rfc] [--extra ns2-half-window,...] [--ns2-nosyn]
"""
import argparse
import collections
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
TCL = os.path.join(HERE, "s13-hiloss_trace.tcl")
EXE = os.path.join(ROOT, "target", "release", "examples", "tcp_loss_trace")
SKIP = 100.0
TICK = 0.01


class Side:
    def __init__(self):
        self.sends = self.new = self.rtx = 0
        self.timeouts = []  # (t, backoff exponent before, rto)
        self.fast = 0
        self.backed_time = 0.0
        self.span = 0.0
        self.episodes = []  # (timeouts, duration, sends)
        self.samples = 0
        self.flight = []  # packets outstanding at each timeout

    def merge(self, o):
        for k in ("sends", "new", "rtx", "fast", "backed_time", "span", "samples"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        self.timeouts += o.timeouts
        self.flight += o.flight
        self.episodes += o.episodes


class Episodes:
    """Tracks the backoff exponent over time and the backoff episodes."""

    def __init__(self, side, end):
        self.s, self.end = side, end
        self.b, self.since = 0, SKIP
        self.ep = None  # [start, timeouts, sends]

    def set_b(self, t, b):
        if t >= SKIP and self.b > 0:
            self.s.backed_time += t - max(self.since, SKIP)
        if b > 0 and self.b == 0 and t >= SKIP:
            self.ep = [t, 1, 0]  # the timeout that started it (counted before set_b)
        if b == 0 and self.ep is not None:
            st, n, k = self.ep
            self.s.episodes.append((n, t - st, k))
            self.ep = None
        self.b, self.since = b, t

    def timeout(self):
        if self.ep is not None and self.b > 0:
            self.ep[1] += 1

    def send(self):
        if self.ep is not None:
            self.ep[2] += 1

    def close(self):
        self.set_b(self.end, self.b)


def run_ns2(p, seed, secs, nosyn=False):
    tr = f"/tmp/s13-hiloss_ns_{p}_{seed}.tr"
    subprocess.run(["nice", "-n", "19", "ns", TCL, str(p), str(seed), str(secs), tr]
                   + (["nosyn"] if nosyn else []), check=True, capture_output=True)
    s = Side()
    s.span = secs - SKIP
    ep = Episodes(s, secs)
    backoff = 1
    srtt_ticks, rttvar4 = 0, 0
    rtxcur = 3.0
    clobber_t = None
    last = None  # previous variable name
    pending_send = None
    cuts_at_timeout = None
    hack, mseq = -1, -1
    lines = open(tr).read().split("\n")
    for ln in lines:
        f = ln.split()
        if len(f) < 7:
            continue
        t, v, x = float(f[0]), f[5], float(f[6])
        if pending_send is not None and v in ("maxseq_", "nrexmitpack_", "t_seqno_") and t == pending_send:
            if v != "t_seqno_":
                if t >= SKIP:
                    s.sends += 1
                    if v == "maxseq_":
                        s.new += 1
                    else:
                        s.rtx += 1
                ep.send() if t >= SKIP else None
                pending_send = None
        if v == "ack_":
            hack = int(x)
        elif v == "maxseq_":
            mseq = int(x)
        if v == "ndatapack_":
            pending_send = t
        elif v == "backoff_":
            backoff = int(x)
            clobber_t = t if backoff > 8 else None
            ep.set_b(t, backoff.bit_length() - 1)
        elif v in ("srtt_", "rttvar_"):
            if v == "srtt_":
                srtt_ticks = round(x / TICK)
            else:
                rttvar4 = round(x * 4 / TICK)
            if clobber_t == t:
                pass  # rtt_backoff() clobbering SRTT: t_rtxcur_ unchanged
            else:
                rtxcur = (rttvar4 + srtt_ticks) * TICK
        elif v == "nrexmit_":
            # TcpAgent::timeout: the timer that expired ran t_rtxcur_ * t_backoff_ (rfc2988_).
            rto = (0.2 if rtxcur < 0.2 else rtxcur) * backoff
            rto = max(min(rto, 60.0), 2 * TICK)
            if t >= SKIP:
                s.timeouts.append((t, backoff.bit_length() - 1, rto))
                s.flight.append(mseq - hack)
                ep.timeout()
            cuts_at_timeout = t
        elif v == "ncwndcuts_":
            if t != cuts_at_timeout and t >= SKIP:
                s.fast += 1
        elif v == "rtt_":
            pass
        if v != "backoff_" and clobber_t is not None and t != clobber_t:
            clobber_t = None
        last = v
    ep.close()
    os.unlink(tr)
    return s


def run_ours(p, seed, secs, flags):
    out = subprocess.run(["nice", "-n", "19", EXE, str(p), str(seed), str(secs)] + flags,
                         check=True, capture_output=True, text=True).stdout
    s = Side()
    s.span = secs - SKIP
    ep = Episodes(s, secs)
    b = 0
    for ln in out.split("\n"):
        f = ln.split()
        if not f:
            continue
        k, t = f[0], (float(f[1]) if len(f) > 1 else 0.0)
        if k == "S":
            if t >= SKIP:
                s.sends += 1
                if f[3] == "1":
                    s.rtx += 1
                else:
                    s.new += 1
                ep.send()
        elif k == "T":
            bb = int(f[3])
            if t >= SKIP:
                s.timeouts.append((t, bb, float(f[2])))
                s.flight.append(int(f[7]) - int(f[6]))
                ep.timeout()
            b = bb + 1 if "ns2" not in flags or bb < 6 else bb
            ep.set_b(t, b)
        elif k == "R":
            if t >= SKIP:
                s.samples += 1
            b = int(f[4])
            ep.set_b(t, b)
        elif k == "F" and t >= SKIP:
            s.fast += 1
    ep.close()
    return s


def report(name, s):
    T = s.span
    to = s.timeouts
    hist = collections.Counter(min(b, 7) for _, b, _ in to)
    n = max(len(to), 1)
    base = [r for _, b, r in to if b == 0]
    gaps = [b[0] - a[0] for a, b in zip(to, to[1:]) if b[0] > a[0]]
    eps = s.episodes
    ne = max(len(eps), 1)
    print(f"## {name}")
    print(f"send {s.sends / T:.3f}/s ({12 * s.sends / T:.2f} Kb/s): new {s.new / T:.3f}, rtx {s.rtx / T:.3f}; "
          f"timeouts {len(to) / T:.4f}/s, fast retransmits {s.fast / T:.4f}/s; "
          f"time backed off {100 * s.backed_time / T:.1f} %")
    print("backoff exponent at timeout: " + ", ".join(f"{k}{'+' if k == 7 else ''}: {100 * hist[k] / n:.1f} %" for k in range(8)))
    print(f"RTO expired: mean {sum(r for *_, r in to) / n:.3f} s; at backoff 0 mean {sum(base) / max(len(base), 1):.3f} s "
          f"(min {min(base, default=0):.2f}, max {max(base, default=0):.2f}); mean gap between timeouts "
          f"{sum(gaps) / max(len(gaps), 1):.2f} s")
    print(f"backoff episodes {len(eps) / T:.4f}/s: timeouts per episode {sum(e[0] for e in eps) / ne:.2f}, "
          f"duration {sum(e[1] for e in eps) / ne:.2f} s, sends per episode {sum(e[2] for e in eps) / ne:.2f}; "
          f"episodes with k timeouts: " + ", ".join(
              f"{k}: {100 * sum(1 for e in eps if min(e[0], 6) == k) / ne:.1f} %" for k in range(1, 7)) + " (6 = 6 or more)")
    fl = collections.Counter(min(x, 6) for x in s.flight)
    nf = max(len(s.flight), 1)
    print(f"packets outstanding at a timeout: mean {sum(s.flight) / nf:.2f}; " + ", ".join(
        f"{k}{'+' if k == 6 else ''}: {100 * fl[k] / nf:.1f} %" for k in range(1, 7)))
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", default="0.3")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--secs", type=int, default=2000)
    ap.add_argument("--modes", default="ns2,rfc")
    ap.add_argument("--extra", default="", help="extra flags for ns2_compat runs, comma-separated")
    ap.add_argument("--skip", type=float, default=100.0, help="seconds left out at the start")
    ap.add_argument("--ns2-nosyn", action="store_true", help="ns-2 with syn_ false")
    a = ap.parse_args()
    global SKIP
    SKIP = a.skip
    seeds = range(1, a.seeds + 1)
    tot = Side()
    for sd in seeds:
        tot.merge(run_ns2(a.p, sd, a.secs, a.ns2_nosyn))
    print(f"# p = {a.p}, seeds 1..{a.seeds}, {a.secs} s each (first {SKIP:g} s left out)\n")
    report("ns-2.35 Agent/TCP/Sack1" + (" syn_ false" if a.ns2_nosyn else ""), tot)
    for m in a.modes.split(","):
        flags = (["ns2"] + [x for x in a.extra.split(",") if x]) if m == "ns2" else []
        tot = Side()
        for sd in seeds:
            tot.merge(run_ours(a.p, sd, a.secs, flags))
        report(f"ours {' '.join(flags) or 'RFC mode'}", tot)


if __name__ == "__main__":
    main()
