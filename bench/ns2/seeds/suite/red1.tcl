# ns-2.35's tcl/test/test-suite-red.tcl, test "red1" (RED without ECN, net2, two Reno flows),
# re-written as a stand-alone script for qoslab's differential validation (issue 14): the
# suite's global settings, topology net2 and mainSim Reno, without its output plumbing, with
# a seed argument and a queue trace of r1->r2. Matched to red1.toml here (mapping:
# ../README.md, section 6).
#
# usage: ns red1.tcl <seed> <trace> [stop_s]

set seed [lindex $argv 0]
set tfile [lindex $argv 1]
set stop 10.0
if {$argc > 2} { set stop [lindex $argv 2] }

# test-suite-red.tcl's global defaults (the ones that differ from ns-default.tcl)
Agent/TCP set tcpTick_ 0.1
Agent/TCP set rfc2988_ false
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set q_weight_ 0.002
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Agent/TCP set useHeaders_ false
Agent/TCP set windowInit_ 1
Agent/TCP set singledup_ 0
Queue/RED set use_mark_p_ false
Agent/TCP set minrto_ 0
Agent/TCP set syn_ false
Agent/TCP set delay_growth_ false

set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

# Topology net2
foreach n {s1 s2 r1 r2 s3 s4} { set node_($n) [$ns node] }
$ns duplex-link $node_(s1) $node_(r1) 10Mb 2ms DropTail
$ns duplex-link $node_(s2) $node_(r1) 10Mb 3ms DropTail
$ns duplex-link $node_(r1) $node_(r2) 1.5Mb 20ms RED
$ns queue-limit $node_(r1) $node_(r2) 25
$ns queue-limit $node_(r2) $node_(r1) 25
$ns duplex-link $node_(s3) $node_(r2) 10Mb 4ms DropTail
$ns duplex-link $node_(s4) $node_(r2) 10Mb 5ms DropTail
[[$ns link $node_(r1) $node_(r2)] queue] set linterm_ 50
[[$ns link $node_(r2) $node_(r1)] queue] set linterm_ 50

# mainSim Reno (window 15; packetSize_ 1000, the 2.35 default)
set tcp1 [$ns create-connection TCP/Reno $node_(s1) TCPSink $node_(s3) 0]
set tcp2 [$ns create-connection TCP/Reno $node_(s2) TCPSink $node_(s3) 1]
$tcp1 set window_ 15
$tcp2 set window_ 15
set ftp1 [$tcp1 attach-app FTP]
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.0 "$ftp1 start"
$ns at 3.0 "$ftp2 start"

set tf [open $tfile w]
$ns trace-queue $node_(r1) $node_(r2) $tf
proc finish {} {
    global ns tf tcp1 tcp2
    $ns flush-trace
    close $tf
    puts "tcp1_ack=[$tcp1 set ack_] tcp2_ack=[$tcp2 set ack_] tcp1_rexmit=[$tcp1 set nrexmitpack_] tcp2_rexmit=[$tcp2 set nrexmitpack_]"
    exit 0
}
$ns at $stop "finish"
$ns run
