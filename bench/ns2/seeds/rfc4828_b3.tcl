# ns-2.35 script of RFC 4828 App. B.3 (Table 12: drop-tail queue in packets at a 3 Mb/s link
# shared by five SACK TCP flows, five TFRC-SP flows and web traffic), matched to
# scenarios/rfc4828/b3-droptail.toml with the web parameters below (mapping: README.md here).
# Written for qoslab's differential validation (issue 14).
#
# Web traffic: ns-2's PagePool/WebTraf (webcache/webtraf.tcl), one-way SACK TCP with 512-B
# segments; per session 10 pages of a constant 10 objects (the counts of Floyd's web.tcl,
# qoslab's defaults), inter-page Exp(1 s), inter-object Exp(10 ms) and object sizes
# ParetoII(avg 10 packets, shape 1.2): the distributions of ns-2's own
# tcl/test/test-suite-webtraf.tcl (create-session); WEB_OBJSIZE="60 1.05" in the environment
# gives web.tcl's object sizes instead (RFC 4828's). Sessions start uniformly in [0, 100 s);
# a reverse pool (servers on R2's side) with half as many sessions.
#
# usage: ns rfc4828_b3.tcl <web_sessions> <queue> <seed> [mss [trace]]
#   queue (the R1 <-> R2 queue, both directions; our `@queue` line of b3-droptail.toml /
#   b4-red.toml, mapping in README.md here):
#     N        drop-tail of N packets (Table 12: 100), DropTail limit_ N + 1
#     50000B   drop-tail of 50 000 bytes (Tables 13-16): DropTail queue_in_bytes_ true,
#              mean_pktsize_ 1, limit_ 50 001 (ns-2 refuses when bytes + size >= limit)
#     red-p    RED, packet mode, queue in packets (Table 17): thresh_ 5, maxthresh_ 15,
#              q_weight_ 0.002, linterm_ 10, gentle_ false, wait_ true, mean_pktsize_ 500,
#              limit_ 100
#     red-b    RED, byte mode, queue in bytes (Tables 18, 19): as red-p with bytes_ true,
#              queue_in_bytes_ true (thresholds 5 x 500 = 2500 B, 15 x 500 = 7500 B, limit
#              100 x 500 = 50 000 B)
#     ared-b   Adaptive RED in byte mode (Tables 20, 21): red-b with adaptive_ 1, gentle_ true
#              (alpha_ 0.01, beta_ 0.9, interval_ 0.5 s, top_ 0.5, bottom_ 0.01: ns-2.35's
#              defaults)
#     red-b-markp, ared-b-markp: red-b / ared-b with ns-2.35's default use_mark_p_ true
#              (finding 12; qoslab: ns2_use_mark_p = true)
#     <queue>-m: the same queue with TCP matched to ours (syn_ false, rtxcur_init_ 1)
#     <queue>-mw, <queue>-w: -m / ns-2's own TCP, each web transfer starting with windowInit_
#              (finding 22: ns-2 keeps a recycled agent's windowInit_ at 1 after a first-packet loss)
#   mss: the long-lived TCP segment (1460, or 512 for Tables 14, 19, 21)
#   trace: optional file for a queue trace of R1 -> R2
# Environment (Tables 15, 16; issue 14, session 12): B3_FLOWS=N runs N long-lived TCP and N
# TFRC flows (default 5) on N host pairs whose access delays are spread linearly over
# 5..55 ms (qoslab's `delay = { from = "5ms", to = "55ms" }` with `count = N`: 5 ms when
# N = 1); B3_TFRC=standard makes them standard TFRC (voip_ 0, TFRCSink ShortIntervals_ 0),
# default TFRC-SP. Unset, the script is the one of Tables 12-14.
# Prints, over 50..100 s: the mean send rate per flow of the TCP and TFRC-SP groups (Kb/s,
# data packets sent x wire size: 1500 B, 232 B) and their drop rates at R1->R2 (dropped /
# arrived data packets of the group, pooled: a flow monitor by flow id).

