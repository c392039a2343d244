//! Quantities as people write them: `"70Mbps"`, `"1.5s"`, `"64KiB"`, `"300p"`.
//!
//! Every quantity is a decimal number (digits, at most one `.`, no sign, no exponent),
//! optional spaces, then a unit. The number is read as an exact decimal fraction
//! (integer mantissa and a count of fractional digits) and scaled to the base unit in
//! 128-bit integer arithmetic, so `"0.1s"` is exactly 100 000 000 ns and `"1.5KiB"` exactly
//! 1536 B: no value ever passes through `f64`.
//!
//! Open choices, documented:
//! * A value that is not a whole number of the base unit (`"0.5ns"`, `"1.5bps"`, `"0.1KiB"`)
//!   is refused rather than rounded: the base units (1 ns, 1 bit/s, 1 byte) are the
//!   resolution of the whole simulator, so a finer value can only be a typo.
//! * Decimal prefixes are powers of 1000 (`K`, `M`, `G`, `T`; `k` accepted for kilo),
//!   binary prefixes (`KiB`, `MiB`, `GiB`) powers of 1024, as in IEC 80000-13. Rates only
//!   take decimal prefixes (a "kibibit per second" is not something people write).
//! * A unit is always required: a bare `5` would be ambiguous between ns, ms and s.
//! * Rates are in bits per second; `"MBps"`/`"MB/s"` (bytes per second) is refused with a
//!   hint rather than silently converted, because the B/b mix-up is the classic mistake.

use core::fmt;

use qoslab_algo::{Duration, Rate};

use super::spec::Limit;

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// Nothing but spaces.
    Empty,
    /// A leading `-`: quantities are never negative.
    Negative,
    /// The number part is not a plain decimal (`"1e3ms"`, `"1.2.3s"`, `".s"`).
    BadNumber,
    /// No unit after the number; `allowed` lists the units.
    MissingUnit { allowed: &'static str },
    /// An unknown unit; `hint` may explain a likely mix-up.
    UnknownUnit {
        found: String,
        allowed: &'static str,
        hint: &'static str,
    },
    /// Not a whole number of the base unit.
    NotWhole { base: &'static str },
    /// Does not fit the integer type (u64 ns/bit/s/bytes, u32 packets).
    TooLarge,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Empty => write!(f, "empty quantity"),
            UnitError::Negative => write!(f, "must not be negative"),
            UnitError::BadNumber => {
                write!(
                    f,
                    "not a plain decimal number (digits and at most one `.`, no exponent)"
                )
            }
            UnitError::MissingUnit { allowed } => write!(f, "missing unit (one of {allowed})"),
            UnitError::UnknownUnit {
                found,
                allowed,
                hint,
            } => {
                write!(f, "unknown unit `{found}` (allowed: {allowed}){hint}")
            }
            UnitError::NotWhole { base } => write!(f, "not a whole number of {base}"),
            UnitError::TooLarge => write!(f, "too large"),
        }
    }
}

impl std::error::Error for UnitError {}

const DURATION_UNITS: &str = "ns, us, ms, s";
const RATE_UNITS: &str = "bps, Kbps, Mbps, Gbps, Tbps (or b/s, Kb/s, ...)";
const SIZE_UNITS: &str = "B, KB, MB, GB, KiB, MiB, GiB";
const LIMIT_UNITS: &str = "p/pkts/packets, or a size in B, KB, KiB, ...";

/// An exact decimal: `mantissa / 10^frac_digits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    mantissa: u128,
    frac_digits: u32,
}

/// Splits `"  1.5 ms "` into the decimal 1.5 and the unit `"ms"`.
fn split(text: &str) -> Result<(Decimal, &str), UnitError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(UnitError::Empty);
    }
    if s.starts_with('-') {
        return Err(UnitError::Negative);
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    let num_len = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(num_len);
    let unit = unit.trim_start();
    // A unit starting with `e`/`E` right after digits would be an exponent: refuse it as
    // such rather than as an unknown unit.
    if unit.starts_with(['e', 'E'])
        && unit[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
    {
        return Err(UnitError::BadNumber);
    }
    let (int_part, frac_part) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if (int_part.is_empty() && frac_part.is_empty()) || frac_part.contains('.') {
        return Err(UnitError::BadNumber);
    }
    // Trailing zeros of the fraction do not change the value; dropping them keeps
    // `"1.000000000000000000000000000000000000000s"` readable without overflow.
    let frac_part = frac_part.trim_end_matches('0');
    let mut mantissa: u128 = 0;
    for c in int_part.bytes().chain(frac_part.bytes()) {
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(u128::from(c - b'0')))
            .ok_or(UnitError::TooLarge)?;
    }
    let frac_digits = u32::try_from(frac_part.len()).map_err(|_| UnitError::TooLarge)?;
    Ok((
        Decimal {
            mantissa,
            frac_digits,
        },
        unit,
    ))
}

