//! A run's results and a sweep cell's figures as Arrow record batches, and their bytes as
//! Parquet files (`qoslab run --format parquet`, sweep cells) or Arrow IPC streams (what
//! the Python package hands to pyarrow: one buffer per table, no per-row objects).
//!
//! Tables of a run, with the CSV files' names and columns:
//! - `flows`, `queues`: one row per flow / reported queue, every number of `summary.json`'s
//!   entry flattened to a column (`measured.data_pkts`, `length.mean`,
//!   `measured.drops.1.0` for drop reason 1, colour 0); arrays longer than
//!   [`MAX_FLAT_ARRAY`] (the queue-length histogram) stay in `summary.json` only;
//! - `queue_series`, `flow_series`, `tcp_series`, `tfrc_series`: the time series, names of
//!   links and flows dictionary-encoded (pandas: `category`).

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_array::types::UInt32Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int64Array, RecordBatch, StringArray,
    UInt32Array, UInt64Array,
};
use arrow_schema::ArrowError;
use qoslab_sim::sim::{QueueSample, TcpSample, TfrcSample};
use qoslab_sim::RunResult;
use serde_json::Value as Json;

/// Arrays of at most this many numbers are flattened into one column per element.
pub const MAX_FLAT_ARRAY: usize = 16;

/// Everything a run produces, before rendering.
pub struct RunOutput {
    pub result: RunResult,
    pub links: Vec<String>,
    pub flows: Vec<String>,
    pub queue_samples: Vec<QueueSample>,
    pub flow_samples: Vec<(u64, u32, u64)>,
    pub tcp_samples: Vec<TcpSample>,
    pub tfrc_samples: Vec<TfrcSample>,
    /// Whether `output.tfrc_series` was on (the CSV is written even when empty).
    pub tfrc_series: bool,
}

/// Flattens `v` into (dotted name, scalar) pairs under `prefix`: objects by key, arrays of
/// at most [`MAX_FLAT_ARRAY`] elements by index; longer arrays, and members named in
/// `skip` (series tabulated apart), are left out.
pub fn flatten_skipping(prefix: &str, v: &Json, skip: &[&str], out: &mut Vec<(String, Json)>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Json::Object(m) => {
            for (k, x) in m {
                if !skip.contains(&k.as_str()) {
                    flatten_skipping(&join(k), x, skip, out);
                }
            }
        }
        Json::Array(a) if a.len() <= MAX_FLAT_ARRAY => {
            for (i, x) in a.iter().enumerate() {
                flatten_skipping(&join(&i.to_string()), x, skip, out);
            }
        }
        Json::Array(_) => {}
        x => out.push((prefix.to_string(), x.clone())),
    }
}

/// One column from JSON values (`None`: the row lacks the key): unsigned, signed, float,
/// boolean or string by what the values are; mixed kinds become their JSON text.
pub fn json_column(vals: &[Option<&Json>]) -> ArrayRef {
    let present = || vals.iter().flatten();
    if present().all(|v| v.is_u64()) {
        return Arc::new(UInt64Array::from_iter(
            vals.iter().map(|v| v.and_then(Json::as_u64)),
        ));
    }
    if present().all(|v| v.is_i64()) {
        return Arc::new(Int64Array::from_iter(
            vals.iter().map(|v| v.and_then(Json::as_i64)),
        ));
    }
    if present().all(|v| v.is_number() || v.is_null()) {
        return Arc::new(Float64Array::from_iter(
            vals.iter().map(|v| v.and_then(Json::as_f64)),
        ));
    }
    if present().all(|v| v.is_boolean()) {
        return Arc::new(BooleanArray::from_iter(
            vals.iter().map(|v| v.and_then(Json::as_bool)),
        ));
    }
    Arc::new(StringArray::from_iter(vals.iter().map(|v| {
        v.map(|j| match j {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        })
    })))
}

/// Rows of serialisable records → one batch, columns in order of first appearance.
fn records<T: serde::Serialize>(rows: &[T]) -> Result<RecordBatch, ArrowError> {
    let vals: Vec<Json> = rows
        .iter()
        .map(|r| serde_json::to_value(r).expect("results serialise"))
        .collect();
    records_json(&vals.iter().collect::<Vec<_>>(), &[])
}

