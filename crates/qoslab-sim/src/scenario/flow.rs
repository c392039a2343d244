//! The traffic of a flow: TCP (with its many knobs and their defaults), CBR, Poisson.
//!
//! TCP defaults, each a documented choice (all overridable in `[defaults.tcp]` or per flow):
//!
//! | key | default | why |
//! |---|---|---|
//! | `variant` | `"newreno"` | RFC 6582, the current standard loss recovery without SACK |
//! | `mss` | `"1000B"` | ns-2's `packetSize_` (payload bytes per segment) |
//! | `header` | `"40B"` | TCP/IP headers without options, as ns-2 adds them on the wire |
//! | `ack_size` | `"40B"` | a pure ACK is headers only (ns-2 sinks send 40-byte ACKs) |
//! | `rwnd` | `"65535B"` | the largest window without RFC 7323 scaling |
//! | `init_cwnd` | RFC 5681 §3.1: 4 if mss ≤ 1095, 3 if ≤ 2190, else 2 | the RFC's upper bound |
//! | `limited_transmit` | `true` | RFC 3042 (ns-2's `singledup_ 1`) |
//! | `min_rto` | `"1s"` | RFC 6298 (2.4) |
//! | `max_rto` | `"60s"` | RFC 6298 (2.5): a maximum is allowed if it is at least 60 s |
//! | `initial_rto` | `"1s"` | RFC 6298 (2.1) |
//! | `clock_granularity` | `"0s"` | exact timers (RFC 6298's G = 0); set e.g. `"10ms"` for ns-2's `tcpTick_` |
//! | `delayed_ack` | `"off"` | an ACK per segment, as ns-2's `TCPSink` used by the seeds |
//! | `ns2_compat` | `false` | RFC behaviour; `true`: ns-2 (2000–2001) Reno loss response, ns-2's ECN halving, ns-2.35's tick timer and backoff (needs `clock_granularity > 0`), and ns-2.35 Sack1's rules after a timeout (SACK) |
//! | `ecn` | `false` | RFC 3168 ECN-capable TCP: data sent ECT, ECN-Echo halves the window (`true`/`false`) |
//! | `timestamps` | `false` | RFC 7323 timestamps: an RTT sample from every new ACK; adds no header bytes (`true`/`false`) |
//! | `rto_ssthresh` | `"min-kept-flight-size"` | ssthresh at a timeout that interrupts loss recovery: recovery's ssthresh capped by RFC 5681 (4); `"flight-size"` (4) as written (may raise it); `"keep-in-recovery"` recovery's ssthresh (Linux; may exceed (4)); `"ns2-half-window"` ns-2.35's `TcpAgent::timeout` at every timeout, any variant (max(⌊cwnd/2⌋, 2) segments, 2 after a back-to-back timeout; not RFC 5681): `TcpParams::rto_ssthresh` |
//! | `sack_pipe` | `"rfc6675"` | SACK recovery's pipe and segment choice: RFC 6675 `SetPipe()`/`NextSeg()` with the rescue retransmission; `"ns2-sack1"` ns-2.35's `Agent/TCP/Sack1` (a counter of segments, lost ones counted until ACKs drain them; any hole below the highest SACK before new data; no rescue; min(cwnd, rwnd) halved as a real number at the fast retransmit; not RFC 6675): `TcpParams::sack_pipe` |
//! | `bytes` | none | bulk transfer (infinite backlog, "FTP" in the seeds) |
//!
//! `rwnd` is a size (`"64KB"`) or a count of segments (`"100p"` = 100 × mss: the window
//! counts sequence space, i.e. payload bytes, not headers).
//!
//! Refused, each with its reason: mss, ack_size and packet sizes of zero (a packet has a
//! size); `rwnd < mss` (the window could never admit one segment: the TCP model is
//! segment-granular); `init_cwnd = 0`; `min_rto` or `initial_rto` of zero (a zero timeout
//! would retransmit in the same instant forever); `min_rto > max_rto`; a delayed-ACK
//! timeout of 500 ms or more (RFC 5681 §4.2: "MUST be less than 0.5 seconds"); CBR and
//! Poisson rates of zero.

use qoslab_algo::Duration;