set nsess [lindex $argv 0]
set qlim  [lindex $argv 1]
set seed  [lindex $argv 2]
set mss   [expr {[llength $argv] > 3 ? [lindex $argv 3] : 1460}]
global env
set nflows 5
set tfrc_voip 1
if {[info exists env(B3_FLOWS)]} {
    set nflows $env(B3_FLOWS)
    if {![string is integer -strict $nflows] || $nflows < 1 || $nflows > 99} {
        puts stderr "B3_FLOWS=\"$nflows\": want an integer in 1..99"
        exit 2
    }
}
# Flow ids: TCP flow i has i, TFRC flow i has N + i, skipping the web pools' 100 and 101 (the
# flow monitor counts by flow id; N = 5: 6..10 as before).
proc tfrc_fid {i} {
    global nflows
    set f [expr {$nflows + $i}]
    return [expr {$f >= 100 ? $f + 2 : $f}]
}
if {[info exists env(B3_TFRC)]} {
    switch -- $env(B3_TFRC) {
        sp {}
        standard { set tfrc_voip 0 }
        default {
            puts stderr "B3_TFRC=\"$env(B3_TFRC)\": want sp or standard"
            exit 2
        }
    }
}
# Queue names ending in "-m" (e.g. 100-m, red-b-m): TCP matched to qoslab's, which has no
# handshake and RFC 6298's 1 s initial RTO: syn_ false (2.35 default true: a SYN and its
# SYN-ACK before the first data packet of every transfer) and rtxcur_init_ 1 (2.35: 3 s).
# Queue names ending in "-mw" (e.g. red-b-mw): "-m" and, besides, every web transfer starts
# with windowInit_ (finding 22). ns-2.35's TcpAgent::timeout sets the agent's own wnd_init_
# to 1 for good when the first packet of a transfer is lost (highest_ack_ == -1; Mark
# Allman's bugfix, `bugfix_ss_` true), and WebTraf recycles its agents (`reset` does not
# restore wnd_init_), so once one of an agent's transfers lost its first packet every later
# request and response on it starts with a window of one packet. qoslab's web transfers are
# fresh TCPs with the configured initial window; "-mw" makes ns-2's the same. "-w" (e.g.
# red-b-w): the same restored window with ns-2.35's own TCP start-up (syn_ true, 3 s initial
# RTO; after the SYN is acknowledged ns-2 opens the window to windowInit_).
set web_iw_fresh [expr {[regsub {\-mw$} $qlim {-m} qlim] || [regsub {\-w$} $qlim {} qlim]}]
if {[regsub {\-m$} $qlim {} qlim]} {
    Agent/TCP set syn_ false
    Agent/TCP set rtxcur_init_ 1.0
}
# Web object sizes, ParetoII avg_ (packets) and shape_: test-suite-webtraf.tcl's 10 and 1.2
# unless the environment variable WEB_OBJSIZE="<avg> <shape>" is set (e.g. "60 1.05": Floyd's
# web.tcl objects, RFC 4828's Tables 12-16 and qoslab's [[web]] default; issue 14, session 8).
global env
if {[info exists env(WEB_OBJSIZE)]} {
    lassign $env(WEB_OBJSIZE) obj_avg obj_shape
    if {![string is double -strict $obj_avg] || ![string is double -strict $obj_shape] ||
        $obj_avg <= 0 || $obj_shape <= 1} {
        puts stderr "WEB_OBJSIZE=\"$env(WEB_OBJSIZE)\": want \"<avg > 0> <shape > 1>\""
        exit 2
    }
} else {
    set obj_avg 10
    set obj_shape 1.2
}
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed

# TCP, as b3-droptail.toml [defaults.tcp]: SACK, Limited Transmit, min RTO 200 ms, tick
# 10 ms, IW 2, receive window 100 packets, 40 B headers, one ACK per segment. The class
# default packet size is the web's 512 B; the long-lived flows set 1460 B.
Agent/TCP set packetSize_ 512
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 2
Agent/TCP set singledup_ 1
Agent/TCP set minrto_ 0.2
Agent/TCP set tcpTick_ 0.01
PagePool/WebTraf set TCPTYPE_ Sack1
PagePool/WebTraf set TCPSINKTYPE_ TCPSink/Sack1
PagePool/WebTraf set FID_ASSIGNING_MODE_ 2
Agent/TFRC set SndrType_ 1

