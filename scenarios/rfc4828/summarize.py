#!/usr/bin/env python3
"""Per-group averages of a qoslab summary.json, in the units of RFC 4828's tables.

Usage: summarize.py SUMMARY_JSON [--json]

Flows are grouped by name without the trailing instance number ("tcp3" -> "tcp",
"sp200_7" -> "sp200"). Per group: the number of flows; the mean and median of the flows'
send rates (Kb/s, every byte put on the wire incl. headers and retransmissions = RFC 4828's
"send rate"); the mean of the flows' packet drop rates (RFC 4828 App. B "averaged over the
... flows"); the pooled drop rate (all drops / all data packets of the group); the mean
goodput (Kb/s); for TCP groups also the send rate of payload bytes only (Kb/s,
retransmissions included, headers excluded: `data_bytes - 40 B x data_pkts`, every TCP flow
in these scenarios having a 40 B header). RFC 4828's TCP "send rate" is the latter (Table 5:
14 B segments send 6.37 Kb/s for a goodput of 6.34 Kb/s, impossible with 40 B headers
counted), its TFRC send rate the former (App. B.1: "the sending rate for the 14-byte data
packet with the 32-byte packet header").
"""
import json
import re
import statistics
import sys


def groups(summary):
    out = {}
    for f in summary["flows"]:
        g = re.sub(r"_?\d+$", "", f["name"])
        out.setdefault(g, []).append(f)
    rows = {}
    for g, fs in out.items():
        send = [f["send_rate_bps"] / 1e3 for f in fs]
        pkts = sum(f["measured"]["data_pkts"] for f in fs)
        drops = sum(f["measured"]["data_dropped"] for f in fs)
        rows[g] = {
            "flows": len(fs),
            "send_kbps_mean": statistics.fmean(send),
            "send_kbps_median": statistics.median(send),
            "drop_rate_mean": statistics.fmean(f["drop_rate"] for f in fs),
            "drop_rate_pooled": drops / pkts if pkts else 0.0,
            "goodput_kbps_mean": statistics.fmean(f["goodput_bps"] / 1e3 for f in fs),
        }
        if all(f["kind"] == "tcp" for f in fs):
            pay = [f["send_payload_bps"] / 1e3 for f in fs]
            rows[g]["send_payload_kbps_mean"] = statistics.fmean(pay)
            rows[g]["send_payload_kbps_median"] = statistics.median(pay)
    return rows


def main():
    s = json.load(open(sys.argv[1]))
    rows = groups(s)
    if "--json" in sys.argv:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'group':<10} {'n':>3} {'send mean':>10} {'median':>10} {'drop mean':>9} {'pooled':>7} {'goodput':>10} {'payload send':>12} {'median':>10}")
    for g, r in rows.items():
        print(
            f"{g:<10} {r['flows']:>3} {r['send_kbps_mean']:>10.2f} {r['send_kbps_median']:>10.2f} "
            f"{r['drop_rate_mean']:>9.4f} {r['drop_rate_pooled']:>7.4f} {r['goodput_kbps_mean']:>10.2f}"
            + (f" {r['send_payload_kbps_mean']:>12.2f} {r['send_payload_kbps_median']:>10.2f}" if "send_payload_kbps_mean" in r else "")
        )


if __name__ == "__main__":
    main()
