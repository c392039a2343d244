#!/usr/bin/env bash
# qoslab vs ns-2.35 vs ns-3 3.44 on the bench dumbbell (20 TCP flows, 70 Mb/s bottleneck,
# RED or drop-tail, 500 B segments, 20 s), on the same machine at the same moment: each round
# runs ours, ns-2 (bench/ns2/dumbbell.tcl) and ns-3 (if built) back to back for each
# workload. Workloads: dumbbell-{red,droptail} (NewReno) and, with SACK=1, the same with
# SACK on every side (ours: the scenario with `variant = "sack"`).
#
#   bash bench/run.sh [ROUNDS]      (default 3; NS3=0 skips ns-3, UDP=0 the open-loop run,
#                                    SACK=1 adds the SACK runs; QOSLAB=path runs that
#                                    binary instead of building target/release/qoslab;
#                                    ns-3 peer: BENCH=/tmp/bench bash /work/shared/peers/build.sh)
#
# One JSON line per run in bench/results/latest.jsonl (fields: sim, workload, wall_s = whole
# process, cpu_s = its user + sys CPU time, loop_s = simulation loop, events, events_per_s, bottleneck_pkts, pkts_per_wall_s,
# goodput_mbps, drops), then the table of medians and ratios from bench/summarize.py.
# Record the load average with the results (done here); the machine should be idle.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
B=${BENCH:-/tmp/bench}
T=${CARGO_TARGET_DIR:-target}
mkdir -p bench/results
out=bench/results/latest.jsonl
: > "$out"
Q=${QOSLAB:-}
if [ -z "$Q" ]; then cargo build --release -q -p qoslab; Q="$T/release/qoslab"; fi
[ "${UDP:-1}" = 1 ] && cargo build --release -q -p qoslab-sim --example udp_dumbbell
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_ns3=0
if [ "${NS3:-1}" = 1 ] && [ -x "$B/build/ns3_dumbbell" ]; then have_ns3=1; else
  echo "ns-3 peer not run (NS3=0 or not built at $B/build/ns3_dumbbell)" >&2
fi
have_ns2=0
if command -v ns > /dev/null; then have_ns2=1; else echo "ns-2 (ns) not installed; skipped" >&2; fi
# whole-process wall time and CPU time (user + sys) of a command, seconds: "WALL CPU";
# stdout/stderr to files. CPU time is far less sensitive to other jobs on the machine.
timed() { local o=$1 e=$2; shift 2; local t0 t1; t0=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$tmp/cpu" "$@" > "$o" 2> "$e"; t1=$(date +%s%N)
  python3 -c "u, s = open('$tmp/cpu').read().split()[-2:]; print(($t1 - $t0) / 1e9, float(u) + float(s))"; }
variants="newreno"; [ "${SACK:-0}" = 1 ] && variants="newreno sack"
for q in red droptail; do for v in newreno sack; do
  sed "s/^variant = \"newreno\"/variant = \"$v\"/" "scenarios/bench/dumbbell-$q.toml" > "$tmp/$q-$v.toml"
done; done
echo "{\"sim\":\"meta\",\"date_utc\":\"$(date -u +%FT%TZ)\",\"nproc\":$(nproc),\"loadavg_before\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}" >> "$out"
for k in $(seq "$rounds"); do
  for v in $variants; do for q in red droptail; do
    wl="dumbbell-$q"; [ "$v" = sack ] && wl="dumbbell-$q-sack"
    w=$(timed /dev/null "$tmp/err" "$Q" run "$tmp/$q-$v.toml" --out "$tmp/$q")
    python3 bench/summarize.py ours "$wl" $w "$tmp/err" "$tmp/$q/summary.json" | tee -a "$out"
    if [ $have_ns2 = 1 ]; then
      w=$(timed "$tmp/ns2.json" "$tmp/ns2.err" ns bench/ns2/dumbbell.tcl $q $v)
      python3 bench/summarize.py ns2 "$wl" $w "$tmp/ns2.json" | tee -a "$out"
    fi
    if [ $have_ns3 = 1 ] && [ "$v" = newreno ]; then
      w=$(timed "$tmp/ns3.json" "$tmp/ns3.err" "$B/build/ns3_dumbbell" --queue=$q)
      python3 bench/summarize.py ns3 "$wl" $w "$tmp/ns3.json" | tee -a "$out"
    fi
  done; done
  # open-loop engine benchmark (UDP sources, no ns-2/ns-3 twin): prints its own JSON line
  if [ "${UDP:-1}" = 1 ]; then "$T/release/examples/udp_dumbbell" | tee -a "$out"; fi
done
echo "{\"sim\":\"meta\",\"loadavg_after\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}" >> "$out"
python3 bench/summarize.py table "$out"
