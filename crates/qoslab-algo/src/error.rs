//! Configuration errors of algorithm parameters, one variant per broken rule.

use core::fmt;

/// A parameter set refused at construction. Every rule an algorithm's source text states
/// (e.g. RFC 2963 §2.2 "CIR <= MIR <= line rate") has its own message naming the rule.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    /// A parameter is outside its allowed range. `what` names the parameter, `allowed` the range.
    OutOfRange {
        param: &'static str,
        value: String,
        allowed: &'static str,
    },
    /// A relation between parameters that the specification requires does not hold.
    Relation {
        rule: &'static str,
        source: &'static str,
        detail: String,
    },
}

impl ConfigError {
    pub fn out_of_range(
        param: &'static str,
        value: impl fmt::Display,
        allowed: &'static str,
    ) -> Self {
        ConfigError::OutOfRange {
            param,
            value: value.to_string(),
            allowed,
        }
    }
    pub fn relation(rule: &'static str, source: &'static str, detail: impl Into<String>) -> Self {
        ConfigError::Relation {
            rule,
            source,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::OutOfRange {
                param,
                value,
                allowed,
            } => {
                write!(f, "`{param}` = {value} is out of range: allowed {allowed}")
            }
            ConfigError::Relation {
                rule,
                source,
                detail,
            } => {
                write!(f, "rule {rule} ({source}) is broken: {detail}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}
