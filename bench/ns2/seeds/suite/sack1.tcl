# ns-2.35's tcl/test/test-suite-sack.tcl, test "sack1" (SACK TCP, topology net0, one
# TCP/Sack1 flow, drops by drop-tail overflow), re-written as a stand-alone script for
# qoslab's differential validation (issue 14): the suite's global settings that matter to
# this test (minrto_ 1; its RED settings do not touch net0), topology net0 and the test's
# flow, without the suite's xgraph plumbing, plus a sampler of the sender's state. Nothing is
# random: the packet trace equals the suite's reference test-output-sack/sack1.gz (sack1.py
# checks it point by point). Matched to sack1.toml here (mapping in its header).
#
# usage: ns sack1.tcl <all.tr> <samples.csv> [interval_s]
#   all.tr: ns-2's trace-all; samples.csv: time_s,cwnd,ssthresh,ack,t_seqno every interval

set trfile [lindex $argv 0]
set smpfile [lindex $argv 1]
set dt 0.001
if {$argc > 2} { set dt [lindex $argv 2] }

Agent/TCP set minrto_ 1

set ns [new Simulator]
set tf [open $trfile w]
$ns trace-all $tf

# Topology net0
foreach n {s1 s2 r1 k1} { set node_($n) [$ns node] }
$ns duplex-link $node_(s1) $node_(r1) 8Mb 5ms DropTail
$ns duplex-link $node_(s2) $node_(r1) 8Mb 5ms DropTail
$ns duplex-link $node_(r1) $node_(k1) 800Kb 100ms DropTail
$ns queue-limit $node_(r1) $node_(k1) 6
$ns queue-limit $node_(k1) $node_(r1) 6

# Test/sack1
set tcp1 [$ns create-connection TCP/Sack1 $node_(s1) TCPSink/Sack1 $node_(k1) 0]
$tcp1 set window_ 14
set ftp1 [$tcp1 attach-app FTP]
$ns at 1.0 "$ftp1 start"

set sf [open $smpfile w]
puts $sf "time_s,cwnd,ssthresh,ack,t_seqno"
proc sample {} {
    global ns sf tcp1 dt
    puts $sf "[format %.6f [$ns now]],[$tcp1 set cwnd_],[$tcp1 set ssthresh_],[$tcp1 set ack_],[$tcp1 set t_seqno_]"
    $ns at [expr [$ns now] + $dt] "sample"
}
$ns at 1.0 "sample"

proc finish {} {
    global ns tf sf tcp1
    $ns flush-trace
    close $tf
    close $sf
    puts "ack=[$tcp1 set ack_] nrexmitpack=[$tcp1 set nrexmitpack_] nrexmit=[$tcp1 set nrexmit_] ndatapack=[$tcp1 set ndatapack_]"
    exit 0
}
$ns at 5.0 "finish"
$ns run
