//! TCP settings, validated once ([`TcpParams`] -> [`TcpConfig`]).
//!
//! Defaults follow ns-2.35's one-way `Agent/TCP` where the seeds depend on ns-2 behaviour
//! and the RFCs otherwise; every default names its source below.

use qoslab_algo::{ConfigError, Duration};

/// Loss-recovery variant, named after ns-2's one-way agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// RFC 5681 §3.2 fast retransmit / fast recovery, with ns-2.35's `bugFix_` guard (no
    /// second fast retransmit until the ACK passes `recover`): several losses in one window
    /// usually end in a retransmission timeout (ns-2.35 `Agent/TCP/Reno`). With
    /// [`TcpParams::ns2_compat`], the ns-2 Reno of 2000–2001 instead: one fast retransmit per
    /// loss, each halving cwnd.
    Reno,
    /// RFC 6582 NewReno, "careful" variant, impatient timer (ns-2 `Agent/TCP/Newreno`).
    NewReno,
    /// RFC 2018 SACK blocks + RFC 6675 conservative loss recovery (in the role of ns-2
    /// `Agent/TCP/Sack1`, but following RFC 6675 rather than ns-2's older pipe algorithm).
    Sack,
}

/// Unvalidated TCP settings. Build one (e.g. from `Default`), then [`TcpConfig::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpParams {
    pub variant: Variant,
    /// Sender maximum segment size (payload bytes). Default 1460 (the RFC 2963 seed's MSS).
    pub mss: u32,
    /// TCP/IP header bytes added to each data segment on the wire. Default 40 (ns-2
    /// `tcpip_base_hdr_size_`).
    pub header: u32,
    /// Wire size of an ACK (SACK options are not added to it, as in ns-2's 40-byte
    /// `TCPSink` packets). Default 40.
    pub ack_size: u32,
    /// Receiver window in bytes; caps the sender's outstanding data. Default 65 535
    /// (the RFC 2963 seed's "maximum window size of 64 KBytes" without window scaling).
    pub rwnd: u64,
    /// Initial window in segments. Default 2: ns-2.35 `windowInit_ 2` (changed from 1 in
    /// 2001) and within RFC 5681 §3.1's IW limit for any MSS > 1095.
    pub init_cwnd: u32,
    /// RFC 3042 limited transmit. Default true (ns-2.35 `singledup_ 1`; RFC 5681 SHOULD).
    pub limited_transmit: bool,
    /// Lower bound of the RTO. Default 200 ms (ns-2.35 `minrto_`, RFC 4828 seed's setting;
    /// RFC 6298 (2.4) recommends 1 s).
    pub min_rto: Duration,
    /// Upper bound of the RTO, backoff included. Default 60 s (RFC 6298 (2.5), ns-2.35).
    pub max_rto: Duration,
    /// RTO before the first RTT sample. Default 1 s (RFC 6298 (2.1); ns-2.35 uses 3 s).
    pub initial_rto: Duration,
    /// Clock granularity G; zero = exact. Default 10 ms (ns-2.35 `tcpTick_ 0.01`).
    /// See [`super::rtt`] for exactly what G does.
    pub clock_granularity: Duration,
    /// Delayed-ACK timeout (ACK every 2nd segment or when this expires); `None` = ACK
    /// every segment (ns-2 `TCPSink`, the default). ns-2's `DelAck` sink uses 100 ms.
    pub delayed_ack: Option<Duration>,
    /// Duplicate ACKs that trigger fast retransmit (DupThresh). Default 3 (RFC 5681).
    pub dupack_threshold: u32,
    /// Behave like the ns-2 of the seeds' era (ns-2.1b7/b8, 2000–2001, the simulator of the
    /// RIO seed) where its one-way `Agent/TCP` differs from the RFC reading. Default false.
    ///
    /// It changes four things, for **every variant** unless a bullet says otherwise
    /// (details in [`super::sender`] "ns-2 compatibility" and "ECN", and [`super::rtt`]):
    /// - **Reno's loss response** (`Agent/TCP/Reno` before 2002): a fast retransmit is
    ///   allowed again after a partial ACK ended fast recovery (only a timeout blocks it
    ///   until `recover` is passed), `ssthresh = max(⌊⌊min(cwnd, rwnd)/MSS⌋/2⌋, 2)·MSS` at
    ///   every fast retransmit and every timeout (from cwnd, never held), window inflation
    ///   `dupwnd` kept apart from cwnd (also after a blocked fast retransmit), and cwnd
    ///   growth on the ACK that ends recovery. NewReno and SACK recovery are unchanged.
    /// - **SACK after a timeout** (ns-2.35 `Agent/TCP/Sack1`, SACK only; issue 14, finding
    ///   39): duplicate ACKs are ignored until an ACK advances SND.UNA (`timeout_`); then
    ///   the first and second duplicate ACKs each let one more segment go beyond cwnd
    ///   (`send_one`, limited transmit by cwnd, not RFC 6675's pipe) even while a new
    ///   recovery is not yet allowed, and a new recovery needs SND.UNA strictly beyond the
    ///   `recover` point of the timeout (`highest_ack_ > recover_`: one segment more than
    ///   RFC 6675 §5.1's HighACK ≥ RecoveryPoint).
    /// - **The retransmission timer** (`TcpAgent::rtt_update`/`rtt_timeout`, all variants):
    ///   ns-2's integer tick arithmetic (`RTO = ⌊SRTT + 4·RTTVAR⌋` ticks, no `max(G, ·)`
    ///   term, at least two ticks) and its backoff (doubling while below 64× or below
    ///   `max_rto`, as ns-2.35's `rfc2988_`; SRTT discarded past 8×).
    ///   Needs `clock_granularity > 0` (ns-2's `tcpTick_`).
    /// - **The ECN response** (`TcpAgent::ecn`/`slowdown`/`newtimer`, all variants, only
    ///   when `ecn` is on): the window halved exactly, fractional part included
    ///   (`precisionReduce_`; issue 14, finding 20), a window below one packet held until the
    ///   retransmission timer, and the timer backed off on repeated ECE at one packet
    ///   (`ecn_backoff_`); details in [`super::sender`] "ECN".
    pub ns2_compat: bool,
    /// ECN-capable TCP (RFC 3168 §6.1). Default false. The sender sends new data ECT,
    /// halves its window once per window of data on an ECN-Echo ACK and sets CWR; the
    /// receiver echoes CE marks until it sees CWR. Details in [`super::sender`] "ECN" and
    /// [`super::receiver`].
    pub ecn: bool,
    /// RFC 7323 timestamps. Default false. The receiver echoes `TS.Recent` (RFC 7323 §4.3)
    /// and the sender takes an RTT sample from every ACK that acknowledges new data, from
    /// the echoed send time (§4.2), retransmissions included (Karn's rule is not needed).
    ///
    /// Open choice: the option's 10 bytes + 2 of padding are **not** added to the wire
    /// size (`header` is unchanged); model them by raising `header` (and `ack_size`). ns-2.35
    /// adds `ts_option_size_` (10 B) per packet when `timestamps_` is on, so a like-for-like
    /// comparison with ns-2 uses a header 10 B larger (issue 14, finding 40). Nor does the option take
    /// a SACK block away: [`super::MAX_SACK_BLOCKS`] is 3 already.
    pub timestamps: bool,
    /// `ssthresh` when the retransmission timer expires **during** fast recovery (NewReno)
    /// or SACK loss recovery. Default [`RtoSsthresh::MinKeptFlightSize`] (recovery's
    /// ssthresh capped by RFC 5681 eq. (4); the decision and its evidence: [`RtoSsthresh`]).
    /// [`RtoSsthresh::Ns2HalfWindow`] (ns-2's rule) applies at every timeout instead.
    pub rto_ssthresh: RtoSsthresh,
    /// SACK loss recovery's `pipe` and choice of segment (only with [`Variant::Sack`]).
    /// Default [`SackPipe::Rfc6675`]; [`SackPipe::Ns2Sack1`] reproduces ns-2.35's
    /// `Agent/TCP/Sack1`.
    pub sack_pipe: SackPipe,
}

