#!/usr/bin/env bash
# Table C.1 (single link) under the readings of *when the ingress measures S* relative to a
# termination order, and *what it counts* (session 16, issue 10; RESULTS.md, "Session 16
# (s16-cl): when the ingress measures S"). Quick runs as `reproduce --quick` and as session 7's
# sensitivity_cl_s7.sh: 30 s, the extra flows at 10 s, OT over 20-30 s; here seeds 1..N (N = 5
# by default) and mean ± 95 % half-width (Student t, N − 1 degrees of freedom).
# Each variant changes only the named keys of scenarios/pcn-stm/term-<traffic>-single.toml.
# Columns per cell: OT % mean ± half-width; for CL also k = (sum of the orders after the first)
# / A, mean over seeds, with A = (load − 1) × the first order's SAR (≈ SR under overload): the
# termination beyond the first order in units of the amount the first order should remove.
# FULL=1: the files' own 100 s runs (extra flows at 50 s, OT over 80-100 s) instead.
#   bash scenarios/pcn-stm/sensitivity_cl_s16.sh [QOSLAB_BINARY] [N] [VARIANT-LABEL-FILTER]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
Q=${1:-}
N=${2:-5}
FILTER=${3:-}
Q=${Q:-$ROOT/target/release/qoslab}
[ -x "$Q" ] || { nice -n 19 cargo build --release -q -p qoslab --manifest-path "$ROOT/Cargo.toml"; Q=$ROOT/target/release/qoslab; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
spec() {  # $1 traffic, $2 scheme, $3 load (1.25 | 2.0), $4 sed expression of the variant
  local f2 f
  f2=$(grep -o '^final_flows = [0-9]*' "$ROOT/scenarios/pcn-stm/term-$1-single.toml" | grep -o '[0-9]*$')
  f=$(python3 -c "print(round($f2 * $3 / 2.0))")
  local q='s/^duration = "100s"/duration = "30s"/;s/^extra_at = "50s"/extra_at = "10s"/;s/^ot_from = "80s"/ot_from = "20s"/;s/^ot_to = "100s"/ot_to = "30s"/'
  [ "${FULL:-0}" = 1 ] && q='s/^x//'
  sed -e "s/^scheme = .*/scheme = \"$2\"/" -e "$q" -e "s/^final_flows = [0-9]*/final_flows = $f/" \
      -e "$4" "$ROOT/scenarios/pcn-stm/term-$1-single.toml"
}
cell() {  # $1 traffic, $2 scheme, $3 load, $4 variant -> "mean ± hw [k]"
  local s
  spec "$1" "$2" "$3" "$4" > "$T/s.toml"
  for s in $(seq 1 "$N"); do nice -n 19 "$Q" run -q "$T/s.toml" --seed "$s" --out "$T/o$s"; done
  python3 - "$T" "$N" "$2" "$3" <<'PY'
import json, sys, statistics as st
d, n, scheme, load = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
# Student t 0.975 quantiles, 1..9 degrees of freedom
tq = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262]
ot, ks = [], []
for s in range(1, n + 1):
    j = json.load(open(f"{d}/o{s}/summary.json"))
    ot.append(j["links"][0]["over_termination"]["ot_pct"])
    a = [t["amount_bps"] for t in j["terminations"]]
    if a:
        ks.append(sum(a[1:]) / ((load - 1) * j["terminations"][0]["reported_bps"]))
m = st.mean(ot)
hw = tq[n - 2] * st.stdev(ot) / n ** 0.5 if n > 1 else 0.0
k = f" [k {st.mean(ks):.3f}]" if scheme == "cl" and ks else ""
print(f"{m:.2f} ± {hw:.2f}{k}")
PY
}
echo "| variant | traffic | scheme | 1.25 SR | 2.0 SR |"
echo "|---|---|---|---|---|"
while IFS='|' read -r label expr; do
  [ -z "$label" ] && continue
  case "$label" in *"$FILTER"*) ;; *) continue ;; esac
  for tr in cbr vbr svd; do for sc in cl stm; do
    echo "| $label | $tr | $sc | $(cell $tr $sc 1.25 "$expr") | $(cell $tr $sc 2.0 "$expr") |"
  done; done
done <<'VARIANTS'
default (S from each report, d = δ; in-flight packets discarded)|s/^x//
discard_terminated = false (in-flight packets counted in S, d = δ)|s/^discard_terminated = true/discard_terminated = false/
delay = 10ms|s/^delay = "1ms"/delay = "10ms"/
delay = 10ms, discard_terminated = false|s/^delay = "1ms"/delay = "10ms"/;s/^discard_terminated = true/discard_terminated = false/
ingress_wait = after-order|s/^ingress_wait = "none"/ingress_wait = "after-order"/
ingress_wait = after-order, discard_terminated = false|s/^ingress_wait = "none"/ingress_wait = "after-order"/;s/^discard_terminated = true/discard_terminated = false/
error1 = 0.05 (gate only)|s/^error1 = 0.0/error1 = 0.05/
error1 = 0.05 (gate only), discard_terminated = false|s/^error1 = 0.0/error1 = 0.05/;s/^discard_terminated = true/discard_terminated = false/
round_start = next-report (STM only: next S from the next report)|s/^round_start = "back-to-back"/round_start = "next-report"/
round_start = next-report, discard_terminated = false|s/^round_start = "back-to-back"/round_start = "next-report"/;s/^discard_terminated = true/discard_terminated = false/
VARIANTS
echo
echo "published C.1 OT %, STM / CL: CBR 3.260 / 0.531 (1.25), 3.461 / 12.441 (2.0);"
echo "VBR 13.201 / 13.785, 4.910 / 25.833; SVD 12.367 / 14.552, 12.527 / 24.503"
