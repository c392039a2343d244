//! TCP data sender: RFC 5681 congestion control with Reno, RFC 6582 NewReno or RFC 6675
//! SACK loss recovery, RFC 3042 limited transmit and the RFC 6298 retransmission timer.
//!
//! # Sequence space and segments
//! Bytes are numbered from 0 (no SYN). Segment `k` is always `[k·MSS, min((k+1)·MSS, end))`;
//! retransmissions resend whole segments at the same boundaries. `SND.UNA` is the first
//! unacknowledged byte, `SND.MAX` one past the highest byte ever sent (RFC 6675's
//! `HighData + 1`), `SND.NXT` the next byte of the current sweep (below `SND.MAX` only
//! while resending go-back-N after a timeout). `recover` and RFC 6675's `RecoveryPoint`,
//! `HighRxt` and `RescueRxt` are kept as exclusive ends (one past the byte the RFC names).
//!
//! # Congestion window (RFC 5681 §3.1), and the choices made
//! - `cwnd` is in bytes, held in 1/65536-byte fixed point so that congestion avoidance
//!   grows by exactly `MSS·MSS/cwnd` per ACK (eq. 3) without truncation losses — the byte
//!   form of ns-2's `cwnd_ += 1/cwnd_` per ACK. Slow start (`cwnd < ssthresh`) adds
//!   `min(N, MSS)` per ACK of N new bytes (eq. 2; no RFC 3465 byte counting), which equals
//!   ns-2's one segment per ACK. Growth happens only on ACKs of new data outside loss
//!   recovery. `cwnd` is not capped by `rwnd`.
//! - Initial `cwnd` = `init_cwnd`·MSS; initial `ssthresh` = `rwnd` ("arbitrarily high",
//!   ns-2 sets `ssthresh_ = window_`).
//! - On loss (fast retransmit or timeout), `ssthresh = max(FlightSize/2, 2·MSS)` (eq. 4) with
//!   `FlightSize = SND.MAX − SND.UNA` less the bytes limited transmit sent during this run
//!   of duplicate ACKs (RFC 3042 §2 / RFC 5681 §3.2 note). ns-2 uses `min(cwnd, rwnd)/2`
//!   instead; the two agree when the flow is window-limited, as bulk flows are.
//! - No idle restart, no `maxburst`, no cwnd validation (bulk/finite senders, ns-2 defaults).
//!
//! # Loss detection and recovery
//! A duplicate ACK is an ACK with `ack == SND.UNA` while data is outstanding (RFC 5681 §2);
//! for SACK, an ACK carrying SACK information for previously un-SACKed segments, whether or
//! not it also advances `SND.UNA` (RFC 6675 §2) — an ACK without SACK blocks falls back to
//! the RFC 5681 definition. `DupThresh` is `dupack_threshold`.
//!
//! - **Reno** (RFC 5681 §3.2): on the DupThresh-th duplicate ACK, retransmit the first
//!   unacknowledged segment, `cwnd = ssthresh + DupThresh·MSS`, `+MSS` per further duplicate
//!   ACK, and `cwnd = ssthresh` on the first ACK of new data, which ends recovery even if it
//!   is partial. Like ns-2 `Agent/TCP/Reno` with its default `bugFix_`, a new fast
//!   retransmit is only allowed once the cumulative ACK is beyond `recover` (the highest
//!   byte sent when the last fast retransmit or timeout happened): with several losses in
//!   one window, the later holes produce duplicate ACKs that are ignored, and Reno waits for
//!   its retransmission timer.
//! - **NewReno** (RFC 6582 §3.2): the same entry, "careful" variant (enter only if the ACK
//!   covers more than `recover`, i.e. `ack > recover`). A partial ACK retransmits the first
//!   unacknowledged segment, deflates `cwnd` by the bytes it acknowledges and adds back one
//!   MSS if that was at least one MSS (floor 1 MSS); the timer is restarted only on the first
//!   partial ACK ("impatient", RFC 6582 §4, ns-2 `newreno_changes1_ 1`). A full ACK
//!   (`ack ≥ recover`) sets `cwnd = ssthresh` (RFC 6582 option (2), ns-2's default).
//! - **SACK** (RFC 6675 §5): entry on DupThresh duplicate ACKs or `IsLost(HighACK+1)`;
//!   `cwnd = ssthresh`; `pipe` from `SetPipe()`; segments chosen by `NextSeg()` rules 1–4
//!   (rule 4, the rescue retransmission, included) while `cwnd − pipe ≥ MSS`. `IsLost(s)` is
//!   true when at least DupThresh SACKed segments, or more than `(DupThresh−1)·MSS` SACKed
//!   bytes, lie above `s` ("discontiguous SACKed sequences" counted as segments). `SetPipe`
//!   is one pass over the outstanding segments per ACK received in recovery (O(window), no
//!   allocation). Recovery ends at a cumulative ACK ≥ `RecoveryPoint`; cwnd stays at
//!   ssthresh. A new recovery after a timeout waits until `SND.UNA ≥ RecoveryPoint` (§5.1).
//!   `TcpParams::sack_pipe = SackPipe::Ns2Sack1` replaces `pipe` and `NextSeg()` by ns-2.35
//!   Sack1's counter and hole choice (no `IsLost()`, no rescue), and (4.2)'s FlightSize/2
//!   by Sack1's halving of min(cwnd, rwnd) as a real number: [`SackPipe`].
//! - **Limited transmit** (RFC 3042), if enabled: on the first and second duplicate ACKs
//!   (and only below DupThresh) one more segment of new data may go each, i.e. new data is
//!   allowed up to `cwnd + min(dupacks, 2)·MSS`; cwnd is unchanged. For SACK, RFC 6675 §5 step (3): new data while
//!   `cwnd − pipe ≥ MSS`, except while repairing after a timeout (`SND.UNA < recover`),
//!   where the cwnd rule above (with no allowance) governs.
//! - **Fast retransmit** restarts the retransmission timer and cancels RTT timing, as BSD and
//!   ns-2 do. No RTT growth happens during recovery.
//!
//! # Retransmission timeout (RFC 6298 §5, RFC 5681 §3.1)
//! The timer runs while data is outstanding: armed when a segment is sent and none is
//! running (5.1), stopped when all is acknowledged (5.2), restarted on every ACK of new data
//! (5.3) — except NewReno's later partial ACKs. On expiry: `ssthresh` per eq. 4 unless the
//! previous timeout's retransmission was itself lost (then it is held) or the timer
//! interrupted loss recovery (then, by default, the ssthresh of that recovery capped by eq. 4,
//! `min(kept, max(FlightSize/2, 2·SMSS))`; `TcpParams::rto_ssthresh` selects eq. 4 as written
//! or the kept value: [`super::config::RtoSsthresh`]; its `Ns2HalfWindow` instead sets ns-2's
//! `max(⌊cwnd/2⌋, 2)` segments at every timeout, not RFC 5681), `cwnd = 1·MSS`,
//! `recover = SND.MAX`, recovery abandoned, the SACK scoreboard cleared (RFC 2018 §8 SHOULD;
//! SACK information arriving later is used again), go-back-N from `SND.UNA` (skipping
//! segments SACKed since), RTO doubled (5.5) and the timer restarted (5.6).
//!
//! # ns-2 compatibility (`TcpParams::ns2_compat`): Reno's loss response
//! (This section is Reno's loss response only; `ns2_compat` also selects ns-2's RTO
//! arithmetic for every variant, see [`super::rtt`], and ns-2's ECN response for every
//! variant, see "ECN" below.)
//! The Reno above is RFC 5681 plus the `recover` guard of ns-2.35's `Agent/TCP/Reno` (whose
//! `last_cwnd_action_ = CWND_ACTION_EXITED` on leaving fast recovery, added after 2001,
//! blocks a second fast retransmit). The ns-2 of 1997–2001 (ns-2.1b, `tcp-reno.cc` up to
//! v1.35 and `tcp.cc` v1.122, the simulator of the RIO seed) behaved differently, and
//! `ns2_compat` selects that behaviour:
//! - **Successive fast retransmits.** `dupack_action()` retransmits again on the
//!   DupThresh-th duplicate ACK after a partial ACK ended fast recovery, because the last
//!   window reduction was a fast retransmit (`allow_fast_retransmit`); only after a
//!   timeout (`bugFix_`) does it wait for an ACK beyond `recover`. With two or three losses
//!   in a window Reno therefore halves cwnd once per loss, one loss per RTT, and times out
//!   only when too few duplicate ACKs come back (Fall & Floyd 1996's Reno).
//! - **ssthresh from cwnd.** Every fast retransmit and every timeout sets
//!   `halfwin = ⌊⌊min(cwnd, rwnd)/MSS⌋/2⌋`, `ssthresh = max(halfwin, 2)·MSS`
//!   (`slowdown(CLOSE_SSTHRESH_HALF)`), not FlightSize/2: the second fast retransmit of a
//!   window halves the already halved cwnd, and a timeout right after another one finds
//!   cwnd = 1 MSS and sets ssthresh = 2 MSS (nothing is held). Fast retransmit sets
//!   `cwnd = halfwin·MSS` (`CLOSE_CWND_HALF`, possibly below 2 MSS), a timeout 1 MSS.
//! - **dupwnd.** The inflation is kept apart from cwnd: `dupwnd = DupThresh·MSS` at the
//!   DupThresh-th duplicate ACK, `+MSS` per further one, zeroed by any new ACK and by a
//!   timeout; the window is `cwnd + dupwnd` ([`TcpSender::cwnd`] reports that sum). ns-2
//!   inflates even when `dupack_action()` declined to retransmit (after a timeout), which
//!   lets go-back-N run ahead on duplicate ACKs; so does this mode.
//! - **Exit.** Any new ACK ends fast recovery, and that ACK opens cwnd like any other
//!   (`recv_newack_helper` → `opencwnd`), from `cwnd = halfwin`.
//!
//! # ns-2 compatibility: SACK after a timeout
//! With `ns2_compat` a SACK sender also follows ns-2.35's `Agent/TCP/Sack1` (`tcp-sack1.cc`)
//! between a timeout and the next loss recovery (issue 14, finding 39 of
//! `bench/ns2/seeds/README.md`, where these rules were found by tracing one flow of RFC 4828
//! B.1 at p = 0.2–0.5 in both simulators):
//! - duplicate ACKs are ignored until an ACK advances SND.UNA (Sack1's `timeout_` flag);
//! - after that, while a new recovery is not allowed, the first and second duplicate ACKs
//!   each release one segment beyond cwnd (`send_one()`: the next segment of the go-back-N
//!   sweep or new data), where the RFC mode sends nothing until SND.UNA reaches `recover`
//!   (RFC 6675 §5 step (3)'s limited transmit is tied to a possible recovery);
//! - a new recovery needs SND.UNA strictly beyond the timeout's `recover`
//!   (`dupack_action()`: `highest_ack_ > recover_`, packet numbers, `recover_ = maxseq_`),
//!   one segment more than RFC 6675 §5.1's `HighACK >= RecoveryPoint`: if the first segment
//!   sent after the data outstanding at the timeout is lost, ns-2 waits for the
//!   (still backed-off) timer where RFC 6675 recovers by fast retransmit.
//!
//! Left as above, because ns-2 does the same: RTT timing and its cancellation at fast
//! retransmit and timeout (`reset_rtx_timer` clears `rtt_active_`), timer restart on each
//! new ACK (`newtimer`), go-back-N after a timeout, limited transmit = `singledup_`
//! (`send_one`: new data up to `cwnd + dupacks`; off by default in the ns-2 of 2000, on since
//! 2001/11). Not reproduced: ns-2 restarted the timer *before* the RTT update of the same ACK
//! until `timerfix_` (2001/05); `maxburst_` (0 = off in ns-2 by default). The timer
//! arithmetic of ns-2 is in [`super::rtt`].
//!
//! # RTT sampling and Karn's rule
//! Without timestamps: one segment per RTT is timed, as in BSD and ns-2 — when new data is
//! sent and none is being timed, its end and send time are recorded; the first ACK covering
//! that end gives a sample. Any retransmission (fast, partial-ACK, SACK or timeout) cancels
//! the measurement (Karn: no sample can come from a retransmitted segment, nor be stretched
//! by one). A valid sample also ends the RTO backoff.
//!
//! With timestamps (`TcpParams::timestamps`, RFC 7323 §4): every ACK that advances
//! `SND.UNA` gives a sample `now − TSecr` (§4.2: only ACKs that advance the left edge of
//! the send window); TSecr is the send time of the segment the receiver echoes (RFC 7323
//! §4.3), a retransmission's own when it filled the hole, so Karn's restriction is not
//! needed and the sample after a timeout's retransmission ends the backoff at once. The
//! RFC 6298 gains (1/8, 1/4) are applied per sample, as ns-2 does with `timestamps_`
//! (RFC 7323 App. G's gains scaled by the samples per RTT are not used). Per-ACK cost:
//! one subtraction and one estimator update, no allocation.
//!
//! # ECN (RFC 3168 §6.1, `TcpParams::ecn`)
//! - New data segments are sent ECT; retransmissions are not (§6.1.5: "MUST NOT set either
//!   ECT codepoint ... for retransmitted data packets").
//! - **Reaction** to an ACK with ECE (§6.1.2), before the ACK's other processing: if no
//!   loss recovery is in progress and the ACK acknowledges beyond `SND.MAX` as it was at the
//!   last window reduction of any kind (ECN, fast retransmit, timeout) — "should not react
//!   to congestion indications more than once every window of data" —
//!   `ssthresh = max(FlightSize/2, 2·MSS)` with FlightSize as at a fast retransmit (before
//!   this ACK, limited-transmit segments excluded), and `cwnd = min(cwnd, max(FlightSize/2,
//!   1 MSS))`: "the TCP source halves the congestion window", which "should in principle
//!   still [be reduced] in half" at small windows and "is bounded below by a value of one
//!   MSS" (the "halving" never raises cwnd). ssthresh keeps RFC 5681's 2·MSS floor, cwnd
//!   does not: an ECE at cwnd = 2 MSS leaves 1 MSS, and the next one the timer hold below.
//!   (Until 2026-11-24 cwnd was min(cwnd, ssthresh), i.e. floored at 2·MSS, so the hold was
//!   reached only after a timeout and a persistently marked flow kept two segments per
//!   round trip: issue 14, bench/ns2/seeds/README.md finding 19.) Nothing is retransmitted.
//!   No ECE ACK grows cwnd ("SHOULD NOT increase the congestion window in response to the
//!   receipt of an ECN-Echo ACK").
//! - **cwnd of one MSS**: if cwnd is at most 1 MSS when the sender reacts, cwnd stays 1 MSS
//!   ("bounded below by a value of one MSS"), the retransmission timer is restarted with the
//!   current RTO ("MUST reset the retransmit timer"), also when nothing is outstanding, and
//!   no segment is sent until it expires ("able to send a new packet only when the
//!   retransmit timer expires"). That expiry with nothing outstanding is not a timeout: no
//!   backoff, cwnd and ssthresh unchanged, and the held segment goes out.
//! - **One reduction per window, loss or mark**: an ECE during loss recovery is ignored; a
//!   loss (fast retransmit or timeout) of a segment sent before the last ECN reaction is
//!   repaired as usual but does not reduce ssthresh again (`cwnd` is set from the held
//!   ssthresh as the recovery rules say; a timeout still sets cwnd = 1 MSS). ns-2 does the
//!   same for timeouts ("if we are in recovery from a recent ECN, don't cut down
//!   ssthresh_").
//! - **CWR** (§6.1.2): after any window reduction (ECN, fast retransmit, timeout) the next
//!   *new* data segment carries CWR (never a retransmission).
//!
//! ns-2 (`TcpAgent::ecn`, `slowdown`, `newtimer`, ns-2.35) differs in three ways; the first
//! two are followed with `ns2_compat`: (1) the window is halved exactly, fractional part
//! included (ns-2.35's `precisionReduce_`, true since 2006): `halfwin = min(cwnd, rwnd)/2`,
//! `ssthresh = max(⌊halfwin/MSS⌋, 2)·MSS`, `cwnd = halfwin`, so cwnd goes e.g.
//! 5 → 2.5 → 1.25 → 0.625 packets (until 2026-11-24 ours halved whole packets,
//! `⌊⌊cwnd/MSS⌋/2⌋`, 5 → 2 → 1 → 0, as ns-2 before 2006 did: issue 14, finding 20; ns-2's
//! loss response and ours with `ns2_compat` still halve whole packets, see `ns2_halfwin`);
//! (2) a window of less than one packet (`window() = (int) cwnd_ = 0`) sends nothing until
//! the retransmission timer (kept running by `newtimer` while `cwnd_ < 1`) expires, which
//! sets cwnd = 1 packet without touching ssthresh (or until an ACK without ECN-Echo opens
//! cwnd to a packet or more): the "wait for the timer" happens whenever halving leaves less
//! than one packet, not only at cwnd = 1 — here: the hold above with the fractional cwnd;
//! (3) on an ECE reaction at cwnd ≤ 1 packet, the first one sets `ecn_backoff_`
//! and every further one backs the timer off (`rtt_backoff`, doubling the RTO), and while
//! `ecn_backoff_` is set an ECE ACK does not end the backoff (`newack`); an ACK without ECE
//! clears it. With `ns2_compat` (3) is followed too, so that under a mark rate near 1 the
//! sender ends up sending one packet per backed-off RTO. Not reproduced: ns-2 also reacts
//! to an ECE within the window right after a timeout (`last_cwnd_action_ ==
//! CWND_ACTION_TIMEOUT`).

