#!/bin/sh
# Finding 38 (issue 14, session 13, branch s13-voip): an ns-2.35 whose TFRC agents print their
# state to stderr when the environment variable TFRC_TRACE is set (nothing changes otherwise:
# the `voip` counts of seeds 1 and 2 with `ca_ 0` equal suite_friendly_voip_ca0.csv's). The
# patch is s13-voip_tfrc_trace.patch next to this script; one line per event:
#   TX <t> <seqno> rate <rate_>                       a data packet leaves (tfrc.cc sendpkt)
#   FB <t> p <flost> xr <X_recv pkt/s> rtt <rtt_> rcur <sample> tz <tzero_> eq <equation B/s>
#      rate <rate_ after the update> max <maxrate_> st <rate_change_>   (tfrc.cc recv)
#   NF <t> rate <rate_>                                nofeedback expiry
#   RX <t> <seqno> u <UrgentFlag> c <congestionEvent> rtt <rtt_>   (tfrc-sink.cc recv)
#   RP <t> p <p> xr <X_recv> rtt <rtt_> n <packets since the last report>  (a report leaves)
# Rates are data bytes/s (packetSize_ 120 in `voip`). Used by
# seeds/probes/s13-voip_slowstart.py.
#
# Needs an ns-2.35 source tree configured and built by build_capped_ns2.sh (default
# /work/ns2-capped/ns-2.35); it is copied, dsredq_cap.patch is taken out again (stock dsRED),
# the trace patch applied, and ns re-linked (only tfrc.o, tfrc-sink.o and dsredq.o rebuild).
#
# usage: sh bench/ns2/build_s13voip_trace_ns2.sh [SRC] [DIR]
#        (defaults /work/ns2-capped/ns-2.35, /work/ns2-s13-voip; output DIR/ns-trace)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${1:-/work/ns2-capped/ns-2.35}
DIR=${2:-/work/ns2-s13-voip}
mkdir -p "$DIR"
rm -rf "$DIR/ns-2.35"
cp -a "$SRC" "$DIR/ns-2.35"
cd "$DIR/ns-2.35"
patch -R -p1 < "$HERE/dsredq_cap.patch"
patch -p1 < "$HERE/s13-voip_tfrc_trace.patch"
nice -n 19 make -j1 ns
cp ns "$DIR/ns-trace"
echo "built $DIR/ns-trace"
