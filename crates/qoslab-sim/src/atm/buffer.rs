//! Admission to a switch output port's shared FIFO cell buffer, and F-GCRA tagging at the
//! UNI: the engine's call sites of `qoslab_algo::atm`.
//!
//! The engine owns the FIFO of cells; [`GfrBuffer`] owns the occupancy accounting and the
//! per-VC frame state (EPD/PPD), and answers accept or drop (with a reason) for each
//! arriving cell. Buffer VC ids are the scenario's VC indices (the two directions of a VC
//! never share a port).

use qoslab_algo::atm::{
    ActiveSet, BufferPolicy, CellDropReason, CellRate, CellVerdict, CellView, DfbaParams,
    DoubleEpdParams, DynamicThresholdParams, EpdParams, FGcra, FGcraParams, Gcra, GcraParams,
    GfrBuffer, GfrConformance, RateSample,
};
use qoslab_algo::{Duration, RandomSource, Rate, Time};

use super::spec::{BufferSpec, DfbaShare, PolicySpec, VcSpec};

/// Names of the drop reasons, indexed by [`DropCause`]: the buffer's reasons, then the
/// F-GCRA's non-conforming cells (beyond MFS, mixed CLP), then the cells that fail the PCR
/// check GCRA(1/PCR, CDVT).
pub const DROP_REASONS: [&str; 11] = [
    "buffer-full",
    "epd",
    "ppd",
    "lbo-tagged",
    "hbo",
    "dfba-probabilistic",
    "dt-tagged",
    "dt-untagged",
    "unknown-vc",
    "fgcra-nonconforming",
    "pcr-nonconforming",
];

/// Index into [`DROP_REASONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropCause(pub u8);

impl DropCause {
    pub const NONCONFORMING: DropCause = DropCause(9);
    pub const PCR_NONCONFORMING: DropCause = DropCause(10);
    fn of(r: CellDropReason) -> DropCause {
        DropCause(r.index() as u8)
    }
}

/// The buffer policy of a switch output port.
pub fn new_buffer(spec: &BufferSpec, vcs: &[VcSpec], c_gfr: Rate) -> Result<GfrBuffer, String> {
    let mcr: Vec<f64> = vcs.iter().map(|v| v.mcr_cells()).collect();
    let policy = match spec.policy {
        PolicySpec::TailDrop => BufferPolicy::TailDrop,
        PolicySpec::Epd { threshold } => BufferPolicy::Epd(EpdParams { threshold }),
        PolicySpec::DoubleEpd { lbo, hbo } => BufferPolicy::DoubleEpd(DoubleEpdParams { lbo, hbo }),
        PolicySpec::Dfba {
            lbo,
            hbo,
            z,
            alpha,
            share,
        } => BufferPolicy::Dfba(DfbaParams {
            lbo,
            hbo,
            mcr_cells_per_sec: mcr,
            z: vec![z],
            alpha,
            active: match share {
                DfbaShare::Configured => ActiveSet::Configured,
                DfbaShare::Backlogged => ActiveSet::Backlogged,
            },
        }),
        PolicySpec::DynamicThreshold { lbo, hbo, alpha } => {
            BufferPolicy::DynamicThreshold(DynamicThresholdParams {
                lbo,
                hbo,
                c_gfr_cells_per_sec: c_gfr.0 as f64 / 424.0,
                mcr_cells_per_sec: mcr,
                alpha,
                n_counts: ActiveSet::Configured,
                rate_sample: RateSample::PreviousFrame,
                initial_rate: 0.0,
            })
        }
    };
    GfrBuffer::new(spec.size, vcs.len() as u32, policy).map_err(|e| e.to_string())
}

/// Asks the port's policy about an arriving cell.
#[inline]
pub fn admit(
    buf: &mut GfrBuffer,
    now: Time,
    cell: CellView,
    rng: &mut impl RandomSource,
) -> Result<(), DropCause> {
    match buf.on_arrival(now, cell, rng) {
        CellVerdict::Accept => Ok(()),
        CellVerdict::Drop(r) => Err(DropCause::of(r)),
    }
}

/// The F-GCRA of a VC at the UNI (GFR.2: ineligible frames are tagged; ITU-T I.371.1
/// §6.3.2, TM 4.1 GFR.2): `T = 1/MCR` exactly (MCR in bit/s of 53-byte cells is the cell
/// rate `mcr/424`), `f = BT + CDVT` with `BT = (MBS − 1)·(1/MCR − 1/PCR)` (the burst
/// tolerance of MBS cells back to back at the PCR) and CDVT the VC's `cdvt` (0 when the
/// scenario has no PCR check: the edge router sends each frame back to back at the line
/// rate = PCR, nothing in between adds delay variation).
pub fn new_fgcra(vc: &VcSpec) -> Result<FGcra, String> {
    let mcr = CellRate::new(vc.mcr.0, 424).map_err(|e| format!("vc {}: {e}", vc.name))?;
    let bt_s =
        (vc.mbs.saturating_sub(1)) as f64 * (424.0 / vc.mcr.0 as f64 - 424.0 / vc.pcr.0 as f64);
    let cdvt = vc.cdvt.unwrap_or(Duration::ZERO);
    FGcra::new(FGcraParams {
        mcr,
        // Saturating: a tiny MCR with a huge MBS puts BT beyond u64 ns (an unbounded
        // tolerance either way).
        tolerance: Duration::from_secs_f64(bt_s) + cdvt,
        mfs_cells: vc.mfs,
        conformance: GfrConformance::Gfr2,
    })
    .map_err(|e| format!("vc {}: {e}", vc.name))
}

/// The PCR check of a VC at the UNI, GCRA(1/PCR, CDVT) on all its cells (CLP=0+1; ITU-T
/// I.371.1 §6.3.1, I.371 Annex A.1), if the VC has a `cdvt`. `T = 1/PCR` exactly.
pub fn new_pcr_gcra(vc: &VcSpec) -> Result<Option<Gcra>, String> {
    let Some(cdvt) = vc.cdvt else {
        return Ok(None);
    };
    let pcr = CellRate::new(vc.pcr.0, 424).map_err(|e| format!("vc {}: {e}", vc.name))?;
    Gcra::new(GcraParams {
        rate: pcr,
        tolerance: cdvt,
    })
    .map(Some)
    .map_err(|e| format!("vc {}: {e}", vc.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_reason_names_follow_the_policy_layer() {
        for r in CellDropReason::ALL {
            assert_eq!(DROP_REASONS[r.index()], r.name());
        }
        assert_eq!(DROP_REASONS.len(), CellDropReason::ALL.len() + 2);
        assert_eq!(
            DROP_REASONS[DropCause::NONCONFORMING.0 as usize],
            "fgcra-nonconforming"
        );
        assert_eq!(
            DROP_REASONS[DropCause::PCR_NONCONFORMING.0 as usize],
            "pcr-nonconforming"
        );
    }
}
