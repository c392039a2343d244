# ns-2.35's tcl/test/test-suite-newreno.tcl, tests "newreno", "newreno_B" and neighbours
# (one TCP flow on topology net4, scripted drops through ErrorModel/List), re-written as a
# stand-alone script for qoslab's differential validation (issue 14): the suite's global
# settings, topology net4, the test's settings and flow, without the xgraph plumbing, plus
# a sampler of the sender's state. Nothing is random: the trace equals the suite's checked-in
# reference test-output-newreno/<case>.gz (newreno.py checks it point by point).
#
# usage: ns newreno.tcl <case> <all.tr> <samples.csv> [interval_s]
#   case: newreno | newreno_noLT | newreno_B | newreno_B_noLT | reno | reno_noLT |
#         newreno1 | newreno1_BF | newreno1_B | reno1 | sack_drops3
#   sack_drops3 is not a suite test: TCP/Sack1 with TCPSink/Sack1 and the drops of "newreno"
#   (the suite's own sack5 delays a packet instead, which qoslab cannot express).

set case [lindex $argv 0]
set trfile [lindex $argv 1]
set smpfile [lindex $argv 2]
set dt 0.001
if {$argc > 3} { set dt [lindex $argv 3] }

# The suite's global settings.
remove-all-packet-headers
add-packet-header Flags IP TCP
Agent/TCP set precisionReduce_ false
Agent/TCP set rtxcur_init_ 6.0
Agent/TCP set updated_rttvar_ false
Agent/TCP set minrto_ 1
Agent/TCP/Newreno set newreno_changes1_ 0
Agent/TCP/Newreno set partial_window_deflation_ 0

# case: {tcp type, drop list, singledup_, bugFix_, newreno_changes1_/partial_window_deflation_/exit_recovery_fix_ set to 1}
array set cases {
    newreno        {Newreno {14 26 28} 1 false 0}
    newreno_noLT   {Newreno {14 26 28} 0 false 0}
    newreno_B      {Newreno {14 26 28} 1 false 1}
    newreno_B_noLT {Newreno {14 26 28} 0 false 1}
    reno           {Reno {14 26 28} 1 false 0}
    reno_noLT      {Reno {14 26 28} 0 false 0}
    newreno1       {Newreno {14 15 16 17 18 19 20 21 25} 1 false 0}
    newreno1_BF    {Newreno {14 15 16 17 18 19 20 21 25} 1 true 0}
    reno1          {Reno {14 15 16 17 18 19 20 21 25} 1 false 0}
    newreno1_B     {Newreno {14 15 16 17 18 19 20 21 25} 1 false 1}
    sack_drops3    {Sack1 {14 26 28} 1 false 0}
}
foreach {type drops singledup bugfix rfc} $cases($case) break
Agent/TCP set singledup_ $singledup
Agent/TCP set bugFix_ $bugfix
if {$rfc} {
    Agent/TCP/Newreno set newreno_changes1_ 1
    Agent/TCP/Newreno set partial_window_deflation_ 1
    Agent/TCP/Newreno set exit_recovery_fix_ 1
}

set ns [new Simulator]
set tf [open $trfile w]
$ns trace-all $tf

# Topology net4
foreach n {s1 s2 r1 k1} { set node_($n) [$ns node] }
$ns duplex-link $node_(s1) $node_(r1) 8Mb 0ms DropTail
$ns duplex-link $node_(s2) $node_(r1) 8Mb 0ms DropTail
$ns duplex-link $node_(r1) $node_(k1) 800Kb 100ms DropTail
$ns queue-limit $node_(r1) $node_(k1) 8
$ns queue-limit $node_(k1) $node_(r1) 8
set lossylink [$ns link $node_(r1) $node_(k1)]
set em [new ErrorModule Fid]
$lossylink errormodule $em

# setup: the flow (fid 1), window 28, FTP at 1.0 s, the drop list on fid 1
if {$type == "Sack1"} {
    set tcp1 [$ns create-connection TCP/Sack1 $node_(s1) TCPSink/Sack1 $node_(k1) 1]
} else {
    set tcp1 [$ns create-connection TCP/$type $node_(s1) TCPSink $node_(k1) 1]
}
$tcp1 set window_ 28
set ftp1 [$tcp1 attach-app FTP]
$ns at 1.0 "$ftp1 start"
set errmodel1 [new ErrorModel/List]
$errmodel1 droplist $drops
$em insert $errmodel1
$em bind $errmodel1 1

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
$ns at 6.0 "finish"
$ns run
