//! Egress and ingress state machines per IEA (the algorithms of `qoslab_algo::pcn`), behind
//! one engine-level signal type: STM (§3.2, §3.3) for `stm` and `fractional`, CL for `cl`:
//! RFC 6661 §3 (`qoslab_algo::pcn::cl_edge`, `[pcn.cl] edge = "rfc6661"`) or
//! draft-briscoe-tsvwg-cl-phb-03 §10.4.1 (`qoslab_algo::pcn::cl_phb_edge`,
//! `edge = "cl-phb-03"`).

use qoslab_algo::pcn::stm_egress::FirstReport;
use qoslab_algo::pcn::stm_ingress::RoundStart;
use qoslab_algo::pcn::{
    ClEgress, ClEgressParams, ClIngress, ClIngressParams, ClPhbEgress, ClPhbEgressParams,
    ClPhbIngress, ClPhbIngressParams, ClReport, EgressSignal, PcnMark, ReportGating, StmEgress,
    StmEgressParams, StmIngress, StmIngressParams,
};
use qoslab_algo::{Duration, Time};

use super::spec::{PcnSpec, Scheme};

/// What an egress sends back to its ingress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// STM: receiving rate R.
    Report { rate_bps: u64, window_start: Time },
    /// CL: NM-, ThM- and ETM-rates of one measurement period (RFC 6661 §3.2.2), or of one
    /// SAR interval (cl-phb-03 §10.4.1; SAR = NM + AM).
    ClReport(ClReport),
    /// STM "cancel termination".
    Cancel,
}

pub enum Egress {
    Stm(StmEgress),
    Cl(ClEgress),
    ClPhb(ClPhbEgress),
}

pub enum Ingress {
    /// The flag: the report that starts a round is left out of R_min (`r_min_reports =
    /// "during-interval"`).
    Stm(StmIngress, bool),
    Cl(ClIngress),
    ClPhb(ClPhbIngress),
}

fn from_stm(s: EgressSignal) -> Signal {
    match s {
        EgressSignal::Report {
            rate_bps,
            window_start,
        } => Signal::Report {
            rate_bps,
            window_start,
        },
        EgressSignal::Cancel => Signal::Cancel,
    }
}

fn from_cl(r: ClReport) -> Signal {
    Signal::ClReport(r)
}

impl Egress {
    pub fn new(spec: &PcnSpec) -> Result<Egress, String> {
        let e = &spec.edge;
        Ok(match spec.scheme {
            Scheme::Stm | Scheme::Fractional => Egress::Stm(
                StmEgress::with_first_report(
                    StmEgressParams {
                        l_marks: e.l_marks,
                        m_unmarked: e.m_unmarked,
                        report_interval: e.report_interval,
                        rate_window: e.rate_window,
                        gating: if e.gating == "until-cancel" {
                            ReportGating::UntilCancel
                        } else {
                            ReportGating::WhileMarkedRun
                        },
                    },
                    if e.first_report == "one-interval-later" {
                        FirstReport::OneIntervalLater
                    } else {
                        FirstReport::AtLthMark
                    },
                )
                .map_err(|x| format!("STM egress: {x}"))?,
            ),
            Scheme::Cl if spec.cl.edge == "cl-phb-03" => Egress::ClPhb(
                ClPhbEgress::new(ClPhbEgressParams {
                    interval: spec.cl.t_meas,
                })
                .map_err(|x| format!("CL egress: {x}"))?,
            ),
            Scheme::Cl => Egress::Cl(
                ClEgress::new(ClEgressParams {
                    t_meas: spec.cl.t_meas,
                })
                .map_err(|x| format!("CL egress: {x}"))?,
            ),
        })
    }
    #[inline]
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> Option<Signal> {
        match self {
            Egress::Stm(e) => e.on_packet(now, bits, mark).map(from_stm),
            Egress::Cl(e) => {
                e.on_packet(now, bits, mark);
                None
            }
            Egress::ClPhb(e) => {
                e.on_packet(now, bits, mark);
                None
            }
        }
    }
    pub fn poll(&mut self, now: Time) -> Option<Signal> {
        match self {
            Egress::Stm(e) => e.poll(now).map(from_stm),
            Egress::Cl(e) => e.poll(now).map(from_cl),
            Egress::ClPhb(e) => e.poll(now).map(from_cl),
        }
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match self {
            Egress::Stm(e) => e.next_wakeup(),
            Egress::Cl(e) => e.next_wakeup(),
            Egress::ClPhb(e) => e.next_wakeup(),
        }
    }
}

