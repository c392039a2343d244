//! What an experiment is: variants (scenarios with their ingress conditioners), tables whose
//! cells are metrics extracted from the runs of a variant, and figures.
//!
//! An experiment is plain data built by a function (see [`super::registry`]): a base
//! scenario, a list of variants derived from it by small overrides, and how to extract
//! each table cell from a [`qoslab_sim::RunResult`]. Rows of different tables may point at
//! the same variant (e.g. the RIO paper's Table 1 row "minth 60, Reno" is also Table 2's
//! "Reno, 1/10"); it is run once.

use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::Scenario;

use super::metric::Metric;

/// A reproducible experiment: tables and figures from one family of scenarios.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// Command-line name, e.g. "rio-hori2001".
    pub name: &'static str,
    pub title: &'static str,
    /// The document reproduced.
    pub source: &'static str,
    pub variants: Vec<Variant>,
    pub tables: Vec<Table>,
    pub figures: Vec<Figure>,
    /// Seeds 1..=seeds by default.
    pub seeds: u32,
    /// The shortened run of `--quick`.
    pub quick: Quick,
    /// Choices the source leaves open, printed with the results.
    pub notes: Vec<String>,
}

/// Settings of `--quick`: every variant's duration and warm-up replaced, fewer seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quick {
    pub seeds: u32,
    pub duration: Duration,
    pub warmup: Duration,
}

/// One configuration to simulate.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Unique within the experiment; names the runs in CSV files.
    pub key: String,
    /// The whole configuration, ingress conditioners (on links) included.
    pub scenario: Scenario,
    pub seeds: SeedPolicy,
}

/// Which seeds a variant is run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedPolicy {
    /// Seeds 1..=N (N from `--seeds`, `--quick` or the experiment's default).
    Replicate,
    /// A deterministic variant: one run with this seed, whatever N is.
    Fixed(u64),
}

/// A table of the source document.
#[derive(Clone, Debug)]
pub struct Table {
    /// As given to `--table`, e.g. "1", "4b", "a2".
    pub id: &'static str,
    pub title: String,
    /// Where the table is in the document, e.g. "Hori, Ikenaga & Oie 2001, Tbl. 1".
    pub source: String,
    /// Names of the key columns (as in the published-data file), e.g. ["minth_out", "tcp"].
    pub keys: Vec<&'static str>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// The published-data file, e.g. "rio-hori2001/table1.csv" (under `data/`).
    pub published: Option<&'static str>,
}

/// A value column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// As in the published-data file's header.
    pub name: &'static str,
    /// Printed decimals (as the source prints them).
    pub decimals: usize,
}

/// One row: its key cells, the variant it is computed from, and one metric per column.
#[derive(Clone, Debug)]
pub struct Row {
    pub keys: Vec<String>,
    /// Index into [`Experiment::variants`]; [`NO_VARIANT`] for a row of computed cells.
    pub variant: usize,
    pub cells: Vec<Metric>,
}

/// The variant of a row whose cells are all [`Metric::Computed`] (no simulation).
pub const NO_VARIANT: usize = usize::MAX;

impl Row {
    /// False when every cell is computed from equations: the row needs no run.
    pub fn needs_runs(&self) -> bool {
        self.cells.iter().any(|c| c.computed().is_none())
    }
}

/// A figure drawn from the runs of some variants.
#[derive(Clone, Debug)]
pub struct Figure {
    /// As given to `--table` (e.g. "fig2"); the file is `<id>.svg`.
    pub id: &'static str,
    pub title: String,
    pub kind: FigureKind,
}

#[derive(Clone, Debug)]
pub enum FigureKind {
    /// Queue length (packets) of `link` over time, one series per (label, variant), from
    /// the seed-1 run's samples; `with_avg` adds each variant's averaged queue length.
    QueueSeries {
        link: String,
        series: Vec<(String, usize)>,
        with_avg: bool,
    },
    /// Cumulative distribution of the queue length seen by arrivals at `link`, one series
    /// per (label, variant), from the histograms of all seeds summed.
    QueueCdf {
        link: String,
        series: Vec<(String, usize)>,
    },
}

impl FigureKind {
    /// The variants the figure needs.
    pub fn variants(&self) -> impl Iterator<Item = usize> + '_ {
        match self {
            FigureKind::QueueSeries { series, .. } | FigureKind::QueueCdf { series, .. } => {
                series.iter().map(|s| s.1)
            }
        }
    }
    pub fn needs_samples(&self) -> bool {
        matches!(self, FigureKind::QueueSeries { .. })
    }
}

impl Experiment {
    /// Adds a variant, or returns the index of the one with the same key.
    pub fn variant(&mut self, v: Variant) -> usize {
        if let Some(i) = self.variants.iter().position(|w| w.key == v.key) {
            return i;
        }
        self.variants.push(v);
        self.variants.len() - 1
    }

    /// Checks the definition: unique ids, rows as wide as the columns, indices in range,
    /// links named by metrics and figures present in their variants.
    pub fn check(&self) -> Result<(), String> {
        let mut ids: Vec<&str> = self
            .tables
            .iter()
            .map(|t| t.id)
            .chain(self.figures.iter().map(|f| f.id))
            .collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "{}: duplicate table/figure id `{}`",
                self.name, w[0]
            ));
        }
        let has_link = |v: usize, link: &str| {
            self.variants[v]
                .scenario
                .links
                .iter()
                .any(|l| l.name == link)
        };
        for t in &self.tables {
            for r in &t.rows {
                if r.keys.len() != t.keys.len() || r.cells.len() != t.columns.len() {
                    return Err(format!(
                        "{} table {}: row {:?} does not match the columns",
                        self.name, t.id, r.keys
                    ));
                }
                if r.needs_runs() && r.variant >= self.variants.len() {
                    return Err(format!(
                        "{} table {}: row {:?} names no variant",
                        self.name, t.id, r.keys
                    ));
                }
                for c in r.cells.iter().filter(|_| r.needs_runs()) {
                    if let Some(l) = c.link() {
                        if !has_link(r.variant, l) {
                            return Err(format!(
                                "{} table {}: row {:?}: no link `{l}`",
                                self.name, t.id, r.keys
                            ));
                        }
                    }
                }
            }
        }
        for f in &self.figures {
            for v in f.kind.variants() {
                if v >= self.variants.len() {
                    return Err(format!("{} {}: names no variant", self.name, f.id));
                }
                let (FigureKind::QueueSeries { link, .. } | FigureKind::QueueCdf { link, .. }) =
                    &f.kind;
                if !has_link(v, link) {
                    return Err(format!("{} {}: no link `{link}`", self.name, f.id));
                }
            }
        }
        Ok(())
    }
}
