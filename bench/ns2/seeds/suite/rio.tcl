# Runs one test of ns-2.35's tcl/test/test-suite-rio.tcl, unmodified, with a chosen seed of
# ns-2's default random number generator (issue 14, rio.py). RIO's drop decisions are the
# only randomness of its tests.
#
# usage (in a directory holding copies of test-suite-rio.tcl and misc_simple.tcl from
# /usr/share/doc/ns2/examples/tcl/test; rio.py makes one):
#   ns rio.tcl <test> <seed>
# seed 0 leaves the RNG as the suite leaves it (its reference outputs). The suite writes its
# packet trace all.tr (trace-all); its end fails for want of ns-2's bin/getrc and
# bin/raw2xg (not installed by Debian), after all.tr is complete; rio.py rebuilds their
# output from all.tr and compares it with test-output-rio/<test>.gz.

set case [lindex $argv 0]
set seed [lindex $argv 1]
if {$seed != 0} {
    global defaultRNG
    $defaultRNG seed $seed
}
set argv [list $case QUIET]
set argc 2
source test-suite-rio.tcl
