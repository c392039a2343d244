#!/usr/bin/env bash
# Runs one row of one RFC 4828 table: writes the row's scenario (the base file of its appendix
# section with the lines marked `@...` changed), runs it and prints the per-group averages.
#
#   scenarios/rfc4828/run.sh TABLE ROW [SEED] [OUTDIR]
#
#   TABLE 5, 6      ROW ignored (all segment sizes are in one run; byte drop rate 1e-4 / 1e-3)
#   TABLE 7, 8, 9   ROW = packet drop rate (0.001 .. 0.5)            b1-packet-drop.toml
#   TABLE 10, 11    ROW = byte drop rate (0.00001 .. 0.05)           b2-byte-drop.toml
#   TABLE 12 .. 16  ROW = web sessions (12-14: 10 .. 1600, 15-16: 10 .. 500)  b3-droptail.toml
#   TABLE 17 .. 21  ROW = web sessions                               b4-red.toml
#
# QOSLAB names the binary (default: `qoslab` on the PATH), e.g.
#   QOSLAB=target/release/qoslab scenarios/rfc4828/run.sh 13 800 2
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
QOSLAB=${QOSLAB:-qoslab}
table=${1:?table}
row=${2:?row}
seed=${3:-1}
outdir=${4:-out/rfc4828}
mkdir -p "$outdir"
file="$outdir/table$table-$row-s$seed.toml"

# sub PATTERN REPLACEMENT: replace the marked line; fail if no line was changed.
sub() {
    if ! grep -qE "$1" "$file"; then
        echo "run.sh: no line matches /$1/ in $file" >&2
        exit 2
    fi
    sed -E -i "s|$1|$2|" "$file"
}

drop_tail_bytes='queue = { kind = "drop-tail", limit = "50000B" }  # @queue'
red_bytes='queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", max_p = 0.1, w_q = 0.002, gentle = false, wait = true, byte_mode = true, queue_unit = "bytes", mean_pkt_size = "500B" }  # @queue'
ared_bytes='queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", max_p = 0.1, w_q = 0.002, gentle = true, wait = true, byte_mode = true, queue_unit = "bytes", mean_pkt_size = "500B", adaptive = true }  # @queue'

sessions() {
    local rev=$(($1 / 2))
    [ "$rev" -ge 1 ] || rev=1
    sub '^sessions = [0-9]+  # @sessions$' "sessions = $1  # @sessions"
    sub '^sessions = [0-9]+  # @revsessions$' "sessions = $rev  # @revsessions"
}

case $table in
5 | 6 | 10 | 11)
    cp "$here/b2-byte-drop.toml" "$file"
    case $table in 5) b=0.0001 ;; 6) b=0.001 ;; *) b=$row ;; esac
    sub '^loss = \{ byte = [^,}]*(,[^}]*)?\}  # @loss(.*)$' "loss = { byte = $b\\1}  # @loss\\2"
    ;;
7 | 8 | 9)
    cp "$here/b1-packet-drop.toml" "$file"
    sub '^loss = \{ packet = [^,}]*(,[^}]*)?\}  # @loss(.*)$' "loss = { packet = $row\\1}  # @loss\\2"
    ;;
12 | 13 | 14 | 15 | 16)
    cp "$here/b3-droptail.toml" "$file"
    sessions "$row"
    [ "$table" = 12 ] || sub '^queue = .*  # @queue$' "$drop_tail_bytes"
    [ "$table" = 14 ] && sub '^mss = "1460B"  # @mss$' 'mss = "512B"  # @mss'
    if [ "$table" = 15 ] || [ "$table" = 16 ]; then
        # N TCP, N TFRC flows and 10 N web sessions
        n=$((row / 10))
        sed -E -i "s|^count = 5  # @n\$|count = $n  # @n|" "$file"
        [ "$(grep -c "^count = $n  # @n\$" "$file")" = 6 ] || { echo "run.sh: @n lines" >&2; exit 2; }
    fi
    [ "$table" = 16 ] && sub '^variant = "sp"  # @variant$' 'variant = "standard"  # @variant'
    ;;
17 | 18 | 19 | 20 | 21)
    cp "$here/b4-red.toml" "$file"
    sessions "$row"
    case $table in
    18 | 19) sub '^queue = .*  # @queue$' "$red_bytes" ;;
    20 | 21) sub '^queue = .*  # @queue$' "$ared_bytes" ;;
    esac
    case $table in 19 | 21) sub '^mss = "1460B"  # @mss$' 'mss = "512B"  # @mss' ;; esac
    ;;
*)
    echo "run.sh: no scenario for table $table" >&2
    exit 2
    ;;
esac
sed -E -i "s|^name = \"rfc4828-b[0-9]\"|name = \"rfc4828-table$table-$row\"|" "$file"

t0=$(date +%s.%N)
"$QOSLAB" run "$file" --seed "$seed" --out "${file%.toml}" --quiet
t1=$(date +%s.%N)
echo "table $table row $row seed $seed: wall $(echo "$t1 - $t0" | bc) s"
python3 "$here/summarize.py" "${file%.toml}/summary.json"