/// `d × scale` as an exact integer, or an error naming `base`.
fn scale(d: Decimal, scale: u128, base: &'static str) -> Result<u64, UnitError> {
    let num = d.mantissa.checked_mul(scale).ok_or(UnitError::TooLarge)?;
    let den = 10u128
        .checked_pow(d.frac_digits)
        .ok_or(UnitError::NotWhole { base })?;
    if num % den != 0 {
        return Err(UnitError::NotWhole { base });
    }
    u64::try_from(num / den).map_err(|_| UnitError::TooLarge)
}

/// A duration: `"10ns"`, `"200us"` (or `µs`), `"5ms"`, `"1.5s"`. Exact to the nanosecond.
pub fn parse_duration(text: &str) -> Result<Duration, UnitError> {
    let (d, unit) = split(text)?;
    let ns_per_unit: u128 = match unit {
        "ns" => 1,
        "us" | "µs" | "μs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "" => {
            return Err(UnitError::MissingUnit {
                allowed: DURATION_UNITS,
            })
        }
        other => {
            return Err(UnitError::UnknownUnit {
                found: other.to_string(),
                allowed: DURATION_UNITS,
                hint: "",
            })
        }
    };
    scale(d, ns_per_unit, "nanoseconds").map(Duration)
}

/// A rate in bits per second: `"800bps"`, `"64Kbps"`, `"70Mbps"`, `"1.5Gbps"`.
pub fn parse_rate(text: &str) -> Result<Rate, UnitError> {
    let (d, unit) = split(text)?;
    let bps_per_unit: u128 = match unit {
        "bps" | "b/s" => 1,
        "Kbps" | "kbps" | "Kb/s" | "kb/s" => 1_000,
        "Mbps" | "Mb/s" => 1_000_000,
        "Gbps" | "Gb/s" => 1_000_000_000,
        "Tbps" | "Tb/s" => 1_000_000_000_000,
        "" => {
            return Err(UnitError::MissingUnit {
                allowed: RATE_UNITS,
            })
        }
        other => {
            let hint = if other.contains('B') {
                "; rates are in bits per second (b), not bytes (B): multiply by 8"
            } else {
                ""
            };
            return Err(UnitError::UnknownUnit {
                found: other.to_string(),
                allowed: RATE_UNITS,
                hint,
            });
        }
    };
    scale(d, bps_per_unit, "bit/s").map(Rate)
}

/// A size in bytes: `"500B"`, `"64KB"` (64 000), `"64KiB"` (65 536), `"1MB"`.
pub fn parse_size(text: &str) -> Result<u64, UnitError> {
    let (d, unit) = split(text)?;
    size_in(d, unit)
}

fn size_in(d: Decimal, unit: &str) -> Result<u64, UnitError> {
    let bytes_per_unit: u128 = match unit {
        "B" => 1,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "" => {
            return Err(UnitError::MissingUnit {
                allowed: SIZE_UNITS,
            })
        }
        other => {
            let hint = if other.ends_with('b') || other.ends_with("bit") {
                "; sizes are in bytes (B), not bits (b)"
            } else {
                ""
            };
            return Err(UnitError::UnknownUnit {
                found: other.to_string(),
                allowed: SIZE_UNITS,
                hint,
            });
        }
    };
    scale(d, bytes_per_unit, "bytes")
}

/// A count of packets, if `unit` is one of the packet units.
fn is_packet_unit(unit: &str) -> bool {
    matches!(unit, "p" | "pkt" | "pkts" | "packet" | "packets")
}

