//! GCRA(T, τ), the virtual scheduling algorithm: the cell-level PCR check of a GFR
//! connection, GCRA(1/PCR, CDVT) on the aggregate CLP=0+1 cell flow.
//!
//! # Source
//! ITU-T I.371 Annex A "Generic Cell Rate Algorithm GCRA(T, τ)", A.1 "Virtual Scheduling
//! Algorithm (VSA)" (the same algorithm as the ATM Forum TM 4.1 GCRA). The GFR transfer
//! capability applies it to the PCR in ITU-T I.371.1 §6.3.1 "Cell conformance", with the
//! actions on non-conforming cells in §6.3.4 "UPC/NPC actions". We read the clause titles
//! from the tables of contents of I.371 (2004) and I.371.1 (2000) through the `search`
//! tool; the clause bodies were not readable there. The VSA is the textbook one; we checked
//! it against a textbook's flow chart and worked example (stored page
//! `text-id.123dok.com/document/6qm56v48z-…`, "Bandwidth enforcement", Fig. 4.16: T = 10,
//! τ = 15, cells at 0, 12, 18, 20, …; the test below extends it by hand):
//!
//! * **(V1)** a cell arriving at `ta` after its theoretical arrival time (`ta > TAT`)
//!   conforms, and `TAT ← ta + T`;
//! * **(V2)** a cell arriving at or before `TAT` conforms iff `TAT ≤ ta + τ`, and then
//!   `TAT ← TAT + T`;
//! * **(V3)** otherwise (`TAT > ta + τ`) it does not conform and `TAT` is unchanged.
//!
//! The first cell conforms (`TAT` starts at the first arrival time; we start it at 0 and let
//! (V1) do it, which is the same for any `ta ≥ 0`).
//!
//! # Exact time (as [`super::FGcra`])
//! `T = 1/PCR` with `PCR = num/den` cells/s ([`CellRate`]) is generally not a whole number
//! of ns, so times are kept in the unit "ns × num": `ta` is `ta_ns·num`, `T` is exactly
//! `den·10⁹`, `τ` is `τ_ns·num`. Every comparison and update is an exact `u128` operation.
//!
//! # What a non-conforming cell costs (documented choice)
//! This type only judges; the engine decides what happens to a [`GcraVerdict::NonConforming`]
//! cell. Under GFR the network may discard cells that fail the PCR check (I.371.1 §6.3.4;
//! tagging in GFR is a frame-level act of the F-GCRA, not a cell-level one): the engine
//! discards them (see `qoslab_sim::atm::engine`).
//!
//! # A consequence of integer-ns time
//! A port that sends back to back at exactly the PCR emits cell `k` at `⌊k·T⌋` ns (the
//! engine carries the remainder), i.e. up to 1 ns before the exact `k·T`. With `τ = 0`
//! such a stream is judged non-conforming whenever `k·T` is not whole; any `τ ≥ 1 ns`
//! absorbs that rounding (tested below).

use super::cell::CellRate;
use crate::error::ConfigError;
use crate::time::{Duration, Time};

const NS_PER_SEC: u128 = 1_000_000_000;

/// Settings of one GCRA(T, τ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GcraParams {
    /// The rate whose interval is `T` (the PCR for the GFR cell check).
    pub rate: CellRate,
    /// `τ` (the CDVT for the GFR cell check).
    pub tolerance: Duration,
}

/// The verdict on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcraVerdict {
    /// (V1) or (V2): the cell conforms.
    Conforming,
    /// (V3): the cell arrived more than `τ` before its theoretical arrival time.
    NonConforming,
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GcraCounters {
    pub cells: u64,
    pub conforming: u64,
    pub nonconforming: u64,
}

/// GCRA(T, τ), virtual scheduling form, for one connection.
#[derive(Clone, Debug)]
pub struct Gcra {
    p: GcraParams,
    /// `T` in units of ns·num: `den·10⁹`.
    t_units: u128,
    /// `τ` in units of ns·num.
    tau_units: u128,
    /// Theoretical arrival time in units of ns·num.
    tat: u128,
    counters: GcraCounters,
}

impl Gcra {
    /// Every [`CellRate`] is > 0 and every [`Duration`] ≥ 0, so no setting is impossible;
    /// the `Result` keeps the settings-then-state constructor form of this crate.
    pub fn new(p: GcraParams) -> Result<Self, ConfigError> {
        let num = p.rate.num() as u128;
        Ok(Gcra {
            t_units: p.rate.den() as u128 * NS_PER_SEC,
            tau_units: p.tolerance.as_nanos() as u128 * num,
            tat: 0,
            counters: GcraCounters::default(),
            p,
        })
    }

    pub fn params(&self) -> &GcraParams {
        &self.p
    }
    pub fn counters(&self) -> &GcraCounters {
        &self.counters
    }
    /// The theoretical arrival time in ns (rounded down), for reports and tests.
    pub fn tat_ns(&self) -> u64 {
        (self.tat / self.p.rate.num() as u128).min(u64::MAX as u128) as u64
    }

