//! Mean and 95 % confidence interval over seeds (Student t).
//!
//! With n independent replications x₁..xₙ (one per seed), the interval is
//! mean ± t₀.₉₇₅,ₙ₋₁ · s / √n, where s is the sample standard deviation (divisor n − 1).
//! A single replication has no interval. Values that are not finite (a metric that could
//! not be computed) are left out and the count says how many remained.

/// Two-sided 95 % quantiles t₀.₉₇₅,ν of Student's t for ν = 1..=30 degrees of freedom
/// (checked to 1e-9 against numerical integration of the t density).
const T975: [f64; 30] = [
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
];

/// Beyond the table: (ν, t₀.₉₇₅,ν) at 40, 60, 120 and ∞, interpolated linearly in 1/ν
/// (the standard table interpolation; error below 1e-4 in between).
const T975_TAIL: [(f64, f64); 4] = [
    (40.0, 2.021075390),
    (60.0, 2.000297822),
    (120.0, 1.979930405),
    (f64::INFINITY, 1.959963985),
];

/// t₀.₉₇₅ with `df` degrees of freedom (`df` ≥ 1).
pub fn t975(df: usize) -> f64 {
    assert!(df >= 1, "t quantile needs at least one degree of freedom");
    if df <= 30 {
        return T975[df - 1];
    }
    let inv = 1.0 / df as f64;
    let mut prev = (30.0, T975[29]);
    for &(nu, t) in &T975_TAIL {
        if (df as f64) <= nu {
            let (a, b) = (1.0 / prev.0, if nu.is_finite() { 1.0 / nu } else { 0.0 });
            return prev.1 + (t - prev.1) * (a - inv) / (a - b);
        }
        prev = (nu, t);
    }
    T975_TAIL[3].1
}

/// Mean of replications and the half-width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Replications that gave a finite value.
    pub n: usize,
    /// NaN when n = 0.
    pub mean: f64,
    /// None when n < 2.
    pub ci95: Option<f64>,
}

impl Summary {
    pub fn of(xs: &[f64]) -> Summary {
        let v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
        let n = v.len();
        if n == 0 {
            return Summary {
                n,
                mean: f64::NAN,
                ci95: None,
            };
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Summary {
                n,
                mean,
                ci95: None,
            };
        }
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        Summary {
            n,
            mean,
            ci95: Some(t975(n - 1) * var.sqrt() / (n as f64).sqrt()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_hand_computed() {
        // 1, 2, 3, 4, 5: mean 3; s² = (4+1+0+1+4)/4 = 2.5; s/√n = √0.5 = 0.70710678;
        // t₀.₉₇₅,₄ = 2.776445105 -> half-width 1.963243161
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(s.n, 5);
        assert_eq!(s.mean, 3.0);
        assert!((s.ci95.unwrap() - 2.776445105 * 0.5f64.sqrt()).abs() < 1e-12);
        assert!((s.ci95.unwrap() - 1.963243161).abs() < 1e-9);
        // Two values 10, 12: mean 11, s = √2, s/√2 = 1, t₀.₉₇₅,₁ = 12.706204736.
        let s = Summary::of(&[10.0, 12.0]);
        assert_eq!(s.mean, 11.0);
        assert!((s.ci95.unwrap() - 12.706204736).abs() < 1e-12);
    }

    #[test]
    fn degenerate_cases() {
        let one = Summary::of(&[7.5]);
        assert_eq!((one.n, one.mean, one.ci95), (1, 7.5, None));
        let none = Summary::of(&[]);
        assert!(none.mean.is_nan() && none.ci95.is_none());
        // Non-finite values are left out: mean of 1 and 3.
        let s = Summary::of(&[1.0, f64::NAN, 3.0]);
        assert_eq!((s.n, s.mean), (2, 2.0));
        // Identical values: zero width.
        assert_eq!(Summary::of(&[4.0, 4.0, 4.0]).ci95, Some(0.0));
    }

    #[test]
    fn t_quantiles() {
        assert_eq!(t975(1), 12.706204736);
        assert_eq!(t975(30), 2.042272456);
        assert_eq!(t975(40), 2.021075390);
        assert_eq!(t975(120), 1.979930405);
        // Interpolation in 1/ν between 30 and 40 at ν = 35 (true value 2.030107928).
        assert!((t975(35) - 2.030107928).abs() < 2e-4);
        // Decreasing towards the normal quantile.
        let mut prev = f64::INFINITY;
        for df in 1..500 {
            let t = t975(df);
            assert!(t < prev && t > 1.959963985);
            prev = t;
        }
    }
}
