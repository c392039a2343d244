# ns-2.35's tcl/test/test-suite-adaptive-red.tcl, test "red1Adapt" (Adaptive RED with
# automatic parameters on topology net2, two TCP/Sack1 flows), re-written as a stand-alone
# script for qoslab's differential validation (issue 14): the suite's global settings, net2,
# the test's queue settings (`adaptive_ 1`; `thresh_ 0`, `maxthresh_ 0`, `q_weight_ 0`: ns-2
# computes them) and `maketraffic` (window 15, ftp2 at 3 s, 50 s), without the suite's xgraph
# plumbing, plus a seed argument, a queue trace of r1->r2 and samples of RED's state.
# With seed 0 the default RNG is left as the suite leaves it, and the r1->r2 packet trace
# equals the suite's reference test-output-adaptive-red/red1Adapt.gz (red1Adapt.py checks
# it). Matched to red1Adapt.toml here (mapping in its header).
#
# usage: ns red1Adapt.tcl <seed> <queue.tr> <red.csv> [stop_s]
#   queue.tr: trace-queue of r1->r2; red.csv: time_s,ave,cur_max_p every 0.5 s

set seed [lindex $argv 0]
set tfile [lindex $argv 1]
set rfile [lindex $argv 2]
set stop 50.0
if {$argc > 3} { set stop [lindex $argv 3] }

# test-suite-adaptive-red.tcl's global defaults (and misc_simple.tcl's packet headers)
remove-all-packet-headers
add-packet-header Flags IP TCP
Agent/TCP set precisionReduce_ false
Agent/TCP set rtxcur_init_ 6.0
Agent/TCP set updated_rttvar_ false
Agent/TCP set tcpTick_ 0.1
Agent/TCP set rfc2988_ false
Agent/TCP set minrto_ 1
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set q_weight_ 0.002
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Agent/TCP set singledup_ 0
Agent/TCP set useHeaders_ false
Agent/TCP set bugfix_ss_ 0

set ns [new Simulator]
if {$seed != 0} {
    global defaultRNG
    $defaultRNG seed $seed
}

# Topology net2
foreach n {s1 s2 r1 r2 s3 s4} { set node_($n) [$ns node] }
$ns duplex-link $node_(s1) $node_(r1) 10Mb 2ms DropTail
$ns duplex-link $node_(s2) $node_(r1) 10Mb 3ms DropTail
$ns duplex-link $node_(r1) $node_(r2) 1.5Mb 20ms RED
$ns queue-limit $node_(r1) $node_(r2) 25
$ns queue-limit $node_(r2) $node_(r1) 25
$ns duplex-link $node_(s3) $node_(r2) 10Mb 4ms DropTail
$ns duplex-link $node_(s4) $node_(r2) 10Mb 5ms DropTail

# Test/red1Adapt: the forward queue adaptive, with automatic parameters
set forwq [[$ns link $node_(r1) $node_(r2)] queue]
$forwq set adaptive_ 1
$forwq set thresh_ 0
$forwq set maxthresh_ 0
$forwq set q_weight_ 0

# maketraffic (stoptime 50, window 15, starttime 3)
set tcp1 [$ns create-connection TCP/Sack1 $node_(s1) TCPSink/Sack1 $node_(s3) 0]
$tcp1 set window_ 15
set tcp2 [$ns create-connection TCP/Sack1 $node_(s2) TCPSink/Sack1 $node_(s3) 1]
$tcp2 set window_ 15
set ftp1 [$tcp1 attach-app FTP]
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.0 "$ftp1 start"
$ns at 3.0 "$ftp2 start"

set tf [open $tfile w]
$ns trace-queue $node_(r1) $node_(r2) $tf
set rf [open $rfile w]
puts $rf "time_s,ave,cur_max_p"
proc sample {} {
    global ns rf forwq
    puts $rf "[format %.3f [$ns now]],[$forwq set ave_],[$forwq set cur_max_p_]"
    $ns at [expr [$ns now] + 0.5] "sample"
}
$ns at 0.25 "sample"
proc finish {} {
    global ns tf rf tcp1 tcp2 forwq
    $ns flush-trace
    close $tf
    close $rf
    puts "thresh=[$forwq set thresh_] maxthresh=[$forwq set maxthresh_] q_weight=[$forwq set q_weight_] bottom=[$forwq set bottom_] top=[$forwq set top_] cur_max_p=[$forwq set cur_max_p_] tcp1_ack=[$tcp1 set ack_] tcp2_ack=[$tcp2 set ack_] tcp1_rexmit=[$tcp1 set nrexmitpack_] tcp2_rexmit=[$tcp2 set nrexmitpack_] tcp1_timeouts=[$tcp1 set nrexmit_] tcp2_timeouts=[$tcp2 set nrexmit_]"
    exit 0
}
$ns at $stop "finish"
$ns run
