//! Scenario settings → validated algorithm configurations: the one validation path shared by
//! the scenario reader (`validate`, which places each [`ConfigError`] at the key it names)
//! and the engines (`run`), so a scenario that validates always starts (issue 12).
//!
//! | function | builds | from |
//! |---|---|---|
//! | [`build_aqm`] | a link's queue discipline and hard limit | [`QueueSpec`] |
//! | [`tcp_config`] | a TCP connection's [`TcpConfig`] | [`TcpSpec`] |
//! | [`tfrc_pair`] | a TFRC/TFRC-SP sender and receiver | [`TfrcSpec`] |

use qoslab_algo::queue::adaptive_red::{AdaptiveRed, AdaptiveRedConfig, AdaptiveRedParams};
use qoslab_algo::queue::red::{self, Ecn, Red, RedConfig, RedParams};
use qoslab_algo::queue::rio::{AvgSampling, Coupling, Rio, RioConfig, RioLevel, RioParams};
use qoslab_algo::queue::{Aqm, QueueLimit};
use qoslab_algo::tfrc;
use qoslab_algo::{ConfigError, Rate, Time};

use crate::scenario::spec::{
    Limit, QueueSpec, QueueUnit, RioCoupling, RioPrecedenceSpec, TcpSpec, TcpVariant, TfrcSpec,
};
use crate::transport::tcp::{TcpConfig, TcpParams, Variant};

/// Builds the TFRC sender and receiver of a flow starting at `start`.
pub fn tfrc_pair(t: &TfrcSpec, start: Time) -> Result<(tfrc::Sender, tfrc::Receiver), ConfigError> {
    let (variant, rparams) = if t.small_packet {
        let rule = if t.gradual {
            tfrc::ShortIntervalRule::Gradual
        } else {
            tfrc::ShortIntervalRule::Step
        };
        let base = tfrc::SmallPacketParams::rfc4828();
        let sp = tfrc::SmallPacketParams::new(
            base.nominal_segment(),
            base.header(),
            base.min_interval(),
            rule,
        )?;
        (
            tfrc::Variant::SmallPacket(sp),
            tfrc::ReceiverParams::small_packet(&sp),
        )
    } else {
        (tfrc::Variant::Standard, tfrc::ReceiverParams::standard())
    };
    let init = if t.rfc3448_initial_rate {
        tfrc::InitialRate::Rfc3448
    } else {
        tfrc::InitialRate::Rfc5348
    };
    let mut sp =
        tfrc::SenderParams::new(t.size, t.app_rate, variant, init)?.with_app_backlog(t.app_backlog);
    if let Some(q2) = t.oscillation_q2 {
        sp = sp.with_oscillation_prevention(q2)?;
    }
    let mut rparams = rparams;
    if t.ns2_compat {
        sp = sp.with_ns2(tfrc::ns2::Ns2Compat::ns2());
        rparams = rparams.with_ns2(tfrc::ns2::Ns2Compat::ns2());
    }
    Ok((tfrc::Sender::new(sp, start), tfrc::Receiver::new(rparams)))
}

/// Maps a scenario's TCP settings to the transport's validated configuration.
pub fn tcp_config(t: &TcpSpec) -> Result<TcpConfig, ConfigError> {
    TcpConfig::new(TcpParams {
        variant: match t.variant {
            TcpVariant::Reno => Variant::Reno,
            TcpVariant::NewReno => Variant::NewReno,
            TcpVariant::Sack => Variant::Sack,
        },
        mss: t.mss,
        header: t.header,
        ack_size: t.ack_size,
        rwnd: t.rwnd,
        init_cwnd: t.init_cwnd,
        limited_transmit: t.limited_transmit,
        min_rto: t.min_rto,
        max_rto: t.max_rto,
        initial_rto: t.initial_rto,
        clock_granularity: t.clock_granularity,
        delayed_ack: t.delayed_ack,
        ns2_compat: t.ns2_compat,
        ecn: t.ecn,
        timestamps: t.timestamps,
        rto_ssthresh: t.rto_ssthresh,
        sack_pipe: t.sack_pipe,
        ..TcpParams::default()
    })
}

/// Builds the discipline and hard limit of a link's egress queue from its spec.
///
/// The parser has checked ranges; the algorithm constructors check the rules of their
/// sources once more, and a refusal is reported as bad input naming the link.
pub fn build_aqm(spec: &QueueSpec, rate: Rate) -> Result<(Aqm, QueueLimit), ConfigError> {
    let limit = match spec.limit() {
        Limit::Packets(n) => QueueLimit::Packets(n),
        Limit::Bytes(b) => QueueLimit::Bytes(b),
    };
    let unit = |u: QueueUnit| match u {
        QueueUnit::Packets => red::QueueUnit::Packets,
        QueueUnit::Bytes => red::QueueUnit::Bytes,
    };
    let aqm = match spec {
        QueueSpec::DropTail { .. } => Aqm::DropTail,
        QueueSpec::Red { red: r, .. } => {
            let cfg = RedConfig {
                gentle: r.gentle,
                wait: r.wait,
                unit: unit(r.queue_unit),
                byte_mode: r.byte_mode,
                mean_pkt_size: r.mean_pkt_size,
                ecn: if r.ecn { Ecn::MarkEarly } else { Ecn::Off },
                ns2_use_mark_p: r.ns2_use_mark_p,
                ns2_gentle_initial_max_p: r.ns2_gentle_initial_max_p,
                ..RedConfig::new(
                    r.min_th,
                    r.max_th,
                    r.max_p,
                    r.w_q,
                    rate.tx_time(r.mean_pkt_size as u64),
                )
            };
            let params = RedParams::new(cfg)?;
            if r.adaptive {
                Aqm::AdaptiveRed(AdaptiveRed::new(AdaptiveRedParams::new(
                    params,
                    AdaptiveRedConfig::default(),
                )?))
            } else {
                Aqm::Red(Red::new(params))
            }
        }
        QueueSpec::Rio {
            precedences,
            coupling,
            gentle,
            queue_unit,
            mean_pkt_size,
            wait,
            ns2_avg_on_in_arrivals,
            ns2_out_forced_keeps_count,
            ..
        } => {
            let lvl = |p: &RioPrecedenceSpec| RioLevel {
                gentle: *gentle,
                ..RioLevel::new(p.min_th, p.max_th, p.max_p, p.w_q)
            };
            let idle = rate.tx_time(*mean_pkt_size as u64);
            let mut cfg = match precedences.as_slice() {
                [a, b] => RioConfig::two(lvl(a), lvl(b), idle),
                [a, b, c] => RioConfig::three(lvl(a), lvl(b), lvl(c), idle),
                _ => {
                    return Err(ConfigError::out_of_range(
                        "precedences",
                        precedences.len(),
                        "2 (In/Out) or 3 (green/yellow/red)",
                    ))
                }
            };
            cfg.coupling = match coupling {
                RioCoupling::Coupled => Coupling::Coupled,
                RioCoupling::Decoupled => Coupling::Decoupled,
            };
            cfg.unit = unit(*queue_unit);
            cfg.mean_pkt_size = *mean_pkt_size;
            cfg.wait = *wait;
            if *ns2_avg_on_in_arrivals {
                cfg.sampling = AvgSampling::Ns2InArrivalsOnly;
            }
            cfg.ns2_out_forced_keeps_count = *ns2_out_forced_keeps_count;
            Aqm::Rio(Rio::new(RioParams::new(cfg)?))
        }
    };
    Ok((aqm, limit))
}