set R1 [$ns node]
set R2 [$ns node]
proc red_common {q} {
    $q set thresh_ 5
    $q set maxthresh_ 15
    $q set q_weight_ 0.002
    $q set linterm_ 10
    $q set gentle_ false
    $q set wait_ true
    $q set mean_pktsize_ 500
    $q set setbit_ false
    $q set adaptive_ 0
    $q set bytes_ false
    $q set queue_in_bytes_ false
    $q set limit_ 100
    # ns-2.35's default use_mark_p_ true (added after RFC 4828's runs; ns-2's own test suites
    # set it false) skips the forced drop at avg >= max_th and sends such arrivals through the
    # early-drop code with p = 1, where `wait_` and the byte-mode count let packets through
    # until 500 bytes have arrived since the last drop (finding 12). The RED paper, RFC 4828's
    # ns-2 and qoslab force the drop.
    $q set use_mark_p_ false
}
if {[string is integer $qlim]} {
    # qoslab Np drop-tail = ns-2 DropTail limit_ N + 1 (probes/droptail_limit.tcl)
    $ns duplex-link $R1 $R2 3Mb 10ms DropTail
    $ns queue-limit $R1 $R2 [expr {$qlim + 1}]
    $ns queue-limit $R2 $R1 [expr {$qlim + 1}]
} elseif {[regexp {^([0-9]+)B$} $qlim -> qbytes]} {
    # qoslab "<b>B" drop-tail = ns-2 DropTail in bytes with a byte limit of b + 1
    # (limit_ x mean_pktsize_; ns-2 refuses when bytes waiting + size >= that)
    $ns duplex-link $R1 $R2 3Mb 10ms DropTail
    foreach {a b} [list $R1 $R2 $R2 $R1] {
        set q [[$ns link $a $b] queue]
        $q set queue_in_bytes_ true
        $q set mean_pktsize_ 1
        $q set limit_ [expr {$qbytes + 1}]
    }
} else {
    $ns duplex-link $R1 $R2 3Mb 10ms RED
    foreach {a b} [list $R1 $R2 $R2 $R1] {
        set q [[$ns link $a $b] queue]
        red_common $q
        switch -- $qlim {
            red-p {}
            red-b { $q set bytes_ true; $q set queue_in_bytes_ true }
            ared-b {
                $q set bytes_ true
                $q set queue_in_bytes_ true
                $q set adaptive_ 1
                $q set gentle_ true
            }
            red-b-markp {
                $q set bytes_ true
                $q set queue_in_bytes_ true
                $q set use_mark_p_ true
            }
            ared-b-markp {
                $q set bytes_ true
                $q set queue_in_bytes_ true
                $q set adaptive_ 1
                $q set gentle_ true
                $q set use_mark_p_ true
            }
            default {
                puts stderr "queue $qlim: N, <b>B, red-p, red-b, ared-b, red-b-markp or ared-b-markp"
                exit 2
            }
        }
    }
}
# Optional 5th argument: a queue trace of R1 -> R2 (ns-2's standard trace format: `+`, `-`,
# `r`, `d` and, for RED, `e` for early drops), for per-flow drop diagnostics
# (probes/red_drops.py).
if {[llength $argv] > 4} {
    set tf_ [open [lindex $argv 4] w]
    $ns trace-queue $R1 $R2 $tf_
    # RED: its average at every arrival (`a <time> <ave>`), in <trace>.red
    if {![string is integer $qlim] && ![regexp {B$} $qlim]} {
        set rf_ [open "[lindex $argv 4].red" w]
        set rq [[$ns link $R1 $R2] queue]
        $rq trace ave_
        $rq attach $rf_
    }
}
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $R1 $R2] $fmon

proc access {a b d} {
    global ns
    $ns duplex-link $a $b 100Mb $d DropTail
    $ns queue-limit $a $b 1001
    $ns queue-limit $b $a 1001
}
# Long-lived host pairs: access delays 5 + 50 (i-1)/(N-1) ms on both sides (N = 5: 5 + 12.5
# (i-1) ms, RTT 40..240 ms), rounded to the ns as qoslab's spread; 5 ms when N = 1.
for {set i 1} {$i <= $nflows} {incr i} {
    set S($i) [$ns node]
    set D($i) [$ns node]
    set d [expr {round((5.0 + ($nflows > 1 ? 50.0 * ($i - 1) / ($nflows - 1) : 0.0)) * 1e6) / 1e9}]
    access $S($i) $R1 $d
    access $R2 $D($i) $d
}
# Web nodes: servers WS_i on R1's side, clients WC_i on R2's, delays 5 + 50 (i-1)/9 ms.
for {set i 1} {$i <= 10} {incr i} {
    set WS($i) [$ns node]
    set WC($i) [$ns node]
    set d [expr {round((5.0 + 50.0 * ($i - 1) / 9.0) * 1e6) / 1e9}]
    access $WS($i) $R1 $d
    access $R2 $WC($i) $d
}

