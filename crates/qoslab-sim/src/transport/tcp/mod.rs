//! TCP (filled in by the TCP work)
