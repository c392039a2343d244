#!/usr/bin/env bash
# Cost per bottleneck packet from 20 to 10,000 flows at the same link load: the RED bench
# dumbbell with `count = N` flows, 5 s simulated. Per N: instructions of the whole process
# and of the simulation (callgrind; load-independent): "sim" = whole process minus the
# same scenario run for 1 ms (start-up, scenario reading, output writing), which is steadier
# than callgrind's inclusive count of the run loop (its recursion cycles split it); max RSS
# and times (/usr/bin/time). With CPU=1 (needs `perf`), also the CPU time per bottleneck
# packet of the simulation (`perf stat -e task-clock -r ${REPS:-3}` of the whole process
# minus the same for the 1-ms run, as for the instructions) and of the whole process.
#
#   bash bench/scale.sh [N ...]      (default 20 200 2000 10000; needs valgrind;
#                                    QOSLAB=path measures that binary instead of building;
#                                    CPU=1 REPS=3 adds the CPU-time columns)
set -euo pipefail
cd "$(dirname "$0")/.."
T=${CARGO_TARGET_DIR:-target}
Q=${QOSLAB:-}
if [ -z "$Q" ]; then cargo build --release -q -p qoslab; Q="$T/release/qoslab"; fi
ns=${*:-20 200 2000 10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CPU=${CPU:-0}
REPS=${REPS:-3}
# task-clock in ms of `perf stat -r REPS` over the given command
clock() { perf stat -x, -e task-clock -r "$REPS" "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }
if [ "$CPU" = 1 ]; then
  echo "| flows | bottleneck pkts | events | events per bottleneck pkt | sim instr. per bottleneck pkt | whole-process instr. per bottleneck pkt | sim CPU µs per bottleneck pkt | whole-process CPU µs per bottleneck pkt | RSS MB | wall s / CPU s |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
else
  echo "| flows | bottleneck pkts | events | events per bottleneck pkt | sim instr. per bottleneck pkt | whole-process instr. per bottleneck pkt | RSS MB | wall s / CPU s |"
  echo "|---|---|---|---|---|---|---|---|"
fi
for n in $ns; do
  sed -e "s/^count = 20$/count = $n/" -e 's/^duration = "20s"/duration = "5s"/' \
      -e "s/^name = \"bench-dumbbell-red\"/name = \"scale-$n\"/" scenarios/bench/dumbbell-red.toml > "$tmp/s.toml"
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$Q" run "$tmp/s.toml" --out "$tmp/o" > /dev/null 2>&1
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$Q" run "$tmp/s.toml" --out "$tmp/o" > /dev/null 2> "$tmp/vg"
  tot=$(grep -o 'refs: *[0-9,]*' "$tmp/vg" | tr -dc 0-9)
  sed -i 's/^duration = "5s"/duration = "1ms"/' "$tmp/s.toml"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg0" "$Q" run "$tmp/s.toml" --out "$tmp/o0" > /dev/null 2> "$tmp/vg0"
  loop=$((tot - $(grep -o 'refs: *[0-9,]*' "$tmp/vg0" | tr -dc 0-9)))
  c1=-1 c0=0
  if [ "$CPU" = 1 ]; then
    c0=$(clock "$Q" run "$tmp/s.toml" --out "$tmp/o0")
    sed -i 's/^duration = "1ms"/duration = "5s"/' "$tmp/s.toml"
    c1=$(clock "$Q" run "$tmp/s.toml" --out "$tmp/o1")
  fi
  python3 - "$tmp/o/summary.json" "$tmp/time" "$n" "$loop" "$tot" "$c1" "$c0" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); w, u, s, m = open(sys.argv[2]).read().split()[-4:]
n, loop, tot = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
c1, c0 = float(sys.argv[6]), float(sys.argv[7])
q = next(q for q in r["queues"] if q["link"] == "G1->G2"); p = q["total"]["departures"]
cpu = f"| {(c1 - c0) * 1e3 / p:.3f} | {c1 * 1e3 / p:.3f} " if c1 >= 0 else ""
print(f"| {n:,} | {p:,} | {r['events']:,} | {r['events'] / p:.2f} | {loop / p:,.0f} | {tot / p:,.0f} "
      f"{cpu}| {int(m) / 1024:.1f} | {float(w):.2f} / {float(u) + float(s):.2f} |")
PY
done
