# Finding 41 probe (session 13, s13-yellow): rfc2963.tcl with per-LAN diagnostics.
# usage: ns s13-yellow_rfc2963_stats.tcl <cbs_bytes> <seed> [duration_s] [warmup_s] [window_pkts] [trace_file]
# With trace_file, the links C1 -> ER1 and C5 -> ER1 are traced (trace-queue: "+" = arrival at
# the edge queue, where ns-2's trTCM meters) for the meter replay of s13-yellow_trtcm_replay.py.
# Prints, per LAN k over [warmup, duration): "S<k> <edge green/yellow/red pkts marked>
# <core green/yellow/red arrivals> <core yellow drops> <core yellow edrops> <core green drops+edrops>
# <TCP ndatapack_> <nrexmitpack_> <nrexmit_ (timeouts)>", then "done". Everything else as
# rfc2963.tcl (the network and parameters are identical; only counters are added).
if {$argc < 2} {
    puts stderr "usage: ns rfc2963.tcl cbs_bytes seed \[duration\] \[warmup\]"
    exit 1
}
set cbs  [lindex $argv 0]
set seed [lindex $argv 1]
set dur 102.0
set win 43
if {$argc > 4} { set win [lindex $argv 4] }
set warm 2.0
if {$argc > 2} { set dur [lindex $argv 2] }
if {$argc > 3} { set warm [lindex $argv 3] }

set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

# TCP, as base.toml [defaults.tcp]: SACK, MSS 1460 B + 40 B headers (useHeaders_ true, the
# 2.35 default), window 64 KB = 64000 B = 43 full segments (ns-2's window_ is in packets),
# IW 2, min RTO 200 ms, tick 10 ms; TCPSink/Sack1 acks every segment (40-B ACKs).
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ $win
Agent/TCP set windowInit_ 2
Agent/TCP set minrto_ 0.2
Agent/TCP set tcpTick_ 0.01

set nlan 10
set nws 10
set ER1 [$ns node]
set ER2 [$ns node]
for {set k 1} {$k <= $nlan} {incr k} {
    set C($k) [$ns node]
    set K($k) [$ns node]
}
for {set i 1} {$i <= [expr {$nlan * $nws}]} {incr i} {
    set W($i) [$ns node]
    set V($i) [$ns node]
}

# Buffer limits: qoslab's "1000p" holds 1000 waiting packets: ns-2 DropTail limit_ 1001,
# dsRED limit_ 1000 (probes/droptail_limit.tcl).
# LANs: switched 10 Mb/s, 1 ms (W_i -> C_k and K_k -> V_i, k = (i-1)/10 + 1).
for {set i 1} {$i <= [expr {$nlan * $nws}]} {incr i} {
    set k [expr {($i - 1) / $nws + 1}]
    $ns duplex-link $W($i) $C($k) 10Mb 1ms DropTail
    $ns queue-limit $W($i) $C($k) 1001
    $ns queue-limit $C($k) $W($i) 1001
    $ns duplex-link $K($k) $V($i) 10Mb 1ms DropTail
    $ns queue-limit $K($k) $V($i) 1001
    $ns queue-limit $V($i) $K($k) 1001
}
# Customer links C_k -> ER1, 34 Mb/s 2.5 ms: the trTCM sits on this link's queue (a dsRED
# edge queue in DROP mode with thresholds at the buffer, i.e. drop-tail 1000); reverse
# drop-tail. ER2 -> K_k 34 Mb/s 2.5 ms drop-tail both ways.
for {set k 1} {$k <= $nlan} {incr k} {
    $ns simplex-link $C($k) $ER1 34Mb 2.5ms dsRED/edge
    $ns simplex-link $ER1 $C($k) 34Mb 2.5ms DropTail
    $ns queue-limit $C($k) $ER1 1000
    $ns queue-limit $ER1 $C($k) 1001
    $ns duplex-link $ER2 $K($k) 34Mb 2.5ms DropTail
    $ns queue-limit $ER2 $K($k) 1001
    $ns queue-limit $K($k) $ER2 1001
}
$ns simplex-link $ER1 $ER2 70Mb 0ms dsRED/core
$ns simplex-link $ER2 $ER1 70Mb 0ms DropTail
$ns queue-limit $ER1 $ER2 1000
$ns queue-limit $ER2 $ER1 1001

proc cp {k c} { return [expr {$c == 2 ? $k : 10 * ($c + 1) + $k}] }