/// How a SACK sender estimates the data in flight during loss recovery and which segment it
/// sends next (issue 14, finding 25 of `bench/ns2/seeds/README.md`).
///
/// * [`Rfc6675`](SackPipe::Rfc6675), the default: RFC 6675 §4–5 — `pipe` from `SetPipe()`
///   on every ACK (a segment judged lost by `IsLost()` no longer counts, a retransmitted one
///   counts again), segments chosen by `NextSeg()` rules 1–4, rule 4 being the rescue
///   retransmission.
/// * [`Ns2Sack1`](SackPipe::Ns2Sack1): ns-2.35's `Agent/TCP/Sack1` (`tcp-sack1.cc`, the
///   "pipe" algorithm of Fall & Floyd 1996, with its `ScoreBoardRQ`), with ns-2's defaults
///   `partial_ack_ false`, `LimTransmitFix_ false`, `oldCode_ false`. `pipe` is a counter,
///   in whole segments: at the fast retransmit `pipe = (SND.MAX − SND.UNA) − DupThresh·MSS`
///   (the fast retransmission itself is not added), then **every** ACK received in recovery
///   takes one MSS off, an ACK that advances `SND.UNA` without ending recovery (partial ACK)
///   one MSS more, and every segment sent in recovery adds one MSS. A segment judged lost
///   therefore stays in `pipe` until ACKs have drained it, where RFC 6675 drops it at once.
///   The next segment is the first un-SACKed one above `max(HighRxt, SND.UNA)` and below the
///   highest SACKed octet, lost or not (RFC 6675's rule 1 without `IsLost()`, rule 3 before
///   rule 2), else new data within the receiver's window; there is no rescue
///   retransmission. Sending goes on while `cwnd − pipe ≥ MSS` (ns-2: `pipe_ < int(cwnd_)`);
///   `pipe` may go negative. At the fast retransmit cwnd and ssthresh are ns-2's too
///   (`dupack_action()` → `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)` with the default
///   `precision_reduce_`): `cwnd = min(cwnd, rwnd)/2` as a real number (at least 1 MSS),
///   `ssthresh = max(⌊cwnd/MSS⌋, 2)·MSS`, where RFC 6675 (4.2) sets both to FlightSize/2
///   (finding 23); a window already reduced by ECN keeps that reduction. Entry, the end of
///   recovery and timeouts are as in the default mode. Not an RFC behaviour; for
///   reproducing ns-2 only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SackPipe {
    /// RFC 6675 `SetPipe()` / `NextSeg()` (scenario value `"rfc6675"`).
    #[default]
    Rfc6675,
    /// ns-2.35 `Agent/TCP/Sack1`'s counter `pipe_` and hole choice, no rescue retransmission
    /// (scenario value `"ns2-sack1"`).
    Ns2Sack1,
}

