//! Transports: TCP (sans-IO state machines in `tcp`).
pub mod tcp;
