//! The ATM cell as the GFR algorithms see it, and an exact cell rate.
//!
//! A cell is 53 bytes: a 5-byte header and 48 bytes of payload (ITU-T I.361). The GFR
//! algorithms only need four header facts: the VC, the CLP bit, and where the cell sits in
//! its AAL5 frame. The end of an AAL5 CPCS-PDU is signalled by the ATM-user-to-ATM-user
//! indication (AUU, the SDU-type bit of the PTI field, I.363.5 §10.1 / I.361 §2.2.4);
//! "first of frame" is not a header bit: it is "the cell after an end-of-PDU cell of the
//! same VC", which the sender (or the engine) knows and passes in.

use crate::error::ConfigError;
use crate::units::Rate;

/// Bytes in one ATM cell on the wire (header + payload).
pub const CELL_BYTES: u32 = 53;
/// Payload bytes in one ATM cell.
pub const CELL_PAYLOAD: u32 = 48;
/// Bits in one ATM cell on the wire: a line of `R` bit/s carries `R / 424` cells/s.
pub const CELL_BITS: u64 = CELL_BYTES as u64 * 8;

/// What the GFR algorithms read from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    pub vc: u32,
    /// `true` = CLP=1 (tagged, low priority); `false` = CLP=0.
    pub clp: bool,
    /// First cell of an AAL5 frame (the cell after the previous end-of-PDU cell of this VC).
    pub first_of_frame: bool,
    /// AAL5 end-of-PDU cell: SDU-type (AUU) bit of the PTI set (I.363.5 §10.1).
    pub last_of_frame: bool,
}

impl CellView {
    /// The `k`-th cell (0-based) of a frame of `n ≥ 1` cells on `vc` with the given CLP.
    pub const fn of_frame(vc: u32, clp: bool, k: u32, n: u32) -> Self {
        CellView {
            vc,
            clp,
            first_of_frame: k == 0,
            last_of_frame: k + 1 == n,
        }
    }
}

/// An exact cell rate `num / den` cells per second.
///
/// GFR rates (MCR, PCR) are often not whole cells per second (1 Mbit/s of cell stream is
/// 10⁶/424 = 2358.49… cells/s), so a rate is kept as a fraction. Its cell interval
/// `T = den / num` seconds `= den·10⁹ / num` ns is then exact in the scaled time unit
/// "ns × num" used by [`FGcra`](super::FGcra): one ns is `num` units and `T` is `den·10⁹`
/// units, with no rounding anywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRate {
    num: u64,
    den: u64,
}

impl CellRate {
    /// `num / den` cells per second; both must be > 0.
    pub fn new(num: u64, den: u64) -> Result<Self, ConfigError> {
        if num == 0 {
            return Err(ConfigError::out_of_range("cell rate numerator", num, "> 0"));
        }
        if den == 0 {
            return Err(ConfigError::out_of_range(
                "cell rate denominator",
                den,
                "> 0",
            ));
        }
        Ok(CellRate { num, den })
    }
    /// A whole number of cells per second (> 0).
    pub fn per_sec(cells: u64) -> Result<Self, ConfigError> {
        CellRate::new(cells, 1)
    }
    /// The cell rate of a bit rate counted on the wire in 53-byte cells: `bps / 424`.
    pub fn from_line_rate(r: Rate) -> Result<Self, ConfigError> {
        CellRate::new(r.bps(), CELL_BITS)
    }
    pub const fn num(self) -> u64 {
        self.num
    }
    pub const fn den(self) -> u64 {
        self.den
    }
    /// Cells per second as a float (for reporting and for the float-valued buffer schemes).
    pub fn cells_per_sec(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}
