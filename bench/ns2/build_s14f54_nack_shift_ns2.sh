#!/bin/sh
# Finding 54 (issue 14, session 14, branch s14-f54): an ns-2.35 whose TFRC sink's nack (report)
# timer can be moved by TFRC_NACK_SHIFT seconds (environment; unset = stock timing), to test
# whether ns-2's TFRC-SP rate depends on the order of a data arrival and a report timer due at
# the same instant (our engine takes the timer first at exact coincidences). The patch is
# s14-f54_nack_shift.patch next to this script (tcp/tfrc-sink.cc nextpkt()); it is applied
# on a copy of the traced tree of build_s13voip_trace_ns2.sh, so TFRC_TRACE=1 works as there.
#
# usage: sh bench/ns2/build_s14f54_nack_shift_ns2.sh [SRC] [DIR]
#        (defaults /work/ns2-s13-voip/ns-2.35, /work/ns2-s14-f54; output DIR/ns-2.35/ns)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${1:-/work/ns2-s13-voip/ns-2.35}
DIR=${2:-/work/ns2-s14-f54}
mkdir -p "$DIR"
rm -rf "$DIR/ns-2.35"
cp -a "$SRC" "$DIR/ns-2.35"
cd "$DIR/ns-2.35"
patch -p1 < "$HERE/s14-f54_nack_shift.patch"
nice -n 19 make -j1 ns
echo "built $DIR/ns-2.35/ns"
