# ns-2.35 script of RFC 4828 App. B.1's TFRC columns (Tables 7, 8, 9: configured packet drop
# rate), matched to scenarios/rfc4828/b1-packet-drop.toml (mapping: README.md here). Written
# for qoslab's differential validation (issue 14).
#
# One host pair A -> B, 1 Gb/s, 120 ms (RTT 240 ms), drop-tail 10 000 packets (never
# reached); ns-2's ErrorModel drops each packet on A -> B with probability p (TFRC feedback,
# on B -> A, is never dropped). Five groups of ten flows, each an Agent/TFRC fed by a CBR
# application (SndrType_ 1: the application's packets are what the agent may send):
#   std1460  Table 7  standard TFRC, 1460 B data + 40 B header, at most 100 packets/s
#   sp14     Table 8  TFRC-SP (voip_ 1), 14 B + 32 B header, 5.6 Kb/s of data (50 pkt/s)
#   std14    Table 8  standard TFRC, same stream
#   sp200    Table 9  TFRC-SP, 200 B + 32 B header, 100 pkt/s (160 Kb/s of data)
#   std200   Table 9  standard TFRC, same stream
# TFRC-SP receivers use ShortIntervals_ 1 (below). Every flow starts at a uniform time in
# [0, 1 s). Prints per group the mean send rate per
# flow over 50..100 s in Kb/s (1000 b/s): the bytes of the group's packets that entered the
# A -> B link (a flow monitor on it; the error model sits after the queue, so dropped
# packets are counted as sent), and the measured packet size on the wire.
#
# usage: ns rfc4828_b1_tfrc.tcl <p> <seed>

set p [lindex $argv 0]
set seed [lindex $argv 1]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

# headersize_ is added to packetSize_ on the wire (useHeaders_ true, the 2.35 default); the
# receiver's feedback packets are 40 B (TFRCSink default).
Agent/TFRC set SndrType_ 1
Agent/TFRCSink set ShortIntervals_ 0

set A [$ns node]
set B [$ns node]
$ns simplex-link $A $B 1Gb 120ms DropTail
$ns simplex-link $B $A 1Gb 120ms DropTail
$ns queue-limit $A $B 10001
$ns queue-limit $B $A 10001
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns lossmodel $em $A $B

set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $A $B] $fmon

set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0

# group: name voip size header cbr_interval
set groups {
    {std1460 0 1460 40 0.01}
    {sp14    1 14   32 0.02}
    {std14   0 14   32 0.02}
    {sp200   1 200  32 0.01}
    {std200  0 200  32 0.01}
}
set fid 0
foreach g $groups {
    lassign $g name voip size hdr ivl
    for {set i 1} {$i <= 10} {incr i} {
        incr fid
        set tf [new Agent/TFRC]
        $tf set fid_ $fid
        $tf set voip_ $voip
        $tf set packetSize_ $size
        $tf set headersize_ $hdr
        set sink [new Agent/TFRCSink]
        # TFRC-SP's receiver side: loss intervals shorter than 2 RTTs counted as in RFC
        # 4828 §3 (ShortIntervals_ 1, the setting of ns-2's own VoIP tests in
        # tcl/test/test-suite-friendly.tcl); standard TFRC keeps the default 0.
        $sink set ShortIntervals_ $voip
        $ns attach-agent $A $tf
        $ns attach-agent $B $sink
        $ns connect $tf $sink
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ $size
        $cbr set interval_ $ivl
        $cbr attach-agent $tf
        $ns at [$start value] "$cbr start"
        set gfid($fid) $name
    }
}
proc flowstats {} {
    global fmon fid
    set out {}
    for {set f 1} {$f <= $fid} {incr f} {
        set fl [$fmon classifier]
        set flow [$fl lookup auto 0 0 $f]
        if {$flow == ""} {
            lappend out [list 0 0]
        } else {
            lappend out [list [$flow set barrivals_] [$flow set parrivals_]]
        }
    }
    return $out
}
proc mark {} {
    global s50
    set s50 [flowstats]
}
proc done {} {
    global s50 gfid fid p groups
    set s100 [flowstats]
    foreach g $groups {
        set name [lindex $g 0]
        set bytes 0
        set pkts 0
        for {set f 1} {$f <= $fid} {incr f} {
            if {$gfid($f) != $name} continue
            set b [expr {[lindex [lindex $s100 [expr {$f - 1}]] 0] - [lindex [lindex $s50 [expr {$f - 1}]] 0]}]
            set n [expr {[lindex [lindex $s100 [expr {$f - 1}]] 1] - [lindex [lindex $s50 [expr {$f - 1}]] 1]}]
            set bytes [expr {$bytes + $b}]
            set pkts [expr {$pkts + $n}]
        }
        set size [expr {$pkts > 0 ? double($bytes) / $pkts : 0}]
        puts [format "group=%s p=%s send_kbps=%.3f wire_bytes=%.1f" $name $p \
                  [expr {$bytes * 8.0 / 50.0 / 1000.0 / 10.0}] $size]
    }
    exit 0
}
$ns at 50.0 "mark"
$ns at 100.0 "done"
$ns run
