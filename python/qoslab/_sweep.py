"""qoslab.sweep: a grid of key-path values x seeds, one run per cell, resumable, into a
Parquet dataset; on local threads or a Dask cluster.

Planning (which cells, their names, which are done), running a cell and writing its file
are the Rust crate's (``qoslab::sweep``, shared with ``qoslab sweep``); this module only
hands cells to workers and files to the store.
"""

import os
from concurrent.futures import ThreadPoolExecutor, as_completed

import pyarrow as pa
import pyarrow.parquet as pq

from . import _native, _progress
from ._run import _scenario


def _cell_task(text, file, point, seed):
    """One cell on a worker: its Parquet file's bytes. Module-level so Dask can ship it."""
    return _native.run_cell(text, file, point, seed)


def _read(store, keys):
    """The rows of ``keys`` (cell names) from the store, in that order, each once."""
    if not keys:
        return pa.table({}).to_pandas()
    try:
        # one Rust pass over the part and cell files (pyarrow's per-file overhead is ~10 ms)
        return pa.ipc.open_stream(_native.store_read(store, keys)).read_all().to_pandas()
    except ValueError:
        # a column typed differently between files: let pyarrow promote
        paths = _native.store_files(store)
        with ThreadPoolExecutor(max_workers=min(8, len(paths))) as ex:
            tables = list(ex.map(pq.read_table, paths))
        df = pa.concat_tables(tables, promote_options="permissive").to_pandas()
        df = df.drop_duplicates("cell").set_index("cell", drop=False)
        return df.loc[keys].reset_index(drop=True)


def _run_local(sc, todo, store, workers, bar):
    ex = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    try:
        futs = {
            ex.submit(_native.run_cell, sc.toml, sc.file, point, seed): key
            for key, seed, point, _done, _path in todo
        }
        for f in as_completed(futs):
            _native.store_write(store, futs[f], f.result())
            bar.update()
    except BaseException:
        # Ctrl-C (or a failed cell): stop the runs in progress at their next check, drop the
        # queued ones; every cell already written stays, so a second call resumes.
        _native.cancel_all(True)
        ex.shutdown(wait=True, cancel_futures=True)
        _native.cancel_all(False)
        raise
    ex.shutdown(wait=True)


def _run_dask(sc, todo, store, client, bar):
    from distributed import as_completed as dask_completed

    text = client.scatter(sc.toml, broadcast=True)
    pending, names = {}, {}
    for key, seed, point, _done, _path in todo:
        f = client.submit(_cell_task, text, sc.file, point, seed, key=f"qoslab-cell-{key}", pure=False)
        pending[f.key] = f
        names[f.key] = key
    done = dask_completed(list(pending.values()), with_results=True)
    try:
        for f, data in done:
            _native.store_write(store, names[f.key], data)
            # The last reference goes: the cluster forgets the result.
            del pending[f.key]
            bar.update()
    except BaseException:
        client.cancel(list(pending.values()))
        raise


def compact(store):
    """Merges the store's one-row cell files into larger part files (one per schema) and
    removes them; returns ``{"cells": merged, "parts": written, "stale": removed}``. A
    merged cell still counts as done: a later sweep resumes as before and reads it from
    its part. Safe to interrupt (parts appear by rename, cell files go only after)."""
    cells, parts, stale = _native.compact(os.fspath(store))
    return {"cells": cells, "parts": parts, "stale": stale}


def sweep(scenario, grid, seeds=range(5), client=None, store="sweep.parquet", workers=None, progress=True,
          compact=False):
    """Runs every (point, seed) cell of ``grid`` x ``seeds`` and returns a DataFrame, one row
    per cell in order (points row-major, the first key varying slowest; seeds inner).

    ``scenario``: a Scenario, a path or a dict. ``grid``: ``{key path: [values]}`` (key
    paths as in ``Scenario.set``). ``client``: a ``dask.distributed.Client`` to fan the runs
    out to its cluster; without it, ``workers`` threads (default: all cores; the GIL is
    released while a cell runs). ``store``: the directory of the Parquet dataset, one file
    per finished cell, written as the cell finishes; calling again with the same arguments
    runs only the cells not in it (a grid grown by a value runs only the new cells). A
    store holds sweeps of one scenario text only.

    Columns: one per grid key (typed as the values), ``seed``, ``cell`` (the cell's name:
    a hash of scenario text, point and seed), ``events``, ``goodput_bps``, ``jain_index``,
    and per reported queue ``queue[<link>].{utilisation, throughput_bps, ql_mean,
    ql_time_mean, ql_p99, drops, marks}``, per flow ``flow[<name>].{goodput_bps,
    drop_rate}``. For a PCN or ATM scenario: every top-level figure of the engine's result
    (``events``, ``total_goodput_mbps``, ``fairness_index``, ``all_mcr_met``, ...) and,
    per entry of its lists of named entries, the entry's numbers under
    ``<list>[<name>].`` (``links[L1].over_admission.oa_pct``, ``ieas[...].admitted``,
    ``vcs[VC1].goodput_mbps``, ``vcs[VC1].mcr_met``, ``ports[SW1->SW2].cells_dropped_clp1``).

    ``progress``: True (a bar on terminals, tqdm if installed), ``"always"`` (lines on
    stderr even when it is not a terminal: done/total and runs/s, at most one a second) or
    False. Ctrl-C stops the runs in progress (IP and ATM runs at their next slice) and raises
    ``KeyboardInterrupt``; every cell already written stays, so a second call resumes.
    ``compact=True``: after the runs, merge the cell files into part files
    (:func:`compact`).
    """
    sc = _scenario(scenario)
    if isinstance(seeds, int):
        raise TypeError("seeds is a list or range of seeds (range(5)), not a count")
    grid_items = [(str(k), list(v)) for k, v in grid.items()]
    store = os.fspath(store)
    plan = _native.sweep_plan(sc, grid_items, [int(s) for s in seeds], store)
    todo = [c for c in plan if not c[3]]
    bar = _progress.bar(len(plan), len(plan) - len(todo), enabled=progress)
    try:
        if todo:
            if client is None:
                _run_local(sc, todo, store, workers, bar)
            else:
                _run_dask(sc, todo, store, client, bar)
    finally:
        bar.close()
    if compact:
        _native.compact(store)
    return _read(store, [c[0] for c in plan])