/// A queue limit: `"300p"`, `"300pkts"`, `"300 packets"` (packets) or a size (`"64KB"`).
pub fn parse_limit(text: &str) -> Result<Limit, UnitError> {
    let (d, unit) = split(text)?;
    if is_packet_unit(unit) {
        let n = scale(d, 1, "packets")?;
        return u32::try_from(n)
            .map(Limit::Packets)
            .map_err(|_| UnitError::TooLarge);
    }
    match size_in(d, unit) {
        Ok(b) => Ok(Limit::Bytes(b)),
        Err(UnitError::MissingUnit { .. }) => Err(UnitError::MissingUnit {
            allowed: LIMIT_UNITS,
        }),
        Err(UnitError::UnknownUnit { found, hint, .. }) => Err(UnitError::UnknownUnit {
            found,
            allowed: LIMIT_UNITS,
            hint,
        }),
        Err(e) => Err(e),
    }
}

/// A number of packets written with a packet unit (`"60p"`), as an exact decimal that may
/// have a fraction (`"2.5p"`): RED thresholds in packets need not be whole.
/// Returns `Ok(None)` when the unit is not a packet unit.
pub fn parse_packets_f64(text: &str) -> Result<Option<f64>, UnitError> {
    let (d, unit) = split(text)?;
    if !is_packet_unit(unit) {
        return Ok(None);
    }
    Ok(Some(decimal_to_f64(d)))
}

/// Nearest `f64` to an exact decimal (only used for RED thresholds, which are floats).
fn decimal_to_f64(d: Decimal) -> f64 {
    // Both parts are exact below 2^53; beyond that the nearest float is what a float can hold.
    d.mantissa as f64 / libm::pow(10.0, f64::from(d.frac_digits))
}

