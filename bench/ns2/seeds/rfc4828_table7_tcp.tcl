# ns-2.35 script of RFC 4828 App. B.1, Table 7's TCP column (configured packet drop rate),
# matched to scenarios/rfc4828/table7/sack-packet-loss.toml (mapping: README.md here).
# 10 SACK TCP flows S_i -> D_i over S_i -1 Gb/s 5 ms- G1 -100 Mb/s 110 ms- G2 -1 Gb/s 5 ms- D_i
# (RTT 240 ms); ns-2's ErrorModel drops each data packet on G1->G2 with probability p.
# Prints the mean send rate per flow over 50..100 s (data packets sent, retransmissions
# included, 1500 B each on the wire), in Kb/s.
# With a third argument `ecn` (the "ECN TCP" column of Tables 7, 8, 9: "TCP flows with
# timestamps and ECN"; "we configure the router to randomly drop or mark packets at a
# specified rate"): the flows set ecn_ 1 and timestamps_ true, and the ErrorModel marks
# instead of dropping (markecn_ true: errmodel.cc sets CE on every packet it picks and
# forwards it; ns-2's TCP sends every data packet ECT, retransmissions included, except
# seqno 0, and the sink echoes CE only on ECT packets), so the ECN flows never lose a packet.
# usage: ns rfc4828_table7_tcp.tcl <p> <seed> [ecn]
set p [lindex $argv 0]
set seed [lindex $argv 1]
set ecn [expr {[llength $argv] > 2 && [lindex $argv 2] == "ecn"}]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

Agent/TCP set packetSize_ 1460 ;# + 40 B headers (useHeaders_ true, the 2.35 default)
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1 ;# Limited Transmit
Agent/TCP set minrto_ 0.2
Agent/TCP set maxrto_ 60
Agent/TCP set tcpTick_ 0.01
if {$ecn} {
    Agent/TCP set ecn_ 1
    Agent/TCP set timestamps_ true
}

set G1 [$ns node]
set G2 [$ns node]
# qoslab 1000p drop-tail = ns-2 DropTail limit_ 1001 (probes/droptail_limit.tcl)
$ns simplex-link $G1 $G2 100Mb 110ms DropTail
$ns simplex-link $G2 $G1 100Mb 110ms DropTail
$ns queue-limit $G1 $G2 1001
$ns queue-limit $G2 $G1 1001
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
if {$ecn} { $em set markecn_ true }
$ns lossmodel $em $G1 $G2

set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0
for {set i 1} {$i <= 10} {incr i} {
    set S($i) [$ns node]
    set D($i) [$ns node]
    $ns duplex-link $S($i) $G1 1Gb 5ms DropTail
    $ns duplex-link $G2 $D($i) 1Gb 5ms DropTail
    $ns queue-limit $S($i) $G1 1001
    $ns queue-limit $G1 $S($i) 1001
    $ns queue-limit $G2 $D($i) 1001
    $ns queue-limit $D($i) $G2 1001
    set tcp($i) [new Agent/TCP/Sack1]
    set sink($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $D($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$start value] "$ftp($i) start"
}
proc mark {} {
    global tcp n50
    for {set i 1} {$i <= 10} {incr i} { set n50($i) [$tcp($i) set ndatapack_] }
}
proc done {} {
    global tcp n50 p
    set tot 0.0
    set to 0
    for {set i 1} {$i <= 10} {incr i} {
        set tot [expr {$tot + ([$tcp($i) set ndatapack_] - $n50($i)) * 1500 * 8 / 50.0 / 1000.0}]
        incr to [$tcp($i) set nrexmit_]
    }
    puts [format "p=%s send_kbps=%.2f timeouts=%d" $p [expr {$tot / 10.0}] $to]
    exit 0
}
$ns at 50.0 "mark"
$ns at 100.0 "done"
# A probe that sources this script (probes/ecn_cwnd.tcl) sets `probe` first and runs the
# simulator itself, after adding its traces.
if {![info exists probe]} { $ns run }
