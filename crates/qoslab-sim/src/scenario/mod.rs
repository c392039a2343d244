//! Scenario files: TOML → validated [`spec::Scenario`].
mod error;
mod flow;
mod parse;
mod queue;
mod reader;
pub mod spec;
pub mod units;
mod value;

pub use error::{ErrorKind, ScenarioError};
pub use parse::{load, parse_str};
