#!/usr/bin/env python3
"""Finding 54, session 17 (s17-tie): the receiver's report-timer ties in our traces.

Input: stderr of a binary built with probes/s17-tie_probe.patch (on top of the branch's option 27), run as
`S16CA_O26=1 [S17T_O27=1] s16-ca_factor.py run BIN 0.02 SEED OUT --ca --entry` (B.2 b = 0.02, ns-2's
configuration: loss at the entry, `ca_ 1`'s factor, options 1-26). Lines used:
  TIE now id I sp 0|1 u 0|1 tf 0|1 [dd X]   an arrival at the report timer's nanosecond; tf: the timer went
                                            first; dd: the timer's double minus the arrival's (option 27 only)
  FB now id I sp 0|1 why W                  a report
Prints per group (sp14 = TFRC-SP, std14): same-ns ties by urgent flag and order, those equal to 1e-12 s in
the doubles (option 27), reports, and instants with two reports (double reports).

usage: python3 s17-tie_counts.py TRACE...
"""
import collections
import sys


def main():
    files = sys.argv[1:]
    if not files:
        raise SystemExit(__doc__)
    c = collections.Counter()
    for fn in files:
        fb = collections.Counter()
        for ln in open(fn):
            w = ln.split()
            if not w:
                continue
            if w[0] == "TIE":
                g = "sp14" if w[5] == "1" else "std14"
                u, tf = w[7], w[9]
                c[(g, "ties")] += 1
                c[(g, "ties u=%s %s" % (u, "timer first" if tf == "1" else "arrival first"))] += 1
                if len(w) > 11 and abs(float(w[11])) < 1e-12:
                    c[(g, "exact (<1e-12 s) ties")] += 1
                    c[(g, "exact u=%s %s" % (u, "timer first" if tf == "1" else "arrival first"))] += 1
            elif w[0] == "FB":
                g = "sp14" if w[5] == "1" else "std14"
                c[(g, "reports")] += 1
                fb[(g, w[3], w[1])] += 1
        for (g, _, _), n in fb.items():
            if n > 1:
                c[(g, "double reports")] += 1
    for k in sorted(c):
        print("%-6s %-34s %d" % (k[0], k[1], c[k]))


if __name__ == "__main__":
    main()
