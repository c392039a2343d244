# Finding 39 (session 13, s13-hiloss): one SACK TCP flow of RFC 4828 App. B.1's Table 7
# set-up (rfc4828_table7_tcp.tcl's path, agent settings and ErrorModel) over a long run,
# with the sender's state traced: every change of cwnd_, ssthresh_, t_seqno_, ack_
# (highest_ack_), maxseq_, backoff_, rtt_, srtt_, rttvar_, ndatapack_ (sends),
# nrexmitpack_ (retransmitted sends), nrexmit_ (timeouts), dupacks_, ncwndcuts_ (every
# slowdown(): timeouts and fast retransmits).
# With a fifth argument `nosyn`: `syn_ false` (no SYN before the first data packet; ns-2.35's
# default is `syn_ true`, README section 9.3, finding 17).
# usage: ns s13-hiloss_trace.tcl <p> <seed> <duration_s> <trace_file> [nosyn]
set p [lindex $argv 0]
set seed [lindex $argv 1]
set dur [lindex $argv 2]
set tf [lindex $argv 3]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1
Agent/TCP set minrto_ 0.2
Agent/TCP set maxrto_ 60
Agent/TCP set tcpTick_ 0.01
if {[llength $argv] > 4 && [lindex $argv 4] == "nosyn"} { Agent/TCP set syn_ false }

set G1 [$ns node]
set G2 [$ns node]
$ns simplex-link $G1 $G2 100Mb 110ms DropTail
$ns simplex-link $G2 $G1 100Mb 110ms DropTail
$ns queue-limit $G1 $G2 1001
$ns queue-limit $G2 $G1 1001
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns lossmodel $em $G1 $G2

set S [$ns node]
set D [$ns node]
$ns duplex-link $S $G1 1Gb 5ms DropTail
$ns duplex-link $G2 $D 1Gb 5ms DropTail
set tcp [new Agent/TCP/Sack1]
set sink [new Agent/TCPSink/Sack1]
$ns attach-agent $S $tcp
$ns attach-agent $D $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set f [open $tf w]
$tcp attach $f
foreach v {cwnd_ ssthresh_ t_seqno_ ack_ maxseq_ backoff_ rtt_ srtt_ rttvar_ ndatapack_ nrexmitpack_ nrexmit_ dupacks_ ncwndcuts_} {
    $tcp trace $v
}
$ns at 0.0 "$ftp start"
proc done {} {
    global f tcp
    puts [format "sent=%d rexmitpack=%d timeouts=%d" [$tcp set ndatapack_] [$tcp set nrexmitpack_] [$tcp set nrexmit_]]
    close $f
    exit 0
}
$ns at $dur "done"
$ns run
