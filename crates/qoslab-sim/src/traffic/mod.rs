//! Traffic sources that are not transports: CBR and Poisson UDP.
pub mod udp;
pub mod web;
