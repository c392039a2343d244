"""Reading ns-2.35's checked-in test-suite reference outputs (tcl/test/test-output-*/*.gz) and
rebuilding the same series from a run of ours of ns-2, for the suite ports here (issue 14).

The suites' "packets" outputs are made by ns-2's bin/getrc and bin/raw2xg (not installed by
Debian's ns2-examples): every enqueue ('+') and dequeue ('-') of a TCP packet on one link,
at (time, fid + (seqno mod 90) / 100), and the drops ('d') likewise. The friendly suite's
outputs are per-flow differences of a sender counter sampled every interval ("flow N"
blocks of (time, count)).
"""
import gzip

TESTDIR = "/usr/share/doc/ns2/examples/tcl/test"


def ref_series(suite, case):
    """{series name: [(x, y) strings]} of test-output-<suite>/<case>.gz."""
    out = {}
    path = f"{TESTDIR}/test-output-{suite}/{case}.gz"
    for blk in gzip.open(path, "rt").read().split("\n\n"):
        lines = [x for x in blk.strip().split("\n") if x.strip()]
        if lines and lines[0].startswith('"'):
            out[lines[0][1:].strip()] = [tuple(x.split()) for x in lines[1:]]
    return out


def _fmt(y):
    return ("%g" % y) if y else "0"


def packet_series(trace, src, dst, wrap=90, kinds=("tcp",)):
    """raw2xg's "packets" and "drops" series of a trace (trace-all or trace-queue) for the
    link src -> dst (node ids as strings)."""
    pk, dr = [], []
    with open(trace) as f:
        for line in f:
            x = line.split()
            if x[2] == src and x[3] == dst and x[4] in kinds:
                p = (x[1], _fmt(round(int(x[7]) + int(x[10]) % wrap * 0.01, 2)))
                if x[0] in "+-":
                    pk.append(p)
                elif x[0] == "d":
                    dr.append(p)
    return pk, dr


def check_packets(suite, case, trace, src, dst):
    """Prints and returns whether a trace equals the reference point by point (packets in
    order; drops as a set: raw2xg lists some drops twice)."""
    ref = ref_series(suite, case)
    pk, dr = packet_series(trace, src, dst)
    ok_p = pk == ref["packets"]
    ok_d = set(dr) == set(ref["drops"])
    print(f"ns-2.35 today vs test-output-{suite}/{case}.gz: packets {len(pk)} vs "
          f"{len(ref['packets'])} points, {'identical' if ok_p else 'DIFFERENT'}; drops "
          f"{len(set(dr))} vs {len(set(ref['drops']))}, {'identical' if ok_d else 'DIFFERENT'}")
    return ok_p and ok_d
