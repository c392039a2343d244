# ns-2.35 twin of scenarios/bench/dumbbell-{red,droptail}.toml (the bench dumbbell):
# 20 bulk TCP flows S_i -(100 Mb/s, 2 ms)- G1 -(70 Mb/s, 5 ms)- G2 -(100 Mb/s, 5 ms)- D_i,
# 500 B segments + 42 B headers, flow i (0-based) starts at i ms, 20 s, no tracing.
# The parameter-by-parameter mapping to our scenario files is in bench/ns2/README.md.
#
#   ns bench/ns2/dumbbell.tcl QUEUE TCP [FLOWS] [SECONDS]
#     QUEUE = red | droptail, TCP = newreno | sack, FLOWS default 20, SECONDS default 20
#
# Prints one JSON object on stdout: simulated-loop wall time (Tcl clock around `$ns run`),
# bottleneck packets (departures G1->G2), drops there, goodput (bytes the sinks received
# in order / duration) and the RED drop counters.
set queue   [lindex $argv 0]
set variant [lindex $argv 1]
set nflows  20
set dur     20.0
if {$argc > 2} { set nflows [lindex $argv 2] }
if {$argc > 3} { set dur [lindex $argv 3] }

# ns-2's global RNG seeds RED's drop draws (seed 1, as our `seed = 1`; different generator,
# so runs agree in distribution, not packet by packet).
global defaultRNG
$defaultRNG seed 1

# --- TCP (our [defaults.tcp]) ---
# segment 500 B payload; ns-2 adds tcpip_base_hdr_size_ to every data packet: 42 -> 542 B.
Agent/TCP set packetSize_ 500
Agent/TCP set tcpip_base_hdr_size_ 42
# rwnd = 1 MiB = 2097 segments of 500 B; no other cap on cwnd.
Agent/TCP set window_ 2097
Agent/TCP set maxcwnd_ 0
# init_cwnd = 10 (windowInit_ counts segments; syn_ false: no handshake, as ours).
Agent/TCP set windowInit_ 10
Agent/TCP set syn_ false
Agent/TCP set delay_growth_ false
# min_rto 1 s, initial RTO 1 s, max RTO 60 s, clock granularity 1 ms.
Agent/TCP set minrto_ 1.0
Agent/TCP set rtxcur_init_ 1.0
Agent/TCP set maxrto_ 60.0
Agent/TCP set tcpTick_ 0.001
# limited transmit (RFC 3042) on, dupack threshold 3, no timestamps, no ECN.
Agent/TCP set singledup_ 1
Agent/TCP set numdupacks_ 3
Agent/TCP set timestamps_ false
Agent/TCP set ecn_ 0
# ns-2's per-ACK slow-start growth of one segment (no RFC 3465), as ours.
# ACKs: 42 B (ns-2 sinks send packetSize_-byte ACKs).
Agent/TCPSink set packetSize_ 42
# Delayed ACK: every 2nd segment or after 200 ms; out-of-order data is ACKed at once.
Agent/TCPSink/DelAck set interval_ 0.2
Agent/TCPSink/Sack1/DelAck set interval_ 0.2

# --- queues ---
# ns-2 DropTail `limit_ N` refuses an arrival when (waiting + 1) >= N, so it holds N-1
# waiting packets (+1 on the wire); ours `limit = "Np"` holds N waiting (+1 being
# serialised). Hence limit_ = our limit + 1. RED compares the waiting count before the
# arrival with limit_ (holds N waiting): limit_ = our limit.
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set thresh_ 60
Queue/RED set maxthresh_ 200
Queue/RED set linterm_ 10
Queue/RED set q_weight_ 0.002
Queue/RED set gentle_ false
Queue/RED set wait_ true
Queue/RED set mean_pktsize_ 542
Queue/RED set setbit_ false
Queue/RED set adaptive_ 0
Queue/RED set summarystats_ false
Queue/RED set drop_tail_ true
Queue/RED set cautious_ 0

set ns [new Simulator]

set G1 [$ns node]
set G2 [$ns node]
for {set i 0} {$i < $nflows} {incr i} {
    set S($i) [$ns node]
    set D($i) [$ns node]
    $ns duplex-link $S($i) $G1 100Mb 2ms DropTail
    $ns queue-limit $S($i) $G1 101
    $ns queue-limit $G1 $S($i) 101
    $ns duplex-link $G2 $D($i) 100Mb 5ms DropTail
    $ns queue-limit $G2 $D($i) 101
    $ns queue-limit $D($i) $G2 101
}
if {$queue == "red"} {
    $ns simplex-link $G1 $G2 70Mb 5ms RED
    $ns queue-limit $G1 $G2 300
} else {
    $ns simplex-link $G1 $G2 70Mb 5ms DropTail
    $ns queue-limit $G1 $G2 301
}
# ACK path: ours `reverse_queue` 1p (1 waiting) -> DropTail limit_ 2.
$ns simplex-link $G2 $G1 70Mb 5ms DropTail
$ns queue-limit $G2 $G1 2

# Counters only (no trace file is written): departures and drops at the bottleneck.
set qmon [$ns monitor-queue $G1 $G2 ""]

if {$variant == "sack"} {
    set tcpclass Agent/TCP/Sack1
    set sinkclass Agent/TCPSink/Sack1/DelAck
} else {
    set tcpclass Agent/TCP/Newreno
    set sinkclass Agent/TCPSink/DelAck
}
for {set i 0} {$i < $nflows} {incr i} {
    set tcp($i) [new $tcpclass]
    $tcp($i) set fid_ $i
    set sink($i) [new $sinkclass]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $D($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    # flow i (0-based) starts at i ms (spread over 0..19 ms for more flows, as ours)
    $ns at [expr {$nflows > 1 ? 0.019 * $i / ($nflows - 1) : 0.0}] "$ftp($i) start"
}

proc finish {} {
    global ns qmon sink tcp nflows dur t0 queue variant
    set t1 [clock microseconds]
    set bytes 0
    set rtx 0
    for {set i 0} {$i < $nflows} {incr i} {
        # sink's bytes_ counts in-order delivered bytes at the packet's full size (542 B
        # per segment); every data packet has the same size, so payload = bytes_ * 500/542.
        set bytes [expr {$bytes + [$sink($i) set bytes_] / 542 * 500}]
        set rtx [expr {$rtx + [$tcp($i) set nrexmitpack_]}]
    }
    puts [format "{\"queue\":\"%s\",\"tcp\":\"%s\",\"flows\":%d,\"loop_s\":%.6f,\"bottleneck_pkts\":%d,\"drops\":%d,\"delivered_bytes\":%s,\"goodput_mbps\":%.4f,\"retransmits\":%d}" \
        $queue $variant $nflows [expr {($t1 - $t0) / 1e6}] \
        [$qmon set pdepartures_] [$qmon set pdrops_] $bytes \
        [expr {$bytes * 8.0 / $dur / 1e6}] $rtx]
    exit 0
}
$ns at $dur "finish"
set t0 [clock microseconds]
$ns run
