//! AAL5 sizing: how many cells carry an IP datagram.
//!
//! ITU-T I.363.5 §10 (AAL type 5 CPCS-PDU): the CPCS-PDU is the CPCS-SDU, then 0–47 bytes of
//! padding, then an 8-byte trailer (CPCS-UU 1, CPI 1, Length 2, CRC-32 4), and its total
//! length is a multiple of 48 bytes, so it fills a whole number of cell payloads (the
//! trailer sits at the end of the last cell).
//!
//! RFC 2684 §5 (multiprotocol over AAL5): with LLC encapsulation a routed IPv4 PDU is
//! preceded by the LLC/SNAP header `AA-AA-03 00-00-00 08-00` (§5.1, 8 bytes); with VC
//! multiplexing (§6.1) the SDU is the bare datagram.

use super::cell::CELL_PAYLOAD;

/// AAL5 trailer bytes (I.363.5 §10.1).
pub const AAL5_TRAILER: u32 = 8;
/// RFC 2684 §5.1 LLC (3 bytes) + SNAP (5 bytes) header of a routed non-ISO PDU.
pub const LLC_SNAP_HEADER: u32 = 8;

/// How IP datagrams are carried in the AAL5 SDU (RFC 2684).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encapsulation {
    /// VC-based multiplexing (RFC 2684 §6.1): no extra header, the SDU is the IP datagram.
    VcMux,
    /// LLC encapsulation (RFC 2684 §5.1): 8 more bytes of LLC/SNAP header.
    #[default]
    LlcSnap,
}

impl Encapsulation {
    /// Header bytes this encapsulation adds before the datagram.
    pub const fn header_bytes(self) -> u32 {
        match self {
            Encapsulation::VcMux => 0,
            Encapsulation::LlcSnap => LLC_SNAP_HEADER,
        }
    }
}

/// Bytes of the AAL5 CPCS-PDU carrying `sdu_bytes`: `sdu + pad + 8`, the smallest multiple
/// of 48 that is ≥ `sdu + 8` (I.363.5 §10.1: "PAD … so that the CPCS-PDU is an integral
/// multiple of 48 octets"). Saturates at `u32::MAX` rounded down to a multiple of 48.
pub const fn aal5_pdu_bytes(sdu_bytes: u32) -> u32 {
    let with_trailer = sdu_bytes as u64 + AAL5_TRAILER as u64;
    let p = CELL_PAYLOAD as u64;
    let rounded = with_trailer.div_ceil(p) * p;
    if rounded > u32::MAX as u64 {
        u32::MAX / CELL_PAYLOAD * CELL_PAYLOAD
    } else {
        rounded as u32
    }
}

/// Cells carrying one IP datagram of `ip_bytes` with encapsulation `enc` (≥ 1; a 0-byte
/// datagram still needs the trailer cell).
pub const fn cells_per_frame(ip_bytes: u32, enc: Encapsulation) -> u32 {
    aal5_pdu_bytes(ip_bytes.saturating_add(enc.header_bytes())) / CELL_PAYLOAD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_values() {
        // 40 + 8 = 48: exactly one cell.
        assert_eq!(cells_per_frame(40, Encapsulation::VcMux), 1);
        // 41 + 8 = 49: two cells (47 bytes of padding).
        assert_eq!(cells_per_frame(41, Encapsulation::VcMux), 2);
        assert_eq!(aal5_pdu_bytes(41), 96);
        // 0-byte SDU: the trailer alone fills one cell.
        assert_eq!(cells_per_frame(0, Encapsulation::VcMux), 1);
        // 1000 + 8 (LLC/SNAP) + 8 (trailer) = 1016 → ⌈1016/48⌉ = 22 cells (1056 B).
        assert_eq!(cells_per_frame(1000, Encapsulation::LlcSnap), 22);
        assert_eq!(aal5_pdu_bytes(1008), 1056);
        // 1000 B VC-mux: 1008 = 21·48 exactly.
        assert_eq!(cells_per_frame(1000, Encapsulation::VcMux), 21);
        // The seed's TCP MSS of 960 B + 40 B TCP/IP headers = 1000 B datagrams.
        // 1500 + 8 + 8 = 1516 → 32 cells (1536 B).
        assert_eq!(cells_per_frame(1500, Encapsulation::LlcSnap), 32);
        // LLC/SNAP: 32 + 8 + 8 = 48 → 1 cell; 33 → 2.
        assert_eq!(cells_per_frame(32, Encapsulation::LlcSnap), 1);
        assert_eq!(cells_per_frame(33, Encapsulation::LlcSnap), 2);
    }

    #[test]
    fn exhaustive_1_to_2000_against_the_formula() {
        for b in 1..=2000u32 {
            for (enc, h) in [(Encapsulation::VcMux, 0), (Encapsulation::LlcSnap, 8)] {
                let n = cells_per_frame(b, enc);
                let pdu = n * CELL_PAYLOAD;
                // The PDU holds SDU + trailer…
                assert!(pdu >= b + h + AAL5_TRAILER, "{b} {enc:?}");
                // …and the pad is at most 47 bytes (one fewer cell would not fit).
                assert!(pdu - (b + h + AAL5_TRAILER) < CELL_PAYLOAD, "{b} {enc:?}");
                assert_eq!(aal5_pdu_bytes(b + h), pdu);
            }
        }
    }

    #[test]
    fn huge_sizes_saturate_without_panicking() {
        assert_eq!(aal5_pdu_bytes(u32::MAX) % CELL_PAYLOAD, 0);
        assert!(cells_per_frame(u32::MAX, Encapsulation::LlcSnap) >= 1);
    }
}
