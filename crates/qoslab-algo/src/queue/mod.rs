//! (filled in by the queue work)