# trTCM per customer (RFC 2698 colour-blind; ns-2's policy entry takes CIR/PIR in b/s and
# CBS/PBS in bytes, buckets start full): CIR 2, 4, 6, 8, 10 Mb/s for C1..C5 and again for
# C6..C10, PIR = 2 CIR, PBS = 2 CBS. Source/destination -1 = any host: one meter for the
# whole LAN's aggregate, as the customer router's trTCM.
for {set k 1} {$k <= $nlan} {incr k} {
    set q [[$ns link $C($k) $ER1] queue]
    set cir [expr {2000000 * (($k - 1) % 5 + 1)}]
    $q meanPktSize 1500
    $q set numQueues_ 1
    $q setNumPrec 3
    $q addPolicyEntry -1 -1 trTCM [expr {10 + $k}] $cir $cbs [expr {2 * $cir}] [expr {2 * $cbs}]
    $q addPolicerEntry trTCM [expr {10 + $k}] [expr {20 + $k}] $k
    for {set c 0} {$c < 3} {incr c} {
        $q addPHBEntry [cp $k $c] 0 $c
    }
    $q setMREDMode DROP
    for {set c 0} {$c < 3} {incr c} { $q configQ 0 $c 1000 1000 1.0 }
}

# Core: RIO with three drop precedences (RFC 2963 A.1), coupled (ns-2 RIO-C: precedence c's
# average counts precedences 0..c), w 0.002 for all three, so ns-2's mixed-weight average
# (sum of w_j q_j) is the nested virtual queue's. green (400, 800, 0.02), yellow (200, 400,
# 0.05), red (100, 200, 0.1); 1000 packets.
if {$argc > 5} {
    set tf [open [lindex $argv 5] w]
    $ns trace-queue $C(1) $ER1 $tf
    $ns trace-queue $C(5) $ER1 $tf
}
set core [[$ns link $ER1 $ER2] queue]
$core meanPktSize 1500
$core set numQueues_ 1
$core setNumPrec 3
for {set k 1} {$k <= $nlan} {incr k} {
    for {set c 0} {$c < 3} {incr c} {
        $core addPHBEntry [cp $k $c] 0 $c
    }
}
$core setMREDMode RIO-C
$core configQ 0 0 400 800 0.02 0.002
$core configQ 0 1 200 400 0.05 0.002
$core configQ 0 2 100 200 0.1 0.002

# One SACK flow W_i -> V_i each, started at uniform [0, 100 ms) (base.toml start_jitter).
set jit [new RandomVariable/Uniform]
$jit set min_ 0.0
$jit set max_ 0.1
for {set i 1} {$i <= [expr {$nlan * $nws}]} {incr i} {
    set tcp($i) [new Agent/TCP/Sack1]
    $tcp($i) set fid_ $i
    set sink($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $W($i) $tcp($i)
    $ns attach-agent $V($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$jit value] "$ftp($i) start"
}

set colours {green yellow red}
proc sent {cp} {
    global core
    return [expr {[$core getStat pkts $cp] - [$core getStat drops $cp] - [$core getStat edrops $cp]}]
}
proc lanstats {} {
    global nlan nws core tcp C ER1 ns
    set out {}
    for {set k 1} {$k <= $nlan} {incr k} {
        set eq [[$ns link $C($k) $ER1] queue]
        set r {}
        for {set c 0} {$c < 3} {incr c} { lappend r [$eq getStat pkts [cp $k $c]] }
        for {set c 0} {$c < 3} {incr c} { lappend r [$core getStat pkts [cp $k $c]] }
        lappend r [$core getStat drops [cp $k 1]] [$core getStat edrops [cp $k 1]]
        lappend r [expr {[$core getStat drops [cp $k 0]] + [$core getStat edrops [cp $k 0]]}]
        set nd 0; set nr 0; set nt 0
        for {set i [expr {($k - 1) * $nws + 1}]} {$i <= $k * $nws} {incr i} {
            set nd [expr {$nd + [$tcp($i) set ndatapack_]}]
            set nr [expr {$nr + [$tcp($i) set nrexmitpack_]}]
            set nt [expr {$nt + [$tcp($i) set nrexmit_]}]
        }
        lappend r $nd $nr $nt
        lappend out $r
    }
    return $out
}
proc mark {} {
    global nlan base sbase
    set sbase [lanstats]
    for {set k 1} {$k <= $nlan} {incr k} {
        for {set c 0} {$c < 3} {incr c} { set base($k,$c) [sent [cp $k $c]] }
    }
}
proc done {} {
    global nlan base colours sbase
    set now [lanstats]
    for {set k 1} {$k <= $nlan} {incr k} {
        set a [lindex $sbase [expr {$k - 1}]]
        set b [lindex $now [expr {$k - 1}]]
        set line "S$k"
        for {set j 0} {$j < [llength $b]} {incr j} {
            append line " " [format %.0f [expr {[lindex $b $j] - [lindex $a $j]}]]
        }
        puts $line
    }
    for {set k 1} {$k <= $nlan} {incr k} {
        for {set c 0} {$c < 3} {incr c} {
            set n [expr {[sent [cp $k $c]] - $base($k,$c)}]
            puts "C$k [lindex $colours $c] [format %.0f $n]"
        }
    }
    puts "done"
    exit 0
}
$ns at $warm "mark"
$ns at $dur "done"
$ns run