set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 1.0
for {set i 1} {$i <= $nflows} {incr i} {
    set tcp($i) [new Agent/TCP/Sack1]
    $tcp($i) set packetSize_ $mss
    $tcp($i) set fid_ $i
    set sink [new Agent/TCPSink/Sack1]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $D($i) $sink
    $ns connect $tcp($i) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    $ns at [$start value] "$ftp start"

    set tf($i) [new Agent/TFRC]
    $tf($i) set fid_ [tfrc_fid $i]
    $tf($i) set voip_ $tfrc_voip
    $tf($i) set packetSize_ 200
    $tf($i) set headersize_ 32
    set tsink [new Agent/TFRCSink]
    # TFRC-SP's receiver (as ns-2's VoIP tests in test-suite-friendly); standard TFRC: 0
    $tsink set ShortIntervals_ $tfrc_voip
    $ns attach-agent $S($i) $tf($i)
    $ns attach-agent $D($i) $tsink
    $ns connect $tf($i) $tsink
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 200
    $cbr set interval_ 0.01
    $cbr attach-agent $tf($i)
    $ns at [$start value] "$cbr start"
}

set sstart [new RandomVariable/Uniform]
$sstart set min_ 0.0
$sstart set max_ 100.0
proc pool {clients servers n fid} {
    global sstart obj_avg obj_shape
    set pool [new PagePool/WebTraf]
    $pool set sameFid_ $fid
    $pool set-num-client [llength $clients]
    $pool set-num-server [llength $servers]
    set i 0
    foreach c $clients { $pool set-client $i $c; incr i }
    set i 0
    foreach s $servers { $pool set-server $i $s; incr i }
    $pool set-num-session $n
    for {set i 0} {$i < $n} {incr i} {
        set interPage [new RandomVariable/Exponential]
        $interPage set avg_ 1
        set pageSize [new RandomVariable/Constant]
        $pageSize set val_ 10
        set interObj [new RandomVariable/Exponential]
        $interObj set avg_ 0.01
        set objSize [new RandomVariable/ParetoII]
        $objSize set avg_ $obj_avg
        $objSize set shape_ $obj_shape
        $pool create-session $i 10 [$sstart value] $interPage $pageSize $interObj $objSize
    }
    return $pool
}
set wcl {}
set wsv {}
for {set i 1} {$i <= 10} {incr i} { lappend wcl $WC($i); lappend wsv $WS($i) }
if {$web_iw_fresh} {
    # Restore the initial window (windowInit_ and, without syn_, the cwnd_ that `reset` derived
    # from the agent's possibly lowered wnd_init_) before each request and response; no random draw
    # (a second `reset` would draw boot_time_ from the shared stream).
    foreach p {launch-req launch-resp} {
        PagePool/WebTraf instproc $p-iw [PagePool/WebTraf info instargs $p] \
            [PagePool/WebTraf info instbody $p]
    }
    PagePool/WebTraf instproc launch-req {id pid clnt svr ctcp csnk size} {
        set iw [Agent/TCP set windowInit_]
        $ctcp set windowInit_ $iw
        # with syn_ the window is one packet until the SYN is acknowledged, then windowInit_
        if {![$ctcp set syn_]} { $ctcp set cwnd_ $iw }
        $self launch-req-iw $id $pid $clnt $svr $ctcp $csnk $size
    }
    PagePool/WebTraf instproc launch-resp {id pid svr clnt stcp ssnk size} {
        set iw [Agent/TCP set windowInit_]
        $stcp set windowInit_ $iw
        # with syn_ the window is one packet until the SYN is acknowledged, then windowInit_
        if {![$stcp set syn_]} { $stcp set cwnd_ $iw }
        $self launch-resp-iw $id $pid $svr $clnt $stcp $ssnk $size
    }
}
set fwd [pool $wcl $wsv $nsess 100]
set rev [pool $wsv $wcl [expr {$nsess / 2}] 101]