/// Rows of JSON objects → one batch, as [`records`] (members named in `skip` left out).
pub fn records_json(rows: &[&Json], skip: &[&str]) -> Result<RecordBatch, ArrowError> {
    let mut order: Vec<String> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let flat: Vec<BTreeMap<String, Json>> = rows
        .iter()
        .map(|r| {
            let mut cols = Vec::new();
            flatten_skipping("", r, skip, &mut cols);
            for (k, _) in &cols {
                if !index.contains_key(k) {
                    index.insert(k.clone(), order.len());
                    order.push(k.clone());
                }
            }
            cols.into_iter().collect()
        })
        .collect();
    // Names first, then the entry's own figures, then its nested counters (serde_json
    // objects are sorted by key; the rank keeps a table readable from the left).
    let rank = |k: &String| match (k.as_str(), k.contains('.')) {
        ("name" | "link", _) => 0,
        (_, false)
            if flat
                .iter()
                .any(|r| matches!(r.get(k), Some(Json::String(_)))) =>
        {
            1
        }
        (_, false) => 2,
        (_, true) => 3,
    };
    order.sort_by_key(rank);
    if order.is_empty() {
        return Ok(RecordBatch::new_empty(Arc::new(
            arrow_schema::Schema::empty(),
        )));
    }
    let cols = order.iter().map(|name| {
        let vals: Vec<Option<&Json>> = flat.iter().map(|r| r.get(name)).collect();
        (name.clone(), json_column(&vals))
    });
    RecordBatch::try_from_iter(cols)
}

/// A dictionary-encoded column of names, the dictionary holding only the names used, in
/// order of id (as a Parquet file of the column keeps them).
pub(crate) fn names(codes: impl Iterator<Item = u32> + Clone, dict: &[String]) -> ArrayRef {
    let mut used = vec![false; dict.len()];
    for c in codes.clone() {
        used[c as usize] = true;
    }
    let mut remap = vec![0u32; dict.len()];
    let mut kept = Vec::new();
    for (i, u) in used.iter().enumerate() {
        if *u {
            remap[i] = kept.len() as u32;
            kept.push(dict[i].as_str());
        }
    }
    let keys = UInt32Array::from_iter_values(codes.map(|c| remap[c as usize]));
    let values: ArrayRef = Arc::new(StringArray::from_iter_values(kept));
    Arc::new(DictionaryArray::<UInt32Type>::try_new(keys, values).expect("codes index the names"))
}

fn f64s(it: impl Iterator<Item = f64>) -> ArrayRef {
    Arc::new(Float64Array::from_iter_values(it))
}
fn u64s(it: impl Iterator<Item = u64>) -> ArrayRef {
    Arc::new(UInt64Array::from_iter_values(it))
}

fn secs(t_ns: u64) -> f64 {
    t_ns as f64 * 1e-9
}

