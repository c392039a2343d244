//! Admission to a switch output port's shared FIFO cell buffer: the one place where the
//! engine asks a buffer-management policy about a cell.
//!
//! The engine owns the FIFO of cells; the policy owns the occupancy accounting and its
//! per-VC frame state, and answers accept or drop (with a reason) for each arriving cell.
//!
//! Provisional: until `qoslab_algo::atm::GfrBuffer` (branch `gfr-algo`) is merged, only a
//! plain cell tail drop exists here; every other policy is refused with a clear message.

use qoslab_algo::{RandomSource, Time};

use super::spec::{BufferSpec, PolicySpec};

/// What the engine tells the policy about a cell (the algorithm layer's `CellView`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    pub vc: u32,
    pub clp: bool,
    pub first_of_frame: bool,
    pub last_of_frame: bool,
}

/// Names of the drop reasons, indexed by [`DropCause`].
pub const DROP_REASONS: &[&str] = &["buffer-full"];

/// Index into [`DROP_REASONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropCause(pub u8);

/// The policy of one output port.
#[derive(Clone, Debug)]
pub enum Admission {
    TailDrop { capacity: u32, occupancy: u32 },
}

impl Admission {
    /// `weights` are eq. (2)'s w_i per VC (bit/s of cells), `c_gfr` in bit/s.
    pub fn new(
        spec: &BufferSpec,
        _n_vcs: u32,
        _mcr_cells: &[f64],
        _c_gfr_cells: f64,
    ) -> Result<Admission, String> {
        if spec.size == 0 {
            return Err("buffer size must be >= 1 cell".into());
        }
        match spec.policy {
            PolicySpec::TailDrop => Ok(Admission::TailDrop {
                capacity: spec.size,
                occupancy: 0,
            }),
            ref p => Err(format!(
                "buffer policy `{}` needs qoslab_algo::atm (branch gfr-algo), not merged yet",
                p.name()
            )),
        }
    }

    #[inline]
    pub fn on_arrival(
        &mut self,
        _now: Time,
        _cell: CellView,
        _rng: &mut impl RandomSource,
    ) -> Result<(), DropCause> {
        match self {
            Admission::TailDrop {
                capacity,
                occupancy,
            } => {
                if *occupancy >= *capacity {
                    Err(DropCause(0))
                } else {
                    *occupancy += 1;
                    Ok(())
                }
            }
        }
    }

    #[inline]
    pub fn on_departure(&mut self, _now: Time, _vc: u32) {
        match self {
            Admission::TailDrop { occupancy, .. } => *occupancy -= 1,
        }
    }

    pub fn occupancy(&self) -> u32 {
        match self {
            Admission::TailDrop { occupancy, .. } => *occupancy,
        }
    }
}
