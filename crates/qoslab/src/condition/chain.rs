//! CHAIN.toml: an ordered list of `[[stage]]` tables, parsed and validated completely before
//! any packet is read, then built into running stages.
//!
//! The file is read by [`qoslab_sim::scenario::parse_chain_str`], the same parser that
//! reads the `conditioner` lists of scenario links: the stage kinds, their keys and
//! defaults, the rules checked and the error messages (file:line:column, the key path
//! `stage[k].key` with `k` counting the `[[stage]]` tables from 0, the value found, what is
//! allowed) are documented there. What differs from a scenario link is passed in there:
//! stages may come in any order (a plain RAS or `tb-shaper` may stand anywhere), and since
//! there is no link, a RAS's `mir` is required and its `line_rate` defaults to MIR.
//!
//! ```toml
//! seed = 1        # optional: master seed of the TSW markers' random streams (default 1)
//! af_class = 1    # optional: AF class 1..4 for the DSCP written into pcap output (default 1)
//!
//! [[stage]]
//! kind = "g-trras" # shaper coupled to the trTCM right after it (RFC 2963 §3)
//! cir = "2Mbps"
//! pir = "4Mbps"
//! mir = "34Mbps"
//! cir_th = "6KB"
//! pir_th = "12KB"
//! mir_th = "24KB"
//! buffer = "64KB"
//!
//! [[stage]]
//! kind = "trtcm"
//! cir = "2Mbps"
//! cbs = "3000B"
//! pir = "4Mbps"
//! pbs = "6000B"
//! ```
//!
//! Choices of the trace tool, documented:
//! - **Colour-aware meters behind a green RAS**: T2 is `NEVER` for a head packet that the
//!   meter could never colour green (pre-coloured yellow/red in colour-aware mode, see
//!   `Meter::can_color_green`): it leaves at T1, as the RFC's "would be colored as green"
//!   cannot happen. The stage keeps the colours of the packets it holds for this.
//! - **`tb-shaper`**: a packet larger than `depth` is refused (`dropped`, as Linux `tbf`
//!   does; see `qoslab_algo::shaper::token_bucket`).

use std::collections::VecDeque;

use qoslab_algo::meter::{Meter, SrTcm, TbPolicer, TrTcm, Tsw2cm, Tsw3cm};
use qoslab_algo::shaper::{DropCause, GreenOracle, Shaper, ShaperKind, ShaperStats};
use qoslab_algo::{Color, PacketView, Time};
use qoslab_sim::scenario::spec::MeterSpec;
use qoslab_sim::scenario::{parse_chain_str, StageParams};

use super::ConditionError;

/// Default EAR averaging constant K of the rate adaptive shapers (RFC 2963 leaves it open).
pub use qoslab_sim::scenario::DEFAULT_K;

/// A validated chain, ready to run.
#[derive(Debug)]
pub struct Chain {
    pub seed: u64,
    /// AF class (1..=4) whose AFx1/AFx2/AFx3 codepoints encode green/yellow/red in pcap output.
    pub af_class: u8,
    pub stages: Vec<Stage>,
}

impl Chain {
    pub fn has_shaper(&self) -> bool {
        self.stages.iter().any(|s| matches!(s, Stage::Shaper(_)))
    }
    pub fn has_policer(&self) -> bool {
        self.stages
            .iter()
            .any(|s| matches!(s, Stage::Meter(Meter::Policer(TbPolicer { .. }))))
    }
    /// Whether any stage can drop a packet (a policer, or a shaper with a full buffer).
    pub fn can_drop(&self) -> bool {
        self.has_policer() || self.has_shaper()
    }
}

/// One stage of a chain.
#[derive(Debug)]
pub enum Stage {
    Meter(Meter),
    /// Boxed: a shaper holds its FIFO and is much larger than a meter.
    Shaper(Box<ShaperStage>),
}

/// A shaper stage: "holds packets, releases them at deadlines" (the algorithms of
/// `qoslab_algo::shaper`), plus the colours of the packets it holds, in FIFO order, so that
/// a green RAS can ask whether its head packet can become green at all (module docs).
#[derive(Debug)]
pub struct ShaperStage {
    shaper: Shaper,
    held: VecDeque<Color>,
}

