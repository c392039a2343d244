//! Congestion-level estimate (CLE) at a PCN-egress-node, per ingress-egress aggregate:
//! draft-satoh-pcn-st-marking-02 §3.2.1 ("the fraction of the marked traffic received from
//! the ingress node") and §11.1 ("The CLE was computed as an exponential weighted moving
//! average (EWMA) ... The CLE was computed on a per-packet basis").
//!
//! `cle ← (1 − w)·cle + w·[packet marked]`, one update per packet (packets, not bytes).
//! Choices (map §5 item 3): `w` weights the newest sample; the initial value is 0. What
//! counts as "marked" is the caller's choice (STM: threshold-marked; CL: AM or PM, map
//! §1.7 \[X/G\]).

use crate::error::ConfigError;

/// The largest CLE threshold eq. (1) of §3.3.1 allows: "The maximum of the CLE threshold
/// MUST be CLE threshold = (1/N)*rho", ρ = the minimum AR/SR over the links between the
/// ingress and the egress.
pub fn max_cle_threshold(n: u32, rho: f64) -> f64 {
    rho / n.max(1) as f64
}

/// Per-packet EWMA of the marked fraction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cle {
    weight: f64,
    value: f64,
}

impl Cle {
    /// `0 < weight ≤ 1` (Table B.1 uses 0.0005 … 0.3).
    pub fn new(weight: f64) -> Result<Cle, ConfigError> {
        if !(weight > 0.0 && weight <= 1.0) {
            return Err(ConfigError::out_of_range(
                "ewma_weight",
                weight,
                "0 < w <= 1 (EWMA weight of the newest packet, §11.1)",
            ));
        }
        Ok(Cle { weight, value: 0.0 })
    }
    pub fn weight(&self) -> f64 {
        self.weight
    }
    /// One packet: returns the new estimate.
    #[inline]
    pub fn update(&mut self, marked: bool) -> f64 {
        let x = if marked { 1.0 } else { 0.0 };
        self.value = (1.0 - self.weight) * self.value + self.weight * x;
        self.value
    }
    pub fn value(&self) -> f64 {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::super::admit;
    use super::*;

    #[test]
    fn ewma_steps_exactly() {
        let mut c = Cle::new(0.3).unwrap();
        assert_eq!(c.value(), 0.0);
        assert_eq!(c.update(true), 0.3);
        assert!((c.update(false) - 0.21).abs() < 1e-15);
        assert!((c.update(true) - (0.7 * 0.21 + 0.3)).abs() < 1e-15);
    }

    /// Map §1.4 [Der]: with w = 0.3 one marked packet lifts the CLE to 0.3; it falls below
    /// the threshold only after k unmarked packets: 36 (1e-6), 29 (1e-5), 6 (0.05).
    #[test]
    fn unmarked_run_needed_to_readmit_after_one_mark() {
        for (threshold, k) in [(1e-6, 36), (1e-5, 29), (0.05, 6)] {
            let mut c = Cle::new(0.3).unwrap();
            c.update(true);
            let mut n = 0;
            while !admit(c.value(), threshold) {
                c.update(false);
                n += 1;
            }
            assert_eq!(n, k, "threshold {threshold}");
        }
    }

    /// Every (threshold, weight) case of Table B.1 is a valid CLE and satisfies eq. (1) for
    /// the admission set-up (AR = 0.5·C, SR = 0.9·C, N = 3: max 0.1852, map §1.5).
    #[test]
    fn table_b1_cases_satisfy_eq_1() {
        const B1: &str = include_str!("../../../../data/pcn-stm/table_b1.csv");
        let max = max_cle_threshold(3, 0.5 / 0.9);
        assert!((max - 0.185185).abs() < 1e-6);
        let mut n = 0;
        for line in B1.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let threshold: f64 = f[1].parse().unwrap();
            let weight: f64 = f[2].parse().unwrap();
            assert!(Cle::new(weight).is_ok(), "{line}");
            assert!(threshold <= max, "{line}");
            n += 1;
        }
        assert_eq!(n, 6);
    }

    #[test]
    fn weight_is_validated() {
        assert!(Cle::new(0.0).is_err());
        assert!(Cle::new(1.5).is_err());
        assert!(Cle::new(f64::NAN).is_err());
        assert!(Cle::new(1.0).is_ok());
        assert!(Cle::new(0.0005).is_ok());
    }
}