/// A duration in the largest of s, ms, us, ns that shows it exactly (`"1500ms"`), for messages.
pub fn show(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns == 0 {
        return "0s".to_string();
    }
    let (per_unit, unit) = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us")]
        .into_iter()
        .find(|&(per_unit, _)| ns / per_unit * per_unit == ns)
        .unwrap_or((1, "ns"));
    format!("{}{unit}", ns / per_unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_exact() {
        // 0.1 s = 1/10 × 1e9 ns = 100 000 000 ns: exact, where 0.1_f64 * 1e9 is not
        // guaranteed to be.
        assert_eq!(parse_duration("0.1s"), Ok(Duration(100_000_000)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration(1_500_000_000)));
        assert_eq!(parse_duration("5ms"), Ok(Duration(5_000_000)));
        assert_eq!(parse_duration("200us"), Ok(Duration(200_000)));
        assert_eq!(parse_duration("200µs"), Ok(Duration(200_000)));
        assert_eq!(parse_duration("10ns"), Ok(Duration(10)));
        assert_eq!(parse_duration(" 20 s "), Ok(Duration(20_000_000_000)));
        assert_eq!(parse_duration("0s"), Ok(Duration(0)));
        // 0.000000001 s = 1 ns
        assert_eq!(parse_duration("0.000000001s"), Ok(Duration(1)));
        // trailing zeros beyond the ns resolution do not matter
        assert_eq!(
            parse_duration("1.0000000000000000000000000000000000000000s"),
            Ok(Duration(1_000_000_000))
        );
        assert_eq!(parse_duration(".5ms"), Ok(Duration(500_000)));
        assert_eq!(parse_duration("2.ms"), Ok(Duration(2_000_000)));
    }

    #[test]
    fn duration_errors() {
        assert_eq!(
            parse_duration("0.5ns"),
            Err(UnitError::NotWhole {
                base: "nanoseconds"
            })
        );
        // 1e-10 s = 0.1 ns
        assert_eq!(
            parse_duration("0.0000000001s"),
            Err(UnitError::NotWhole {
                base: "nanoseconds"
            })
        );
        assert_eq!(parse_duration("-5ms"), Err(UnitError::Negative));
        assert_eq!(
            parse_duration("5"),
            Err(UnitError::MissingUnit {
                allowed: DURATION_UNITS
            })
        );
        assert!(matches!(
            parse_duration("5 sec"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert_eq!(parse_duration("1e3ms"), Err(UnitError::BadNumber));
        assert_eq!(parse_duration("1.2.3s"), Err(UnitError::BadNumber));
        assert_eq!(parse_duration(".s"), Err(UnitError::BadNumber));
        assert_eq!(parse_duration("ms"), Err(UnitError::BadNumber));
        assert_eq!(parse_duration(""), Err(UnitError::Empty));
        // 2^64 ns ≈ 584 years: 20 000 000 000 s does not fit
        assert_eq!(parse_duration("20000000000s"), Err(UnitError::TooLarge));
        assert_eq!(
            parse_duration("99999999999999999999999999999999999999999s"),
            Err(UnitError::TooLarge)
        );
    }

    #[test]
    fn show_is_exact_and_parses_back() {
        for (ns, text) in [
            (0, "0s"),
            (5_000_000_000, "5s"),
            (1_500_000_000, "1500ms"),
            (200_000, "200us"),
            (7, "7ns"),
        ] {
            assert_eq!(show(Duration(ns)), text);
            assert_eq!(parse_duration(text), Ok(Duration(ns)));
        }
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("70Mbps"), Ok(Rate(70_000_000)));
        // 1.5 × 1e9 = 1 500 000 000 bit/s
        assert_eq!(parse_rate("1.5Gbps"), Ok(Rate(1_500_000_000)));
        assert_eq!(parse_rate("64Kbps"), Ok(Rate(64_000)));
        assert_eq!(parse_rate("64kbps"), Ok(Rate(64_000)));
        assert_eq!(parse_rate("800bps"), Ok(Rate(800)));
        assert_eq!(parse_rate("100 Mb/s"), Ok(Rate(100_000_000)));
        assert_eq!(
            parse_rate("1.5bps"),
            Err(UnitError::NotWhole { base: "bit/s" })
        );
        assert_eq!(
            parse_rate("70"),
            Err(UnitError::MissingUnit {
                allowed: RATE_UNITS
            })
        );
        match parse_rate("10MBps") {
            Err(e @ UnitError::UnknownUnit { .. }) => {
                assert!(e.to_string().contains("bits per second"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sizes_decimal_vs_binary() {
        assert_eq!(parse_size("500B"), Ok(500));
        assert_eq!(parse_size("64KB"), Ok(64_000));
        assert_eq!(parse_size("64kB"), Ok(64_000));
        assert_eq!(parse_size("64KiB"), Ok(65_536));
        assert_eq!(parse_size("1MB"), Ok(1_000_000));
        assert_eq!(parse_size("1MiB"), Ok(1_048_576));
        // 1.5 × 1024 = 1536
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        // 0.1 × 1024 = 102.4: not a whole byte
        assert_eq!(
            parse_size("0.1KiB"),
            Err(UnitError::NotWhole { base: "bytes" })
        );
        match parse_size("500b") {
            Err(e @ UnitError::UnknownUnit { .. }) => assert!(e.to_string().contains("not bits")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn limits() {
        assert_eq!(parse_limit("300p"), Ok(Limit::Packets(300)));
        assert_eq!(parse_limit("300pkts"), Ok(Limit::Packets(300)));
        assert_eq!(parse_limit("300 packets"), Ok(Limit::Packets(300)));
        assert_eq!(parse_limit("64KiB"), Ok(Limit::Bytes(65_536)));
        assert_eq!(
            parse_limit("2.5p"),
            Err(UnitError::NotWhole { base: "packets" })
        );
        assert_eq!(parse_limit("5000000000p"), Err(UnitError::TooLarge));
        assert!(matches!(
            parse_limit("300"),
            Err(UnitError::MissingUnit { .. })
        ));
        assert!(matches!(
            parse_limit("300x"),
            Err(UnitError::UnknownUnit { .. })
        ));
    }

    #[test]
    fn packet_thresholds() {
        assert_eq!(parse_packets_f64("60p"), Ok(Some(60.0)));
        assert_eq!(parse_packets_f64("2.5 pkts"), Ok(Some(2.5)));
        assert_eq!(parse_packets_f64("60KB"), Ok(None));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Writing n ns as "s.fraction" and reading it back gives n exactly.
        #[test]
        fn duration_round_trip(n in 0u64..=u64::MAX / 2) {
            let text = format!("{}.{:09}s", n / 1_000_000_000, n % 1_000_000_000);
            proptest::prop_assert_eq!(parse_duration(&text), Ok(Duration(n)));
        }

        /// Never panics, whatever the text.
        #[test]
        fn no_panic(s in "\\PC{0,12}") {
            let _ = parse_duration(&s);
            let _ = parse_rate(&s);
            let _ = parse_size(&s);
            let _ = parse_limit(&s);
            let _ = parse_packets_f64(&s);
        }
    }
}