use qoslab_algo::{Duration, Time};

use super::config::{RtoSsthresh, SackPipe, TcpConfig, Variant};
use super::rtt::RttEstimator;
use super::scoreboard::Scoreboard;
use super::{Ack, Segment};

/// What the application gives the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum App {
    /// An infinite backlog (FTP bulk transfer).
    Bulk,
    /// Exactly this many bytes, then done.
    Bytes(u64),
}

/// Sender counters. Segments and bytes count payload, retransmissions included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TcpSenderStats {
    pub segments_sent: u64,
    pub bytes_sent: u64,
    pub retransmits: u64,
    pub retransmitted_bytes: u64,
    pub timeouts: u64,
    /// Fast retransmits, i.e. entries into fast recovery / SACK loss recovery.
    pub fast_recoveries: u64,
    /// NewReno partial ACKs.
    pub partial_acks: u64,
    /// SACK rescue retransmissions (RFC 6675 NextSeg rule 4).
    pub rescue_retransmits: u64,
    /// New segments sent under limited transmit.
    pub limited_transmits: u64,
    pub acks: u64,
    pub dupacks: u64,
    /// ACKs for data never sent (ignored).
    pub invalid_acks: u64,
    pub rtt_samples: u64,
    /// ACKs received with ECE.
    pub ece_acks: u64,
    /// Window reductions in response to ECE (RFC 3168 §6.1.2).
    pub ecn_reductions: u64,
    /// ECN reactions at cwnd = 1 MSS that held sending until the retransmission timer.
    pub ecn_timer_holds: u64,
    /// Segments sent with CWR.
    pub cwr_sent: u64,
}