impl SackPipe {
    /// The default, [`SackPipe::Rfc6675`].
    pub fn is_default(&self) -> bool {
        *self == SackPipe::Rfc6675
    }
}

/// `ssthresh` at a retransmission timeout that interrupts loss recovery (issue 14, finding
/// 11 of `bench/ns2/seeds/README.md`). Outside loss recovery the first three modes are RFC
/// 5681 eq. (4); the fourth, [`Ns2HalfWindow`](RtoSsthresh::Ns2HalfWindow), is ns-2's rule at
/// every timeout (finding 34), not an RFC reading.
///
/// **What the texts say.** RFC 5681 §3.1: when the timer detects a loss (of a segment not yet
/// retransmitted by the timer), "the value of ssthresh MUST be set to no more than the value
/// given in equation (4)", `ssthresh = max(FlightSize/2, 2·SMSS)`, FlightSize = data sent
/// and not cumulatively acknowledged. RFC 6582 §3.2 step 4 (NewReno, "Retransmit timeouts")
/// only records `recover` and leaves fast recovery; RFC 6675 §5.1 likewise for SACK. None
/// says what FlightSize means when the timer fires in the middle of recovery (NewReno's
/// "impatient" timer is restarted only at the first partial ACK, RFC 6582 §4): the inflated
/// window has by then sent about one segment per duplicate ACK for several RTTs, so `SND.MAX
/// − SND.UNA` counts segments the receiver already holds.
///
/// **What the modes do** (unit test `timeout_during_newreno_recovery_sets_ssthresh_as_configured`,
/// MSS 1000, six losses in one window, recovery's ssthresh 21 000 / 11 000):
/// * [`FlightSize`](RtoSsthresh::FlightSize), eq. (4) as written: compliant (equal to (4)) but
///   can *raise* ssthresh above the one recovery set (bulk transfer: 21 000 → 44 500); in
///   20-flow RED runs the slow start after such a timeout overshoots and a run can lock into
///   synchronised timeouts (RIO Table 2, NewReno, max_p 1/20, seed 3: 170 timeouts, 66.4 Mb/s,
///   against ns-2.35's 69.8 Mb/s; `bench/ns2/seeds/probes/rto_ssthresh.py`).
/// * [`KeepInRecovery`](RtoSsthresh::KeepInRecovery), as Linux (`tcp_enter_loss` does not
///   recompute ssthresh while in Recovery): never raises it, but can exceed (4) when partial
///   ACKs have shrunk FlightSize (transfer ending in the lossy window: 11 000 kept where (4)
///   gives 8 000), which breaks the MUST above.
/// * [`MinKeptFlightSize`](RtoSsthresh::MinKeptFlightSize), `min(kept, (4))`: compliant by
///   construction (never above (4)) and never raises ssthresh (21 000 and 8 000 above).
///
/// **Decision: `MinKeptFlightSize` is the default** — RFC compliance first (it and
/// `FlightSize` are the compliant modes; `KeepInRecovery` is not always), then agreement with
/// ns-2.35 and Linux, which both never raise ssthresh at such a timeout (ns-2's
/// `RenoTcpAgent::timeout` zeroes `dupwnd_` and `slowdown(CLOSE_SSTHRESH_HALF)` halves the
/// un-inflated `cwnd_`, i.e. about half of recovery's ssthresh, lower still; Linux keeps it).
/// Measured effect (3 seeds, `bench/ns2/seeds/README.md` "rto_ssthresh"): the NewReno
/// synchronised-timeout runs disappear and throughput matches ns-2.35's. Not tuned to any
/// published number; it changed the golden files of the NewReno / SACK scenarios.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RtoSsthresh {
    /// RFC 5681 (4) as written: FlightSize = `SND.MAX − SND.UNA`, recovery or not (the
    /// default before issue 14's decision; scenario value `"flight-size"`).
    FlightSize,
    /// A timeout during loss recovery keeps the ssthresh that recovery set (Linux);
    /// outside recovery, RFC 5681 (4). Scenario value `"keep-in-recovery"`.
    KeepInRecovery,
    /// A timeout during loss recovery sets `ssthresh = min(kept, max(FlightSize/2, 2·SMSS))`:
    /// the ssthresh recovery set, capped by eq. (4). Never raises ssthresh and never
    /// exceeds (4); outside recovery, RFC 5681 (4). The default; scenario value
    /// `"min-kept-flight-size"`.
    #[default]
    MinKeptFlightSize,
    /// ns-2.35's `TcpAgent::timeout` (`slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)`), for
    /// every variant: at **every** timeout, in loss recovery or not and the second of a row
    /// included, `ssthresh = max(⌊⌊min(cwnd, rwnd)/MSS⌋/2⌋, 2)·MSS` from the un-inflated
    /// cwnd. A timeout right after another finds cwnd = 1 MSS and sets ssthresh = 2 MSS.
    /// Not RFC 5681 §3.1, which computes (4) from FlightSize and holds ssthresh constant when
    /// the segment the timer retransmitted is lost again; for reproducing ns-2 only (what
    /// `ns2_compat` already does for Reno; ns-2's `Agent/TCP/Sack1` and `Newreno` share
    /// `TcpAgent::timeout`). Issue 14, finding 34 (`test-suite-rio.tcl` `notGentle`: after
    /// a run of back-to-back timeouts ns-2 resumes in congestion avoidance from 2 segments).
    /// Scenario value `"ns2-half-window"`.
    Ns2HalfWindow,
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpParams {
            variant: Variant::NewReno,
            mss: 1460,
            header: 40,
            ack_size: 40,
            rwnd: 65_535,
            init_cwnd: 2,
            limited_transmit: true,
            min_rto: Duration::from_millis(200),
            max_rto: Duration::from_secs(60),
            initial_rto: Duration::from_secs(1),
            clock_granularity: Duration::from_millis(10),
            delayed_ack: None,
            dupack_threshold: 3,
            ns2_compat: false,
            ecn: false,
            timestamps: false,
            rto_ssthresh: RtoSsthresh::MinKeptFlightSize,
            sack_pipe: SackPipe::Rfc6675,
        }
    }
}