use super::error::ErrorKind;
use super::reader::{Field, Res, Tbl};
use super::spec::{FlowKind, Limit, TcpSpec, TcpVariant};
use super::units::{self, show};
use super::value::Kind;
use crate::transport::tcp::{RtoSsthresh, SackPipe};

pub(crate) const TCP_KEYS: &[&str] = &[
    "variant",
    "mss",
    "header",
    "ack_size",
    "rwnd",
    "init_cwnd",
    "limited_transmit",
    "min_rto",
    "max_rto",
    "initial_rto",
    "clock_granularity",
    "delayed_ack",
    "ns2_compat",
    "ecn",
    "timestamps",
    "rto_ssthresh",
    "sack_pipe",
    "bytes",
];
pub(crate) const RATE_KEYS: &[&str] = &["rate", "size"];

/// The kinds of flow and the keys each adds to the common ones.
pub(crate) const KINDS: &[&str] = &["tcp", "cbr", "poisson", "tfrc"];

/// Keys of a `tfrc` flow. `variant` = "standard" | "sp" (TFRC-SP, RFC 4828);
/// `size` data bytes per packet; `header` ("40B"); either `rate` (the application's maximum
/// data rate) or `interval` (one packet per interval, e.g. "10ms" as in RFC 4828 App. B);
/// `feedback_size` ("40B"); `initial_rate` = "rfc5348" (default) | "rfc3448";
/// `short_intervals` = "step" (RFC 4828 §3, default) | "gradual" (App. C);
/// `ns2_compat` = false (RFC 5348) | true (ns-2's TFRC, see `qoslab_algo::tfrc::ns2`);
/// `oscillation_prevention` = false (default) | true: RFC 5348 §4.5's optional sender rule
/// (packets spaced at X·R_sqmean/sqrt(R_sample)), with `oscillation_q2` its EWMA weight, a
/// number in [0, 1) (default 0.9, the RFC's; ns-2's `ca_ 1` uses `df_` = 0.95), allowed only
/// with `oscillation_prevention = true`; `app_backlog` = false (default: a packet the rate
/// did not allow is not made up for) | true: the application's packets wait in an unbounded
/// send buffer (ns-2's CBR-fed `Agent/TFRC`, `maxqueue_`; needs `rate` or `interval`).
pub(crate) const TFRC_KEYS: &[&str] = &[
    "variant",
    "size",
    "header",
    "rate",
    "interval",
    "feedback_size",
    "initial_rate",
    "short_intervals",
    "ns2_compat",
    "oscillation_prevention",
    "oscillation_q2",
    "app_backlog",
];

pub(crate) fn kind_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "tcp" => TCP_KEYS,
        "tfrc" => TFRC_KEYS,
        _ => RATE_KEYS,
    }
}

