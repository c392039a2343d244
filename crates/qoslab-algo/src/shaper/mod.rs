//! (filled in by the shaper work)
