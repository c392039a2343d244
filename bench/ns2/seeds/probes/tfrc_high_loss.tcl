# Probe for bench/ns2/seeds/TFRC_HIGH_LOSS.md (issue 14, DONE_WHEN §5 item 6): ONE flow of
# rfc4828_b1_tfrc.tcl's set-up (A -> B 1 Gb/s 120 ms, ErrorModel p on A -> B only, CBR-fed
# Agent/TFRC, SndrType_ 1), with ns-2's own diagnostics switched on:
#   sender  debug_ 1   : "Increase:/Decrease:/SlowStart:" (rate_ after each feedback, B/s),
#                        "NO FEEDBACK:" (each nofeedback expiry, rate_ after the halving)
#   sink    printLoss_ 1: "time: T loss_rate: P" at each report (1/ave_interval; the loss
#                        event rate p sent to the sender), plus the loss-interval arrays.
# The flow monitor gives packets/bytes sent over [from, end).
#
# usage: ns tfrc_high_loss.tcl <p> <seed> <group> [end=100] [from=50] [printStatus=0] [maxqueue=MAXSEQ]
#   maxqueue: the agent's send buffer (maxqueue_); 1 = no backlog (a CBR packet that finds
#   one waiting is discarded), ns-2's default is unbounded (session 12, finding 37)
#   printStatus 1: after each feedback "time: T rate: R", "packetrate: r" (rate_·rtt_/size_)
#   and "maxrate: m" (the receive-rate limit maxrate_ = 2·X_recv, in packets per rtt_)
#   group: std1460 | sp14 | std14 | sp200 | std200 (as in rfc4828_b1_tfrc.tcl)
set p [lindex $argv 0]
set seed [lindex $argv 1]
set group [lindex $argv 2]
set end [expr {[llength $argv] > 3 ? [lindex $argv 3] : 100.0}]
set from [expr {[llength $argv] > 4 ? [lindex $argv 4] : 50.0}]
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
set tf [new Agent/TFRC]
$tf set fid_ 1
$tf set voip_ $voip
$tf set packetSize_ $size
$tf set headersize_ $hdr
$tf set debug_ 1
$tf set printStatus_ [expr {[llength $argv] > 5 ? [lindex $argv 5] : 0}]
if {[llength $argv] > 6} { $tf set maxqueue_ [lindex $argv 6] }
set sink [new Agent/TFRCSink]
$sink set ShortIntervals_ $voip
$sink set printLoss_ 1
$ns attach-agent $A $tf
$ns attach-agent $B $sink
$ns connect $tf $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ $size
$cbr set interval_ $ivl
$cbr attach-agent $tf
$ns at [$start value] "$cbr start"
proc stats {} {
    global fmon
    set flow [[$fmon classifier] lookup auto 0 0 1]
    if {$flow == ""} { return {0 0} }
    return [list [$flow set barrivals_] [$flow set parrivals_]]
}
proc mark {} { global s0; set s0 [stats] }
proc done {} {
    global s0 from end
    set s1 [stats]
    set b [expr {[lindex $s1 0] - [lindex $s0 0]}]
    set n [expr {[lindex $s1 1] - [lindex $s0 1]}]
    puts stdout [format "RESULT send_kbps=%.3f pkts=%d" [expr {$b * 8.0 / ($end - $from) / 1000.0}] $n]
    exit 0
}
$ns at $from "mark"
$ns at $end "done"
$ns run
