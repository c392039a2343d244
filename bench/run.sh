#!/usr/bin/env bash
# qoslab vs ns-3 3.44 on the peer dumbbell (20 NewReno flows, 70 Mb/s bottleneck, RED or
# drop-tail, 20 s), on the same machine at the same moment: each round runs ours and ns-3
# back to back for both queues. Also the open-loop engine benchmark (udp_dumbbell example).
#
#   bash bench/run.sh [ROUNDS]      (default 3; ns-3 peer: BENCH=/tmp/bench bash /work/shared/peers/build.sh)
#
# One JSON line per run in bench/results/latest.jsonl (fields: sim, workload, wall_s, events,
# events_per_s, bottleneck_pkts, pkts_per_wall_s, goodput_mbps, drops), then the table of
# medians from bench/summarize.py. Wall time is the simulation loop only on both sides
# (ns-3: Simulator::Run(); ours: the run loop, as `qoslab run` prints it on stderr).
# Keep the machine otherwise idle; the load average is recorded with the results.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
B=${BENCH:-/tmp/bench}
T=${CARGO_TARGET_DIR:-target}
mkdir -p bench/results
out=bench/results/latest.jsonl
: > "$out"
cargo build --release -q -p qoslab
cargo build --release -q -p qoslab-sim --example udp_dumbbell
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_ns3=0
if [ -x "$B/build/ns3_dumbbell" ]; then have_ns3=1; else
  echo "ns-3 peer not built at $B/build/ns3_dumbbell (BENCH=$B bash /work/shared/peers/build.sh); ours only" >&2
fi
echo "{\"sim\":\"meta\",\"date_utc\":\"$(date -u +%FT%TZ)\",\"nproc\":$(nproc),\"loadavg_before\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}" >> "$out"
for k in $(seq "$rounds"); do
  for q in red droptail; do
    "$T/release/qoslab" run "scenarios/bench/dumbbell-$q.toml" --out "$tmp/$q" > /dev/null 2> "$tmp/err"
    python3 bench/summarize.py ours "dumbbell-$q" "$tmp/err" "$tmp/$q/summary.json" | tee -a "$out"
    if [ $have_ns3 = 1 ]; then
      "$B/build/ns3_dumbbell" --queue=$q > "$tmp/ns3.json"
      python3 bench/summarize.py ns3 "dumbbell-$q" "$tmp/ns3.json" | tee -a "$out"
    fi
  done
  "$T/release/examples/udp_dumbbell" | tee -a "$out"
done
echo "{\"sim\":\"meta\",\"loadavg_after\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}" >> "$out"
python3 bench/summarize.py table "$out"
