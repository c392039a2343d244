//! Streaming measures of packet delay: a log-linear quantile histogram with a proven
//! relative error bound ([`quantile`]) and the RFC 3550 / RFC 3393 jitter estimators
//! ([`jitter`]). Sans-IO like everything here: values are handed in, nothing reads a clock.

pub mod jitter;
pub mod quantile;

pub use jitter::{DelayVariation, Ipdv, Rfc3550Jitter};
pub use quantile::{LogHistogram, Quantiles};
