#!/usr/bin/env bash
# Table C.1, CBR at 1.25 SR, STM: over-termination under each reading of the draft's open
# points (issue 10). Shortened run: the extra flows join at 50 s, OT over 56-60 s (termination
# ends by about 50.7 s in every variant). Seeds 1..3. Prints a markdown table.
#   bash scenarios/pcn-stm/sensitivity_c1.sh [QOSLAB_BINARY]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
Q=${1:-$ROOT/target/release/qoslab}
[ -x "$Q" ] || { cargo build --release -q -p qoslab --manifest-path "$ROOT/Cargo.toml"; Q=$ROOT/target/release/qoslab; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
base() {  # $1 mk reading, $2 n, $3 rate window
  sed -e 's/^duration = "100s"/duration = "60s"/' -e 's/^final_flows = 4000/final_flows = 2500/' \
      -e 's/^ot_from = "80s"/ot_from = "56s"/' -e 's/^ot_to = "100s"/ot_to = "60s"/' \
      -e "s/^mk_threshold_reading = .*/mk_threshold_reading = \"$1\"/" -e "s/^n = 3/n = $2/" \
      -e "s/^rate_window = .*/rate_window = \"$3\"/" "$ROOT/scenarios/pcn-stm/term-cbr-single.toml"
}
row() {  # $1 label, $2 file
  local ots="" evs="" s
  for s in 1 2 3; do
    "$Q" run "$2" --seed $s --out "$T/o" > "$T/log" 2>&1
    ots="$ots $(grep -o 'OT [0-9.]*' "$T/log" | cut -d' ' -f2)"
    evs="$evs $(grep -o 'terminations: [0-9]*' "$T/log" | cut -d' ' -f2)"
  done
  python3 -c "import sys; o=[float(x) for x in '$ots'.split()]; e='$evs'.split(); print(f'| $1 | {sum(o)/len(o):.1f} ({min(o):.1f}-{max(o):.1f}) | {\"/\".join(e)} |')"
}
echo "| reading (changes from the default scenario) | OT % mean (range), seeds 1-3 | termination rounds |"
echo "|---|---|---|"
for rd in literal deficit; do for n in 3 1; do for rw in 33.3ms 100ms; do
  base $rd $n $rw > "$T/s.toml"; row "mk_threshold_reading=$rd, n=$n, rate_window=$rw" "$T/s.toml"
done; done; done
for v in 'r_min_reports = "all"' 'first_report = "one-interval-later"' 'round_start = "next-report"'; do
  for rd in literal deficit; do
    base $rd 3 33.3ms | sed -e "s/^${v%% =*} = .*/$v/" > "$T/s.toml"; row "mk_threshold_reading=$rd, $v" "$T/s.toml"
  done
done
echo
echo "published (Table C.1, CBR, 1.25 SR, STM): OT 3.260 %, termination time 0.400 s"