/// Most segments a receiver window may span (sizes the SACK scoreboard and the receiver's
/// out-of-order store, which are preallocated).
pub const MAX_WINDOW_SEGMENTS: u64 = 1 << 20;

/// Validated TCP settings; [`TcpSender`](super::TcpSender) and
/// [`TcpReceiver`](super::TcpReceiver) cannot fail once given one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpConfig {
    p: TcpParams,
}

impl TcpConfig {
    /// Checks every rule; returns the first broken one.
    pub fn new(p: TcpParams) -> Result<TcpConfig, ConfigError> {
        // RFC 9293 §3.7.1: the MSS option is 16 bits; zero would never move data.
        if p.mss == 0 || p.mss > 65_535 {
            return Err(ConfigError::out_of_range(
                "mss",
                p.mss,
                "1..=65535 bytes (RFC 9293 §3.7.1)",
            ));
        }
        if p.ack_size == 0 {
            return Err(ConfigError::out_of_range(
                "ack_size",
                p.ack_size,
                ">= 1 byte",
            ));
        }
        if p.rwnd < p.mss as u64 {
            return Err(ConfigError::relation(
                "rwnd >= mss",
                "RFC 9293 §3.8.6: a window smaller than one segment stalls the sender",
                format!("rwnd {} < mss {}", p.rwnd, p.mss),
            ));
        }
        if p.rwnd.div_ceil(p.mss as u64) > MAX_WINDOW_SEGMENTS {
            return Err(ConfigError::relation(
                "rwnd / mss <= 2^20 segments",
                "qoslab: scoreboard and reassembly store are preallocated per window",
                format!("rwnd {} / mss {} segments", p.rwnd, p.mss),
            ));
        }
        if p.init_cwnd == 0 || p.init_cwnd as u64 > MAX_WINDOW_SEGMENTS {
            return Err(ConfigError::out_of_range(
                "init_cwnd",
                p.init_cwnd,
                "1..=2^20 segments",
            ));
        }
        if p.min_rto == Duration::ZERO {
            return Err(ConfigError::out_of_range(
                "min_rto",
                p.min_rto,
                "> 0 (RFC 6298 (2.4): the RTO has a lower bound)",
            ));
        }
        if !(p.min_rto <= p.initial_rto && p.initial_rto <= p.max_rto) {
            return Err(ConfigError::relation(
                "min_rto <= initial_rto <= max_rto",
                "RFC 6298 (2.1), (2.4), (2.5)",
                format!("{} / {} / {}", p.min_rto, p.initial_rto, p.max_rto),
            ));
        }
        if let Some(d) = p.delayed_ack {
            if d == Duration::ZERO || d > Duration::from_millis(500) {
                return Err(ConfigError::out_of_range(
                    "delayed_ack",
                    d,
                    "0 < timeout <= 500 ms (RFC 5681 §4.2: an ACK MUST be sent within 500 ms)",
                ));
            }
        }
        if p.dupack_threshold == 0 {
            return Err(ConfigError::out_of_range(
                "dupack_threshold",
                p.dupack_threshold,
                ">= 1 (RFC 5681 §3.2 uses 3)",
            ));
        }
        if p.ns2_compat && p.clock_granularity == Duration::ZERO {
            return Err(ConfigError::relation(
                "ns2_compat => clock_granularity > 0",
                "ns-2 TcpAgent::rtt_update: RTTs and the RTO are counted in tcpTick_ ticks",
                "clock_granularity 0".to_string(),
            ));
        }
        Ok(TcpConfig { p })
    }

