//! The network: nodes, unidirectional links with egress queues, static routes.
pub mod link;
pub mod ring;
pub mod routing;
