//! `qoslab._native`: the Rust side of the Python package `qoslab` (python/qoslab). Thin:
//! every rule lives in the `qoslab` and `qoslab-sim` crates; this file converts values
//! between Python and Rust, raises `ScenarioError` with the reader's location, and
//! releases the GIL while simulations run.
//!
//! Tables cross as Arrow IPC stream bytes (`qoslab::sweep::arrow`), one buffer per table,
//! read by `pyarrow.ipc` without a Python object per row.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use qoslab::sweep::{self, Override, RunError, SetError, Store};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

create_exception!(
    qoslab,
    ScenarioError,
    PyValueError,
    "A refused scenario: `.file`, `.line`, `.column` (None when not located), `.key` (key path), `.kind`, `.message`."
);

/// Set by `cancel_all()` (the Python side's Ctrl-C handler of a sweep): every run in
/// progress stops at its next check.
static CANCEL: AtomicBool = AtomicBool::new(false);

fn scenario_error(py: Python<'_>, e: &SetError, file: &str) -> PyErr {
    let err = ScenarioError::new_err(e.to_string());
    let v = err.value(py);
    let set = |k: &str, x: PyObject| {
        let _ = v.setattr(k, x);
    };
    match e {
        SetError::Scenario(s) => {
            set(
                "file",
                s.file().into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "line",
                s.line().into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "column",
                s.column().into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "key",
                s.path().into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "kind",
                s.kind()
                    .name()
                    .into_pyobject(py)
                    .unwrap()
                    .into_any()
                    .unbind(),
            );
            set(
                "message",
                s.message().into_pyobject(py).unwrap().into_any().unbind(),
            );
        }
        SetError::Engine(m) => {
            set("file", file.into_pyobject(py).unwrap().into_any().unbind());
            set("line", py.None());
            set("column", py.None());
            set("key", "".into_pyobject(py).unwrap().into_any().unbind());
            set(
                "kind",
                "Engine".into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "message",
                m.as_str().into_pyobject(py).unwrap().into_any().unbind(),
            );
        }
        SetError::Override(o) => {
            set("file", file.into_pyobject(py).unwrap().into_any().unbind());
            set("line", py.None());
            set("column", py.None());
            set(
                "key",
                o.key
                    .as_str()
                    .into_pyobject(py)
                    .unwrap()
                    .into_any()
                    .unbind(),
            );
            set(
                "kind",
                "Override".into_pyobject(py).unwrap().into_any().unbind(),
            );
            set(
                "message",
                o.message
                    .as_str()
                    .into_pyobject(py)
                    .unwrap()
                    .into_any()
                    .unbind(),
            );
        }
    }
    err
}

/// A Python value as a TOML value: bool, int, float, str, list/tuple (array), dict
/// (inline table); numpy scalars through `__index__` / `__float__`.
fn to_value(x: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(b) = x.downcast::<PyBool>() {
        return Ok(Value::from(b.is_true()));
    }
    if x.is_instance_of::<PyInt>() {
        return Ok(Value::from(x.extract::<i64>()?));
    }
    if x.is_instance_of::<PyFloat>() {
        return Ok(Value::from(x.extract::<f64>()?));
    }
    if let Ok(s) = x.downcast::<PyString>() {
        return Ok(Value::from(s.extract::<String>()?));
    }
    if x.is_instance_of::<PyList>() || x.is_instance_of::<PyTuple>() {
        let mut a = Array::new();
        for v in x.try_iter()? {
            a.push(to_value(&v?)?);
        }
        return Ok(Value::Array(a));
    }
    if let Ok(d) = x.downcast::<PyDict>() {
        let mut t = InlineTable::new();
        for (k, v) in d.iter() {
            t.insert(&k.extract::<String>()?, to_value(&v)?);
        }
        return Ok(Value::InlineTable(t));
    }
    if let Ok(i) = x.extract::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = x.extract::<f64>() {
        return Ok(Value::from(f));
    }
    Err(PyTypeError::new_err(format!(
        "a scenario value must be a bool, int, float, str, list or dict, not {}",
        x.get_type().name()?
    )))
}

