//! Scenario files: TOML → validated [`spec::Scenario`].
mod error;
pub mod spec;
pub mod units;
mod value;

pub use error::{ErrorKind, ScenarioError};
