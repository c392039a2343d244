# ns-2.35 script of the RIO seed (Hori, Ikenaga & Oie 2001, seed 002), matched parameter by
# parameter to scenarios/rio-hori2001/base.toml (mapping: bench/ns2/seeds/README.md).
# Written for qoslab's differential validation (issue 14).
#
# usage: ns rio_hori2001.tcl <tcp: Reno|Newreno|Sack> <minth_out> <maxth_out> <maxp_out_den>
#           <w_qout> <seed> <tracefile> [duration_s] [w_in] [mred_mode] [series_file]
# The trace file holds the bottleneck (G1->G2) queue events only; rio_hori2001.py reads it.
# w_in (default 0.002) is the EWMA weight of precedence 0 (AF11/In). ns-2.35's RIO-C computes
# precedence 1's (Out's) average as (1 - w_out) avg_out + w_in qlen_in + w_out qlen_out
# (diffserv/dsredq.cc calcAvg), which is the average of the whole queue only when w_in =
# w_out; Table 3 (w_qout swept) is therefore also run with w_in = w_qout (README, finding 2).
# At the end the core queue's per-code-point counts are printed (dsRED printStats) so that the
# runner can check that In packets are never early-dropped (then w_in has no other effect).
# mred_mode (default RIO-C, ns-2.35's rule) may be RIO-C-TOTAL with an ns-2.35 built by
# bench/ns2/build_riototal_ns2.sh: Out's average is then (1 - w_out) avg_out + w_out (qlen_in +
# qlen_out), the paper's, for any w_in (Table 4b's w_qout = 1; Table 3). With series_file, the
# core queue is sampled every 10 ms (as base.toml's sample_interval): time, packets waiting
# (getCurrent), Out's and In's averages (getAverageV); sampling draws no random number.

if {$argc < 7} {
    puts stderr "usage: ns rio_hori2001.tcl tcp minth_out maxth_out maxp_den w_qout seed trace \[dur\]"
    exit 1
}
set tcpv   [lindex $argv 0]
set minout [lindex $argv 1]
set maxout [lindex $argv 2]
set pden   [lindex $argv 3]
set wout   [lindex $argv 4]
set seed   [lindex $argv 5]
set tfile  [lindex $argv 6]
set dur 20.0
if {$argc > 7} { set dur [lindex $argv 7] }
set win 0.002
if {$argc > 8} { set win [lindex $argv 8] }
set mred RIO-C
if {$argc > 9} { set mred [lindex $argv 9] }
set sfile ""
if {$argc > 10} { set sfile [lindex $argv 10] }

set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

# TCP, as base.toml [defaults.tcp]: 500-B segments with no header added (useHeaders_ false,
# header = "0B"), receiver window 1000 (rwnd "1000p"), IW 2, tick 10 ms, min RTO 200 ms.
Agent/TCP set packetSize_ 500
Agent/TCP set useHeaders_ false
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2
Agent/TCP set tcpTick_ 0.01
Agent/TCP set minrto_ 0.2

set n 20
set G1 [$ns node]
set G2 [$ns node]
for {set i 1} {$i <= $n} {incr i} {
    set S($i) [$ns node]
    set D($i) [$ns node]
}

# Buffer limits: qoslab's "Np" holds N waiting packets besides the one on the wire. ns-2's
# DropTail limit_ N holds N - 1 (it drops when length + 1 >= limit_), its dsRED limit_ N holds
# N (measured: probes/droptail_limit.tcl). So qoslab's 300p / 1000p are ns-2 DropTail's
# 301 / 1001 and dsRED's 300 / 1000.
#
# Access links S_i -> G1: 100 Mb/s, delay 3..8 ms spread linearly (base.toml's
# { from = "3ms", to = "8ms" }: 3 + 5 (i-1)/19 ms, rounded to the ns there). The TSW tagger
# "on each input interface" of G1 is ns-2's dsRED/edge queue of this link (the link is never
# congested, so the tagger sees the sender's stream either way). Its queue is drop-tail 1000.
for {set i 1} {$i <= $n} {incr i} {
    set dns [expr {round(3000000.0 + 5000000.0 * ($i - 1) / 19.0)}]
    set d [expr {$dns / 1.0e9}]
    $ns simplex-link $S($i) $G1 100Mb $d dsRED/edge
    $ns simplex-link $G1 $S($i) 100Mb $d DropTail
    $ns queue-limit $S($i) $G1 1000
    $ns queue-limit $G1 $S($i) 1001
}
$ns simplex-link $G1 $G2 70Mb 5ms dsRED/core
$ns simplex-link $G2 $G1 70Mb 5ms DropTail
$ns queue-limit $G1 $G2 300
$ns queue-limit $G2 $G1 301
for {set i 1} {$i <= $n} {incr i} {
    $ns duplex-link $G2 $D($i) 100Mb 5ms DropTail
    $ns queue-limit $G2 $D($i) 1001
    $ns queue-limit $D($i) $G2 1001
}