/// A dict as a TOML document: top-level dicts become tables, top-level lists of dicts
/// lists of tables (`[[link]]`), everything below inline values.
fn dict_to_toml(d: &Bound<'_, PyDict>) -> PyResult<String> {
    let mut doc = DocumentMut::new();
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        if let Ok(sub) = v.downcast::<PyDict>() {
            let mut t = Table::new();
            for (k2, v2) in sub.iter() {
                t.insert(&k2.extract::<String>()?, Item::Value(to_value(&v2)?));
            }
            doc.insert(&key, Item::Table(t));
        } else if v.is_instance_of::<PyList>()
            && v.len()? > 0
            && v.try_iter()?
                .all(|e| e.is_ok_and(|e| e.is_instance_of::<PyDict>()))
        {
            let mut a = ArrayOfTables::new();
            for e in v.try_iter()? {
                let e = e?;
                let mut t = Table::new();
                for (k2, v2) in e.downcast::<PyDict>()?.iter() {
                    t.insert(&k2.extract::<String>()?, Item::Value(to_value(&v2)?));
                }
                a.push(t);
            }
            doc.insert(&key, Item::ArrayOfTables(a));
        } else {
            doc.insert(&key, Item::Value(to_value(&v)?));
        }
    }
    Ok(doc.to_string())
}

/// A scenario: its TOML text (overrides applied) and the file name errors show. Every
/// constructor and `set` reads the text with the scenario reader, so a `Scenario` always
/// holds a valid scenario.
#[pyclass(module = "qoslab")]
#[derive(Clone)]
struct Scenario {
    text: String,
    file: String,
    name: String,
    seed: u64,
    kind: sweep::Kind,
}

impl Scenario {
    fn checked(py: Python<'_>, text: String, file: String) -> PyResult<Scenario> {
        let sc = sweep::load_any(&text, &file, &[]).map_err(|e| scenario_error(py, &e, &file))?;
        Ok(Scenario {
            text,
            file,
            name: sc.name().to_string(),
            seed: sc.seed(),
            kind: sc.kind(),
        })
    }
}

#[pymethods]
impl Scenario {
    /// Reads a scenario file.
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Scenario> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            let err = ScenarioError::new_err(format!("{file}: cannot read: {e}"));
            let v = err.value(py);
            let _ = v.setattr("file", &file);
            let _ = v.setattr("line", py.None());
            let _ = v.setattr("column", py.None());
            let _ = v.setattr("key", "");
            let _ = v.setattr("kind", "Io");
            let _ = v.setattr("message", format!("cannot read: {e}"));
            err
        })?;
        Scenario::checked(py, text, file)
    }

    /// A scenario from TOML text; `file` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, file = "<string>".to_string()))]
    fn from_toml(py: Python<'_>, text: String, file: String) -> PyResult<Scenario> {
        Scenario::checked(py, text, file)
    }

    /// A scenario from a dict shaped like the TOML file (`{"link": [{...}, ...], ...}`).
    #[staticmethod]
    #[pyo3(signature = (d, file = "<dict>".to_string()))]
    fn from_dict(py: Python<'_>, d: &Bound<'_, PyDict>, file: String) -> PyResult<Scenario> {
        let text = dict_to_toml(d)?;
        Scenario::checked(py, text, file)
    }

    /// Sets the value at a key path (`link[G1->G2].queue.max_p`), checked by the scenario
    /// reader; on error the scenario is left unchanged.
    fn set(&mut self, py: Python<'_>, key: String, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = Override::new(key, to_value(value)?);
        let edited = sweep::set::apply(&self.text, &[o])
            .map_err(|e| scenario_error(py, &SetError::Override(e), &self.file))?;
        *self = Scenario::checked(py, edited, self.file.clone())?;
        Ok(())
    }

    /// Sets several key paths at once, checked together (for values that are only valid
    /// together, e.g. a shorter `duration` with a shorter `warmup`).
    fn update(&mut self, py: Python<'_>, values: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut os = Vec::new();
        for (k, v) in values.iter() {
            os.push(Override::new(k.extract::<String>()?, to_value(&v)?));
        }
        let edited = sweep::set::apply(&self.text, &os)
            .map_err(|e| scenario_error(py, &SetError::Override(e), &self.file))?;
        *self = Scenario::checked(py, edited, self.file.clone())?;
        Ok(())
    }

    /// A copy (to set without changing this one).
    fn copy(&self) -> Scenario {
        self.clone()
    }

    /// The TOML text, overrides applied.
    #[getter]
    fn toml(&self) -> &str {
        &self.text
    }
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Which engine runs it: "ip", "pcn" (a `[pcn]` table) or "atm" (`atm = true`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.name()
    }
    /// The scenario's own seed (`seed = ...`, default 1).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    fn __repr__(&self) -> String {
        format!("Scenario(name={:?}, file={:?})", self.name, self.file)
    }

    /// Pickles as (text, file): a scenario travels to Dask workers and process pools.
    fn __reduce__(slf: &Bound<'_, Self>) -> (Py<pyo3::types::PyType>, (String, String)) {
        let me = slf.borrow();
        (slf.get_type().unbind(), (me.text.clone(), me.file.clone()))
    }

    #[new]
    #[pyo3(signature = (text, file = "<string>".to_string()))]
    fn py_new(py: Python<'_>, text: String, file: String) -> PyResult<Scenario> {
        Scenario::checked(py, text, file)
    }
}

