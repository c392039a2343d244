# Probe of ns-2.35's DropTail limit_: a burst of B back-to-back packets (one CBR packet every
# 1 us, on a 1 Gb/s access link) into a 1 Mb/s link whose queue-limit is L. While the first
# packet is on the 1 Mb/s link, the others wait in the queue; the probe counts what passes.
# Mode dsred: the same with ns-2's dsRED/core queue (one precedence, thresholds out of reach).
# usage: ns droptail_limit.tcl <L> <B> <packets|bytes|dsred>
set L [lindex $argv 0]
set B [lindex $argv 1]
set mode [lindex $argv 2]
set ns [new Simulator]
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 1Gb 0ms DropTail
$ns queue-limit $a $r 100000
if {$mode == "dsred"} {
    $ns simplex-link $r $b 1Mb 0ms dsRED/core
} else {
    $ns simplex-link $r $b 1Mb 0ms DropTail
}
$ns simplex-link $b $r 1Mb 0ms DropTail
$ns queue-limit $r $b $L
set q [[$ns link $r $b] queue]
if {$mode == "dsred"} {
    $q meanPktSize 100
    $q set numQueues_ 1
    $q setNumPrec 1
    $q addPHBEntry 0 0 0
    $q setMREDMode RIO-C
    $q configQ 0 0 100000 200000 0.1
}
if {$mode == "bytes"} {
    $q set queue-in-bytes_ true
    $q set mean_pktsize_ 100
}
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set sink [new Agent/LossMonitor]
$ns attach-agent $b $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 100
$cbr set interval_ 0.000001
$cbr set maxpkts_ $B
$ns at 0.0 "$cbr start"
proc done {} {
    global sink L B mode
    puts "limit=$L mode=$mode burst=$B delivered=[$sink set npkts_] dropped=[expr {$B - [$sink set npkts_]}]"
    exit 0
}
$ns at 10.0 "done"
$ns run
