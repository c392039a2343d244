# Finding 54, session 16 (s16-ca): rfc4828_b2.tcl with every start 300 s later and the window 350..400 s
# (the sed of measured/s16-ca_factor.md § 3b); trace with TFRC_CA_TRACE=1 and build_s16ca_trace_ns2.sh's ns.
# ns-2.35 script of RFC 4828 §4.5.1 (Tables 5, 6) and App. B.2 (Table 10): configured *byte*
# drop rates, matched to scenarios/rfc4828/b2-byte-drop.toml (mapping: README.md here).
# Written for qoslab's differential validation (issue 14).
#
# One host pair A -> B, 1 Gb/s, 120 ms (RTT 240 ms), drop-tail 10 000 packets (never
# reached); ns-2's ErrorModel in byte units on A -> B drops a packet of N bytes on the wire
# with probability 1 - (1 - b)^N (errmodel.cc CorruptByte: PktLength = hdr_cmn size); the
# reverse path (ACKs, TFRC feedback) is lossless. Groups of ten flows:
#   tcp<S>   SACK TCP (Agent/TCP/Sack1 + TCPSink/Sack1), S = 14, 128, 256, 512, 1460, 4000,
#            8000 B segments + 40 B header, window_ 100 (segments), windowInit_ 2,
#            singledup_ 1, minrto_ 0.2, tcpTick_ 0.01, an ACK per segment, FTP (bulk)
#   sp14     TFRC-SP (voip_ 1, TFRCSink ShortIntervals_ 1), 14 B + 32 B header, CBR 14 B
#            every 20 ms (5.6 Kb/s of data)
#   std14    standard TFRC, same stream
# Every flow starts at a uniform time in [0, 1 s). Prints per group, over 50..100 s, the
# mean per flow of: TCP send rate = payload bytes of the data packets sent, retransmissions
# included (ndatapack_ x S, the RFC's convention), TCP goodput (ack_ advance x S); TFRC send
# rate = every byte on the wire (flow monitor on A -> B, which sees packets before the error
# model); Kb/s = 1000 b/s.
#
# With a third argument `ecn` (Table 10's "ECN TCP" column; the RFC: "we configure the
# router to randomly drop or mark packets at a specified rate"): only TCP groups, of segment
# sizes 14, 128, 256, 512 and 1460 B (the sizes Table 10 chooses among), named ecntcp<S>,
# with ecn_ 1 and timestamps_ true (as B.1's "TCP flows with timestamps and ECN"), and the
# ErrorModel marks instead of dropping (markecn_ true: CE on every packet it picks; ns-2's
# TCP sends every data packet ECT, retransmissions included, except seqno 0; the sink echoes
# CE only on ECT packets). No TFRC flows: ns-2's marking error model would mark theirs too.
#
# Besides, per group (Table 11; issue 14, session 12), a line `pktdrop name=<group> arrivals=A
# dropped=D timeouts=T rexmit=R` over 50..100 s: A = the group's packets entering A -> B (the
# flow monitor), T / R = the TCP group's retransmission timeouts (nrexmit_) and retransmitted
# packets (nrexmitpack_), summed over its flows (0 for TFRC), D =
# those the error model dropped (the flow monitor's pdrops_: ns-2's `lossmodel` points the
# error model's drop target at the link's drop head, which the flow monitor watches, and the
# queue never overflows); D / A is the group's pooled packet drop rate. (With `ecn`, D counts
# dropped packets only: marked ones pass.)
#
# usage: ns rfc4828_b2.tcl <b> <seed> [ecn]

set b [lindex $argv 0]
set seed [lindex $argv 1]
set ecn [expr {[llength $argv] > 2 && [lindex $argv 2] == "ecn"}]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1 ;# Limited Transmit
Agent/TCP set minrto_ 0.2
Agent/TCP set maxrto_ 60
Agent/TCP set tcpTick_ 0.01
Agent/TFRC set SndrType_ 1
Agent/TFRCSink set ShortIntervals_ 0
if {$ecn} {
    Agent/TCP set ecn_ 1
    Agent/TCP set timestamps_ true
}

set A [$ns node]
set B [$ns node]
$ns simplex-link $A $B 1Gb 120ms DropTail
$ns simplex-link $B $A 1Gb 120ms DropTail
$ns queue-limit $A $B 10001
$ns queue-limit $B $A 10001
set em [new ErrorModel]
$em unit byte
$em set rate_ $b
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
if {$ecn} { $em set markecn_ true }
$ns lossmodel $em $A $B

set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $A $B] $fmon

set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0