/// The last congestion response (ns-2 `last_cwnd_action_`), for the ns-2 Reno guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastAction {
    None,
    FastRetransmit,
    Timeout,
}

#[derive(Clone, Copy, Debug)]
struct Recovery {
    /// RFC 6582 `recover` / RFC 6675 `RecoveryPoint` (exclusive).
    point: u64,
    /// NewReno: a partial ACK has been seen (impatient timer).
    partial_seen: bool,
}

/// Which NextSeg rule chose a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pick {
    Lost,
    New,
    NotLost,
    Rescue,
}

/// Fixed-point shift of `cwnd`.
const FP: u32 = 16;

/// The sending end of one TCP connection.
#[derive(Clone, Debug)]
pub struct TcpSender {
    variant: Variant,
    mss: u64,
    rwnd: u64,
    dupthresh: u32,
    limited_transmit: bool,
    /// `TcpParams::ns2_compat`.
    ns2: bool,
    /// `TcpParams::rto_ssthresh`.
    rto_ssthresh: RtoSsthresh,
    /// ns-2 Reno window inflation `dupwnd_` in bytes (only with `ns2` and Reno; else 0).
    dupwnd: u64,
    last_action: LastAction,
    /// One past the last byte the application offers (`u64::MAX` for bulk).
    app_end: u64,
    snd_una: u64,
    snd_nxt: u64,
    snd_max: u64,
    cwnd_fp: u64,
    ssthresh: u64,
    dupacks: u32,
    /// Bytes sent by limited transmit in the current run of duplicate ACKs.
    lt_sent: u64,
    recovery: Option<Recovery>,
    /// `recover` (exclusive) after the last fast retransmit or timeout.
    recover: Option<u64>,
    /// A segment start that must be retransmitted at once.
    pending_rtx: Option<u64>,
    sb: Scoreboard,
    high_rxt: u64,
    rescue_rxt: Option<u64>,
    pipe: u64,
    /// `TcpParams::sack_pipe` is [`SackPipe::Ns2Sack1`] (and the variant SACK).
    ns2_sack1: bool,
    /// ns-2 Sack1's `pipe_` in bytes (whole segments), in recovery with `ns2_sack1`; may be
    /// negative, as ns-2's `int`.
    ns2_pipe: i64,
    /// ns-2 Sack1: nothing but the fast retransmission goes on the ACK that starts recovery
    /// (its `recv()` calls `send_much` only when `dupacks_ == 0`); cleared by the next ACK.
    ns2_hold: bool,
    /// End of the highest unSACKed segment that IsLost() (0 if none).
    lost_end: u64,
    rtt: RttEstimator,
    /// (end of the timed segment, its send time).
    timing: Option<(u64, Time)>,
    rto_deadline: Option<Time>,
    consecutive_rtos: u32,
    /// RFC 3168 ECN on.
    ecn: bool,
    /// RFC 7323 timestamps on.
    timestamps: bool,
    /// `SND.MAX` at the last window reduction of any kind (ECN, fast retransmit, timeout).
    reduced_at: Option<u64>,
    /// `SND.MAX` at the last ECN reaction (a loss below it is of the same window).
    ecn_reduced_at: Option<u64>,
    /// Set CWR on the next new data segment.
    cwr_pending: bool,
    /// Sending held until the retransmission timer expires (ECE at cwnd = 1 MSS).
    ecn_hold: bool,
    /// ns-2 `ecn_backoff_` (only with `ns2`).
    ecn_backoff: bool,
    /// ns-2 Sack1 `timeout_` (only with `ns2` and SACK): set by a timeout, cleared by the
    /// next ACK that advances SND.UNA; duplicate ACKs in between are ignored.
    ns2_after_rto: bool,
    /// Neither ECN, nor timestamps, nor SACK (fixed at construction): a new cumulative ACK
    /// outside recovery takes [`Self::on_ack`]'s short path.
    plain: bool,
    stats: TcpSenderStats,
}

impl TcpSender {
    pub fn new(cfg: &TcpConfig, app: App) -> Self {
        let p = cfg.params();
        let mss = p.mss as u64;
        let sb_segments = if p.variant == Variant::Sack {
            (p.rwnd.div_ceil(mss) + 2) as usize
        } else {
            0
        };
        TcpSender {
            variant: p.variant,
            mss,
            rwnd: p.rwnd,
            dupthresh: p.dupack_threshold,
            limited_transmit: p.limited_transmit,
            ns2: p.ns2_compat,
            rto_ssthresh: p.rto_ssthresh,
            dupwnd: 0,
            last_action: LastAction::None,
            app_end: match app {
                App::Bulk => u64::MAX,
                App::Bytes(n) => n,
            },
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            // RFC 5681 §3.1: IW (here configurable, see TcpParams::init_cwnd).
            cwnd_fp: (p.init_cwnd as u64 * mss) << FP,
            // RFC 5681 §3.1: the initial ssthresh SHOULD be set arbitrarily high.
            ssthresh: p.rwnd,
            dupacks: 0,
            lt_sent: 0,
            recovery: None,
            recover: None,
            pending_rtx: None,
            sb: Scoreboard::new(sb_segments),
            high_rxt: 0,
            rescue_rxt: None,
            pipe: 0,
            ns2_sack1: p.variant == Variant::Sack && p.sack_pipe == SackPipe::Ns2Sack1,
            ns2_pipe: 0,
            ns2_hold: false,
            lost_end: 0,
            rtt: if p.ns2_compat {
                RttEstimator::ns2(p.initial_rto, p.min_rto, p.max_rto, p.clock_granularity)
            } else {
                RttEstimator::new(p.initial_rto, p.min_rto, p.max_rto, p.clock_granularity)
            },
            timing: None,
            rto_deadline: None,
            consecutive_rtos: 0,
            ecn: p.ecn,
            timestamps: p.timestamps,
            reduced_at: None,
            ecn_reduced_at: None,
            cwr_pending: false,
            ecn_hold: false,
            ecn_backoff: false,
            ns2_after_rto: false,
            plain: !p.ecn && !p.timestamps && p.variant != Variant::Sack,
            stats: TcpSenderStats::default(),
        }
    }

    // ----- accessors -----

