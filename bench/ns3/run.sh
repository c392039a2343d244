#!/usr/bin/env bash
# Builds bench/ns3/dumbbell_flows.cc against the ns3==3.44.post0 wheel (installed by
# /work/shared/peers/build.sh under $BENCH, default /tmp/bench) and runs it for both queues,
# SACK off and on, RED over runs 1..RUNS (drop-tail has no randomness: one run).
# Then runs ours on the same workload (scenarios/bench/dumbbell-{droptail,red}.toml with the
# flows' variant set to newreno and to sack; seeds 1..RUNS).
# Output: bench/results/ns3_flows.jsonl and ours_flows.jsonl (one JSON line per run),
# bench/ns3_reference.json (written from ns3_flows.jsonl by `compare.py reference`), and
# the side-by-side table of `python3 bench/ns3/compare.py table ...`.
set -eu
B=${BENCH:-/tmp/bench}
RUNS=${1:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
NS3=$B/venv/lib/python3.11/site-packages/ns3
[ -d "$NS3" ] || { echo "no ns-3 wheel at $NS3: run BENCH=$B bash /work/shared/peers/build.sh" >&2; exit 1; }
mkdir -p "$B/build" "$HERE/../results"
BIN=$B/build/qoslab_dumbbell_flows
if [ ! -x "$BIN" ] || [ "$HERE/dumbbell_flows.cc" -nt "$BIN" ]; then
  g++ -O2 -std=c++20 -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -DNS3_BUILD_PROFILE_RELEASE \
      -I"$NS3/include" "$HERE/dumbbell_flows.cc" -o "$BIN" -L"$NS3/lib64" -Wl,-rpath,"$NS3/lib64" \
      -lns3.44-applications -lns3.44-traffic-control -lns3.44-point-to-point -lns3.44-internet \
      -lns3.44-network -lns3.44-core -lns3.44-stats -lns3.44-bridge -lns3.44-mobility
fi
OUT=$HERE/../results/ns3_flows.jsonl
: > "$OUT"
for sack in 0 1; do
  "$BIN" --queue=droptail --sack=$sack >> "$OUT"
  for r in $(seq 1 "$RUNS"); do
    "$BIN" --queue=red --sack=$sack --run=$r >> "$OUT"
  done
done
# The recorded reference the tests read is this run's output, written whole (issue 17).
python3 "$HERE/compare.py" reference "$OUT" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$HERE/../ns3_reference.json"

ROOT=$HERE/../..
cargo build --release -q -p qoslab --manifest-path "$ROOT/Cargo.toml"
QOSLAB=${CARGO_TARGET_DIR:-$ROOT/target}/release/qoslab
OURS=$HERE/../results/ours_flows.jsonl
TMP=$(mktemp -d)
: > "$OURS"
for v in newreno sack; do
  for q in droptail red; do
    sed "s/^variant = \"newreno\"/variant = \"$v\"/" "$ROOT/scenarios/bench/dumbbell-$q.toml" > "$TMP/$q-$v.toml"
    for r in $(seq 1 "$RUNS"); do
      "$QOSLAB" run "$TMP/$q-$v.toml" --seed "$r" --out "$TMP/o" -q
      python3 "$HERE/compare.py" ours "$v" "$q" "$r" "$TMP/o/summary.json" >> "$OURS"
    done
  done
done
rm -rf "$TMP"
python3 "$HERE/compare.py" table "$OUT" "$OURS"