/// A `tfrc` flow's settings.
pub(crate) fn tfrc(t: &Tbl<'_>) -> Res<super::spec::TfrcSpec> {
    let small_packet = match t.get("variant") {
        Some(f) => f.choice(&["standard", "sp"])? == "sp",
        None => false,
    };
    let size = t.req("size")?.size_u32(1)?;
    if small_packet && size > 1500 {
        return Err(t.req("size")?.err(
            ErrorKind::BadValue,
            "TFRC-SP data packets are at most 1500 bytes (RFC 4828 §1); use variant = \"standard\"",
        ));
    }
    let header = size_or(t, "header", 40, 0)?;
    let app_rate = match (t.get("rate"), t.get("interval")) {
        (Some(f), None) => {
            let r = f.clone().rate()?;
            if r.bps() == 0 {
                return Err(f.err(ErrorKind::BadValue, "must be > 0"));
            }
            Some(r)
        }
        (None, Some(f)) => {
            let d = f.clone().duration()?;
            if d == Duration::ZERO {
                return Err(f.err(ErrorKind::BadValue, "must be > 0"));
            }
            // one `size`-byte packet per interval: size·8 / interval bit/s (rounded down)
            let bps = (size as u128 * 8 * 1_000_000_000 / d.as_nanos() as u128) as u64;
            Some(qoslab_algo::Rate(bps.max(1)))
        }
        (Some(_), Some(f)) => {
            return Err(f.err(ErrorKind::Relation, "give `rate` or `interval`, not both"))
        }
        (None, None) => None,
    };
    let feedback_size = size_or(t, "feedback_size", 40, 1)?;
    let rfc3448_initial_rate = match t.get("initial_rate") {
        Some(f) => f.choice(&["rfc5348", "rfc3448"])? == "rfc3448",
        None => false,
    };
    let gradual = match t.get("short_intervals") {
        Some(f) => f.choice(&["step", "gradual"])? == "gradual",
        None => false,
    };
    // RFC 5348 §4.5 (optional): off unless asked for; q2 defaults to the RFC's 0.9.
    let oscillation = t
        .get("oscillation_prevention")
        .map_or(Ok(false), Field::bool)?;
    let oscillation_q2 = match (oscillation, t.get("oscillation_q2")) {
        (false, None) => None,
        (true, None) => Some(qoslab_algo::tfrc::OSCILLATION_Q2),
        (true, Some(f)) => {
            let q2 = f.clone().number()?;
            if !(0.0..1.0).contains(&q2) {
                return Err(f.err(
                    ErrorKind::BadValue,
                    "must be in [0, 1) (RFC 5348 §4.5: R_sqmean = q2*R_sqmean + (1-q2)*sqrt(R_sample))",
                ));
            }
            Some(q2)
        }
        (false, Some(f)) => {
            return Err(f.err(
                ErrorKind::Relation,
                "needs `oscillation_prevention = true` (RFC 5348 §4.5 is off by default)",
            ))
        }
    };
    let app_backlog = match t.get("app_backlog") {
        None => false,
        Some(f) => {
            let on = f.clone().bool()?;
            if on && app_rate.is_none() {
                return Err(f.err(
                    ErrorKind::Relation,
                    "needs an application rate (`rate` or `interval`): without one the sender always has data",
                ));
            }
            on
        }
    };
    Ok(super::spec::TfrcSpec {
        small_packet,
        gradual,
        size,
        header,
        app_rate,
        feedback_size,
        rfc3448_initial_rate,
        ns2_compat: t.get("ns2_compat").map_or(Ok(false), Field::bool)?,
        oscillation_q2,
        app_backlog,
    })
}

/// RFC 5681 §3.1: IW = 2 segments if SMSS > 2190, 3 if SMSS > 1095, else 4.
pub(crate) fn rfc5681_initial_window(mss: u32) -> u32 {
    if mss > 2190 {
        2
    } else if mss > 1095 {
        3
    } else {
        4
    }
}

fn size_or(t: &Tbl<'_>, key: &str, default: u32, min: u64) -> Res<u32> {
    t.get(key).map_or(Ok(default), |f| f.size_u32(min))
}

/// Longest TCP timer a file may give (RTO bounds, clock granularity): the RTT estimator
/// multiplies and adds such values in u64 nanoseconds, so they are kept far inside its range.
pub const MAX_TCP_TIMER: Duration = Duration::from_secs(1_000_000);

fn duration_or(t: &Tbl<'_>, key: &str, default: Duration) -> Res<Duration> {
    match t.get(key) {
        None => Ok(default),
        Some(f) => {
            let d = f.clone().duration()?;
            if d > MAX_TCP_TIMER {
                return Err(f.err(ErrorKind::BadValue, "at most 1000000 s"));
            }
            Ok(d)
        }
    }
}

/// A positive duration.
fn positive_duration_or(t: &Tbl<'_>, key: &str, default: Duration) -> Res<Duration> {
    match t.get(key) {
        None => Ok(default),
        Some(f) => {
            let d = f.clone().duration()?;
            if d > MAX_TCP_TIMER {
                Err(f.err(ErrorKind::BadValue, "at most 1000000 s"))
            } else if d == Duration::ZERO {
                Err(f.err(
                    ErrorKind::BadValue,
                    "must be > 0 (a zero timeout would fire in the same instant forever)",
                ))
            } else {
                Ok(d)
            }
        }
    }
}

