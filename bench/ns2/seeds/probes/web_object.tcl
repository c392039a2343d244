# One PagePool/WebTraf object over an idle path (issue 14, the web load of RFC 4828 B.3):
# prints when the request starts, when the response starts and when it is done, so the
# per-object time of ns-2's WebTraf (request leg, SYN, TCP start-up) can be set beside
# qoslab's (crates/qoslab-sim/tests/web_engine.rs has the qoslab side of the same path).
# Path: WS -100Mb 5ms- R1 -3Mb 10ms- R2 -100Mb 5ms- WC (RTT 40 ms + serialisation);
# TCP as rfc4828_b3.tcl (SACK, 512 B, IW 2, window 100).
# usage: ns web_object.tcl <object packets> <syn_: 0|1>
set size [lindex $argv 0]
set syn [lindex $argv 1]
set ns [new Simulator]
Agent/TCP set packetSize_ 512
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1
Agent/TCP set minrto_ 0.2
Agent/TCP set tcpTick_ 0.01
Agent/TCP set syn_ [expr {$syn ? "true" : "false"}]
PagePool/WebTraf set TCPTYPE_ Sack1
PagePool/WebTraf set TCPSINKTYPE_ TCPSink/Sack1
PagePool/WebTraf set FID_ASSIGNING_MODE_ 2
PagePool/WebTraf set resp_trace_ 1
PagePool/WebTraf set req_trace_ 1
foreach n {WS R1 R2 WC} { set $n [$ns node] }
$ns duplex-link $WS $R1 100Mb 5ms DropTail
$ns duplex-link $R1 $R2 3Mb 10ms DropTail
$ns duplex-link $R2 $WC 100Mb 5ms DropTail
set pool [new PagePool/WebTraf]
$pool set sameFid_ 100
$pool set-num-client 1
$pool set-num-server 1
$pool set-client 0 $WC
$pool set-server 0 $WS
$pool set-num-session 1
set ip [new RandomVariable/Constant]; $ip set val_ 1
set ps [new RandomVariable/Constant]; $ps set val_ 1
set io [new RandomVariable/Constant]; $io set val_ 0.01
set os [new RandomVariable/Constant]; $os set val_ $size
$pool create-session 0 1 1.0 $ip $ps $io $os
$ns at 20.0 "exit 0"
$ns run
