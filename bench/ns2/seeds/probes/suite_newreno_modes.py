#!/usr/bin/env python3
"""test-suite-newreno cases (suite/newreno.py) against our TCP in the *other* mode than the
ported test uses (issue 14, session 10, README section 13.1): Reno in RFC mode (the ports
use ns2_compat), NewReno and SACK with ns2_compat (the ports use RFC mode), and RFC-mode Reno
on reno1. Prints how many 10-ms checkpoints agree exactly before the first that differs,
and the whole run's counts. Reuses newreno.py's functions; writes nothing.

usage: python3 bench/ns2/seeds/probes/suite_newreno_modes.py
"""
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "suite"))
import newreno as nr
D3 = nr.DROPS3; D9 = nr.DROPS9
# (label, reference case, our variant, LT, ns2_compat, drops)
V = [("reno RFC mode", "reno", "reno", True, False, D3),
     ("reno_noLT RFC mode", "reno_noLT", "reno", False, False, D3),
     ("newreno_B ns2_compat", "newreno_B", "newreno", True, True, D3),
     ("reno1 RFC mode", "reno1", "reno", True, False, D9),
     ("newreno1_B ns2_compat", "newreno1_B", "newreno", True, True, D9),
     ("sack_drops3 ns2_compat", "sack_drops3", "sack", True, True, D3)]
for label, ref, var, lt, ns2, drops in V:
    nr.CASES["x"] = (var, lt, ns2, drops)
    with tempfile.TemporaryDirectory() as d:
        ev, res = nr.ns2_trace(ref, d)
    evs = nr.ns2_counts(ev)
    rows = [(t,) + nr.counts_at(evs, t) for t in nr.checkpoints(evs)]
    first = None; n_ok = 0
    with tempfile.TemporaryDirectory() as d:
        for r in rows:
            o, _ = nr.ours("x", r[0], d)
            if o != r[1:]:
                first = (r, o); break
            n_ok += 1
        o6, fr = nr.ours("x", 6.0, d)
    tot = nr.counts_at(evs, 6.0)
    print(f"{label}: vs ns-2 {ref}: {n_ok} of {len(rows)} checkpoints equal; first differing {first}; at 6 s arrivals ns-2 {tot[0]} ours {o6[0]}, drops {tot[2]}/{o6[2]}, retx ours {fr['retx_pkts']}, timeouts ours {fr['timeouts']}, ns-2 {res}")
