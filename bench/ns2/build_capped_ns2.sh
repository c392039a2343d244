#!/bin/sh
# Build a second ns-2.35 binary whose DiffServ RED (diffserv/dsredq.cc) caps p_a at 1 once
# count*p_b >= 1, as ns-2's own RED does (queue/red.cc, REDQueue::modify_p, non-wait branch:
# `if (count1 * p < 1.0) p /= (1.0 - count1 * p); else p = 1.0;`). Unpatched, dsredq.cc computes
# p_a = p_b / (1 - count*p_b) with no guard: negative past the pole (finding 1), a division by
# zero at it (finding 6). The patch is dsredq_cap.patch next to this script.
#
# Output (nothing is installed; /usr/bin/ns is left alone):
#   $DIR/ns-stock   the same source and flags without the patch (the control: it must give
#                   the same trace as Debian's /usr/bin/ns; bench/ns2/seeds/README.md §14)
#   $DIR/ns-capped  with the patch
#
# Source: Debian bookworm's ns2 2.35+dfsg-5 (`apt-get source`). Debian's packaging tarball
# (ns2_2.35+dfsg-5.debian.tar.xz) was not available from the mirror used here (404), so this
# builds the upstream (dfsg) tarball with ns-2's own configure against Debian's system
# Tcl 8.6 / OTcl / TclCL, not with Debian's CMake packaging; ns-stock is the check that this
# makes no difference to the runs compared. Run as root (apt); one core, niced.
#
# usage: sh bench/ns2/build_capped_ns2.sh [DIR]      (default DIR /work/ns2-capped)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/work/ns2-capped}
P=$DIR/prefix
mkdir -p "$DIR"
cd "$DIR"

# 1. Source and build dependencies (a deb-src stanza in its own file).
if [ ! -f /etc/apt/sources.list.d/deb-src.sources ]; then
  cat > /etc/apt/sources.list.d/deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
nice -n 19 apt-get update -q
# Exits 100 when the .debian.tar.xz is missing; the .orig tarball is all that is used.
nice -n 19 apt-get source ns2 || true
nice -n 19 apt-get build-dep -y ns2
test -f ns2_2.35+dfsg.orig.tar.xz
rm -rf ns-2.35
nice -n 19 tar xJf ns2_2.35+dfsg.orig.tar.xz

# 2. A prefix laid out as ns-2's configure expects (headers, libraries and Tcl's script
#    library under one directory), made of links to Debian's packages.
mkdir -p "$P/include" "$P/lib/tcl8.6"
ln -sf /usr/include/tcl8.6/*.h /usr/include/tcl8.6/tcl-private/generic/*.h \
       /usr/include/tcl8.6/tcl-private/unix/*.h /usr/include/otcl.h /usr/include/tclcl/*.h \
       "$P/include/"
for l in libtcl8.6.so libotcl.so libtclcl.so; do
  ln -sf "/usr/lib/x86_64-linux-gnu/$l" "$P/lib/"
done
ln -sf /usr/share/tcltk/tcl8.6/* "$P/lib/tcl8.6/"
ln -sf /usr/bin/tcl2c++ "$P/tcl2c++"

# 3. Configure and build, unpatched first (ns-stock).
cd ns-2.35
nice -n 19 ./configure --with-tcl="$P" --with-tcl-ver=8.6 --with-tk=no \
  --with-otcl="$P" --with-tclcl="$P"
# configure's -O2 probe fails with gcc 12 (no optimisation would be used): set the flags.
# USE_INTERP_RESULT: Tcl 8.6 hides interp->result, which TclCL's header uses.
# gnu++98: ns-2.35 predates C++11 (std::max on TracedInt etc.).
sed -i 's/^CCOPT\t=.*/CCOPT\t= -O2 -Wno-write-strings -fpermissive -w -DUSE_INTERP_RESULT -DUSE_INTERP_ERRORLINE/' Makefile
sed -i 's/^CPP\t= g++.*/CPP\t= g++ -std=gnu++98/' Makefile
# Debian's libtclcl has no TclObject::bind(const char*, int64_t*) (built without HAVE_INT64;
# Debian's own ns binds no int64_t either: `nm -DC /usr/bin/ns | grep TclObject::bind`), so the
# two classes that bind int64_t members get int ones, as 32-bit counters: the queue monitor's
# packet/byte arrival and departure counts (< 2^31 in every run here) and PackMime's maxpkts_.
sed -i 's/^\tint64_t \(p\|b\)\(arrivals\|departures\)\(_;\|() const\)/\tint \1\2\3/' \
  tools/queue-monitor.h
sed -i 's/^\tint64_t maxpkts_;/\tint maxpkts_;/' packmime/packmime_OL.h
nice -n 19 make -j1 ns
cp ns "$DIR/ns-stock"

# The control: ns-stock must write the same trace as Debian's /usr/bin/ns.
T=$HERE/seeds/rio_hori2001.tcl
mkdir -p "$DIR/control"
(cd "$DIR/control" &&
 nice -n 19 "$DIR/ns-stock" "$T" Sack 20 200 10 0.002 1 stock.tr 20 > stock.out &&
 nice -n 19 /usr/bin/ns "$T" Sack 20 200 10 0.002 1 debian.tr 20 > debian.out &&
 cmp stock.tr debian.tr && cmp stock.out debian.out) ||
  { echo "ns-stock differs from /usr/bin/ns: stop" >&2; exit 1; }

# 4. The cap, then rebuild (only dsredq.o and the link).
patch -p1 < "$HERE/dsredq_cap.patch"
nice -n 19 make -j1 ns
cp ns "$DIR/ns-capped"
echo "built $DIR/ns-stock and $DIR/ns-capped"
