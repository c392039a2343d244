# Issue 14, session 13 (findings 20 / 40): RFC 4828 B.2's ECN TCP path (rfc4828_b2.tcl's link,
# agent settings and byte-mode marking ErrorModel) with ten ECN Sack1 flows of ONE segment
# size over a long run, to compare rates without the 50-s window's seed noise. Prints per
# flow the data packets sent (ndatapack_), retransmitted (nrexmitpack_), timeouts outside ECN
# recovery (nrexmit_), ECN responses (necnresponses_) and slowdowns (ncwndcuts_) over the
# whole run (ndatapack_ counts ns-2's SYN, seqno 0: `syn_ true` is ns-2.35's default); with a
# fifth argument `nosyn`, `syn_ false`; any other fifth argument: a file to trace flow 1's
# cwnd_, t_backoff_, ssthresh_ and ndatapack_ into.
# usage: ns s13-ecn_oneflow.tcl <b> <size> <seed> <duration_s> [nosyn|trace_file]
set b [lindex $argv 0]
set size [lindex $argv 1]
set seed [lindex $argv 2]
set dur [lindex $argv 3]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1
Agent/TCP set minrto_ 0.2
Agent/TCP set maxrto_ 60
Agent/TCP set tcpTick_ 0.01
Agent/TCP set ecn_ 1
Agent/TCP set timestamps_ true
set arg5 [expr {[llength $argv] > 4 ? [lindex $argv 4] : ""}]
if {$arg5 == "nosyn"} { Agent/TCP set syn_ false }
set A [$ns node]
set B [$ns node]
$ns simplex-link $A $B 1Gb 120ms DropTail
$ns simplex-link $B $A 1Gb 120ms DropTail
$ns queue-limit $A $B 10001
$ns queue-limit $B $A 10001
set em [new ErrorModel]
$em unit byte
$em set rate_ $b
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$em set markecn_ true
$ns lossmodel $em $A $B
set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0
for {set i 1} {$i <= 10} {incr i} {
    set tcp($i) [new Agent/TCP/Sack1]
    $tcp($i) set fid_ $i
    $tcp($i) set packetSize_ $size
    set sink [new Agent/TCPSink/Sack1]
    $ns attach-agent $A $tcp($i)
    $ns attach-agent $B $sink
    $ns connect $tcp($i) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    $ns at [$start value] "$ftp start"
}
if {$arg5 != "" && $arg5 != "nosyn"} {
    set tf [open $arg5 w]
    $tcp(1) attach $tf
    foreach v {cwnd_ t_backoff_ ssthresh_ ndatapack_} { $tcp(1) trace $v }
}
proc done {} {
    global tcp
    for {set i 1} {$i <= 10} {incr i} {
        puts "flow=$i sent=[$tcp($i) set ndatapack_] rexmitpack=[$tcp($i) set nrexmitpack_] timeouts=[$tcp($i) set nrexmit_] ecnresp=[$tcp($i) set necnresponses_] cuts=[$tcp($i) set ncwndcuts_]"
    }
    exit 0
}
$ns at $dur "done"
$ns run