/// Runs `f` without the GIL, stopping it on Ctrl-C (checked between slices of about
/// `EVENTS_PER_CHECK` events) or on `cancel_all()`.
fn run_released<T: Send>(
    py: Python<'_>,
    f: impl FnOnce(&mut dyn FnMut(f64) -> bool) -> Result<T, RunError> + Send,
) -> PyResult<T> {
    let interrupt: Mutex<Option<PyErr>> = Mutex::new(None);
    let res = py.allow_threads(|| {
        let mut keep_going = |_: f64| {
            if CANCEL.load(Ordering::Relaxed) {
                return false;
            }
            Python::with_gil(|py| match py.check_signals() {
                Ok(()) => true,
                Err(e) => {
                    *interrupt.lock().expect("not poisoned") = Some(e);
                    false
                }
            })
        };
        f(&mut keep_going)
    });
    match res {
        Ok(x) => Ok(x),
        Err(RunError::Cancelled) => Err(interrupt
            .into_inner()
            .expect("not poisoned")
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err("run cancelled"))),
        Err(RunError::Failed(m)) => Err(PyRuntimeError::new_err(m)),
    }
}

/// (kind, summary JSON, [(table name, Arrow IPC bytes)]).
type RunTables<'py> = (&'static str, String, Vec<(String, Bound<'py, PyBytes>)>);

/// Runs a scenario of any kind: (kind, summary JSON, [(table name, Arrow IPC bytes)]).
#[pyfunction]
#[pyo3(signature = (scenario, seed = None))]
fn run<'py>(py: Python<'py>, scenario: &Scenario, seed: Option<u64>) -> PyResult<RunTables<'py>> {
    let sc = sweep::load_any(&scenario.text, &scenario.file, &[])
        .map_err(|e| scenario_error(py, &e, &scenario.file))?;
    let seed = seed.unwrap_or(sc.seed());
    let out = run_released(py, move |k| sweep::run_any(sc, seed, k))?;
    let kind = out.kind().name();
    let (json, tables) = py
        .allow_threads(|| -> Result<_, String> {
            let json = out.summary_json();
            let mut tables = Vec::new();
            for (name, b) in out.tables(true).map_err(|e| e.to_string())? {
                tables.push((
                    name,
                    qoslab::sweep::arrow::ipc_bytes(&b).map_err(|e| e.to_string())?,
                ));
            }
            Ok((json, tables))
        })
        .map_err(PyRuntimeError::new_err)?;
    let tables = tables
        .into_iter()
        .map(|(n, b)| (n, PyBytes::new(py, &b)))
        .collect();
    Ok((kind, json, tables))
}

fn point_from(py_point: Vec<(String, String)>) -> Vec<Override> {
    py_point
        .into_iter()
        .map(|(k, v)| Override::new(k, sweep::set::parse_cli_value(&v)))
        .collect()
}

/// Runs one sweep cell; returns its Parquet file's bytes. `point` is [(key, TOML value
/// text)], as `sweep_plan` gives it.
#[pyfunction]
fn run_cell<'py>(
    py: Python<'py>,
    text: String,
    file: String,
    point: Vec<(String, String)>,
    seed: u64,
) -> PyResult<Bound<'py, PyBytes>> {
    let point = point_from(point);
    let sc = sweep::load_any(&text, &file, &point).map_err(|e| scenario_error(py, &e, &file))?;
    let key = sweep::cell_key(&text, &point, seed);
    let out = run_released(py, move |k| sweep::run_any(sc, seed, k))?;
    let bytes = py
        .allow_threads(|| sweep::arrow::parquet_bytes(&out.cell_batch(&point, seed, &key)))
        .map_err(PyRuntimeError::new_err)?;
    Ok(PyBytes::new(py, &bytes))
}

type PlanRow = (String, u64, Vec<(String, String)>, bool, String);

