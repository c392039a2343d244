"""qoslab.condition and qoslab.reproduce: the CLI commands of the same names, run by the
Rust crate in this process (GIL released), their CSV outputs read into DataFrames."""

import os
import pathlib
import tempfile

import pandas as pd

from . import _native


def condition(chain, trace):
    """Runs a trace through a chain of conditioners (``qoslab condition``) and returns the
    output trace as a DataFrame: the input columns, then ``color`` (and ``departure``,
    ``dropped`` when the chain shapes or polices).

    ``chain``: a chain file (TOML with ``[[stage]]`` tables). ``trace``: a CSV, pcap or
    pcapng path, or a DataFrame with columns ``time`` (seconds), ``size`` (bytes) and
    optionally ``color``, ``flow``. Bad input raises ValueError with the CLI's message.
    """
    with tempfile.TemporaryDirectory(prefix="qoslab-condition-") as tmp:
        tmp = pathlib.Path(tmp)
        if isinstance(trace, pd.DataFrame):
            path = tmp / "trace.csv"
            cols = [c for c in ("time", "size", "color", "flow") if c in trace.columns]
            # times as exact decimals: the reader refuses exponents
            t = trace[cols].copy()
            if t["time"].dtype.kind == "f":
                t["time"] = t["time"].map(lambda x: f"{x:.9f}")
            t.to_csv(path, index=False)
            trace = path
        out = tmp / "out.csv"
        _native.condition(os.fspath(chain), os.fspath(trace), os.fspath(out))
        return pd.read_csv(out)


def reproduce(name, table=None, seeds=5, quick=False, out=None):
    """Runs a reproduced document's experiments (``qoslab reproduce``) and returns one
    DataFrame of every table's cells: ``table``, the table's key columns, ``column``,
    ``runs``, ``ours_mean``, ``ours_ci95``, ``published``, ``diff``, ``diff_pct`` (the
    files ``table_<id>.csv`` the CLI writes). ``seeds``: seeds 1..=seeds (None: the experiment's
    default); ``out``: keep the files there (default: a temporary directory).
    """
    def read(d):
        frames = []
        for f in sorted(pathlib.Path(d).glob("table_*.csv")):
            if f.stem.endswith("_runs"):
                continue
            df = pd.read_csv(f)
            df.insert(0, "table", f.stem[len("table_"):])
            frames.append(df)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    if out is not None:
        _native.reproduce(name, os.fspath(out), table, seeds, quick)
        return read(out)
    with tempfile.TemporaryDirectory(prefix="qoslab-reproduce-") as tmp:
        _native.reproduce(name, tmp, table, seeds, quick)
        return read(tmp)
