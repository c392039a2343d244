#!/bin/sh
# Finding 54 (issue 14, session 16, branch s16-ca): an ns-2.35 whose TFRC senders print `ca_`'s
# factor and every RTT sample to stderr when the environment variable TFRC_CA_TRACE is set
# (nothing changes otherwise). The patch is s16-ca_tfrc_ca_trace.patch next to this script
# (tcp/tfrc.cc, tcp/tfrc-sink.cc); one line per event, times and values with 12 / 17 digits:
#   CA <t> fid <fid_> f <sqrtrtt_/sqrt(rttcur_)> rate <rate_> xrate <xrate> ss <rate_change_>
#        (nextpkt(), after xrate is set: every packet and every nofeedback expiry)
#   RS <t> fid <fid_> sample <rttcur_> rtt <rtt_> sq <sqrtrtt_>   (update_rtt(), each feedback)
#   SR <t> sink <ptr> fid <flow id> seq <seqno> u <UrgentFlag> c <congestionEvent> e <ecnEvent> ts <timestamp>
#        (tcp/tfrc-sink.cc recv(), each data arrival)
#   SP <t> sink <ptr> echo <timestamp_echo> off <timestamp_offset>   (tfrc-sink.cc sendpkt(), each report)
# It is applied on a copy of the traced tree of build_s13voip_trace_ns2.sh, so TFRC_TRACE=1
# works as there. Used by seeds/probes/s16-ca_factor.py.
#
# usage: sh bench/ns2/build_s16ca_trace_ns2.sh [SRC] [DIR]
#        (defaults /work/ns2-s13-voip/ns-2.35, /work/ns2-s16-ca; output DIR/ns-2.35/ns)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${1:-/work/ns2-s13-voip/ns-2.35}
DIR=${2:-/work/ns2-s16-ca}
mkdir -p "$DIR"
rm -rf "$DIR/ns-2.35"
cp -a "$SRC" "$DIR/ns-2.35"
cd "$DIR/ns-2.35"
patch -p1 < "$HERE/s16-ca_tfrc_ca_trace.patch"
nice -n 19 make -j1 ns
echo "built $DIR/ns-2.35/ns"