impl RunOutput {
    /// The tables of the run, by name, in a fixed order. A series the run did not record is
    /// left out (as its CSV file is) unless `all_series`, when it is an empty table.
    pub fn tables(&self, all_series: bool) -> Result<Vec<(&'static str, RecordBatch)>, ArrowError> {
        let mut out = vec![
            ("flows", records(&self.result.flows)?),
            ("queues", records(&self.result.queues)?),
        ];
        let q = &self.queue_samples;
        if all_series || !q.is_empty() {
            out.push((
                "queue_series",
                RecordBatch::try_from_iter([
                    ("time_s", f64s(q.iter().map(|x| secs(x.t_ns)))),
                    ("link", names(q.iter().map(|x| x.link), &self.links)),
                    (
                        "pkts",
                        Arc::new(UInt32Array::from_iter_values(q.iter().map(|x| x.pkts)))
                            as ArrayRef,
                    ),
                    ("bytes", u64s(q.iter().map(|x| x.bytes))),
                    ("avg", f64s(q.iter().map(|x| x.avg))),
                ])?,
            ));
        }
        let f = &self.flow_samples;
        if all_series || !f.is_empty() {
            out.push((
                "flow_series",
                RecordBatch::try_from_iter([
                    ("time_s", f64s(f.iter().map(|x| secs(x.0)))),
                    ("flow", names(f.iter().map(|x| x.1), &self.flows)),
                    ("goodput_bytes", u64s(f.iter().map(|x| x.2))),
                ])?,
            ));
        }
        let t = &self.tcp_samples;
        if all_series || !t.is_empty() {
            out.push((
                "tcp_series",
                RecordBatch::try_from_iter([
                    ("time_s", f64s(t.iter().map(|x| secs(x.t_ns)))),
                    ("flow", names(t.iter().map(|x| x.flow), &self.flows)),
                    ("cwnd_bytes", u64s(t.iter().map(|x| x.cwnd))),
                    ("ssthresh_bytes", u64s(t.iter().map(|x| x.ssthresh))),
                    ("srtt_s", f64s(t.iter().map(|x| secs(x.srtt_ns)))),
                ])?,
            ));
        }
        if all_series || self.tfrc_series {
            let t = &self.tfrc_samples;
            out.push((
                "tfrc_series",
                RecordBatch::try_from_iter([
                    ("time_s", f64s(t.iter().map(|x| secs(x.t_ns)))),
                    ("flow", names(t.iter().map(|x| x.flow), &self.flows)),
                    ("p", f64s(t.iter().map(|x| x.p))),
                    ("x_bps", f64s(t.iter().map(|x| x.x * 8.0))),
                    ("rtt_s", f64s(t.iter().map(|x| secs(x.rtt_ns)))),
                ])?,
            ));
        }
        Ok(out)
    }
}

/// A batch as an Arrow IPC stream (what `pyarrow.ipc.open_stream` reads).
pub fn ipc_bytes(batch: &RecordBatch) -> Result<Vec<u8>, ArrowError> {
    let mut buf = Vec::new();
    {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut buf, &batch.schema())?;
        w.write(batch)?;
        w.finish()?;
    }
    Ok(buf)
}

/// Reads cell files (or any Parquet files of one row group schema each) into one batch:
/// columns in order of first appearance, a column a file lacks is null in its rows. A
/// column whose type differs between files is refused (the caller can fall back to a
/// promoting reader).
pub fn read_parquet_files(paths: &[std::path::PathBuf]) -> Result<RecordBatch, String> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let mut batches = Vec::with_capacity(paths.len());
    for p in paths {
        let f = std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let r = ParquetRecordBatchReaderBuilder::try_new(f)
            .and_then(|b| b.build())
            .map_err(|e| format!("{}: {e}", p.display()))?;
        for b in r {
            batches.push(b.map_err(|e| format!("{}: {e}", p.display()))?);
        }
    }
    concat_batches(&batches)
}

