#!/usr/bin/env bash
# Runs RFC 4828 Table 7's drop rates through `qoslab run` and prints the mean send rate per
# flow (Kbps) next to the published TCP column (data/rfc4828/table7.csv).
# Usage: bash scenarios/rfc4828/table7/sweep.sh [SEEDS]   (default 1; e.g. "1 2 3")
set -euo pipefail
cd "$(dirname "$0")/../../.."
seeds=${1:-1}
bin=${QOSLAB:-${CARGO_TARGET_DIR:-target}/release/qoslab}
[ -x "$bin" ] || cargo build --release -q -p qoslab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %10s %10s %8s %9s %9s\n' p ours_kbps rfc_kbps diff% drop% timeouts
grep -v '^#' data/rfc4828/table7.csv | tail -n +2 | while IFS=, read -r p rfc _src; do
  sed "s/^loss = { packet = 0.01 }/loss = { packet = $p }/" \
    scenarios/rfc4828/table7/sack-packet-loss.toml > "$tmp/s.toml"
  for s in $seeds; do
    "$bin" run "$tmp/s.toml" --seed "$s" --out "$tmp/out$s" --quiet
  done
  python3 - "$p" "$rfc" "$tmp" $seeds <<'PY'
import json, sys
p, rfc, tmp, seeds = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
rates, drops, tos = [], [], 0
for s in seeds:
    r = json.load(open(f"{tmp}/out{s}/summary.json"))
    for f in r["flows"]:
        rates.append(f["send_rate_bps"] / 1e3)
        drops.append(f["drop_rate"])
        tos += f["measured"]["timeouts"]
ours = sum(rates) / len(rates)
print(f"{p:6s} {ours:10.2f} {rfc:10.2f} {100 * (ours / rfc - 1):+8.1f} {100 * sum(drops) / len(drops):9.2f} {tos:9d}")
PY
done