proc snap {} {
    global fmon tcp tf nflows
    set cl [$fmon classifier]
    set out {}
    foreach g {tcp tfrc} {
        set sent 0
        set arr 0
        set drop 0
        for {set i 1} {$i <= $nflows} {incr i} {
            if {$g == "tcp"} {
                set sent [expr {$sent + [$tcp($i) set ndatapack_]}]
                set f $i
            } else {
                set sent [expr {$sent + [$tf($i) set ndatapack_]}]
                set f [tfrc_fid $i]
            }
            set fl [$cl lookup auto 0 0 $f]
            if {$fl != ""} {
                set arr [expr {$arr + [$fl set parrivals_]}]
                set drop [expr {$drop + [$fl set pdrops_]}]
            }
        }
        lappend out [list $sent $arr $drop]
    }
    return $out
}
# Web bytes arriving at R1->R2 (forward pool, flow id 100: responses; reverse pool, 101:
# requests and ACKs), for the diagnostic line "web".
proc webbytes {} {
    global fmon
    set cl [$fmon classifier]
    set out {}
    foreach f {100 101} {
        set fl [$cl lookup auto 0 0 $f]
        lappend out [expr {$fl == "" ? 0 : [$fl set barrivals_]}]
    }
    return $out
}
# Per long-lived TCP flow (diagnostic lines "tcpflow"): data packets sent (ndatapack_), of
# which retransmissions (nrexmitpack_), retransmission timeouts (nrexmit_), and the flow's
# arrivals and drops at R1->R2.
proc perflow {} {
    global fmon tcp nflows
    set cl [$fmon classifier]
    set out {}
    for {set i 1} {$i <= $nflows} {incr i} {
        set fl [$cl lookup auto 0 0 $i]
        set arr [expr {$fl == "" ? 0 : [$fl set parrivals_]}]
        set drop [expr {$fl == "" ? 0 : [$fl set pdrops_]}]
        lappend out [list [$tcp($i) set ndatapack_] [$tcp($i) set nrexmitpack_] \
                         [$tcp($i) set nrexmit_] $arr $drop]
    }
    return $out
}
proc mark {} { global s50 w50 f50; set s50 [snap]; set w50 [webbytes]; set f50 [perflow] }
proc done {} {
    global s50 nsess qlim
    set s [snap]
    global mss nflows
    foreach g {tcp tfrc} i {0 1} size [list [expr {$mss + 40}] 232] {
        lassign [lindex $s $i] sent arr drop
        lassign [lindex $s50 $i] sent0 arr0 drop0
        set rate [expr {($sent - $sent0) * $size * 8.0 / 50.0 / 1000.0 / $nflows}]
        set na [expr {$arr - $arr0}]
        set dr [expr {$na > 0 ? double($drop - $drop0) / $na : 0}]
        puts [format "group=%s sessions=%s send_kbps=%.3f drop_rate=%.5f" $g $nsess $rate $dr]
    }
    global w50
    set w [webbytes]
    puts [format "web fwd_kbps=%.2f rev_kbps=%.2f" \
              [expr {([lindex $w 0] - [lindex $w50 0]) * 8.0 / 50.0 / 1000.0}] \
              [expr {([lindex $w 1] - [lindex $w50 1]) * 8.0 / 50.0 / 1000.0}]]
    global f50
    set i 0
    foreach a [perflow] b $f50 {
        incr i
        set d {}
        foreach x $a y $b { lappend d [expr {$x - $y}] }
        lassign $d sent rexmit to arr drop
        puts [format "tcpflow=%d sent=%d rexmit=%d timeouts=%d arrivals=%d drops=%d" \
                  $i $sent $rexmit $to $arr $drop]
    }
    global tf_
    global rf_
    if {[info exists tf_]} { flush $tf_; close $tf_ }
    if {[info exists rf_]} { flush $rf_; close $rf_ }
    global sf_
    if {[info exists sf_]} { red_params; flush $sf_; close $sf_ }
    exit 0
}
# RED diagnostics (finding 13): with the environment variable RED_SAMPLE=<file>, the R1 -> R2
# RED queue's settings as ns-2 holds them after reset (printed once at 0.001 s: thresholds in
# packets and in the queue's unit, q_weight_, bottom_/top_, ptc-derived values) and every 0.5 s
# `t cur_max_p_ ave_ curq_` (0.25 s after each possible max_p change at k x 0.5 s).
global env
if {[info exists env(RED_SAMPLE)] && ![string is integer $qlim] && ![regexp {B$} $qlim]} {
    set sf_ [open $env(RED_SAMPLE) w]
    set sq_ [[$ns link $R1 $R2] queue]
    proc red_params {} {
        global sf_ sq_
        set out "#"
        foreach v {thresh_ maxthresh_ thresh_queue_ maxthresh_queue_ q_weight_ linterm_ \
                   cur_max_p_ mean_pktsize_ bytes_ queue_in_bytes_ gentle_ wait_ adaptive_ \
                   alpha_ beta_ interval_ top_ bottom_ targetdelay_ use_mark_p_ limit_} {
            append out " $v=[$sq_ set $v]"
        }
        puts $sf_ $out
    }
    proc red_sample {} {
        global sf_ sq_ ns
        set t [$ns now]
        puts $sf_ [format "%.3f %.6f %.2f %d" $t [$sq_ set cur_max_p_] [$sq_ set ave_] \
                       [$sq_ set curq_]]
        $ns at [expr {$t + 0.5}] "red_sample"
    }
    $ns at 0.001 "red_params"
    $ns at 0.25 "red_sample"
}
$ns at 50.0 "mark"
$ns at 100.0 "done"
# A probe that sources this script sets `probe` and runs the simulator itself.
if {![info exists probe]} { $ns run }