impl Ingress {
    /// `one_way` is the egress → ingress delay (CL's hold-off rule).
    pub fn new(spec: &PcnSpec, one_way: Duration) -> Result<Ingress, String> {
        let e = &spec.edge;
        Ok(match spec.scheme {
            Scheme::Stm | Scheme::Fractional => Ingress::Stm(
                StmIngress::with_round_start(
                    StmIngressParams {
                        measure_interval: e.measure_interval,
                        extra_fraction: e.extra_fraction,
                    },
                    if e.round_start == "next-report" {
                        RoundStart::NextReport
                    } else {
                        RoundStart::BackToBack
                    },
                )
                .map_err(|x| format!("STM ingress: {x}"))?,
                e.r_min_reports == "during-interval",
            ),
            Scheme::Cl if spec.cl.edge == "cl-phb-03" => Ingress::ClPhb(
                ClPhbIngress::new(ClPhbIngressParams {
                    interval: spec.cl.send_window,
                    error1_ppm: (spec.cl.error1 * 1e6).round() as u32,
                    error2_ppm: (spec.cl.error2 * 1e6).round() as u32,
                    wait_after_order: (spec.cl.ingress_wait == "after-order").then_some(one_way),
                })
                .map_err(|x| format!("CL ingress: {x}"))?,
            ),
            Scheme::Cl => Ingress::Cl(
                ClIngress::new(ClIngressParams {
                    send_window: spec.cl.send_window,
                    one_way_delay: one_way,
                })
                .map_err(|x| format!("CL ingress: {x}"))?,
            ),
        })
    }
    #[inline]
    pub fn on_send(&mut self, now: Time, bits: u64) {
        match self {
            Ingress::Stm(i, _) => i.on_send(now, bits),
            Ingress::Cl(i) => i.on_send(now, bits),
            Ingress::ClPhb(i) => i.on_send(now, bits),
        }
    }
    pub fn on_signal(&mut self, now: Time, s: Signal) {
        match (self, s) {
            (Ingress::Stm(i, exclude_trigger), Signal::Report { rate_bps, .. }) => {
                // "As soon as [the ingress] receives a packet with information about a
                // receiving rate ..., it starts measuring the sending rate" (§3.3.2): with
                // `during-interval`, the starting report only starts the round (an R of
                // u64::MAX never wins the min; a round with no other report terminates
                // S − (1−y)·S = y·S).
                if *exclude_trigger && !i.measuring() {
                    i.on_report(now, u64::MAX)
                } else {
                    i.on_report(now, rate_bps)
                }
            }
            (Ingress::Stm(i, _), Signal::Cancel) => i.on_cancel(now),
            (Ingress::Cl(i), Signal::ClReport(r)) => {
                i.on_report(now, r);
            }
            (Ingress::ClPhb(i), Signal::ClReport(r)) => i.on_report(now, r),
            (Ingress::Stm(..), Signal::ClReport(_))
            | (Ingress::Cl(_) | Ingress::ClPhb(_), Signal::Report { .. }) => {}
            (Ingress::Cl(_) | Ingress::ClPhb(_), Signal::Cancel) => {}
        }
    }
    /// The order to terminate now, if any: (amount, sending rate S, R_min or SAR), bit/s.
    pub fn poll(&mut self, now: Time) -> Option<(u64, u64, u64)> {
        let t = match self {
            Ingress::Stm(i, _) => i.poll(now),
            Ingress::Cl(i) => i.poll(now),
            Ingress::ClPhb(i) => i.poll(now),
        }?;
        Some((t.rate_bps, t.sending_rate_bps, t.min_report_bps))
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match self {
            Ingress::Stm(i, _) => i.next_wakeup(),
            Ingress::Cl(i) => i.next_wakeup(),
            Ingress::ClPhb(i) => i.next_wakeup(),
        }
    }
}
