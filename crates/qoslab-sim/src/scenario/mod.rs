//! Scenario files: TOML → validated [`spec::Scenario`].
pub mod spec;
