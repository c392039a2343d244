//! (filled in by the meter work)