    /// Congestion window in bytes, as it limits sending: inflated during Reno/NewReno fast
    /// recovery (with `ns2_compat`, Reno's `cwnd + dupwnd`).
    pub fn cwnd(&self) -> u64 {
        (self.cwnd_fp >> FP) + self.dupwnd
    }
    pub fn ssthresh(&self) -> u64 {
        self.ssthresh
    }
    pub fn srtt(&self) -> Option<Duration> {
        self.rtt.srtt()
    }
    /// The retransmission timeout in force (backoff included).
    pub fn rto(&self) -> Duration {
        self.rtt.rto()
    }
    pub fn rtt_estimator(&self) -> &RttEstimator {
        &self.rtt
    }
    /// First unacknowledged byte: the bytes below are cumulatively acknowledged.
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    /// One past the highest byte sent.
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }
    /// `SND.MAX − SND.UNA`.
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }
    /// RFC 6675 `pipe` while SACK recovery or SACK limited transmit is active; otherwise the
    /// bytes of the current sweep outstanding (`SND.NXT − SND.UNA`).
    pub fn pipe(&self) -> u64 {
        if self.ns2_sack1 && self.recovery.is_some() {
            self.ns2_pipe.max(0) as u64
        } else if self.pipe_mode() {
            self.pipe
        } else {
            self.snd_nxt - self.snd_una
        }
    }
    pub fn in_recovery(&self) -> bool {
        self.recovery.is_some()
    }
    /// The finite transfer is entirely acknowledged (never for `App::Bulk`).
    pub fn is_complete(&self) -> bool {
        self.app_end != u64::MAX && self.snd_una >= self.app_end
    }
    pub fn stats(&self) -> &TcpSenderStats {
        &self.stats
    }
    /// Sending is held until the retransmission timer expires (ECE at cwnd = 1 MSS).
    pub fn ecn_hold(&self) -> bool {
        self.ecn_hold
    }
    /// Earliest deadline: the retransmission timer.
    pub fn poll_timeout(&self) -> Option<Time> {
        self.rto_deadline
    }

    // ----- segment arithmetic -----

    /// The segment containing `seq`: (start, len).
    fn seg_at(&self, seq: u64) -> (u64, u64) {
        let start = seq - seq % self.mss;
        (start, self.mss.min(self.app_end - start))
    }

    /// Test hook: sets cwnd in 1/65536 byte (a fractional window from a scripted state).
    #[cfg(test)]
    pub(super) fn set_cwnd_fp_for_test(&mut self, cwnd_fp: u64) {
        self.cwnd_fp = cwnd_fp;
    }

    fn set_cwnd(&mut self, bytes: u64) {
        self.cwnd_fp = bytes << FP;
    }

    /// cwnd without ns-2 Reno's `dupwnd` inflation.
    fn cwnd_base(&self) -> u64 {
        self.cwnd_fp >> FP
    }

    /// ns-2 (2000–2001) `Agent/TCP/Reno` behaviour is in force.
    fn ns2_reno(&self) -> bool {
        self.ns2 && self.variant == Variant::Reno
    }

    /// ns-2 `slowdown(CLOSE_SSTHRESH_HALF)`: `halfwin = ⌊window()/2⌋` packets with
    /// `window() = ⌊min(cwnd, wnd_)⌋` (dupwnd is 0 whenever it is called); returns
    /// (ssthresh = max(halfwin, 2), halfwin), in bytes.
    fn ns2_halfwin(&self) -> (u64, u64) {
        let win = self.cwnd_base().min(self.rwnd) / self.mss;
        let half = win / 2;
        (half.max(2) * self.mss, half * self.mss)
    }

    fn pipe_mode(&self) -> bool {
        self.variant == Variant::Sack
            && (self.recovery.is_some() || (self.sack_lt_active() && self.snd_nxt >= self.snd_max))
    }

    /// RFC 6675 §5 step (3) applies: duplicate ACKs below DupThresh, not in recovery, and not
    /// repairing after a timeout (there `HighRxt := HighACK` of (3.1) would drop the
    /// timeout's retransmission from `pipe`; the cwnd rule governs until `recover`).
    fn sack_lt_active(&self) -> bool {
        self.limited_transmit
            && self.recovery.is_none()
            && self.dupacks > 0
            && self.dupacks < self.dupthresh
            && self.may_enter_recovery()
    }

    // ----- ACK processing -----

    /// Processes one ACK.
    ///
    /// The common case — an ACK that advances SND.UNA (and does not pass SND.MAX), outside
    /// recovery, for a sender without ECN, timestamps or SACK — is decided here, small
    /// enough to inline into the engine's delivery: of [`Self::on_ack_general`] it needs
    /// only the new-ACK processing (no ECN-Echo, no RTT from timestamps, no scoreboard, not
    /// a duplicate, no ECN hold to release or re-arm); every other ACK goes there.
    #[inline(always)]
    pub fn on_ack(&mut self, now: Time, ack: &Ack) {
        if self.plain
            && self.recovery.is_none()
            && !self.ecn_hold
            && ack.ack > self.snd_una
            && ack.ack <= self.snd_max
        {
            self.stats.acks += 1;
            self.ns2_hold = false;
            // ns-2 recv_newack_helper: an ACK without ECN-Echo clears ecn_backoff_.
            self.ecn_backoff = false;
            let acked = self.new_ack_common(now, ack.ack, false);
            self.grow_cwnd(acked);
            self.restart_rto(now, true);
            return;
        }
        self.on_ack_general(now, ack);
    }

    /// [`Self::on_ack`] for every ACK.
    #[inline(never)]
    pub(super) fn on_ack_general(&mut self, now: Time, ack: &Ack) {
        self.stats.acks += 1;
        if ack.ack > self.snd_max {
            // RFC 9293 §3.10.7.4: an ACK for something not yet sent is ignored.
            self.stats.invalid_acks += 1;
            return;
        }
        if ack.ack < self.snd_una {
            return; // older than what we know: reordered, carries nothing usable
        }
        let was_in_recovery = self.recovery.is_some();
        self.ns2_hold = false;
        let ece = self.ecn && ack.ece;
        if ece {
            self.stats.ece_acks += 1;
            self.on_ece(ack.ack);
        }
        let sack = self.variant == Variant::Sack;
        let new_sack = sack && self.update_scoreboard(ack);
        let advanced = ack.ack > self.snd_una;
        if advanced {
            if self.timestamps && ack.ts_ecr <= now {
                // RFC 7323 §4.2: an RTT sample from the echoed timestamp of every ACK that
                // advances the left edge of the send window.
                let r = now.saturating_since(ack.ts_ecr);
                if self.ecn_backoff && ece {
                    // ns-2 newack: "Don't end backoff if still in ECN-Echo with a congestion
                    // window of 1 packet."
                    self.rtt.sample_keep_backoff(r);
                } else {
                    self.rtt.sample(r);
                }
                self.stats.rtt_samples += 1;
            }
            if !ece {
                // ns-2 recv_newack_helper: an ACK without ECN-Echo clears ecn_backoff_.
                self.ecn_backoff = false;
            }
            // RFC 3168 §6.1.2: "SHOULD NOT increase the congestion window in response to
            // the receipt of an ECN-Echo ACK packet".
            self.on_new_ack(now, ack.ack, ece);
        }
        if self.ns2 && self.ecn_hold && self.cwnd_fp >= self.mss << FP {
            // ns-2: the hold is window() = (int) cwnd_ = 0; an ACK without ECN-Echo that
            // opens cwnd_ to one packet or more (opencwnd) lets send_much send again.
            self.ecn_hold = false;
        }
        if self.ecn_hold {
            // RFC 3168 §6.1.2: "MUST reset the retransmit timer on receiving the ECN-Echo
            // packet when the congestion window is one" — it runs even with nothing
            // outstanding, and is what releases the next segment.
            if ece || self.rto_deadline.is_none() {
                self.rto_deadline = Some(now + self.rtt.rto());
            }
        }
        let is_dup = if sack && ack.n_sack > 0 {
            // RFC 6675 §2: an ACK with SACK information for new data is a duplicate ACK.
            new_sack
        } else {
            // RFC 5681 §2: same ACK number, data outstanding.
            !advanced && self.snd_max > self.snd_una
        };
        if is_dup {
            self.on_dupack(now);
        }
        if sack {
            if self.ns2_sack1 && self.recovery.is_some() {
                if was_in_recovery {
                    // ns-2 Sack1 recv() in fast recovery: `--pipe_` for every ACK, and once
                    // more for a partial ACK (`partial_ack_ false`: "so that we never do
                    // worse than slow-start").
                    self.ns2_pipe -= self.mss as i64;
                    if advanced {
                        self.ns2_pipe -= self.mss as i64;
                    }
                }
            } else if self.recovery.is_some() {
                // RFC 6675 (B.2): use SetPipe () to re-calculate the octets still in the network.
                self.set_pipe();
            } else if self.sack_lt_active() {
                // RFC 6675 (3.1) Set HighRxt to HighACK. (3.2) Run SetPipe ().
                self.high_rxt = self.snd_una;
                self.set_pipe();
            }
        }
    }

    /// RFC 3168 §6.1.2: the response to an ECN-Echo ACK acknowledging up to `ackno`.
    fn on_ece(&mut self, ackno: u64) {
        // "should not react to congestion indications more than once every window of
        // data": not during loss recovery, and only for an ACK beyond the data outstanding
        // at the last window reduction.
        if self.recovery.is_some() || self.reduced_at.is_some_and(|p| ackno <= p) {
            return;
        }
        self.stats.ecn_reductions += 1;
        let cwnd = self.cwnd_base();
        let hold = if self.ns2 {
            // ns-2 TcpAgent::ecn: at a window of one packet, back the timer off from the
            // second reaction on; then slowdown(CLOSE_CWND_HALF|CLOSE_SSTHRESH_HALF).
            if self.cwnd_fp <= self.mss << FP {
                if self.ecn_backoff {
                    self.rtt.back_off();
                } else {
                    self.ecn_backoff = true;
                }
            } else {
                self.ecn_backoff = false;
            }
            // ns-2.35 slowdown(CLOSE_CWND_HALF|CLOSE_SSTHRESH_HALF) with `precisionReduce_`
            // true (ns-default.tcl: "default changed on 2006/1/24"): halfwin = windowd()/2,
            // the fractional window halved exactly; ssthresh_ = (int) halfwin, at least 2.
            let half_fp = self.cwnd_fp.min(self.rwnd << FP) / 2;
            self.ssthresh = (((half_fp >> FP) / self.mss).max(2)) * self.mss;
            // cwnd_ = halfwin, fractional; window() = (int) cwnd_ packets may be 0, and then
            // nothing is sent until the timer (`newtimer` keeps it running while cwnd_ < 1).
            self.cwnd_fp = half_fp;
            half_fp < self.mss << FP
        } else {
            // "the TCP source halves the congestion window "cwnd" and reduces the slow
            // start threshold "ssthresh"": RFC 5681 (4) with FlightSize before this ACK.
            let flight = (self.snd_max - self.snd_una).saturating_sub(self.lt_sent);
            self.ssthresh = (flight / 2).max(2 * self.mss);
            // "halves the congestion window" (FlightSize/2 as for ssthresh); "the value of
            // the congestion window is bounded below by a value of one MSS"; never raised.
            self.set_cwnd(cwnd.min((flight / 2).max(self.mss)));
            cwnd <= self.mss
        };
        if hold {
            // "The sending TCP will then be able to send a new packet only when the
            // retransmit timer expires." (the timer is reset in on_ack)
            self.ecn_hold = true;
            self.stats.ecn_timer_holds += 1;
        }
        self.reduced_at = Some(self.snd_max);
        self.ecn_reduced_at = Some(self.snd_max);
        self.cwr_pending = true;
    }

    /// A loss of the segment at `SND.UNA` belongs to a window already reduced for ECN
    /// (RFC 3168 §6.1.2: "reduced only once in response to a series of dropped and/or CE
    /// packets from a single window of data").
    fn ecn_window_reduced(&self) -> bool {
        self.ecn_reduced_at.is_some_and(|p| self.snd_una < p)
    }

    /// RFC 6675 Update(): marks the segments the SACK blocks cover; true if any was new.
    fn update_scoreboard(&mut self, ack: &Ack) -> bool {
        let mut new = false;
        for b in ack.sack_blocks() {
            // Only outstanding data can be SACKed.
            let start = b.start.max(self.snd_una).max(ack.ack);
            let end = b.end.min(self.snd_max);
            let mut k = start.div_ceil(self.mss);
            while k * self.mss < end {
                let (s, len) = self.seg_at(k * self.mss);
                if s + len > end {
                    break; // only whole segments
                }
                new |= self.sb.mark(k, s + len);
                k += 1;
            }
        }
        new
    }

    /// An ACK that advances SND.UNA to `ackno`; `ece`: it carries an ECN-Echo the sender
    /// honours (then cwnd does not grow).
    fn on_new_ack(&mut self, now: Time, ackno: u64, ece: bool) {
        let acked = self.new_ack_common(now, ackno, ece);
        let grow = !ece;
        let mut restart_timer = true;
        match self.recovery {
            None if grow => self.grow_cwnd(acked),
            None => {}
            Some(mut rec) => match self.variant {
                Variant::Reno if self.ns2 => {
                    // ns-2 Reno: the first new ACK, full or partial, ends fast recovery
                    // (dupwnd_ = 0 above; cwnd_ is already halfwin) and then, like every new
                    // ACK, opens the window (recv_newack_helper -> opencwnd).
                    self.recovery = None;
                    if grow {
                        self.grow_cwnd(acked);
                    }
                }
                Variant::Reno => {
                    // RFC 5681 §3.2 (6): when the next ACK arrives that acknowledges
                    // previously unacknowledged data, a TCP MUST set cwnd to ssthresh.
                    self.set_cwnd(self.ssthresh);
                    self.recovery = None;
                }
                Variant::NewReno if ackno >= rec.point => {
                    // RFC 6582 §3.2 (3) Full acknowledgment: cwnd = ssthresh, exit.
                    self.set_cwnd(self.ssthresh);
                    self.recovery = None;
                }
                Variant::NewReno => {
                    // RFC 6582 §3.2 (3) Partial acknowledgment: retransmit the first
                    // unacknowledged segment; deflate cwnd by the new data acknowledged, add
                    // back SMSS if at least SMSS was acknowledged.
                    self.stats.partial_acks += 1;
                    self.pending_rtx = Some(ackno);
                    let add_back = if acked >= self.mss { self.mss } else { 0 };
                    let c = (self.cwnd().saturating_sub(acked) + add_back).max(self.mss);
                    self.set_cwnd(c);
                    // "For the first partial ACK that arrives during fast recovery, also
                    // reset the retransmit timer."
                    restart_timer = !rec.partial_seen;
                    rec.partial_seen = true;
                    self.recovery = Some(rec);
                }
                Variant::Sack => {
                    // RFC 6675 (A): a cumulative ACK covering RecoveryPoint ends recovery.
                    if ackno >= rec.point {
                        self.recovery = None;
                    }
                }
            },
        }
        self.restart_rto(now, restart_timer);
    }

    /// The part of [`Self::on_new_ack`] every new ACK takes: the timed segment's RTT
    /// sample (RFC 6298 with Karn's rule), SND.UNA advanced to `ackno`, the duplicate-ACK
    /// and timeout state reset. Returns the bytes newly acknowledged.
    #[inline(always)]
    fn new_ack_common(&mut self, now: Time, ackno: u64, ece: bool) -> u64 {
        let acked = ackno - self.snd_una;
        if let Some((end, t0)) = self.timing {
            if ackno >= end {
                if self.ecn_backoff && ece {
                    // ns-2 newack: no end of the backoff on an ECE at a 1-packet window.
                    self.rtt.sample_keep_backoff(now.saturating_since(t0));
                } else {
                    self.rtt.sample(now.saturating_since(t0));
                }
                self.stats.rtt_samples += 1;
                self.timing = None;
            }
        }
        self.snd_una = ackno;
        self.snd_nxt = self.snd_nxt.max(ackno);
        if self.variant == Variant::Sack {
            // (Only SACK senders keep a scoreboard; the others' is empty.)
            self.sb.advance(ackno / self.mss);
        }
        self.consecutive_rtos = 0;
        self.ns2_after_rto = false;
        self.dupacks = 0;
        self.lt_sent = 0;
        // ns-2 Reno recv(): any new ACK sets dupwnd_ = 0.
        self.dupwnd = 0;
        acked
    }

    /// The retransmission timer after a new ACK: off when everything is acknowledged,
    /// else restarted if `restart`.
    #[inline(always)]
    fn restart_rto(&mut self, now: Time, restart: bool) {
        if self.snd_una >= self.snd_max {
            // RFC 6298 (5.2): all outstanding data acknowledged: turn off the timer.
            self.rto_deadline = None;
        } else if restart {
            // RFC 6298 (5.3): restart the timer so it expires after RTO.
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }

    /// RFC 5681 §3.1 slow start / congestion avoidance for `acked` new bytes.
    fn grow_cwnd(&mut self, acked: u64) {
        if self.cwnd_base() < self.ssthresh {
            // (2) cwnd += min (N, SMSS)
            self.cwnd_fp += acked.min(self.mss) << FP;
        } else {
            // (3) cwnd += SMSS*SMSS/cwnd, in 1/65536 bytes (never 0). The dividend
            // SMSS²·2^32 fits 64 bits for SMSS < 2^16 (every MSS in practice), and then the
            // 64-bit division gives the same quotient as the 128-bit one, at a fraction of
            // its cost.
            let den = self.cwnd_fp.max(1);
            let sq = self.mss * self.mss;
            let inc = if sq < 1 << (64 - 2 * FP) {
                (sq << (2 * FP)) / den
            } else {
                (((sq as u128) << (2 * FP)) / den as u128) as u64
            };
            self.cwnd_fp = self.cwnd_fp.saturating_add(inc.max(1));
        }
    }

    fn on_dupack(&mut self, now: Time) {
        self.stats.dupacks += 1;
        if self.ns2_after_rto {
            // ns-2 Sack1 recv(): "else if (timeout_ == FALSE)" — after a timeout, duplicate
            // ACKs count for nothing until an ACK of new data.
            return;
        }
        self.dupacks = self.dupacks.saturating_add(1);
        if self.recovery.is_some() {
            if self.ns2_reno() {
                // ns-2 Reno: ++dupwnd_ for each duplicate ACK after the DupThresh-th.
                self.dupwnd += self.mss;
            } else if self.variant != Variant::Sack {
                // RFC 5681 §3.2 (4): for each additional duplicate ACK, cwnd += SMSS.
                self.cwnd_fp += self.mss << FP;
            }
            return;
        }
        let lost = self.variant == Variant::Sack && self.sb.n_sacked() >= self.dupthresh as u64;
        // RFC 5681 §3.2 (2) / RFC 6675 §5 (1), (2).
        if (self.dupacks >= self.dupthresh || lost) && self.may_enter_recovery() {
            self.enter_recovery(now);
        } else if self.ns2_reno() && self.dupacks >= self.dupthresh {
            // ns-2 Reno recv(): `dupwnd_ = numdupacks_` at the DupThresh-th duplicate ACK
            // and `++dupwnd_` after it, even when dupack_action() declined to retransmit
            // (bugFix_ after a timeout): the window is inflated all the same.
            if self.dupacks == self.dupthresh {
                self.dupwnd = self.dupthresh as u64 * self.mss;
            } else {
                self.dupwnd += self.mss;
            }
        }
    }

    /// RFC 3042: on the first and second duplicate ACKs, one segment each beyond cwnd, when
    /// limited transmit is on and the state allows it (`eligible`).
    #[inline(always)]
    fn limited_transmit_allowance(&self, eligible: impl FnOnce(&Self) -> bool) -> u64 {
        if self.limited_transmit && self.dupacks < self.dupthresh && eligible(self) {
            self.dupacks.min(2) as u64 * self.mss
        } else {
            0
        }
    }

    /// ns-2.35 Sack1 after a timeout (`ns2_compat`, SACK): past the first ACK that advanced
    /// SND.UNA, not in recovery and a new recovery not yet allowed — the duplicate ACKs then
    /// release one segment each (`send_one()`: `t_seqno_ <= highest_ack_ + cwnd_ +
    /// dupacks_`, the next segment of the go-back-N sweep or new data), not RFC 6675's pipe.
    fn ns2_sack_rto_repair(&self) -> bool {
        self.ns2
            && self.variant == Variant::Sack
            && !self.ns2_after_rto
            && self.recovery.is_none()
            && !self.may_enter_recovery()
    }

    /// The guard against a second fast retransmit for losses of one window.
    fn may_enter_recovery(&self) -> bool {
        match (self.variant, self.recover) {
            (_, None) => true,
            // ns-2 Reno (before 2002) dupack_action(): go ahead if the ACK passed recover_
            // or if the last window reduction was itself a fast retransmit
            // (allow_fast_retransmit: last_cwnd_action_ == CWND_ACTION_DUPACK). Only a
            // timeout (bugFix_) holds fast retransmit back until recover_ is passed.
            (Variant::Reno, Some(r)) if self.ns2 => {
                self.snd_una > r || self.last_action == LastAction::FastRetransmit
            }
            // RFC 6582 §3.2 (2), careful variant: the ACK must cover more than recover.
            (Variant::Reno | Variant::NewReno, Some(r)) => self.snd_una > r,
            // ns-2.35 Sack1 dupack_action(): after a timeout, `highest_ack_ > recover_` with
            // recover_ = maxseq_ (packet numbers): one segment beyond the data sent before
            // the timeout must be acknowledged. (Sack1 zeroes recover_ when a fast recovery
            // ends, so after a fast recovery nothing more is required.)
            (Variant::Sack, Some(r)) if self.ns2 && self.last_action == LastAction::Timeout => {
                self.snd_una > r
            }
            // RFC 6675 §5.1: no new recovery until HighACK >= RecoveryPoint.
            (Variant::Sack, Some(r)) => self.snd_una >= r,
        }
    }

    fn enter_recovery(&mut self, now: Time) {
        if self.ecn_window_reduced() {
            // RFC 3168 §6.1.2: this window's reduction was the ECN one; ssthresh is held.
            // (ns-2 Reno's halving of cwnd is skipped too; its dupwnd still inflates.)
            if self.ns2_reno() {
                self.dupwnd = self.dupthresh as u64 * self.mss;
            }
        } else if self.ns2_reno() {
            // ns-2 slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF): from cwnd, not FlightSize.
            let (ssthresh, half) = self.ns2_halfwin();
            self.ssthresh = ssthresh;
            self.set_cwnd(half);
            // dupwnd_ = numdupacks_: the window in force is cwnd_ + dupwnd_.
            self.dupwnd = self.dupthresh as u64 * self.mss;
        } else if self.ns2_sack1 {
            // ns-2.35 Sack1 dupack_action() -> slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)
            // with the default `precision_reduce_`: halfwin = windowd() / 2, windowd() =
            // min(cwnd_, wnd_) as a real number; cwnd_ = halfwin (at least one packet),
            // ssthresh_ = (int) halfwin (at least 2). Not RFC 6675 (4.2)'s FlightSize / 2.
            let half_fp = self.cwnd_fp.min(self.rwnd << FP) / 2;
            self.ssthresh = ((half_fp >> FP) / self.mss).max(2) * self.mss;
            self.cwnd_fp = half_fp.max(self.mss << FP);
        } else {
            // RFC 5681 (4): ssthresh = max (FlightSize / 2, 2*SMSS), FlightSize without the
            // limited-transmit segments.
            let flight = (self.snd_max - self.snd_una).saturating_sub(self.lt_sent);
            self.ssthresh = (flight / 2).max(2 * self.mss);
        }
        self.last_action = LastAction::FastRetransmit;
        self.recover = Some(self.snd_max);
        self.reduced_at = Some(self.snd_max);
        self.cwr_pending = self.ecn;
        self.recovery = Some(Recovery {
            point: self.snd_max,
            partial_seen: false,
        });
        self.stats.fast_recoveries += 1;
        // Retransmit the first unacknowledged segment; restart the timer, stop RTT timing.
        self.pending_rtx = Some(self.snd_una);
        self.timing = None;
        self.rto_deadline = Some(now + self.rtt.rto());
        match self.variant {
            Variant::Reno if self.ns2 => {} // cwnd_ = halfwin and dupwnd_ set above
            Variant::Reno | Variant::NewReno => {
                // RFC 5681 §3.2 (4): cwnd = ssthresh + 3*SMSS (DupThresh segments).
                self.set_cwnd(self.ssthresh + self.dupthresh as u64 * self.mss);
            }
            Variant::Sack if self.ns2_sack1 => {
                if self.ecn_window_reduced() {
                    // The ECN reduction of this window stands (ssthresh held).
                    self.set_cwnd(self.ssthresh);
                }
                // ns-2 Sack1 dupack_action(): "numdupacks(cwnd_) packets have left the pipe",
                // `pipe_ = maxseq_ - highest_ack_ - numdupacks`; the fast retransmission is
                // not counted; `MarkRetran(highest_ack_ + 1)`.
                self.ns2_pipe = (self.snd_max - self.snd_una) as i64
                    - (self.dupthresh as u64 * self.mss) as i64;
                let (s, len) = self.seg_at(self.snd_una);
                self.high_rxt = s + len;
                self.rescue_rxt = None;
                self.ns2_hold = true;
            }
            Variant::Sack => {
                // RFC 6675 (4.2) ssthresh = cwnd = (FlightSize / 2).
                self.set_cwnd(self.ssthresh);
                // (4.3) set both HighRxt and RescueRxt to the end of the retransmitted segment.
                let (s, len) = self.seg_at(self.snd_una);
                self.high_rxt = s + len;
                self.rescue_rxt = Some(s + len);
                // (4.4) Run SetPipe () (it counts the retransmission: it is below HighRxt).
                self.set_pipe();
            }
        }
    }

    /// RFC 6675 SetPipe(), also recording where IsLost() starts to hold.
    fn set_pipe(&mut self) {
        self.lost_end = 0;
        if self.snd_max <= self.snd_una {
            self.pipe = 0;
            return;
        }
        if self.sb.n_sacked() == 0 {
            // Nothing SACKed: nothing is lost; (a) counts all, (b) the retransmitted part.
            self.pipe = (self.snd_max - self.snd_una)
                + self.high_rxt.min(self.snd_max).saturating_sub(self.snd_una);
            return;
        }
        let first = self.snd_una / self.mss;
        let mut k = (self.snd_max - 1) / self.mss;
        let (mut pipe, mut n_sacked, mut sacked_bytes) = (0, 0u64, 0u64);
        let limit_bytes = (self.dupthresh as u64 - 1) * self.mss;
        loop {
            let (s, len) = self.seg_at(k * self.mss);
            if self.sb.is_sacked(k) {
                n_sacked += 1;
                sacked_bytes += len;
            } else {
                // IsLost: DupThresh SACKed segments, or more than (DupThresh-1)*SMSS
                // SACKed bytes, above this one.
                let lost = n_sacked >= self.dupthresh as u64 || sacked_bytes > limit_bytes;
                if lost {
                    if self.lost_end == 0 {
                        self.lost_end = s + len;
                    }
                } else {
                    // (a) If IsLost (S1) returns false: pipe += 1 (per octet).
                    pipe += len;
                }
                // (b) If S1 <= HighRxt: pipe += 1 (per octet).
                if s + len <= self.high_rxt {
                    pipe += len;
                }
            }
            if k == first {
                break;
            }
            k -= 1;
        }
        self.pipe = pipe;
    }

    /// RFC 6675 NextSeg(): (start, len, rule).
    fn next_seg(&self) -> Option<(u64, u64, Pick)> {
        let high_sacked = self.sb.high_sacked_end();
        // Smallest unSACKed segment above HighRxt (1.a) and below the highest SACKed octet (1.b).
        let mut k = self.high_rxt.max(self.snd_una) / self.mss;
        let mut cand = None;
        while k * self.mss < self.snd_max.min(high_sacked) {
            if !self.sb.is_sacked(k) {
                cand = Some(self.seg_at(k * self.mss));
                break;
            }
            k += 1;
        }
        // (1) ... and IsLost (1.c).
        if let Some((s, len)) = cand {
            if s + len <= self.lost_end {
                return Some((s, len, Pick::Lost));
            }
        }
        // (2) available unsent data that the receiver's window allows.
        if let Some(len) = self.new_data_len() {
            if self.snd_max + len - self.snd_una <= self.rwnd {
                return Some((self.snd_max, len, Pick::New));
            }
        }
        // (3) an unSACKed segment meeting (1.a) and (1.b).
        if let Some((s, len)) = cand {
            return Some((s, len, Pick::NotLost));
        }
        // (4) rescue: if HighACK > RescueRxt (or RescueRxt is undefined), one segment that
        // includes the highest outstanding unSACKed sequence number.
        let rescue_allowed = match self.rescue_rxt {
            None => true,
            Some(r) => self.snd_una > r,
        };
        if rescue_allowed && self.snd_max > self.snd_una {
            let first = self.snd_una / self.mss;
            let mut k = (self.snd_max - 1) / self.mss;
            loop {
                if !self.sb.is_sacked(k) {
                    let (s, len) = self.seg_at(k * self.mss);
                    return Some((s, len, Pick::Rescue));
                }
                if k == first {
                    break;
                }
                k -= 1;
            }
        }
        None
    }

    /// ns-2 Sack1 `send_much()` in fast recovery: `ScoreBoardRQ::GetNextRetran()`, the
    /// first un-SACKed segment above `max(HighRxt, SND.UNA)` with SACKed data above it
    /// (whether or not `IsLost()` holds), else new data if the receiver's window allows
    /// (`t_seqno_ <= highest_ack_ + wnd_`); no rescue retransmission. True: a retransmission.
    fn ns2_next_seg(&self) -> Option<(u64, u64, bool)> {
        let high_sacked = self.sb.high_sacked_end();
        let mut k = self.high_rxt.max(self.snd_una) / self.mss;
        while k * self.mss < self.snd_max.min(high_sacked) {
            if !self.sb.is_sacked(k) {
                let (s, len) = self.seg_at(k * self.mss);
                return Some((s, len, true));
            }
            k += 1;
        }
        let len = self.new_data_len()?;
        (self.snd_max + len - self.snd_una <= self.rwnd).then_some((self.snd_max, len, false))
    }

    fn new_data_len(&self) -> Option<u64> {
        (self.snd_max < self.app_end).then(|| self.mss.min(self.app_end - self.snd_max))
    }

    // ----- transmission -----

    /// The next segment to send at `now`, if the windows allow one. Call until `None`.
    ///
    /// The common case (no retransmission pending, no ECN hold, no SACK pipe accounting, no
    /// go-back-N sweep) is new data under the standard window; it is decided here, small
    /// enough to inline into the engine's send loop, and everything else in
    /// [`Self::poll_transmit_general`], which makes the same decision for that case.
    #[inline(always)]
    pub fn poll_transmit(&mut self, now: Time) -> Option<Segment> {
        if self.pending_rtx.is_some()
            || self.ecn_hold
            || self.snd_nxt < self.snd_max
            || (self.variant == Variant::Sack && self.pipe_mode())
        {
            return self.poll_transmit_general(now);
        }
        self.poll_new_data(now)
    }

    /// New data under the standard window (+ the RFC 3042 allowance): the tail of
    /// [`Self::poll_transmit_general`].
    #[inline(always)]
    fn poll_new_data(&mut self, now: Time) -> Option<Segment> {
        let cwnd = self.cwnd();
        let len = self.new_data_len()?;
        let end = self.snd_max + len - self.snd_una;
        if end > self.rwnd {
            return None;
        }
        // The RFC 3042 allowance matters only beyond cwnd; it is not computed for the
        // segments the window allows anyway (most calls, issue 13 session 17).
        if end > cwnd {
            let lt_allowance = self.limited_transmit_allowance(|s| {
                s.recovery.is_none() && (s.variant != Variant::Sack || s.ns2_sack_rto_repair())
            });
            if end > cwnd + lt_allowance {
                return None;
            }
            self.lt_sent += len;
            self.stats.limited_transmits += 1;
        }
        Some(self.emit(now, self.snd_max, len))
    }

    /// [`Self::poll_transmit`] in every state.
    #[inline(never)]
    fn poll_transmit_general(&mut self, now: Time) -> Option<Segment> {
        if let Some(seq) = self.pending_rtx.take() {
            if seq >= self.snd_una && seq < self.snd_max {
                let (s, len) = self.seg_at(seq);
                return Some(self.emit(now, s, len));
            }
        }
        if self.ecn_hold {
            // RFC 3168 §6.1.2: nothing until the retransmission timer expires.
            return None;
        }
        if self.ns2_sack1 && self.recovery.is_some() {
            // ns-2 Sack1 send_much(): while `pipe_ < int(cwnd_)`, one segment, `pipe_++`.
            if self.ns2_hold || (self.cwnd() as i64) < self.ns2_pipe + self.mss as i64 {
                return None;
            }
            let (s, len, rtx) = self.ns2_next_seg()?;
            if rtx {
                // ScoreBoardRQ::MarkRetran: the holes below are not chosen again.
                self.high_rxt = self.high_rxt.max(s + len);
            }
            self.ns2_pipe += self.mss as i64;
            return Some(self.emit(now, s, len));
        }
        if self.variant == Variant::Sack && self.recovery.is_some() {
            // RFC 6675 (C): if cwnd - pipe >= 1 SMSS, send the segment NextSeg () picks.
            if self.cwnd() < self.pipe + self.mss {
                return None;
            }
            let (s, len, pick) = self.next_seg()?;
            match pick {
                // (C.2) HighRxt = highest sequence retransmitted, unless rule (4) was used.
                Pick::Lost | Pick::NotLost => self.high_rxt = self.high_rxt.max(s + len),
                Pick::Rescue => {
                    // (4) ... RescueRxt MUST be set to RecoveryPoint.
                    self.rescue_rxt = self.recovery.map(|r| r.point);
                    self.stats.rescue_retransmits += 1;
                }
                Pick::New => {}
            }
            // (C.4) pipe += octets transmitted.
            self.pipe += len;
            return Some(self.emit(now, s, len));
        }
        if self.pipe_mode() {
            // RFC 6675 §5 (3.3): new data while cwnd - pipe >= 1 SMSS and rwnd allows.
            let len = self.new_data_len()?;
            if self.cwnd() < self.pipe + self.mss || self.snd_max + len - self.snd_una > self.rwnd {
                return None;
            }
            self.pipe += len;
            self.lt_sent += len;
            self.stats.limited_transmits += 1;
            return Some(self.emit(now, self.snd_max, len));
        }
        // Standard window: SND.NXT + len - SND.UNA <= cwnd (+ limited-transmit allowance).
        let cwnd = self.cwnd();
        if self.snd_nxt < self.snd_max {
            // Go-back-N after a timeout, skipping segments SACKed since.
            let mut seq = self.snd_nxt;
            while seq < self.snd_max && self.sb.is_sacked(seq / self.mss) {
                seq = self.seg_at(seq).0 + self.mss;
            }
            self.snd_nxt = seq.min(self.snd_max);
            if self.snd_nxt < self.snd_max {
                let (s, len) = self.seg_at(self.snd_nxt);
                // ns-2 Sack1 send_one() sends the next segment of the sweep too.
                let lt = self.limited_transmit_allowance(Self::ns2_sack_rto_repair);
                if s + len - self.snd_una > cwnd + lt {
                    return None;
                }
                return Some(self.emit(now, s, len));
            }
        }
        self.poll_new_data(now)
    }

    /// Sends `[s, s + len)`: bookkeeping for SND.NXT/SND.MAX, stats, timer, RTT timing.
    fn emit(&mut self, now: Time, s: u64, len: u64) -> Segment {
        let end = s + len;
        let retransmission = s < self.snd_max;
        if end > self.snd_max {
            self.snd_max = end;
        }
        // The current sweep moves on when this segment is its next one (new data, or
        // go-back-N); retransmissions picked out of order (fast, partial-ACK, NextSeg) leave it.
        if s == self.snd_nxt {
            self.snd_nxt = end;
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len;
        if retransmission {
            self.stats.retransmits += 1;
            self.stats.retransmitted_bytes += len;
            // Karn: no RTT sample across a retransmission.
            self.timing = None;
        } else if self.timing.is_none() && !self.timestamps {
            self.timing = Some((end, now));
        }
        // RFC 3168 §6.1.2: CWR "only on the first new data packet that it transmits" after
        // the reduction, and "SHOULD NOT be set on retransmitted packets".
        let cwr = self.cwr_pending && !retransmission;
        if cwr {
            self.cwr_pending = false;
            self.stats.cwr_sent += 1;
        }
        if self.rto_deadline.is_none() {
            // RFC 6298 (5.1): start the timer if it is not running.
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        Segment {
            seq: s,
            len: len as u32,
            retransmission,
            // RFC 3168 §6.1.5: retransmitted data packets MUST NOT be ECT.
            ect: self.ecn && !retransmission,
            cwr,
            ts_val: now,
        }
    }

    /// The retransmission timer, if it has expired at `now`; otherwise nothing.
    pub fn on_timeout(&mut self, now: Time) {
        match self.rto_deadline {
            Some(d) if d <= now => {}
            _ => return,
        }
        self.rto_deadline = None;
        if std::mem::take(&mut self.ecn_hold) && self.snd_una >= self.snd_max {
            // RFC 3168 §6.1.2: the timer reset at an ECE with cwnd = 1 MSS has expired with
            // nothing outstanding: the held segment may go (not a timeout: no backoff).
            if self.ns2 {
                // ns-2 TcpAgent::timeout: "if (cwnd_ < 1) cwnd_ = 1"; with no outstanding
                // data (restart_bugfix_) nothing else changes and the timer is not backed off.
                self.cwnd_fp = self.cwnd_fp.max(self.mss << FP);
            }
            return;
        }
        if self.snd_una >= self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        // ns-2 RenoTcpAgent::timeout: dupwnd_ = 0 before TcpAgent::timeout.
        self.dupwnd = 0;
        self.last_action = LastAction::Timeout;
        if self.ecn_window_reduced() {
            // RFC 3168 §6.1.2 (and ns-2 TcpAgent::timeout: "if we are in recovery from a
            // recent ECN, don't cut down ssthresh_"): one reduction per window.
        } else if self.ns2_reno() {
            // ns-2 slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART): ssthresh from cwnd at
            // every timeout, the second of a row included (cwnd is then 1: ssthresh = 2).
            self.ssthresh = self.ns2_halfwin().0;
        } else if self.rto_ssthresh == RtoSsthresh::Ns2HalfWindow {
            // The same rule for any variant (ns-2's TcpAgent::timeout, shared by Sack1 and
            // Newreno), from the window without Reno/NewReno's inflation: during their fast
            // recovery that is recovery's ssthresh (RFC 5681 §3.2 step 4 sets cwnd =
            // ssthresh + 3·SMSS and inflates from there; ns-2 keeps its halved cwnd_ apart
            // from dupwnd_). SACK's cwnd is not inflated (RFC 6675).
            let win = if self.recovery.is_some() && self.variant != Variant::Sack {
                self.ssthresh
            } else {
                self.cwnd_base()
            };
            let half = win.min(self.rwnd) / self.mss / 2;
            self.ssthresh = half.max(2) * self.mss;
        } else if self.recovery.is_some() && self.rto_ssthresh != RtoSsthresh::FlightSize {
            // TcpParams::rto_ssthresh: a timeout that interrupts loss recovery (FlightSize is
            // inflated by the segments sent on duplicate ACKs; see RtoSsthresh).
            if self.rto_ssthresh == RtoSsthresh::MinKeptFlightSize {
                // RFC 5681 §3.1: "MUST be set to no more than the value given in equation
                // (4)": the kept value, capped by (4) = max(FlightSize/2, 2*SMSS).
                let eq4 = ((self.snd_max - self.snd_una) / 2).max(2 * self.mss);
                self.ssthresh = self.ssthresh.min(eq4);
            }
            // KeepInRecovery: recovery's ssthresh as it is (Linux tcp_enter_loss).
        } else if self.consecutive_rtos == 0 {
            // RFC 5681 (4): ssthresh = max (FlightSize / 2, 2*SMSS); held constant when the
            // segment retransmitted by the previous timeout is itself lost.
            self.ssthresh = ((self.snd_max - self.snd_una) / 2).max(2 * self.mss);
        }
        self.consecutive_rtos += 1;
        // ns-2 Sack1 timeout(): `timeout_ = TRUE` (duplicate ACKs ignored until new data is
        // acknowledged).
        self.ns2_after_rto = self.ns2 && self.variant == Variant::Sack;
        // RFC 5681 §3.1: cwnd = LW = 1 full-sized segment.
        self.set_cwnd(self.mss);
        // RFC 6582 §3.2 (4) / RFC 6675 §5.1: recover = highest sequence transmitted.
        self.recover = Some(self.snd_max);
        self.reduced_at = Some(self.snd_max);
        self.cwr_pending = self.ecn;
        self.recovery = None;
        self.dupacks = 0;
        self.lt_sent = 0;
        self.pending_rtx = None;
        // RFC 2018 §8: the sender SHOULD turn off all SACKed bits after a timeout.
        self.sb.clear();
        self.high_rxt = self.snd_una;
        self.rescue_rxt = None;
        self.pipe = 0;
        self.ns2_hold = false;
        // (5.4) retransmit the earliest unacknowledged segment: go-back-N from SND.UNA.
        self.snd_nxt = self.snd_una;
        self.timing = None;
        // (5.5) back off the timer; (5.6) start it with the new RTO.
        self.rtt.back_off();
        self.rto_deadline = Some(now + self.rtt.rto());
    }
}