# Edge: TSW2CM (window 1 s, fixed in ns-2.35's dsPolicy.cc), CIR 5 Mb/s for S1..S10 and
# 1 Mb/s for S11..S20; in profile -> code point 10 (AF11), out -> 11 (AF12).
for {set i 1} {$i <= $n} {incr i} {
    set q [[$ns link $S($i) $G1] queue]
    set cir [expr {$i <= 10 ? 5000000 : 1000000}]
    $q meanPktSize 500
    $q set numQueues_ 1
    $q setNumPrec 2
    $q addPolicyEntry [$S($i) id] [$D($i) id] TSW2CM 10 $cir
    $q addPolicerEntry TSW2CM 10 11
    $q addPHBEntry 10 0 0
    $q addPHBEntry 11 0 1
    $q setMREDMode DROP
    $q configQ 0 0 1000 1000 1.0
    $q configQ 0 1 1000 1000 1.0
}

# Core: coupled RIO (ns-2's RIO-C: the average of precedence 1 counts precedences 0 and 1),
# AF11 (200, 250, 1/50, w_q 0.002), AF12 (minth_out, maxth_out, 1/den, w_qout), 300 packets.
set core [[$ns link $G1 $G2] queue]
$core meanPktSize 500
$core set numQueues_ 1
$core setNumPrec 2
$core addPHBEntry 10 0 0
$core addPHBEntry 11 0 1
$core setMREDMode $mred
$core configQ 0 0 200 250 0.02 $win
$core configQ 0 1 $minout $maxout [expr {1.0 / $pden}] $wout

set tf [open $tfile w]
$ns trace-queue $G1 $G2 $tf
if {$sfile != ""} {
    set sf [open $sfile w]
    puts $sf "time_s pkts avg_out avg_in"
    proc qsample {k} {
        global ns core sf dur
        puts $sf [format "%.2f %d %s %s" [expr {$k * 0.01}] [expr {int([$core getCurrent 0])}] \
                      [$core getAverageV 0 1] [$core getAverageV 0 0]]
        set t [expr {($k + 1) * 0.01}]
        if {$t <= $dur + 1e-9} { $ns at $t "qsample [expr {$k + 1}]" }
    }
    $ns at 0.0 "qsample 0"
}

set cls(Reno) Agent/TCP/Reno
set cls(Newreno) Agent/TCP/Newreno
set cls(Sack) Agent/TCP/Sack1
set sinkcls(Reno) Agent/TCPSink
set sinkcls(Newreno) Agent/TCPSink
set sinkcls(Sack) Agent/TCPSink/Sack1
for {set i 1} {$i <= $n} {incr i} {
    set tcp($i) [new $cls($tcpv)]
    $tcp($i) set fid_ $i
    set sink($i) [new $sinkcls($tcpv)]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $D($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at 0.0 "$ftp($i) start"
}
# Per-flow TCP counts over 5 s .. end (the measurement window; finding 4's next step), one
# line per flow: data packets sent (ndatapack_), retransmitted (nrexmitpack_), retransmission
# timeouts (nrexmit_). Drops per flow come from the trace.
proc tcpsnap {} {
    global tcp n
    set out {}
    for {set i 1} {$i <= $n} {incr i} {
        lappend out [list [$tcp($i) set ndatapack_] [$tcp($i) set nrexmitpack_] \
                         [$tcp($i) set nrexmit_]]
    }
    return $out
}
# dsRED's per-code-point counts at 5 s too (cumulative; the runner reads the last table).
proc mark5 {} { global t5 core; set t5 [tcpsnap]; $core printStats }
$ns at 5.0 "mark5"
proc finish {} {
    global ns tf core t5
    global sf sfile
    $ns flush-trace
    close $tf
    if {$sfile != ""} { close $sf }
    $core printStats
    set i 0
    foreach a [tcpsnap] b $t5 {
        incr i
        puts [format "tcpflow=%d sent=%d rexmit=%d timeouts=%d" $i \
                  [expr {[lindex $a 0] - [lindex $b 0]}] [expr {[lindex $a 1] - [lindex $b 1]}] \
                  [expr {[lindex $a 2] - [lindex $b 2]}]]
    }
    exit 0
}
$ns at $dur "finish"
$ns run