    pub fn params(&self) -> &TcpParams {
        &self.p
    }
    pub fn variant(&self) -> Variant {
        self.p.variant
    }
    /// Wire size of a data segment carrying `len` payload bytes.
    pub fn segment_wire_size(&self, len: u32) -> u32 {
        len + self.p.header
    }
    /// Wire size of an ACK.
    pub fn ack_wire_size(&self) -> u32 {
        self.p.ack_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(f: impl FnOnce(&mut TcpParams)) -> ConfigError {
        let mut p = TcpParams::default();
        f(&mut p);
        TcpConfig::new(p).unwrap_err()
    }

    #[test]
    fn default_is_valid() {
        assert!(TcpConfig::new(TcpParams::default()).is_ok());
    }

    #[test]
    fn each_rule_has_its_error() {
        assert!(matches!(
            err(|p| p.mss = 0),
            ConfigError::OutOfRange { param: "mss", .. }
        ));
        assert!(matches!(
            err(|p| p.ack_size = 0),
            ConfigError::OutOfRange {
                param: "ack_size",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.rwnd = 100),
            ConfigError::Relation {
                rule: "rwnd >= mss",
                ..
            }
        ));
        assert!(matches!(
            err(|p| {
                p.mss = 1;
                p.rwnd = 1 << 30
            }),
            ConfigError::Relation {
                rule: "rwnd / mss <= 2^20 segments",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.init_cwnd = 0),
            ConfigError::OutOfRange {
                param: "init_cwnd",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.min_rto = Duration::ZERO),
            ConfigError::OutOfRange {
                param: "min_rto",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.initial_rto = Duration::from_secs(100)),
            ConfigError::Relation {
                rule: "min_rto <= initial_rto <= max_rto",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.delayed_ack = Some(Duration::from_millis(501))),
            ConfigError::OutOfRange {
                param: "delayed_ack",
                ..
            }
        ));
        assert!(matches!(
            err(|p| p.dupack_threshold = 0),
            ConfigError::OutOfRange {
                param: "dupack_threshold",
                ..
            }
        ));
        assert!(matches!(
            err(|p| {
                p.ns2_compat = true;
                p.clock_granularity = Duration::ZERO
            }),
            ConfigError::Relation {
                rule: "ns2_compat => clock_granularity > 0",
                ..
            }
        ));
    }
}
