//! Exact parsing of quantities with units ("2Mbps", "3000B", "64KiB", "10ms") and of decimal
//! seconds ("1.000000001"), all in integers: no value goes through `f64`.

/// Rate units (bit/s multipliers). K = 1000.
pub const RATE_UNITS: &[(&str, u128)] = &[
    ("bps", 1),
    ("Kbps", 1_000),
    ("kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Gbps", 1_000_000_000),
];
/// Size units (byte multipliers). K = 1000, Ki = 1024.
pub const BYTE_UNITS: &[(&str, u128)] = &[
    ("B", 1),
    ("KB", 1_000),
    ("kB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
];
/// Duration units (ns multipliers).
pub const DURATION_UNITS: &[(&str, u128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
];

/// `digits[.digits]` × `scale`, exactly; an error if the result is not an integer or overflows.
pub fn decimal_scaled(num: &str, scale: u128) -> Result<u128, String> {
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
        return Err(format!("`{num}` is not a non-negative decimal number"));
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > 30 {
        return Err(format!("`{num}` has too many decimal places"));
    }
    let overflow = || format!("`{num}` is too large");
    let mut int_v: u128 = 0;
    for b in int.bytes() {
        int_v = int_v
            .checked_mul(10)
            .and_then(|v| v.checked_add((b - b'0') as u128))
            .ok_or_else(overflow)?;
    }
    let mut frac_v: u128 = 0;
    for b in frac.bytes() {
        frac_v = frac_v * 10 + (b - b'0') as u128;
    }
    let pow = 10u128.pow(frac.len() as u32);
    let scaled_frac = frac_v.checked_mul(scale).ok_or_else(overflow)?;
    if scaled_frac % pow != 0 {
        return Err(format!("`{num}` is not a whole number of the base unit"));
    }
    int_v
        .checked_mul(scale)
        .and_then(|v| v.checked_add(scaled_frac / pow))
        .ok_or_else(overflow)
}

/// Parses `<decimal><unit>` (optional spaces between) with one of `units`.
fn with_unit(s: &str, units: &[(&str, u128)]) -> Result<u64, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = (s[..split].trim(), s[split..].trim());
    let Some(&(_, scale)) = units.iter().find(|(u, _)| *u == unit) else {
        return Err(if unit.is_empty() {
            "a unit is required".to_string()
        } else {
            format!("unknown unit `{unit}`")
        });
    };
    let v = decimal_scaled(num, scale)?;
    u64::try_from(v).map_err(|_| format!("`{s}` is too large"))
}

/// A rate in bit/s from e.g. "2Mbps", "1.5 Gbps", "64000bps".
pub fn parse_rate(s: &str) -> Result<u64, String> {
    with_unit(s, RATE_UNITS)
}
/// A size in bytes from e.g. "3000B", "64KB", "1.5KiB" (must be a whole number of bytes).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    with_unit(s, BYTE_UNITS)
}
/// A duration in ns from e.g. "10ms", "1s", "250us".
pub fn parse_duration(s: &str) -> Result<u64, String> {
    with_unit(s, DURATION_UNITS)
}

/// Decimal seconds ("12", "0.5", "1.000000001") to integer ns, exactly. More than nine
/// significant decimal places (finer than 1 ns) is an error rather than a silent rounding.
pub fn parse_secs(s: &str) -> Result<u64, String> {
    let v = decimal_scaled(s.trim(), 1_000_000_000).map_err(|e| {
        if e.contains("whole number") {
            format!("`{}` is finer than 1 ns", s.trim())
        } else {
            e
        }
    })?;
    u64::try_from(v).map_err(|_| format!("`{s}` is too large"))
}

/// Formats ns as seconds with exactly nine decimals.
pub fn format_secs(ns: u64) -> String {
    format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates() {
        assert_eq!(parse_rate("2Mbps"), Ok(2_000_000));
        assert_eq!(parse_rate("1.5 Gbps"), Ok(1_500_000_000));
        assert_eq!(parse_rate("64kbps"), Ok(64_000));
        assert_eq!(parse_rate("64Kbps"), Ok(64_000));
        assert_eq!(parse_rate("100bps"), Ok(100));
        assert!(parse_rate("2").unwrap_err().contains("unit is required"));
        assert!(parse_rate("2Mbs").unwrap_err().contains("unknown unit"));
        assert!(parse_rate("0.5bps").unwrap_err().contains("whole number"));
        assert!(parse_rate("-2Mbps").is_err());
        assert!(parse_rate("Mbps").is_err());
        assert!(parse_rate("99999999999999999999999Gbps").is_err());
    }

    #[test]
    fn bytes_and_durations() {
        assert_eq!(parse_bytes("3000B"), Ok(3000));
        assert_eq!(parse_bytes("64KB"), Ok(64_000));
        assert_eq!(parse_bytes("64KiB"), Ok(65_536));
        assert_eq!(parse_bytes("1.5KiB"), Ok(1536));
        assert_eq!(parse_bytes("2MiB"), Ok(2 * 1024 * 1024));
        assert!(parse_bytes("1.0001KB").is_err());
        assert_eq!(parse_duration("10ms"), Ok(10_000_000));
        assert_eq!(parse_duration("1s"), Ok(1_000_000_000));
        assert_eq!(parse_duration("2.5us"), Ok(2_500));
        assert!(parse_duration("1h").is_err());
    }

    #[test]
    fn seconds_are_exact() {
        assert_eq!(parse_secs("1.000000001"), Ok(1_000_000_001));
        assert_eq!(parse_secs("0.1"), Ok(100_000_000));
        assert_eq!(parse_secs("12"), Ok(12_000_000_000));
        assert_eq!(parse_secs(".5"), Ok(500_000_000));
        assert_eq!(parse_secs("3.0000000010"), Ok(3_000_000_001));
        assert!(parse_secs("1.0000000001")
            .unwrap_err()
            .contains("finer than 1 ns"));
        assert!(parse_secs("-1").is_err());
        assert!(parse_secs("1e-3").is_err());
        assert!(parse_secs("").is_err());
        assert!(parse_secs(".").is_err());
        assert!(parse_secs("abc").is_err());
        assert_eq!(format_secs(1_000_000_001), "1.000000001");
        assert_eq!(format_secs(5), "0.000000005");
    }
}