/// The TCP settings of a flow (keys looked up in the flow, then in `[defaults.tcp]`).
pub(crate) fn tcp(t: &Tbl<'_>) -> Res<TcpSpec> {
    let variant = match t.get("variant") {
        Some(f) => match f.choice(&["reno", "newreno", "sack"])? {
            "reno" => TcpVariant::Reno,
            "newreno" => TcpVariant::NewReno,
            _ => TcpVariant::Sack,
        },
        None => TcpVariant::NewReno,
    };
    let mss = size_or(t, "mss", 1000, 1)?;
    let header = size_or(t, "header", 40, 0)?;
    let ack_size = size_or(t, "ack_size", 40, 1)?;
    let rwnd = match t.get("rwnd") {
        None => 65_535,
        Some(f) => rwnd(f, mss)?,
    };
    let init_cwnd = match t.get("init_cwnd") {
        None => rfc5681_initial_window(mss),
        Some(f) => {
            let n = f.clone().uint(u64::from(u32::MAX))?;
            if n == 0 {
                return Err(f.err(ErrorKind::BadValue, "must be >= 1 segment"));
            }
            n as u32
        }
    };
    let limited_transmit = t.get("limited_transmit").map_or(Ok(true), Field::bool)?;
    let min_rto = positive_duration_or(t, "min_rto", Duration::from_secs(1))?;
    let max_rto = duration_or(t, "max_rto", Duration::from_secs(60))?;
    if min_rto > max_rto {
        let f = t.get("max_rto").or_else(|| t.get("min_rto"));
        let msg = format!(
            "min_rto = {} is above max_rto = {}: need min_rto <= max_rto",
            show(min_rto),
            show(max_rto)
        );
        return Err(match f {
            Some(f) => f.err(ErrorKind::Relation, msg),
            None => t.err(ErrorKind::Relation, msg),
        });
    }
    let initial_rto = positive_duration_or(t, "initial_rto", Duration::from_secs(1))?;
    let clock_granularity = duration_or(t, "clock_granularity", Duration::ZERO)?;
    let delayed_ack = match t.get("delayed_ack") {
        None => None,
        Some(f) => delayed_ack(f)?,
    };
    let ns2_compat = match t.get("ns2_compat") {
        None => false,
        Some(f) => {
            let on = f.clone().bool()?;
            // ns-2's timer counts in ticks of `tcpTick_`: it needs a granularity.
            if on && clock_granularity == Duration::ZERO {
                return Err(f.err(
                    ErrorKind::Relation,
                    "needs clock_granularity > 0 (ns-2's timer counts in ticks of tcpTick_, e.g. \"10ms\")",
                ));
            }
            on
        }
    };
    let ecn = t.get("ecn").map_or(Ok(false), Field::bool)?;
    let timestamps = t.get("timestamps").map_or(Ok(false), Field::bool)?;
    let rto_ssthresh = match t.get("rto_ssthresh") {
        None => RtoSsthresh::default(),
        Some(f) => match f.choice(&[
            "flight-size",
            "keep-in-recovery",
            "min-kept-flight-size",
            "ns2-half-window",
        ])? {
            "flight-size" => RtoSsthresh::FlightSize,
            "keep-in-recovery" => RtoSsthresh::KeepInRecovery,
            "ns2-half-window" => RtoSsthresh::Ns2HalfWindow,
            _ => RtoSsthresh::MinKeptFlightSize,
        },
    };
    let sack_pipe = match t.get("sack_pipe") {
        None => SackPipe::default(),
        Some(f) => match f.choice(&["rfc6675", "ns2-sack1"])? {
            "ns2-sack1" => SackPipe::Ns2Sack1,
            _ => SackPipe::Rfc6675,
        },
    };
    let bytes = match t.get("bytes") {
        None => None,
        Some(f) => {
            let b = f.clone().size()?;
            if b == 0 {
                return Err(f.err(
                    ErrorKind::BadValue,
                    "must be > 0 (omit `bytes` for a bulk transfer)",
                ));
            }
            Some(b)
        }
    };
    let spec = TcpSpec {
        variant,
        mss,
        header,
        ack_size,
        rwnd,
        init_cwnd,
        limited_transmit,
        min_rto,
        max_rto,
        initial_rto,
        clock_granularity,
        delayed_ack,
        ns2_compat,
        ecn,
        timestamps,
        rto_ssthresh,
        sack_pipe,
        bytes,
    };
    // One validation path for `validate` and `run` (issue 12): the transport's own rules are
    // checked here, at read time, and located at the key they concern, so a scenario that
    // validates always starts.
    crate::sim::tcp_config(&spec).map_err(|e| locate_config_error(t, &e))?;
    Ok(spec)
}

