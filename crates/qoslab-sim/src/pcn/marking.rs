//! The marker at the input of each PCN link: one of the algorithms of
//! `qoslab_algo::pcn`, chosen by the scenario's `scheme` (an enum, no dynamic dispatch).
//! Parameters "t at rate r" are converted to bits with `qoslab_algo::pcn::bits_at`
//! (§10.4, §10.5).

use qoslab_algo::pcn::{
    bits_at, ClAdmissionParams, ClMarker, ClTerminationParams, ExcessMeter, FractionalMarker,
    FractionalParams, MkThresholdReading, PcnMark, StmMarker, StmParams,
};
use qoslab_algo::{Rng, Time};

use super::spec::{PcnSpec, Scheme};

pub enum LinkMarker {
    Stm(StmMarker),
    Fractional(FractionalMarker),
    Cl(ClMarker),
}

impl LinkMarker {
    pub fn new(spec: &PcnSpec) -> Result<LinkMarker, String> {
        let (ar, sr) = (spec.admissible_rate, spec.supportable_rate);
        Ok(match spec.scheme {
            Scheme::Stm => {
                let s = &spec.stm;
                LinkMarker::Stm(
                    StmMarker::new(StmParams {
                        admissible_rate: ar,
                        supportable_rate: sr,
                        swtb_size_bits: bits_at(ar, s.swtb_size),
                        swtb_threshold_bits: bits_at(ar, s.swtb_threshold),
                        mktb_size_bits: bits_at(sr, s.mktb_size),
                        mktb_threshold_bits: bits_at(sr, s.mktb_threshold),
                        n: s.n,
                        mk_threshold_reading: if s.mk_threshold_reading == "deficit" {
                            MkThresholdReading::Deficit
                        } else {
                            MkThresholdReading::Literal
                        },
                    })
                    .map_err(|e| format!("STM marker: {e}"))?,
                )
            }
            Scheme::Fractional => {
                let f = &spec.fractional;
                LinkMarker::Fractional(
                    FractionalMarker::new(FractionalParams {
                        admissible_rate: ar,
                        supportable_rate: sr,
                        frtb_size_bits: bits_at(ar, f.frtb_size),
                        frtb_threshold_bits: bits_at(ar, f.frtb_threshold),
                        thtb_size_bits: bits_at(sr, f.thtb_size),
                        thtb_threshold_bits: bits_at(sr, f.thtb_threshold),
                        n: f.n,
                    })
                    .map_err(|e| format!("fractional marker: {e}"))?,
                )
            }
            Scheme::Cl => {
                let c = &spec.cl;
                LinkMarker::Cl(
                    ClMarker::new(
                        ClAdmissionParams {
                            admissible_rate: ar,
                            min_threshold_bits: bits_at(ar, c.vq_min),
                            max_threshold_bits: bits_at(ar, c.vq_max),
                            limit_bits: bits_at(ar, c.vq_limit),
                        },
                        ClTerminationParams {
                            supportable_rate: sr,
                            depth_bits: bits_at(sr, c.tb_depth),
                            meter_already_marked: c.meter_already_marked,
                            meter: ExcessMeter::from_name(&c.excess_meter).unwrap_or_default(),
                        },
                    )
                    .map_err(|e| format!("CL marker: {e}"))?,
                )
            }
        })
    }

    #[inline]
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark, rng: &mut Rng) -> PcnMark {
        match self {
            LinkMarker::Stm(m) => m.on_packet(now, bits, mark),
            LinkMarker::Fractional(m) => m.on_packet(now, bits, mark),
            LinkMarker::Cl(m) => m.on_packet(now, bits, mark, rng),
        }
    }
}
