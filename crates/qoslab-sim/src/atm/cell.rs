//! Cells and the mapping of IP datagrams onto them (AAL5 framing).
//!
//! An ATM cell is 53 bytes: a 5-byte header and 48 bytes of payload (ITU-T I.361). A
//! frame (an IP datagram: a TCP segment or ACK) is carried as an AAL5 CPCS-PDU (ITU-T
//! I.363.5): the SDU, a pad and an 8-byte trailer, a whole number of 48-byte cell payloads.
//! The last cell of a PDU has the SDU-type (AUU) bit of its PTI set; that is all a switch
//! sees of frame boundaries ([`Cell::last`]).
//!
//! # Encapsulation ([`Framing`])
//!
//! * `VcMux` (RFC 2684 §6.1, "VC multiplexing"): the CPCS-SDU is the IP datagram.
//! * `LlcSnap` (RFC 2684 §5.1): 8 more bytes (LLC AA-AA-03, OUI 00-00-00, EtherType).
//! * `Raw` (what the paper's simulator most likely did; **default of the Kim et al.
//!   scenarios**): the frame is the TCP segment's bytes, cut into `ceil(bytes/48)` cells,
//!   with no AAL5 trailer (and the scenarios set the TCP/IP header to 0 B).
//!
//! Why `Raw` is the default for the reproduction: the MSS of 960 B is exactly 20 cell
//! payloads, and the published total goodputs (46.59–46.74 Mb/s of TCP payload on a
//! 51.84 Mb/s link) exceed the payload ceiling of every standard reading. With cells at the
//! full 51.84 Mb/s line rate (122 264 cells/s) the ceilings are
//! (payload / (cells × 53 B) × 51.84 Mb/s):
//!
//! | reading | bytes per 960-B segment | cells | ceiling |
//! |---|---|---|---|
//! | `Raw`, no TCP/IP header | 960 | 20 | 46.95 Mb/s |
//! | `Raw`, 40-B TCP/IP header | 1000 | 21 | 44.71 Mb/s |
//! | `VcMux`, no header (960 + 8) | 968 | 21 | 44.71 Mb/s |
//! | `VcMux`, 40-B header (1000 + 8) | 1008 | 21 | 44.71 Mb/s |
//! | `LlcSnap`, 40-B header (1000 + 16) | 1016 | 22 | 42.68 Mb/s |
//!
//! Every reading but "960 B in exactly 20 cells" is ruled out by the published totals, and
//! so is SONET overhead: an STS-1 leaves at most its 50.112 Mb/s SPE for cells (49.536 Mb/s
//! without the path overhead column), so the ceiling is ≤ 45.38 Mb/s even with 20 cells per
//! segment. See `scenarios/gfr-kim2001/README.md`.
//!
//! AAL5 sizing is `qoslab_algo::atm::aal5`'s; `Raw` is the engine's own.

use qoslab_algo::atm::{aal5, Encapsulation};
use serde::Serialize;

/// Bytes of a cell on the wire.
pub const CELL_BYTES: u32 = qoslab_algo::atm::CELL_BYTES;
/// Payload bytes of a cell.
pub const CELL_PAYLOAD: u32 = qoslab_algo::atm::CELL_PAYLOAD;
/// Bits of a cell on the wire.
pub const CELL_BITS: u64 = CELL_BYTES as u64 * 8;

/// How an IP datagram becomes cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Framing {
    /// `ceil(bytes / 48)` cells, no trailer (the paper's evident simplification).
    Raw,
    /// AAL5, RFC 2684 VC multiplexing: PDU = datagram + pad + 8-byte trailer.
    VcMux,
    /// AAL5, RFC 2684 LLC/SNAP: PDU = 8-byte LLC/SNAP header + datagram + pad + trailer.
    LlcSnap,
}

impl Framing {
    pub const NAMES: [&'static str; 3] = ["raw", "vc-mux", "llc-snap"];

    pub fn from_name(s: &str) -> Option<Framing> {
        match s {
            "raw" => Some(Framing::Raw),
            "vc-mux" => Some(Framing::VcMux),
            "llc-snap" => Some(Framing::LlcSnap),
            _ => None,
        }
    }

    /// Cells carrying a datagram of `ip_bytes` bytes (at least one).
    pub fn cells_per_frame(self, ip_bytes: u32) -> u32 {
        let n = match self {
            Framing::Raw => ip_bytes.div_ceil(CELL_PAYLOAD),
            Framing::VcMux => aal5::cells_per_frame(ip_bytes, Encapsulation::VcMux),
            Framing::LlcSnap => aal5::cells_per_frame(ip_bytes, Encapsulation::LlcSnap),
        };
        n.max(1)
    }
}

/// A cell inside the engine (16 bytes; the frame it belongs to is an index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Channel (one direction of a VC): `2·vc` forward (data), `2·vc + 1` reverse (ACKs).
    pub ch: u32,
    /// Index of its frame in the engine's frame table.
    pub frame: u32,
    /// Ports of its channel's path already crossed (0 while on the first link).
    pub hop: u16,
    /// CLP bit: true = CLP=1 (tagged, low priority).
    pub clp: bool,
    /// First cell of its frame.
    pub first: bool,
    /// Last cell of its frame (AAL5 end of PDU: the PTI's SDU-type bit).
    pub last: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_per_frame_readings() {
        assert_eq!(Framing::Raw.cells_per_frame(960), 20);
        assert_eq!(Framing::Raw.cells_per_frame(1000), 21);
        assert_eq!(Framing::Raw.cells_per_frame(40), 1);
        assert_eq!(Framing::Raw.cells_per_frame(0), 1);
        assert_eq!(Framing::VcMux.cells_per_frame(960), 21);
        assert_eq!(Framing::VcMux.cells_per_frame(1000), 21);
        assert_eq!(Framing::VcMux.cells_per_frame(40), 1); // 40 + 8 = 48
        assert_eq!(Framing::VcMux.cells_per_frame(41), 2);
        assert_eq!(Framing::LlcSnap.cells_per_frame(1000), 22);
        assert_eq!(Framing::LlcSnap.cells_per_frame(40), 2); // 40 + 8 + 8 = 56
    }
}
