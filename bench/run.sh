#!/usr/bin/env bash
# qoslab's benchmark of the dumbbell, side by side with ns-3 3.44 when the shared peer build exists.
# Usage: bash bench/run.sh [RUNS]        (ns-3 peer: BENCH=/tmp/bench bash ../shared/peers/build.sh first)
# Prints one JSON line per run; results/latest.jsonl keeps them. Keep the machine otherwise idle.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
B=${BENCH:-/tmp/bench}
mkdir -p bench/results
out=bench/results/latest.jsonl
: > "$out"
cargo build --release -q -p qoslab -p qoslab-sim --example udp_dumbbell
for k in $(seq "$runs"); do
  ./target/release/examples/udp_dumbbell | tee -a "$out"
  for q in red droptail; do
    ./target/release/qoslab bench "scenarios/bench/dumbbell-$q.toml" | tee -a "$out"
  done
done
if [ -x "$B/build/ns3_dumbbell" ]; then
  for k in $(seq "$runs"); do
    for q in red droptail; do
      "$B/build/ns3_dumbbell" --queue=$q | sed 's/^{/{"sim":"ns-3.44",/' | tee -a "$out"
    done
  done
else
  echo "ns-3 peer not built at $B (run: BENCH=$B bash ../shared/peers/build.sh)" >&2
fi
python3 bench/summarize.py "$out"
