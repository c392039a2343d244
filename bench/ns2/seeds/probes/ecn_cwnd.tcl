# Probe (issue 14, finding 20): rfc4828_table7_tcp.tcl (sourced, so the network is that
# script's) plus a trace of flow 1's cwnd_, ssthresh_, t_backoff_, t_rtt_, t_srtt_ into
# cwnd.tr (current directory) and per-flow ndatapack_/nrexmit_/necnresponses_/ncwndcuts_
# over 50..100 s. usage (in a scratch dir):
#   ns bench/ns2/seeds/probes/ecn_cwnd.tcl 0.3 1 ecn   -> cwnd_ 10 -> 5 -> 2.5 -> 1.25 -> 0.625 ...
set probe 1
source [file join [file dirname [info script]] .. rfc4828_table7_tcp.tcl]
# The script's `done` (called by name at 100 s), with the per-flow lines before its total.
rename done table7_done
proc done {} {
    global tcp n50
    for {set i 1} {$i <= 10} {incr i} { puts "flow $i sent [expr {[$tcp($i) set ndatapack_] - $n50($i)}] rexmit [$tcp($i) set nrexmit_] necn [$tcp($i) set necnresponses_] cuts [$tcp($i) set ncwndcuts_]" }
    table7_done
}
set tf [open cwnd.tr w]
$tcp(1) attach $tf
$tcp(1) trace cwnd_
$tcp(1) trace t_backoff_
$tcp(1) trace ssthresh_
$tcp(1) trace t_rtt_
$tcp(1) trace t_srtt_
$ns run
