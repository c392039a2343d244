# Finding 54, session 14 (s14-f54): time-resolved send of RFC 4828 B.1 TFRC flows in ns-2.35.
# The set-up of rfc4828_b1_tfrc.tcl / tfrc_high_loss.tcl (A -> B 1 Gb/s 120 ms, ErrorModel p on
# A -> B only, CBR-fed Agent/TFRC, SndrType_ 1, ShortIntervals_ = voip_), N flows of one group,
# each starting at a uniform time in [0, 1 s); prints per flow the wire bytes that entered the
# A -> B link in each W-second bin from 0 to end: "BINS <flow> b0 b1 ..".
#
# usage: ns s14-f54_bins.tcl <p> <seed> <group> <nflows> <end> <binw>
set p [lindex $argv 0]
set seed [lindex $argv 1]
set group [lindex $argv 2]
set nflows [lindex $argv 3]
set end [lindex $argv 4]
set binw [lindex $argv 5]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
Agent/TFRC set SndrType_ 1
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
array set G {
    std1460 {0 1460 40 0.01}
    sp14    {1 14   32 0.02}
    std14   {0 14   32 0.02}
    sp200   {1 200  32 0.01}
    std200  {0 200  32 0.01}
}
lassign $G($group) voip size hdr ivl
set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0
for {set f 1} {$f <= $nflows} {incr f} {
    set tf [new Agent/TFRC]
    $tf set fid_ $f
    $tf set voip_ $voip
    $tf set packetSize_ $size
    $tf set headersize_ $hdr
    set sink [new Agent/TFRCSink]
    $sink set ShortIntervals_ $voip
    $ns attach-agent $A $tf
    $ns attach-agent $B $sink
    $ns connect $tf $sink
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ $size
    $cbr set interval_ $ivl
    $cbr attach-agent $tf
    $ns at [$start value] "$cbr start"
    set prev($f) 0
    set bins($f) {}
}
proc tick {} {
    global fmon nflows prev bins
    for {set f 1} {$f <= $nflows} {incr f} {
        set flow [[$fmon classifier] lookup auto 0 0 $f]
        set b [expr {$flow == "" ? 0 : [$flow set barrivals_]}]
        lappend bins($f) [expr {$b - $prev($f)}]
        set prev($f) $b
    }
}
proc done {} {
    global nflows bins
    tick
    for {set f 1} {$f <= $nflows} {incr f} { puts "BINS $f [join $bins($f) { }]" }
    exit 0
}
for {set t $binw} {$t < $end} {set t [expr {$t + $binw}]} { $ns at $t "tick" }
$ns at $end "done"
$ns run
