#!/usr/bin/env bash
# Session 9 audit (issue 10): where STM's over-termination comes from, round by round.
# Shortened C.1 / C.2-C.4 STM runs (extra flows at 50 s, 60 s, OT over 56-60 s), seeds 1..3;
# from each run's terminations.csv (one row per order: S, R_min, amount, flows) it derives
#   - rounds      : orders in the episode (all IEAs);
#   - cross       : the order after which the nominal PCN rate (active flows x mean rate) < SR,
#                   counted from 1, and the OT at that moment (nominal): what the draft's
#                   "stop at the crossing" would leave;
#   - after       : orders after the crossing, and the OT points they add (nominal);
#   - amount/S    : mean order size as a fraction of the ingress's S (y = 5 % if R_min >= S);
#   - Rmin/S      : mean R_min / S of the orders.
# Prints one markdown row per configuration (means over the seeds).
#   bash scenarios/pcn-stm/audit_s9.sh [QOSLAB_BINARY]
# AUDIT_SED='s/^rate_window = .*/rate_window = "100ms"/' applies one more sed expression to
# every scenario (a reading, for comparison only; AUDIT_ONLY='C.2 cbr k=70' keeps matching rows).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
Q=${1:-$ROOT/target/release/qoslab}
[ -x "$Q" ] || { cargo build --release -q -p qoslab --manifest-path "$ROOT/Cargo.toml"; Q=$ROOT/target/release/qoslab; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
short() {  # $1 file, $2 final flows, $3 k (0 = single link)
  sed -e 's/^duration = "100s"/duration = "60s"/' -e "s/^final_flows = [0-9]*/final_flows = $2/" \
      -e 's/^ot_from = "80s"/ot_from = "56s"/' -e 's/^ot_to = "100s"/ot_to = "60s"/' \
      -e "s/^ingresses = [0-9]*/ingresses = $3/" -e "${AUDIT_SED:-s/^//}" "$1"
}
row() {  # $1 label, $2 toml, $3 final flows, $4 nominal bit/s, $5 SR bit/s
  local s
  case "$1" in *"${AUDIT_ONLY:-}"*) ;; *) return 0 ;; esac
  : > "$T/rows"
  for s in 1 2 3; do
    "$Q" run "$2" --seed $s --out "$T/o" > "$T/log" 2>&1
    ot=$(grep -o 'OT [0-9.-]*' "$T/log" | head -1 | cut -d' ' -f2)
    echo "$ot" > "$T/ot"
    python3 - "$T/o/terminations.csv" "$3" "$4" "$5" "$ot" >> "$T/rows" <<'EOF'
import csv, sys
path, final, nom, sr, ot = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
ev = list(csv.DictReader(open(path)))
flows = final
cross = None
ot_cross = None
fr, rr = [], []
for k, e in enumerate(ev):
    s = float(e["sending_bps"]); r = float(e["reported_bps"]); a = float(e["amount_bps"])
    if s > 0:
        fr.append(a / s)
        if r < 1e18:
            rr.append(min(r, 1e12) / s)
    flows -= int(e["flows"])
    if cross is None and flows * nom < sr:
        cross = k + 1
        ot_cross = 100.0 * (sr - flows * nom) / sr
ot_nom = 100.0 * (sr - flows * nom) / sr
after = len(ev) - cross if cross else 0
print(len(ev), cross or 0, ot_cross if ot_cross is not None else float("nan"), after,
      ot_nom - (ot_cross if ot_cross is not None else ot_nom), sum(fr) / max(len(fr), 1),
      sum(rr) / max(len(rr), 1), ot)
EOF
  done
  python3 - "$1" "$T/rows" <<'EOF'
import sys
label, rows = sys.argv[1], [list(map(float, l.split())) for l in open(sys.argv[2])]
m = lambda i: sum(r[i] for r in rows) / len(rows)
print(f"| {label} | {m(0):.1f} | {m(1):.1f} | {m(2):.1f} | {m(3):.1f} | {m(4):.1f} | {100*m(5):.2f} | {m(6):.4f} | {m(7):.1f} |")
EOF
}
echo "| run (STM, seeds 1-3) | rounds | crossing order | OT at crossing % | orders after | OT they add (points) | amount/S % | R_min/S | OT measured % |"
echo "|---|---|---|---|---|---|---|---|---|"
S=$ROOT/scenarios/pcn-stm
for tr in cbr:2500:4000:64000:128000000 vbr:2500:4000:21760:43520000 svd:500:800:4080000:1600000000; do
  IFS=: read -r name f125 f200 nom sr <<< "$tr"
  for ff in $f125 $f200; do
    short "$S/term-$name-single.toml" $ff 0 > "$T/s.toml"
    row "C.1 $name single, $ff flows" "$T/s.toml" $ff $nom $sr
  done
done
for k in 2 10 35 70; do
  for ff in 2500 4000; do
    short "$S/term-cbr-rtt.toml" $ff $k > "$T/s.toml"
    row "C.2 cbr k=$k, $ff flows" "$T/s.toml" $ff 64000 128000000
  done
done
for tr in vbr:2500:4000:21760:43520000:C.3 svd:500:800:4080000:1600000000:C.4; do
  IFS=: read -r name f125 f200 nom sr tab <<< "$tr"
  for ff in $f125 $f200; do
    short "$S/term-$name-rtt.toml" $ff 10 > "$T/s.toml"
    row "$tab $name k=10, $ff flows" "$T/s.toml" $ff $nom $sr
  done
done