/// What a green RAS asks of the meter right after it: T2 of the head packet, `NEVER` when
/// there is no meter or the meter could never colour the head green.
struct HeadOracle<'a> {
    meter: Option<&'a Meter>,
    head: Option<Color>,
}

impl GreenOracle for HeadOracle<'_> {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        match (self.meter, self.head) {
            (Some(m), Some(c)) if m.can_color_green(c) => m.earliest_green(now, size),
            _ => Time::NEVER,
        }
    }
}

impl ShaperStage {
    pub fn new(shaper: Shaper) -> Self {
        ShaperStage {
            shaper,
            held: VecDeque::new(),
        }
    }

    /// The algorithm inside (tests inspect its parameters).
    #[cfg(test)]
    pub fn shaper(&self) -> &Shaper {
        &self.shaper
    }

    fn oracle<'a>(&self, meter: Option<&'a Meter>) -> HeadOracle<'a> {
        HeadOracle {
            meter,
            head: self.held.front().copied(),
        }
    }

    /// Offers packet `id` at `now`; `Err` if the shaper refuses it (dropped).
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), DropCause> {
        self.shaper.on_arrival(now, id, pkt).map_err(|d| d.cause)?;
        self.held.push_back(pkt.color);
        Ok(())
    }

    /// The next instant at which the shaper wants to release a packet. `meter` is the meter
    /// that immediately follows the shaper in the chain (consulted by a green RAS, RFC 2963
    /// §3); the answer changes whenever that meter meters a packet, so ask again after each.
    pub fn next_release(&self, meter: Option<&Meter>) -> Option<Time> {
        self.shaper.next_release(&self.oracle(meter))
    }

    /// Releases the head packet if its release instant is `<= now`.
    pub fn release(&mut self, now: Time, meter: Option<&Meter>) -> Option<(u64, PacketView)> {
        let out = self.shaper.release(now, &self.oracle(meter))?;
        self.held.pop_front();
        Some(out)
    }

    pub fn stats(&self) -> &ShaperStats {
        self.shaper.stats()
    }

    /// The stage kind as written in CHAIN.toml.
    pub fn kind_name(&self) -> &'static str {
        match self.shaper.kind() {
            ShaperKind::TokenBucket => "tb-shaper",
            ShaperKind::SrRas => "srras",
            ShaperKind::TrRas => "trras",
            ShaperKind::GSrRas => "g-srras",
            ShaperKind::GTrRas => "g-trras",
        }
    }
}

