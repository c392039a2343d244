# Finding 31 (issue 14, session 11): ns-2.35's test-suite-friendly.tcl test "voip", unmodified,
# with three probes added around it (the suite's own run is untouched):
#  - a queue trace of r1 -> r2 (node 2 -> 3) and s1 <-> r1, and RED's traced variables ave_
#    (written at every arrival that changes the average) and prob1_, in one file (qtrace.tr),
#    so every arrival's '+' line is followed by the average it produced;
#  - the TFRC sender's rate_ and ndatapack_ and the TCP's cwnd_ every 0.1 s from 2.05 s
#    (state.tr).
# usage (in a directory holding copies of test-suite-friendly.tcl, misc_simple.tcl and
# support.tcl; suite_friendly_voip_red.py makes one):
#   ns suite_friendly_voip_red.tcl <seed> [ca]
# seed as suite/friendly.tcl; ca (optional): Agent/TFRC's ca_ (the suite leaves ns-2.35's 1).

set seed [lindex $argv 0]
if {$seed != 0} {
    global defaultRNG
    $defaultRNG seed $seed
}
if {[llength $argv] > 1} {
    Agent/TFRC set ca_ [lindex $argv 1]
}
Simulator instproc probe-sample {f} {
    set tf [lindex [Agent/TFRC info instances] 0]
    set tc [lindex [Agent/TCP/Sack1 info instances] 0]
    puts $f "[$self now] [$tf set rate_] [$tf set ndatapack_] [$tc set cwnd_]"
    $self at [expr [$self now] + 0.1] "$self probe-sample $f"
}
# The suite's test calls `$ns_ run` once its topology and agents exist: the probes are put
# in front of Simulator::run's own body.
Simulator instproc run {} [concat {
    set tf [open qtrace.tr w]
    set sf [open state.tr w]
    set n0 [$self get-node-by-id 0]
    set n2 [$self get-node-by-id 2]
    set n3 [$self get-node-by-id 3]
    $self trace-queue $n2 $n3 $tf
    $self trace-queue $n0 $n2 $tf
    $self trace-queue $n2 $n0 $tf
    set q [[$self link $n2 $n3] queue]
    $q trace ave_
    $q trace prob1_
    $q attach $tf
    $self at 2.05 "$self probe-sample $sf"
    $self at 19.9995 "flush $tf; flush $sf"
} \; [Simulator info instbody run]]
set argv [list voip QUIET]
set argc 2
source test-suite-friendly.tcl
