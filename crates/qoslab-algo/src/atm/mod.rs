//! ATM GFR (Guaranteed Frame Rate): AAL5 sizing, the F-GCRA conformance test and the
//! buffer-acceptance policies of a GFR switch port.
//!
//! | file | what | source |
//! |---|---|---|
//! | [`cell`] | [`CellView`], cell sizes, exact [`CellRate`] | ITU-T I.361, I.363.5 |
//! | [`aal5`] | cells per IP datagram, [`Encapsulation`] | I.363.5 §10; RFC 2684 §5.1/§6.1 |
//! | [`fgcra`] | [`FGcra`]: F-GCRA(T, f), GFR.1/GFR.2, MFS | ITU-T I.371.1 §6.3.1–6.3.2; ATM Forum TM 4.1 (AF-TM-0121.000) |
//! | [`gcra`] | [`Gcra`]: GCRA(T, τ) virtual scheduling; the PCR check GCRA(1/PCR, CDVT) | ITU-T I.371 Annex A.1; I.371.1 §6.3.1, §6.3.4 |
//! | [`buffer`] | [`GfrBuffer`]: occupancy, per-VC frame state, PPD, counters, [`BufferPolicy`] | Romanow & Floyd 1995 (EPD/PPD) |
//! | [`epd`] | EPD and Double-EPD thresholds | Romanow & Floyd 1995; Guérin & Heinanen 96-1589 |
//! | [`dfba`] | DFBA | Goyal, Jain, Fahmy & Vandalore, ATM Forum/98-0405 |
//! | [`dynamic_threshold`] | Kim et al.'s dynamic threshold + rate estimate | Kim, Choi, Chung & Chon (seed) §3 |
//!
//! # How an engine uses them
//! Per VC at the network edge: a [`Gcra`] (1/PCR, CDVT) may judge each cell first (the PCR
//! check; the engine discards what fails it), then an [`FGcra`] judges each cell (`on_cell`), and under GFR.2
//! the engine sets CLP=1 on [`FGcraVerdict::Tag`]. At each switch output port: a
//! [`GfrBuffer`] decides each arriving cell (`on_arrival` → [`CellVerdict`]); the engine
//! enqueues accepted cells in its FIFO and calls `on_departure` for each cell sent.
//!
//! # Deviations from the agreed API (all additive)
//! * [`FGcraVerdict::Ineligible`]: GFR.1 has no tagging, so an ineligible frame there is
//!   passed unchanged but reported as such (never returned under GFR.2).
//! * [`BufferPolicy::TailDropPpd`]: the "PPD switch" of tail drop is a separate variant, so
//!   `BufferPolicy::TailDrop` stays a unit variant (plain cell tail drop, no PPD).
//! * [`FGcraParams::mcr`] is an exact [`CellRate`] (`num/den` cells/s), not an `f64`.
//! * [`CellDropReason::UnknownVc`] for a VC id ≥ `n_vcs` (instead of a panic).

pub mod aal5;
pub mod buffer;
pub mod cell;
pub mod dfba;
pub mod dynamic_threshold;
pub mod epd;
pub mod fgcra;
pub mod gcra;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use aal5::{aal5_pdu_bytes, cells_per_frame, Encapsulation};
pub use buffer::{
    BufferCounters, BufferPolicy, CellDropReason, CellVerdict, GfrBuffer, VcBufferCounters,
};
pub use cell::{CellRate, CellView, CELL_BYTES, CELL_PAYLOAD};
pub use dfba::{ActiveSet, DfbaParams};
pub use dynamic_threshold::{DynamicThresholdParams, RateSample};
pub use epd::{DoubleEpdParams, EpdParams};
pub use fgcra::{FGcra, FGcraCounters, FGcraParams, FGcraVerdict, GfrConformance};
pub use gcra::{Gcra, GcraCounters, GcraParams, GcraVerdict};
