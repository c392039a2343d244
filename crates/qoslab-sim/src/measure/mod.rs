//! Measurements taken on the engine's packet path, kept apart from the engine: the engine
//! calls a hook at the point of measurement and the logic lives here.

pub mod delay;