/// Parses and validates CHAIN.toml text; `file` names it in messages. The stages are read
/// by `qoslab_sim::scenario::parse_chain_str`, the parser of scenario conditioners too.
pub fn parse_chain(file: &str, text: &str) -> Result<Chain, ConditionError> {
    let spec = parse_chain_str(text, file).map_err(|e| ConditionError::Input(e.to_string()))?;
    let stages = spec
        .stages
        .into_iter()
        .map(|s| match s.params {
            StageParams::Shaper(p) => Stage::Shaper(Box::new(ShaperStage::new(Shaper::new(p)))),
            StageParams::Meter(m) => Stage::Meter(match m {
                MeterSpec::SrTcm(p) => Meter::SrTcm(SrTcm::new(p)),
                MeterSpec::TrTcm(p) => Meter::TrTcm(TrTcm::new(p)),
                MeterSpec::Tsw2cm(p) => Meter::Tsw2cm(Tsw2cm::new(p)),
                MeterSpec::Tsw3cm(p) => Meter::Tsw3cm(Tsw3cm::new(p)),
                MeterSpec::Policer(p) => Meter::Policer(TbPolicer::new(p)),
            }),
        })
        .collect();
    Ok(Chain {
        seed: spec.seed,
        af_class: spec.af_class,
        stages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qoslab_algo::meter::{ColorMode, SrTcmParams};
    use qoslab_algo::shaper::{RasParams, TokenBucketParams, TrRasConfig};
    use qoslab_algo::{Duration, Rate};

    fn err(text: &str) -> String {
        match parse_chain("c.toml", text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => {
                assert_eq!(e.exit_code(), 2, "{e}");
                e.to_string()
            }
        }
    }

    const SRRAS: &str = "[[stage]]\nkind='srras'\ncir='2Mbps'\nmir='10Mbps'\ncir_th='5KB'\nbuffer='64KB'\nmir_th='20KB'\n";
    const TRRAS: &str = "[[stage]]\nkind='trras'\ncir='2Mbps'\npir='4Mbps'\nmir='34Mbps'\ncir_th='6KB'\npir_th='12KB'\nmir_th='24KB'\nbuffer='64KB'\n";
    const G_SRRAS: &str = "[[stage]]\nkind='g-srras'\ncir='2Mbps'\nmir='10Mbps'\ncir_th='5KB'\nmir_th='20KB'\nbuffer='64KB'\n";
    const G_TRRAS: &str = "[[stage]]\nkind='g-trras'\ncir='2Mbps'\npir='4Mbps'\nmir='34Mbps'\ncir_th='6KB'\npir_th='12KB'\nmir_th='24KB'\nbuffer='64KB'\n";
    const SRTCM: &str = "[[stage]]\nkind='srtcm'\ncir='2Mbps'\ncbs='3KB'\nebs='3KB'\n";
    const TRTCM: &str = "[[stage]]\nkind='trtcm'\ncir='2Mbps'\ncbs='3KB'\npir='4Mbps'\npbs='6KB'\n";

    #[test]
    fn shaper_chains() {
        let c = parse_chain(
            "c.toml",
            &format!("{G_TRRAS}{TRTCM}{G_SRRAS}{SRTCM}{SRRAS}"),
        )
        .unwrap();
        assert!(c.has_shaper() && c.can_drop() && !c.has_policer());
        let kinds: Vec<&str> = c
            .stages
            .iter()
            .map(|s| match s {
                Stage::Meter(m) => m.kind_name(),
                Stage::Shaper(s) => s.kind_name(),
            })
            .collect();
        assert_eq!(kinds, ["g-trras", "trtcm", "g-srras", "srtcm", "srras"]);
        // The parameters as written, with the defaults line_rate = MIR and K = 100 ms.
        let Stage::Shaper(sh) = &c.stages[0] else {
            panic!()
        };
        let want = RasParams::two_rate(&TrRasConfig {
            cir: Rate(2_000_000),
            pir: Rate(4_000_000),
            mir: Rate(34_000_000),
            line_rate: Rate(34_000_000),
            cir_th: 6000,
            pir_th: 12_000,
            mir_th: 24_000,
            buffer: 64_000,
            ear_window: Duration::from_millis(100),
        })
        .unwrap();
        match sh.shaper() {
            Shaper::GreenRas(g) => assert_eq!(*g.params(), want),
            other => panic!("{other:?}"),
        }
        let c = parse_chain(
            "c.toml",
            &format!("{SRRAS}line_rate='100Mbps'\nk='1.5s'\n[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ndepth='1500B'\nbuffer='10KiB'\n"),
        )
        .unwrap();
        match (&c.stages[0], &c.stages[1]) {
            (Stage::Shaper(a), Stage::Shaper(b)) => {
                let (Shaper::Ras(r), Shaper::TokenBucket(t)) = (a.shaper(), b.shaper()) else {
                    panic!("{a:?} {b:?}")
                };
                assert_eq!(
                    (r.params().line_rate(), r.params().ear().k()),
                    (Rate(100_000_000), Duration::from_millis(1500))
                );
                assert_eq!(
                    *t.params(),
                    TokenBucketParams::new(Rate(1_000_000), 1500, 10_240).unwrap()
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn valid_chains() {
        let c = parse_chain(
            "c.toml",
            "seed = 9\naf_class = 2\n[[stage]]\nkind = \"srtcm\"\nmode = \"aware\"\ncir = \"2Mbps\"\ncbs = \"3000B\"\nebs = \"6KB\"\n\
             [[stage]]\nkind = \"token-bucket\"\ncir = \"10Mbps\"\ncbs = \"64KiB\"\naction = \"red\"\n",
        )
        .unwrap();
        assert_eq!((c.seed, c.af_class, c.stages.len()), (9, 2, 2));
        match &c.stages[0] {
            Stage::Meter(Meter::SrTcm(m)) => {
                assert_eq!(
                    *m.params(),
                    SrTcmParams::new(ColorMode::Aware, Rate(2_000_000), 3000, 6000).unwrap()
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!c.has_policer() || matches!(c.stages[1], Stage::Meter(Meter::Policer(_))));
        assert!(c.has_policer() && !c.has_shaper());
        let c = parse_chain(
            "c.toml",
            "[[stage]]\nkind='trtcm'\ncir='1Mbps'\ncbs='3KB'\npir='2Mbps'\npbs='6KB'\n[[stage]]\nkind='tsw2cm'\ntarget='1Mbps'\n\
             [[stage]]\nkind='tsw3cm'\nctr='1Mbps'\nptr='2Mbps'\nwindow='100ms'\n",
        )
        .unwrap();
        assert_eq!((c.seed, c.af_class, c.stages.len()), (1, 1, 3));
        assert!(!c.has_policer());
    }

    /// Data-driven table of broken chains and the message each must produce (file:line, key,
    /// what is allowed).
    #[test]
    fn invalid_chains_name_line_key_and_allowed() {
        let cases: &[(&str, &[&str])] = &[
            ("sed = 1\n[[stage]]\nkind='srtcm'\n",
                &["c.toml:1:", "sed: unknown key in a chain file", "did you mean `seed`", "allowed: seed, af_class, stage"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\ncbs = '3000B'\nebs = '1B'\npbs = '3B'\n",
                &["c.toml:6:", "stage[0].pbs: unknown key in an srtcm stage", "allowed: kind, mode, cir, cbs, ebs"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbs'\ncbs = '3000B'\nebs = '1B'\n",
                &["c.toml:3:", "stage[0].cir = '2Mbs'", "unknown unit `Mbs`", "bps, Kbps, Mbps, Gbps"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = 2000000\ncbs = '3000B'\nebs = '1B'\n",
                &["c.toml:3:", "stage[0].cir = 2000000", "a rate needs a unit, written as a string"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\nebs = '1B'\n",
                &["c.toml:1:", "stage[0]: missing key `cbs` of an srtcm stage", "committed burst size"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = '2Mbps'\ncbs = '0B'\nebs = '0B'\n",
                &["c.toml:1:", "RFC 2697", "CBS > 0 or EBS > 0"]),
            ("\n[[stage]]\nkind = 'trtcm'\ncir = '2Mbps'\ncbs = '1B'\npir = '1Mbps'\npbs = '1B'\n",
                &["c.toml:2:", "PIR >= CIR", "RFC 2698"]),
            ("[[stage]]\nkind = 'srtcm'\nmode = 'colourful'\ncir = '2Mbps'\ncbs = '1B'\nebs = '1B'\n",
                &["c.toml:3:", "stage[0].mode = 'colourful'", "must be one of \"blind\", \"aware\""]),
            ("[[stage]]\nkind = 'wred'\n", &["c.toml:2:", "stage[0].kind = 'wred'", "must be one of \"srtcm\", \"trtcm\""]),
            ("[[stage]]\ncir = '1Mbps'\n", &["c.toml:1:", "stage[0]: missing key `kind`", "srtcm, trtcm"]),
            ("[[stage]]\nkind = 'token-bucket'\ncir='1Mbps'\ncbs='1KB'\naction='green'\n",
                &["c.toml:5:", "stage[0].action = 'green'", "must be one of \"drop\", \"yellow\", \"red\""]),
            ("[[stage]]\nkind = 'tsw2cm'\ntarget='1Mbps'\nwindow='0s'\n", &["c.toml:1:", "`window`", "> 0"]),
            ("[[stage]]\nkind = 'tsw2cm'\ntarget='1Mbps'\nwindow='1min'\n", &["c.toml:4:", "stage[0].window = '1min'", "ns, us, ms, s"]),
            ("af_class = 5\n[[stage]]\nkind='tsw2cm'\ntarget='1Mbps'\n", &["c.toml:1:", "af_class = 5", "1, 2, 3 or 4"]),
            ("seed = -1\n[[stage]]\nkind='tsw2cm'\ntarget='1Mbps'\n", &["c.toml:1:", "seed = -1", "must be an integer in [0, "]),
            ("seed = 1\n", &["c.toml:2:", "no [[stage]]"]),
            ("[[stage]]\nkind = 'srtcm'\ncir = = 1\n", &["c.toml:3:", "invalid TOML"]),
            ("[[stage]]\nkind = 'g-trras'\ncir='1Mbps'\n", &["c.toml:1:", "stage[0]: missing key `mir` of a g-trras stage", "maximum information rate"]),
            ("[[stage]]\nkind = 'srras'\ncir='1Mbps'\npir='2Mbps'\n", &["c.toml:4:", "stage[0].pir: unknown key in an srras stage", "mir_th", "line_rate"]),
            (SRRAS, &[]),
            (&SRRAS.replace("mir='10Mbps'", "mir='1Mbps'"), &["c.toml:1:", "RFC 2963 §2.2", "CIR <= MIR <= line rate"]),
            (&format!("{SRRAS}line_rate='2Mbps'\n"), &["c.toml:1:", "RFC 2963 §2.2", "CIR <= MIR <= line rate"]),
            (&SRRAS.replace("mir_th='20KB'", "mir_th='100KB'"), &["c.toml:1:", "CIR_th <= MIR_th <= buffer size"]),
            (&format!("{SRRAS}k='0s'\n"), &["c.toml:1:", "K", "> 0"]),
            (&format!("{SRRAS}k='1.5ns'\n"), &["c.toml:8:", "stage[0].k = '1.5ns'", "nanoseconds"]),
            (&TRRAS.replace("pir_th='12KB'", "pir_th='30KB'"), &["c.toml:1:", "RFC 2963 §2.4", "CIR_th <= PIR_th <= MIR_th <= buffer size"]),
            (&TRRAS.replace("pir='4Mbps'", "pir='40Mbps'"), &["c.toml:1:", "RFC 2963 §2.4", "CIR <= PIR <= MIR <= line rate"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ndepth='0B'\nbuffer='1KB'\n", &["c.toml:1:", "`depth` = 0", ">= 1 byte"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1MBps'\ndepth='1B'\nbuffer='1KB'\n", &["c.toml:3:", "stage[0].rate = '1MBps'", "bits per second"]),
            ("[[stage]]\nkind='tb-shaper'\nrate='1Mbps'\ncbs='1B'\n", &["c.toml:4:", "stage[0].cbs: unknown key in a tb-shaper stage", "rate, depth, buffer"]),
            // Green RAS couplings (RFC 2963 §3), reported at the green RAS's `kind`.
            (G_SRRAS, &["c.toml:2:", "stage[0].kind = 'g-srras'", "RFC 2963 §3.3: a G-srRAS must be followed by the srTCM it is coupled to", "it is the last stage"]),
            (&format!("{G_SRRAS}{TRTCM}"), &["c.toml:2:", "RFC 2963 §3.3", "the next stage is a `trtcm`", "kind = \"srtcm\""]),
            (&format!("{TRTCM}{G_TRRAS}{SRTCM}"), &["c.toml:8:", "stage[1].kind = 'g-trras'", "RFC 2963 §3.5: a G-trRAS must be followed by the trTCM it is coupled to", "the next stage is a `srtcm`"]),
            (&format!("{G_TRRAS}{G_TRRAS}{TRTCM}"), &["c.toml:2:", "stage[0].kind = 'g-trras'", "the next stage is a `g-trras`"]),
        ];
        // Every mismatch is listed, not only the first.
        let mut wrong = Vec::new();
        for (text, wants) in cases {
            if wants.is_empty() {
                // A valid base for the variations below: it must parse.
                parse_chain("c.toml", text).unwrap();
                continue;
            }
            let msg = err(text);
            for w in *wants {
                if !msg.contains(w) {
                    wrong.push(format!("message {msg:?} lacks {w:?} for\n{text}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    }
}