    /// Judge one cell arriving at `now` (times must not decrease).
    pub fn on_cell(&mut self, now: Time) -> GcraVerdict {
        self.counters.cells += 1;
        let ta = now.as_nanos() as u128 * self.p.rate.num() as u128;
        if ta > self.tat {
            // (V1) late: conforming, TAT ← ta + T.
            self.tat = ta + self.t_units;
        } else if self.tat <= ta + self.tau_units {
            // (V2) early by at most τ: conforming, TAT ← TAT + T.
            self.tat += self.t_units;
        } else {
            // (V3) early by more than τ: non-conforming, TAT unchanged.
            self.counters.nonconforming += 1;
            return GcraVerdict::NonConforming;
        }
        self.counters.conforming += 1;
        GcraVerdict::Conforming
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Rate;
    use GcraVerdict::*;

    fn gcra(cells_per_sec: u64, tau_ns: u64) -> Gcra {
        Gcra::new(GcraParams {
            rate: CellRate::per_sec(cells_per_sec).unwrap(),
            tolerance: Duration::from_nanos(tau_ns),
        })
        .unwrap()
    }

    #[test]
    fn worked_example_t10_tau15() {
        // T = 10, τ = 15 (time unit 1 ms: 100 cells/s, τ = 15 ms); arrivals 0, 12, 18, 20,
        // 25, 32. By hand:
        //  0: TAT 0 ≥ 0, 0 ≤ 0 + 15 → conforms, TAT 10.
        // 12: 12 > 10 (late) → conforms, TAT 22.
        // 18: 22 ≤ 33 → conforms, TAT 32.
        // 20: 32 ≤ 35 → conforms, TAT 42.
        // 25: 42 > 40 → NON-conforming, TAT stays 42.
        // 27: 42 ≤ 42 → conforms (boundary), TAT 52.
        let mut g = gcra(100, 15_000_000);
        let ms = Time::from_millis;
        let got: Vec<_> = [0, 12, 18, 20, 25, 27]
            .iter()
            .map(|&t| g.on_cell(ms(t)))
            .collect();
        assert_eq!(
            got,
            vec![
                Conforming,
                Conforming,
                Conforming,
                Conforming,
                NonConforming,
                Conforming
            ]
        );
        assert_eq!(g.tat_ns(), 52_000_000);
        assert_eq!(
            *g.counters(),
            GcraCounters {
                cells: 6,
                conforming: 5,
                nonconforming: 1
            }
        );
    }

    #[test]
    fn tau_zero_allows_exactly_one_cell_per_t() {
        let mut g = gcra(1000, 0);
        assert_eq!(g.on_cell(Time::ZERO), Conforming); // TAT 1 ms
        assert_eq!(g.on_cell(Time::from_nanos(999_999)), NonConforming);
        assert_eq!(g.on_cell(Time::from_millis(1)), Conforming); // TAT 2 ms
        assert_eq!(g.on_cell(Time::from_millis(5)), Conforming); // late: TAT 6 ms
        assert_eq!(g.tat_ns(), 6_000_000);
    }

    #[test]
    fn back_to_back_at_the_pcr_needs_one_ns_of_tolerance() {
        // PCR = 51.84 Mb/s of cells: T = 424/51.84e6 s = 8179.012… ns. A port emitting at
        // exactly the PCR puts cell k at ⌊k·T⌋ ns.
        let pcr = CellRate::from_line_rate(Rate::from_bps(51_840_000)).unwrap();
        let at = |k: u64| Time::from_nanos(k * 424_000_000_000 / 51_840_000);
        let mut exact = Gcra::new(GcraParams {
            rate: pcr,
            tolerance: Duration::ZERO,
        })
        .unwrap();
        let mut one_ns = Gcra::new(GcraParams {
            rate: pcr,
            tolerance: Duration::from_nanos(1),
        })
        .unwrap();
        for k in 0..1000 {
            exact.on_cell(at(k));
            assert_eq!(one_ns.on_cell(at(k)), Conforming, "cell {k}");
        }
        // Cell 1 at ⌊T⌋ = 8179 ns < TAT = 8179.01 ns: with τ = 0 it already fails.
        assert!(exact.counters().nonconforming > 0);
        assert_eq!(one_ns.counters().nonconforming, 0);
    }

    #[test]
    fn twice_the_pcr_fails_every_other_cell_once_tau_is_spent() {
        // T = 1 ms, τ = 0, cells every 0.5 ms: 0 ok (TAT 1), 0.5 no, 1.0 ok (TAT 2), 1.5 no…
        let mut g = gcra(1000, 0);
        let got: Vec<_> = (0..6)
            .map(|k| g.on_cell(Time::from_micros(500 * k)))
            .collect();
        assert_eq!(
            got,
            vec![
                Conforming,
                NonConforming,
                Conforming,
                NonConforming,
                Conforming,
                NonConforming
            ]
        );
    }
}
