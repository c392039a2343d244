//! Frame-level thresholds without per-VC accounting: EPD and Double-EPD.
//!
//! * **EPD** — Romanow & Floyd, "Dynamics of TCP Traffic over ATM Networks", IEEE JSAC 13(4),
//!   1995, §IV (Early Packet Discard): when the first cell of a packet arrives and the buffer
//!   occupancy exceeds a threshold, the whole packet is refused; otherwise it is accepted and
//!   its cells are dropped only if the buffer overflows (then PPD drops the rest, see
//!   [`buffer`](super::buffer)). CLP-blind.
//! * **Double-EPD** — Guérin & Heinanen, "UBR+ Service Category Definition", ATM Forum
//!   96-1589 (1996), as summarised by the seed §2: two global thresholds; when the queue
//!   exceeds LBO, newly arriving CLP=1 frames are dropped; when it exceeds HBO, newly
//!   arriving CLP=0 frames are dropped (and CLP=1 ones too, since LBO ≤ HBO). We could not
//!   read 96-1589 itself; the rule is the seed's paraphrase.
//!
//! "Exceeds" is read as strictly greater than, with the occupancy counted *before* the
//! arriving cell, in cells (the same reading for every threshold in this module tree).

use super::buffer::CellDropReason;
use super::cell::CellView;
use crate::error::ConfigError;

/// EPD: one threshold in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpdParams {
    pub threshold: u32,
}

/// Double-EPD: LBO for CLP=1 frames, HBO for all frames (cells; LBO ≤ HBO ≤ capacity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoubleEpdParams {
    pub lbo: u32,
    pub hbo: u32,
}

impl EpdParams {
    pub(crate) fn validate(&self, capacity: u32) -> Result<(), ConfigError> {
        if self.threshold > capacity {
            return Err(ConfigError::relation(
                "EPD threshold <= buffer capacity",
                "Romanow & Floyd 1995 §IV",
                format!("threshold {} > capacity {capacity}", self.threshold),
            ));
        }
        Ok(())
    }
    /// Romanow–Floyd EPD at a frame's first cell: refuse the frame if `X > threshold`.
    pub(crate) fn admit_frame(&self, x: u32) -> Result<(), CellDropReason> {
        if x > self.threshold {
            Err(CellDropReason::EpdFrame)
        } else {
            Ok(())
        }
    }
}

/// The check `LBO <= HBO <= capacity` shared by Double-EPD, DFBA and Kim et al.
pub(crate) fn check_lbo_hbo(
    lbo: u32,
    hbo: u32,
    capacity: u32,
    source: &'static str,
) -> Result<(), ConfigError> {
    if lbo > hbo {
        return Err(ConfigError::relation(
            "LBO <= HBO",
            source,
            format!("LBO {lbo} > HBO {hbo}"),
        ));
    }
    if hbo > capacity {
        return Err(ConfigError::relation(
            "HBO <= buffer capacity",
            source,
            format!("HBO {hbo} > capacity {capacity}"),
        ));
    }
    Ok(())
}

impl DoubleEpdParams {
    pub(crate) fn validate(&self, capacity: u32) -> Result<(), ConfigError> {
        check_lbo_hbo(self.lbo, self.hbo, capacity, "Guerin & Heinanen 96-1589")
    }
    /// Double-EPD at a frame's first cell (seed §2).
    pub(crate) fn admit_frame(&self, x: u32, cell: &CellView) -> Result<(), CellDropReason> {
        // "When queue length exceeds LBO, newly arrived tagged packets (CLP=1) are dropped."
        if cell.clp && x > self.lbo {
            return Err(CellDropReason::LboTagged);
        }
        // "When queue length exceeds HBO, newly arrived untagged packets (CLP=0) are dropped."
        if x > self.hbo {
            return Err(CellDropReason::HboAll);
        }
        Ok(())
    }
}
