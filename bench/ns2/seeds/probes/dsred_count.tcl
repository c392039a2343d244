# Probe of ns-2.35's dsRED early-drop rule (diffserv/dsredq.cc) at a constant pb.
# A 1 Mb/s CBR of 100-B packets into a 10 Mb/s dsRED/core link: every arrival finds the queue
# empty, so with w_q = 1 the average is 0 at every arrival. configQ (min_th -1, max_th 0,
# max_p P) then gives pb = P (avg - min_th)/(max_th - min_th) = P for every packet.
# Floyd & Jacobson's RED (count of packets since the last drop, pa = pb/(1 - count pb)) drops
# one packet in (1/pb + 1)/2 on average: 2 pb/(1 + pb). A count reset at every accepted
# packet drops a fraction ~pb instead.
# usage: ns dsred_count.tcl <P> <npackets>
set P [lindex $argv 0]
set N [lindex $argv 1]
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns simplex-link $a $b 10Mb 1ms dsRED/core
$ns simplex-link $b $a 10Mb 1ms DropTail
set q [[$ns link $a $b] queue]
$q meanPktSize 100
$q set numQueues_ 1
$q setNumPrec 1
$q addPHBEntry 0 0 0
$q setMREDMode RIO-C
$q configQ 0 0 -1 0 $P 1.0
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set sink [new Agent/Null]
$ns attach-agent $b $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 100
$cbr set rate_ 1Mb
set T [expr {$N * 100 * 8 / 1.0e6}]
$ns at 0.0 "$cbr start"
proc done {} {
    global q P
    set pk [$q getStat pkts]
    set ed [$q getStat edrops]
    set fd [$q getStat drops]
    puts [format "pb=%s arrivals=%d early_drops=%d forced=%d fraction=%.4f floyd=%.4f geometric=%.4f" \
        $P [expr {int($pk)}] [expr {int($ed)}] [expr {int($fd)}] [expr {$ed / $pk}] \
        [expr {2.0 * $P / (1.0 + $P)}] $P]
    exit 0
}
$ns at [expr {$T + 0.001}] "done"
$ns run