set tcpsizes {14 128 256 512 1460 4000 8000}
set tcpprefix tcp
if {$ecn} {
    set tcpsizes {14 128 256 512 1460}
    set tcpprefix ecntcp
}
set fid 0
foreach s $tcpsizes {
    for {set i 1} {$i <= 10} {incr i} {
        incr fid
        set tcp($fid) [new Agent/TCP/Sack1]
        $tcp($fid) set fid_ $fid
        $tcp($fid) set packetSize_ $s
        set sink [new Agent/TCPSink/Sack1]
        $ns attach-agent $A $tcp($fid)
        $ns attach-agent $B $sink
        $ns connect $tcp($fid) $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp($fid)
        $ns at [expr {300 + [$start value]}] "$ftp start"
        set gname($fid) $tcpprefix$s
        set gsize($fid) $s
    }
}
# group: name voip size header cbr_interval
set tfrcgroups {
    {sp14  1 14 32 0.02}
    {std14 0 14 32 0.02}
}
if {$ecn} { set tfrcgroups {} }
foreach g $tfrcgroups {
    lassign $g name voip size hdr ivl
    for {set i 1} {$i <= 10} {incr i} {
        incr fid
        set tf [new Agent/TFRC]
        $tf set fid_ $fid
        $tf set voip_ $voip
        $tf set packetSize_ $size
        $tf set headersize_ $hdr
        set sink [new Agent/TFRCSink]
        # TFRC-SP's receiver counts short loss intervals as RFC 4828 §3 says (finding 9).
        $sink set ShortIntervals_ $voip
        $ns attach-agent $A $tf
        $ns attach-agent $B $sink
        $ns connect $tf $sink
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ $size
        $cbr set interval_ $ivl
        $cbr attach-agent $tf
        $ns at [expr {300 + [$start value]}] "$cbr start"
        set gname($fid) $name
    }
}
proc snapshot {} {
    global fmon fid tcp
    set out {}
    set cl [$fmon classifier]
    for {set f 1} {$f <= $fid} {incr f} {
        set flow [$cl lookup auto 0 0 $f]
        set wire [expr {$flow == "" ? 0 : [$flow set barrivals_]}]
        set parr [expr {$flow == "" ? 0 : [$flow set parrivals_]}]
        set pdrop [expr {$flow == "" ? 0 : [$flow set pdrops_]}]
        if {[info exists tcp($f)]} {
            lappend out [list $wire [$tcp($f) set ndatapack_] [$tcp($f) set ack_] $parr $pdrop \
                             [$tcp($f) set nrexmit_] [$tcp($f) set nrexmitpack_]]
        } else {
            lappend out [list $wire 0 0 $parr $pdrop 0 0]
        }
    }
    return $out
}
proc mark {} {
    global s50
    set s50 [snapshot]
}
proc done {} {
    global s50 gname gsize fid b tcpsizes tfrcgroups tcpprefix
    set s100 [snapshot]
    set names {}
    foreach s $tcpsizes { lappend names $tcpprefix$s }
    foreach g $tfrcgroups { lappend names [lindex $g 0] }
    foreach name $names {
        set send 0.0
        set good 0.0
        set parr 0
        set pdrop 0
        set nto 0
        set nrx 0
        set n 0
        for {set f 1} {$f <= $fid} {incr f} {
            if {$gname($f) != $name} continue
            incr n
            set x [lindex $s100 [expr {$f - 1}]]
            set y [lindex $s50 [expr {$f - 1}]]
            incr parr [expr {[lindex $x 3] - [lindex $y 3]}]
            incr pdrop [expr {[lindex $x 4] - [lindex $y 4]}]
            incr nto [expr {[lindex $x 5] - [lindex $y 5]}]
            incr nrx [expr {[lindex $x 6] - [lindex $y 6]}]
            if {[info exists gsize($f)]} {
                set send [expr {$send + ([lindex $x 1] - [lindex $y 1]) * $gsize($f)}]
                set good [expr {$good + ([lindex $x 2] - [lindex $y 2]) * $gsize($f)}]
            } else {
                set send [expr {$send + [lindex $x 0] - [lindex $y 0]}]
            }
        }
        puts [format "group=%s b=%s send_kbps=%.4f goodput_kbps=%.4f" $name $b \
                  [expr {$send * 8.0 / 50.0 / 1000.0 / $n}] \
                  [expr {$good * 8.0 / 50.0 / 1000.0 / $n}]]
        lappend droplines [format "pktdrop name=%s arrivals=%d dropped=%d timeouts=%d rexmit=%d" \
                               $name $parr $pdrop $nto $nrx]
    }
    foreach l $droplines { puts $l }
    exit 0
}
$ns at 350.0 "mark"
$ns at 400.0 "done"
$ns run
