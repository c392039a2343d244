# Runs one test of ns-2.35's tcl/test/test-suite-friendly.tcl, unmodified, with a chosen seed
# of ns-2's default random number generator (issue 14, the friendly suite's ports here).
# ns-2's only randomness in the ported cases is RED's drop decisions (default RNG).
#
# usage (in a directory holding copies of test-suite-friendly.tcl, misc_simple.tcl and
# support.tcl from /usr/share/doc/ns2/examples/tcl/test; friendly.py makes one):
#   ns friendly.tcl <test> <seed>
# seed 0 leaves the RNG as the suite leaves it (its reference outputs; seed 1 is the same
# run). The suite writes its output (temp2.rands, which friendly.py compares with
# test-output-friendly/<test>.gz) and its samples (temp.s: time, label, sender counter every
# interval), and prints its flow monitor's per-fid drops and departures on r1->r2.

set case [lindex $argv 0]
set seed [lindex $argv 1]
if {$seed != 0} {
    global defaultRNG
    $defaultRNG seed $seed
}
set argv [list $case QUIET]
set argc 2
source test-suite-friendly.tcl
