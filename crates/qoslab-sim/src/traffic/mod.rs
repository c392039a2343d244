//! Traffic sources that are not transports: CBR and Poisson UDP, and the web-session model
//! whose objects the engine carries over TCP transfers.
pub mod udp;
pub mod web;
