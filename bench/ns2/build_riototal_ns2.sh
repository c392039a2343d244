#!/bin/sh
# Build a third ns-2.35 binary: dsRED's p_a capped (dsredq_cap.patch, build_capped_ns2.sh) and,
# switchable per queue, the RIO-C Out average of the RIO seed (dsredq_riototal.patch).
#
# ns-2.35's RIO-C (diffserv/dsredq.cc, redQueue::calcAvg) computes precedence n's average as
#   avg_n = (1 - q_w[n]) avg_n + sum_{i <= n} q_w[i] qlen[i],
# which is an average of the whole virtual queue (precedences 0..n) only when every q_w[i] is
# the same. Hori, Ikenaga & Oie 2001 (seed 002) sec. 3.C give the Out average as
#   avg = (1 - w_qout) avg + w_qout qlen
# over "an average queue of total packets including In and Out packets" (Clark & Fang's
# avg_total), with w_qout = 1 for Table 4b and Fig. 6 (prompt feedback) and w_qout != w_In in
# Table 3. ns-2.35 with w_In = 0.002, w_Out = 1 gives qlen_Out + 0.002 qlen_In instead
# (bench/ns2/seeds/README.md, findings 2 and 8). The patch adds `setMREDMode RIO-C-TOTAL`:
#   avg_n = (1 - q_w[n]) avg_n + q_w[n] (qlen[0] + ... + qlen[n]),
# everything else as RIO-C (same sampling on arrivals of precedences <= n, idle decay, drop
# rule). `setMREDMode RIO-C` keeps the stock rule; the script checks that with it the binary
# writes the same trace as ns-capped.
#
# Output (nothing installed; /usr/bin/ns and /work/ns2-capped untouched):
#   $DIR/ns-riototal  capped + RIO-C-TOTAL
#
# usage: sh bench/ns2/build_riototal_ns2.sh [DIR] [CAPPED]
#   DIR     default /work/ns2-s13-rio4b
#   CAPPED  a directory made by build_capped_ns2.sh (default /work/ns2-capped): its built tree
#           and prefix are copied, so only the three patched files are recompiled (~2 min).
#           If it holds no built tree, build_capped_ns2.sh DIR is run first (~10 min, root).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/work/ns2-s13-rio4b}
CAPPED=${2:-/work/ns2-capped}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

if [ -x "$CAPPED/ns-capped" ] && [ -f "$CAPPED/ns-2.35/Makefile" ]; then
  CAPPED=$(cd "$CAPPED" && pwd)
  rm -rf "$DIR/ns-2.35" "$DIR/prefix"
  cp -a "$CAPPED/ns-2.35" "$CAPPED/prefix" "$DIR/"
  # configure wrote the prefix's absolute path into the Makefile.
  sed -i "s#$CAPPED/prefix#$DIR/prefix#g" "$DIR/ns-2.35/Makefile"
  cp "$CAPPED/ns-capped" "$DIR/ns-capped"
else
  sh "$HERE/build_capped_ns2.sh" "$DIR"
fi
cd "$DIR/ns-2.35"
grep -q "qoslab patch" diffserv/dsredq.cc ||
  { echo "$DIR/ns-2.35 lacks dsredq_cap.patch: stop" >&2; exit 1; }
patch -p1 < "$HERE/dsredq_riototal.patch"
nice -n 19 make -j1 ns
cp ns "$DIR/ns-riototal"

# The control: with RIO-C (the stock rule) ns-riototal must write ns-capped's trace.
T=$HERE/seeds/rio_hori2001.tcl
mkdir -p "$DIR/control"
(cd "$DIR/control" &&
 nice -n 19 "$DIR/ns-riototal" "$T" Reno 60 200 10 0.002 1 riototal.tr 20 > riototal.out &&
 nice -n 19 "$DIR/ns-capped" "$T" Reno 60 200 10 0.002 1 capped.tr 20 > capped.out &&
 cmp riototal.tr capped.tr && cmp riototal.out capped.out) ||
  { echo "ns-riototal with RIO-C differs from ns-capped: stop" >&2; exit 1; }
echo "built $DIR/ns-riototal"