/// Locates a transport [`ConfigError`] at the scenario key it concerns: the parameter of an
/// out-of-range error, or the first key named in a broken rule that the table (or its
/// defaults) sets; the table itself when every key involved took its default.
pub(crate) fn locate_config_error(
    t: &Tbl<'_>,
    e: &qoslab_algo::ConfigError,
) -> super::error::ScenarioError {
    use qoslab_algo::ConfigError as C;
    let named: Vec<&str> = match e {
        C::OutOfRange { param, .. } => vec![param],
        C::Relation { rule, .. } => rule
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            .collect(),
    };
    let kind = match e {
        C::OutOfRange { .. } => ErrorKind::BadValue,
        C::Relation { .. } => ErrorKind::Relation,
    };
    // Prefer a key the user wrote that is not the rule's first, default-valued operand:
    // `min_rto <= initial_rto <= max_rto` with only `initial_rto` set points at it.
    match named.iter().find_map(|k| t.get(k)) {
        Some(f) => f.err(kind, e.to_string()),
        None => t.err(kind, e.to_string()),
    }
}

/// `"64KB"` or `"100p"` (segments of `mss` payload bytes); at least one segment.
fn rwnd(f: Field<'_>, mss: u32) -> Res<u64> {
    let f = f.per_instance()?;
    let Kind::Str(_) = &f.v.kind else {
        return Err(f.err(
            ErrorKind::BadValue,
            "a window needs a unit: a size such as \"64KB\" or segments \"100p\"",
        ));
    };
    let text = f.clone().string()?;
    let bytes = match units::parse_limit(&text) {
        Ok(Limit::Packets(n)) => u64::from(n) * u64::from(mss),
        Ok(Limit::Bytes(b)) => b,
        Err(e) => return Err(f.err(ErrorKind::BadValue, format!("{e}"))),
    };
    if bytes < u64::from(mss) {
        return Err(f.err(
            ErrorKind::Relation,
            format!("must be at least one segment (mss = {mss} B): the window would never admit a segment"),
        ));
    }
    Ok(bytes)
}

/// `"off"`/`false` or a timeout below 500 ms.
fn delayed_ack(f: Field<'_>) -> Res<Option<Duration>> {
    let f = f.per_instance()?;
    match &f.v.kind {
        Kind::Bool(false) => return Ok(None),
        Kind::Str(s) if s == "off" => return Ok(None),
        Kind::Bool(true) => {
            return Err(f.err(
                ErrorKind::BadValue,
                "write the delayed-ACK timeout, e.g. \"100ms\", or \"off\"",
            ))
        }
        _ => {}
    }
    let d = f.clone().duration()?;
    // RFC 5681 §4.2: "an ACK ... MUST be generated within 500 ms of the arrival of the
    // first unacknowledged packet" (the delay MUST be less than 0.5 seconds).
    if d == Duration::ZERO || d >= Duration::from_millis(500) {
        return Err(f.err(
            ErrorKind::BadValue,
            "must be in (0, 500ms) (RFC 5681 §4.2: the delay MUST be less than 0.5 seconds), or \"off\"",
        ));
    }
    Ok(Some(d))
}

/// `rate` and `size` of a CBR or Poisson flow.
pub(crate) fn rate_kind(t: &Tbl<'_>, kind: &str) -> Res<FlowKind> {
    let rf = t.req("rate")?;
    let rate = rf.clone().rate()?;
    if rate.bps() == 0 {
        return Err(rf.err(ErrorKind::BadValue, "must be > 0"));
    }
    let size = t.req("size")?.size_u32(1)?;
    Ok(if kind == "cbr" {
        FlowKind::Cbr { rate, size }
    } else {
        FlowKind::Poisson { rate, size }
    })
}

/// Checks the keys present in a `[defaults.<kind>]` table (values are read when used).
pub(crate) fn check_rate_defaults(t: &Tbl<'_>) -> Res<()> {
    if let Some(f) = t.get("rate") {
        let r = f.clone().rate()?;
        if r.bps() == 0 {
            return Err(f.err(ErrorKind::BadValue, "must be > 0"));
        }
    }
    if let Some(f) = t.get("size") {
        f.size_u32(1)?;
    }
    Ok(())
}