/// Plans a sweep: every cell in order as (key, seed, [(key path, TOML value text)], done,
/// file path). Every point is read by the scenario reader first.
#[pyfunction]
fn sweep_plan(
    py: Python<'_>,
    scenario: &Scenario,
    grid: Vec<(String, Vec<Bound<'_, PyAny>>)>,
    seeds: Vec<u64>,
    store: std::path::PathBuf,
) -> PyResult<Vec<PlanRow>> {
    let grid = grid
        .into_iter()
        .map(|(k, vs)| Ok((k, vs.iter().map(to_value).collect::<PyResult<Vec<_>>>()?)))
        .collect::<PyResult<Vec<_>>>()?;
    let st = Store::open(&store, &scenario.text).map_err(PyValueError::new_err)?;
    let cells = sweep::plan(&scenario.text, &scenario.file, &grid, &seeds, &st)
        .map_err(|e| scenario_error(py, &e, &scenario.file))?;
    Ok(cells
        .into_iter()
        .map(|c| {
            let path = st.cell_path(&c.key).display().to_string();
            let point = c
                .point
                .iter()
                .map(|o| (o.key.clone(), o.value_text()))
                .collect();
            (c.key, c.seed, point, c.done, path)
        })
        .collect())
}

/// Writes a finished cell into the store (by rename; the store was opened by the plan).
#[pyfunction]
fn store_write(store: std::path::PathBuf, key: &str, data: &[u8]) -> PyResult<()> {
    let st = Store::at(&store);
    st.write(key, data).map_err(|e| {
        PyRuntimeError::new_err(format!("writing {}: {e}", st.cell_path(key).display()))
    })
}

/// The rows of `keys` from a store (parts and cell files), in that order, each once:
/// Arrow IPC stream bytes. ValueError if a column's type differs between files.
#[pyfunction]
fn store_read<'py>(
    py: Python<'py>,
    store: std::path::PathBuf,
    keys: Vec<String>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py
        .allow_threads(|| {
            let b = Store::open_existing(&store)?.read(&keys)?;
            sweep::arrow::ipc_bytes(&b).map_err(|e| e.to_string())
        })
        .map_err(PyValueError::new_err)?;
    Ok(PyBytes::new(py, &bytes))
}

/// The data files of a store (parts, then cell files).
#[pyfunction]
fn store_files(store: std::path::PathBuf) -> PyResult<Vec<std::path::PathBuf>> {
    Store::open_existing(&store)
        .and_then(|s| s.data_files())
        .map_err(PyValueError::new_err)
}

/// Compacts a store: (cell files merged, part files written, stale cell files removed).
#[pyfunction]
fn compact(py: Python<'_>, store: std::path::PathBuf) -> PyResult<(usize, usize, usize)> {
    py.allow_threads(|| {
        let mut st = Store::open_existing(&store)?;
        st.compact()
    })
    .map(|c| (c.cells, c.parts, c.stale))
    .map_err(PyValueError::new_err)
}

/// `qoslab condition --chain CHAIN --trace TRACE --out OUT` without the GIL. Bad input
/// (chain, trace) raises ValueError with the CLI's message, anything else RuntimeError.
#[pyfunction]
fn condition(
    py: Python<'_>,
    chain: std::path::PathBuf,
    trace: std::path::PathBuf,
    out: std::path::PathBuf,
) -> PyResult<()> {
    use qoslab::condition::{ConditionArgs, ConditionError};
    py.allow_threads(|| qoslab::condition::run(ConditionArgs { chain, trace, out }))
        .map_err(|e| match e {
            ConditionError::Input(m) => PyValueError::new_err(m),
            e @ ConditionError::Internal(_) => PyRuntimeError::new_err(e.to_string()),
        })
}

/// `qoslab reproduce NAME [--table T] [--seeds N] [--quick] --out OUT` without the GIL (it
/// prints its report, as the CLI does). Errors raise ValueError (bad arguments, exit 2)
/// or RuntimeError.
#[pyfunction]
#[pyo3(signature = (name, out, table = None, seeds = None, quick = false))]
fn reproduce(
    py: Python<'_>,
    name: String,
    out: std::path::PathBuf,
    table: Option<String>,
    seeds: Option<u32>,
    quick: bool,
) -> PyResult<()> {
    let args = qoslab::reproduce::ReproduceArgs {
        name,
        table,
        seeds,
        quick,
        out: Some(out),
        jobs: None,
    };
    py.allow_threads(|| qoslab::reproduce::run(args))
        .map_err(|e| {
            if e.exit_code() == 2 {
                PyValueError::new_err(e.to_string())
            } else {
                PyRuntimeError::new_err(e.to_string())
            }
        })
}

/// Stops every run in progress at its next check (or clears that request).
#[pyfunction]
#[pyo3(signature = (on = true))]
fn cancel_all(on: bool) {
    CANCEL.store(on, Ordering::Relaxed);
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_class::<Scenario>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_cell, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(store_write, m)?)?;
    m.add_function(wrap_pyfunction!(store_read, m)?)?;
    m.add_function(wrap_pyfunction!(store_files, m)?)?;
    m.add_function(wrap_pyfunction!(compact, m)?)?;
    m.add_function(wrap_pyfunction!(cancel_all, m)?)?;
    m.add_function(wrap_pyfunction!(condition, m)?)?;
    m.add_function(wrap_pyfunction!(reproduce, m)?)?;
    m.add("EVENTS_PER_CHECK", sweep::EVENTS_PER_CHECK)?;
    Ok(())
}
