# Probe (issue 14, finding 22): rfc4828_b3.tcl (sourced, so the network, queue and web pools
# are that script's) with WebTraf's own request/response trace switched on: one line per
# request sent ("req + <obj> <page> <size> <client> <server> <t>") and acknowledged
# ("req - ..."), per response started ("resp + <obj> <page> <sent> <size> <server> <client>
# <t>") and completed ("resp - ..."), plus, at each completion, what the TCP agent did
# ("respstat <obj> <page> <size> <ndatapack_> <nrexmitpack_> <nrexmit_> <maxseq_> <t>"; the
# same for requests: "reqstat ..."), and at each response's start its initial window ("respiw
# <obj> <page> <size> <cwnd_> <windowInit_> <t>"), on stdout before the script's result lines.
# usage (in a scratch dir): ns web_bottleneck.tcl <sessions> <queue> <seed> [mss [trace]]
set probe 1
source [file join [file dirname [info script]] .. rfc4828_b3.tcl]
PagePool/WebTraf set req_trace_ 1
PagePool/WebTraf set resp_trace_ 1
# Print the agent's counters first: done-req / done-resp reset the agent (and its counters).
PagePool/WebTraf instproc done-req-probe {id pid clnt svr ctcp csnk size timer} {
    puts [format "reqstat %d %d %d %d %d %d %d %.6f" $id $pid $size [$ctcp set ndatapack_] \
              [$ctcp set nrexmitpack_] [$ctcp set nrexmit_] [$ctcp set maxseq_] \
              [[Simulator instance] now]]
    $self done-req $id $pid $clnt $svr $ctcp $csnk $size $timer
}
PagePool/WebTraf instproc done-resp-probe {id pid clnt svr stcp ssnk size sent sent_th {st 0} {fid 0}} {
    puts [format "respstat %d %d %d %d %d %d %d %.6f" $id $pid $size [$stcp set ndatapack_] \
              [$stcp set nrexmitpack_] [$stcp set nrexmit_] [$stcp set maxseq_] \
              [[Simulator instance] now]]
    $self done-resp $id $pid $clnt $svr $stcp $ssnk $size $sent $sent_th $st $fid
}
# launch-req / launch-resp install the agent's `done` callback naming done-req / done-resp:
# keep their bodies under another name and install the probe's callbacks after them.
foreach p {launch-req launch-resp} {
    PagePool/WebTraf instproc $p-orig [PagePool/WebTraf info instargs $p] \
        [PagePool/WebTraf info instbody $p]
}
PagePool/WebTraf instproc launch-req {id pid clnt svr ctcp csnk size} {
    $self launch-req-orig $id $pid $clnt $svr $ctcp $csnk $size
    $ctcp proc done {} "$self done-req-probe $id $pid $clnt $svr $ctcp $csnk $size 0"
}
PagePool/WebTraf instproc launch-resp {id pid svr clnt stcp ssnk size} {
    $self launch-resp-orig $id $pid $svr $clnt $stcp $ssnk $size
    # the response's first flight: cwnd_ after `advanceby` (its initial window) and the
    # agent's windowInit_ (1 once a transfer of this recycled agent lost its first packet)
    puts [format "respiw %d %d %d %.0f %d %.6f" $id $pid $size [$stcp set cwnd_] \
              [$stcp set windowInit_] [[Simulator instance] now]]
    set th [PagePool/WebTraf set FLOW_SIZE_TH_]
    $stcp proc done {} "$self done-resp-probe $id $pid $clnt $svr $stcp $ssnk $size $size $th [[Simulator instance] now] [$stcp set fid_]"
}
$ns run
