#!/usr/bin/env bash
# Table C.1 (single link) under the readings of the draft's measurement set-up examined in
# session 7 for the CL 2.0 SR gap (issue 10; RESULTS.md, "The CL 2.0 SR gap, session 7").
# Quick runs as `reproduce --quick`: 30 s, the extra flows at 10 s, OT over 20-30 s; seeds 1-3.
# Each variant changes only the named key of scenarios/pcn-stm/term-<traffic>-single.toml.
# Prints a markdown table: OT % mean (per-seed values) and termination rounds per run.
#   bash scenarios/pcn-stm/sensitivity_cl_s7.sh [QOSLAB_BINARY]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
Q=${1:-$ROOT/target/release/qoslab}
[ -x "$Q" ] || { cargo build --release -q -p qoslab --manifest-path "$ROOT/Cargo.toml"; Q=$ROOT/target/release/qoslab; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
spec() {  # $1 traffic, $2 scheme, $3 load (1.25 | 2.0), $4 sed expression of the variant
  local f2 f
  f2=$(grep -o '^final_flows = [0-9]*' "$ROOT/scenarios/pcn-stm/term-$1-single.toml" | grep -o '[0-9]*$')
  f=$(python3 -c "print(round($f2 * $3 / 2.0))")
  sed -e "s/^scheme = .*/scheme = \"$2\"/" -e 's/^duration = "100s"/duration = "30s"/' \
      -e 's/^extra_at = "50s"/extra_at = "10s"/' -e 's/^ot_from = "80s"/ot_from = "20s"/' \
      -e 's/^ot_to = "100s"/ot_to = "30s"/' -e "s/^final_flows = [0-9]*/final_flows = $f/" \
      -e "$4" "$ROOT/scenarios/pcn-stm/term-$1-single.toml"
}
cell() {  # $1 traffic, $2 scheme, $3 load, $4 variant -> "mean (s1/s2/s3), rounds r1/r2/r3"
  local s
  spec "$1" "$2" "$3" "$4" > "$T/s.toml"
  for s in 1 2 3; do "$Q" run -q "$T/s.toml" --seed $s --out "$T/o$s"; done
  python3 - "$T" <<'PY'
import json, sys
ot, rounds = [], []
for s in (1, 2, 3):
    d = json.load(open(f"{sys.argv[1]}/o{s}/summary.json"))
    ot.append(d["links"][0]["over_termination"]["ot_pct"])
    rounds.append(str(len(d["terminations"])))
print(f"{sum(ot)/3:.2f} ({'/'.join(f'{x:.1f}' for x in ot)}), rounds {'/'.join(rounds)}")
PY
}
echo "| variant | traffic | scheme | 1.25 SR | 2.0 SR |"
echo "|---|---|---|---|---|"
for v in "default|s/^x//" \
         "discard_terminated = false|s/^discard_terminated = true/discard_terminated = false/" \
         "delay = \"10ms\"|s/^delay = \"1ms\"/delay = \"10ms\"/" \
         "edge = \"rfc6661\" (round timing of zhang-02 Fig. 4.4)|s/^edge = \"cl-phb-03\"/edge = \"rfc6661\"/;/^error[12] = /d" \
         "edge = \"rfc6661\", discard_terminated = false|s/^edge = \"cl-phb-03\"/edge = \"rfc6661\"/;/^error[12] = /d;s/^discard_terminated = true/discard_terminated = false/"; do
  label=${v%%|*}; expr=${v#*|}
  for tr in cbr vbr svd; do for sc in cl stm; do
    case "$label" in default|discard*) ;; *) [ "$tr$sc" != "cbrcl" ] && continue ;; esac
    echo "| $label | $tr | $sc | $(cell $tr $sc 1.25 "$expr") | $(cell $tr $sc 2.0 "$expr") |"
  done; done
done
echo
echo "published C.1 OT %, STM / CL: CBR 3.260 / 0.531 (1.25), 3.461 / 12.441 (2.0);"
echo "VBR 13.201 / 13.785, 4.910 / 25.833; SVD 12.367 / 14.552, 12.527 / 24.503"