/// Concatenates batches whose columns may differ (see [`read_parquet_files`]).
pub fn concat_batches(batches: &[RecordBatch]) -> Result<RecordBatch, String> {
    let mut fields: Vec<arrow_schema::FieldRef> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for b in batches {
        for f in b.schema().fields() {
            match index.get(f.name()) {
                Some(&i) if fields[i].data_type() != f.data_type() => {
                    return Err(format!(
                        "column `{}` is {} in one cell and {} in another",
                        f.name(),
                        fields[i].data_type(),
                        f.data_type()
                    ))
                }
                Some(_) => {}
                None => {
                    index.insert(f.name().clone(), fields.len());
                    fields.push(Arc::new(f.as_ref().clone().with_nullable(true)));
                }
            }
        }
    }
    let mut cols = Vec::with_capacity(fields.len());
    for f in &fields {
        let parts: Vec<ArrayRef> = batches
            .iter()
            .map(|b| match b.column_by_name(f.name()) {
                Some(c) => c.clone(),
                None => arrow_array::new_null_array(f.data_type(), b.num_rows()),
            })
            .collect();
        let refs: Vec<&dyn arrow_array::Array> = parts.iter().map(|a| a.as_ref()).collect();
        cols.push(if refs.is_empty() {
            arrow_array::new_empty_array(f.data_type())
        } else {
            arrow_select::concat::concat(&refs).map_err(|e| e.to_string())?
        });
    }
    let schema = Arc::new(arrow_schema::Schema::new(fields));
    let rows = batches.iter().map(|b| b.num_rows()).sum();
    RecordBatch::try_new_with_options(
        schema,
        cols,
        &arrow_array::RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .map_err(|e| e.to_string())
}

/// A batch as a Parquet file (Snappy-compressed pages).
pub fn parquet_bytes(batch: &RecordBatch) -> Result<Vec<u8>, String> {
    let props = parquet::file::properties::WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .set_created_by("qoslab".to_string())
        .build();
    let mut buf = Vec::new();
    let mut w = parquet::arrow::ArrowWriter::try_new(&mut buf, batch.schema(), Some(props))
        .map_err(|e| e.to_string())?;
    w.write(batch).map_err(|e| e.to_string())?;
    w.close().map_err(|e| e.to_string())?;
    Ok(buf)
}

/// A one-row column of a TOML value: integer, float, boolean or string, and the TOML
/// text for anything else (arrays, tables).
pub fn toml_column(v: &toml_edit::Value) -> ArrayRef {
    use toml_edit::Value as V;
    match v {
        V::Integer(i) => Arc::new(Int64Array::from(vec![*i.value()])),
        V::Float(f) => Arc::new(Float64Array::from(vec![*f.value()])),
        V::Boolean(b) => Arc::new(BooleanArray::from(vec![*b.value()])),
        V::String(s) => Arc::new(StringArray::from(vec![s.value().clone()])),
        other => {
            let mut o = other.clone();
            o.decor_mut().clear();
            Arc::new(StringArray::from(vec![o.to_string()]))
        }
    }
}

/// One-row columns of f64 / u64.
pub fn one_f64(x: f64) -> ArrayRef {
    Arc::new(Float64Array::from(vec![x]))
}
pub fn one_u64(x: u64) -> ArrayRef {
    Arc::new(UInt64Array::from(vec![x]))
}
pub fn one_str(x: &str) -> ArrayRef {
    Arc::new(StringArray::from(vec![x]))
}

/// The `cell` column of a Parquet file of sweep cells (read alone).
pub fn read_cell_keys(path: &std::path::Path) -> Result<Vec<String>, String> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ProjectionMask;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let f = std::fs::File::open(path).map_err(|e| err(&e))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| err(&e))?;
    let idx = b
        .schema()
        .index_of("cell")
        .map_err(|_| err(&"no `cell` column: not a file of sweep cells"))?;
    let mask = ProjectionMask::roots(b.parquet_schema(), [idx]);
    let mut out = Vec::new();
    for batch in b.with_projection(mask).build().map_err(|e| err(&e))? {
        let batch = batch.map_err(|e| err(&e))?;
        let col = batch
            .column(0)
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or_else(|| err(&"the `cell` column is not text"))?;
        out.extend(col.iter().map(|k| k.unwrap_or_default().to_string()));
    }
    Ok(out)
}

/// The rows of `keys` (by the `cell` column), in that order, the first row of each key
/// (`want`: the same keys as a set). A key without a row is an error.
pub fn select_cells(
    all: &RecordBatch,
    keys: &[String],
    want: &std::collections::BTreeSet<&str>,
) -> Result<RecordBatch, String> {
    if keys.is_empty() {
        return Ok(RecordBatch::new_empty(Arc::new(
            arrow_schema::Schema::empty(),
        )));
    }
    let col = all
        .column_by_name("cell")
        .and_then(|c| c.as_any().downcast_ref::<StringArray>())
        .ok_or("the store's files have no `cell` column")?;
    let mut row: BTreeMap<&str, u32> = BTreeMap::new();
    for (i, k) in col.iter().enumerate() {
        if let Some(k) = k.filter(|k| want.contains(k)) {
            row.entry(k).or_insert(i as u32);
        }
    }
    let idx = keys
        .iter()
        .map(|k| {
            row.get(k.as_str())
                .copied()
                .ok_or_else(|| format!("cell {k} is not in the store"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    let idx = UInt32Array::from(idx);
    let cols = all
        .columns()
        .iter()
        .map(|c| arrow_select::take::take(c.as_ref(), &idx, None).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, String>>()?;
    RecordBatch::try_new(all.schema(), cols).map_err(|e| e.to_string())
}
