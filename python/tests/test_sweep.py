import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pandas.testing as pdt
import pytest

import qoslab
from conftest import ROOT, TINY

GRID = {"link[G->D].queue.max_p": [0.02, 0.2], "link[G->D].rate": ["2Mbps", "4Mbps"]}


def _sorted(df):
    return df.sort_values(["cell"]).reset_index(drop=True)


def test_a_sweep_gives_one_row_per_cell_in_order(tmp_path):
    sc = qoslab.Scenario.from_toml(TINY, "tiny.toml")
    df = qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "s", progress=False)
    assert len(df) == 8 and df["cell"].is_unique
    assert list(df["link[G->D].queue.max_p"]) == [0.02] * 4 + [0.2] * 4
    assert list(df["link[G->D].rate"]) == ["2Mbps", "2Mbps", "4Mbps", "4Mbps"] * 2
    assert list(df["seed"]) == [0, 1] * 4
    assert df["goodput_bps"].dtype.kind == "f"
    # each row is the run of its cell
    one = sc.copy()
    one.set("link[G->D].queue.max_p", 0.2)
    one.set("link[G->D].rate", "4Mbps")
    r = qoslab.run(one, seed=1)
    row = df.iloc[7]
    assert row["goodput_bps"] == r.summary["aggregate"]["goodput_bps"]
    assert row["queue[G->D].ql_mean"] == r.queues["length.mean"].iloc[0]
    assert row["events"] == r.summary["events"]
    # the slower link gives less goodput
    slow = df[df["link[G->D].rate"] == "2Mbps"]["goodput_bps"]
    fast = df[df["link[G->D].rate"] == "4Mbps"]["goodput_bps"]
    assert slow.max() <= 2e6 and slow.mean() < fast.mean()
    # a second call runs nothing and returns the same frame
    t0 = time.monotonic()
    again = qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "s", progress=False)
    pdt.assert_frame_equal(again, df)
    # the store refuses a sweep of another scenario
    other = sc.copy()
    other.set("duration", "1s")
    with pytest.raises(ValueError, match="another scenario"):
        qoslab.sweep(other, GRID, seeds=range(2), store=tmp_path / "s", progress=False)


def test_bad_grid_values_are_refused_before_any_run(tmp_path):
    sc = qoslab.Scenario.from_toml(TINY, "tiny.toml")
    with pytest.raises(qoslab.ScenarioError) as ei:
        qoslab.sweep(sc, {"link[G->D].queue.max_p": [0.1, 1.5]}, seeds=[1], store=tmp_path / "s", progress=False)
    assert ei.value.key == "link[1].queue.max_p"
    assert not list((tmp_path / "s").glob("cell-*"))


def test_a_killed_sweep_resumes_to_the_same_dataset_without_duplicates(tmp_path, tiny_path):
    # 6 cells of 100 s simulated (about 0.15 s each): the kill lands mid-sweep
    grid = {"link[G->D].queue.max_p": [0.02, 0.05, 0.2], "duration": ["100s"]}
    ref = qoslab.sweep(qoslab.Scenario.load(tiny_path), grid, seeds=range(2), store=tmp_path / "ref", progress=False)
    store = tmp_path / "killed"
    code = (
        "import qoslab\n"
        f"qoslab.sweep(qoslab.Scenario.load({str(tiny_path)!r}), {grid!r}, seeds=range(2), "
        f"store={str(store)!r}, workers=1, progress=False)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 60
    while len(list(store.glob("cell-*.parquet"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    partial = len(list(store.glob("cell-*.parquet")))
    assert 2 <= partial < 6, partial
    df = qoslab.sweep(qoslab.Scenario.load(tiny_path), grid, seeds=range(2), store=store, progress=False)
    assert len(df) == 6 and df["cell"].is_unique
    assert len(list(store.glob("cell-*.parquet"))) == 6
    pdt.assert_frame_equal(df, ref)


def test_the_cli_sweep_writes_the_same_cells(tmp_path, tiny_path, cli):
    out = tmp_path / "cli"
    args = [cli, "sweep", str(tiny_path), "--set", "link[G->D].queue.max_p=0.02,0.2", "--seeds", "2", "--out", str(out), "-q"]
    subprocess.run(args, check=True)
    df_cli = pd.read_parquet(sorted(out.glob("cell-*.parquet")))
    py = qoslab.sweep(qoslab.Scenario.load(tiny_path), {"link[G->D].queue.max_p": [0.02, 0.2]}, seeds=[1, 2],
                      store=out, progress=False)
    pdt.assert_frame_equal(_sorted(df_cli), _sorted(py))
    # resumable: the second CLI call runs nothing
    p = subprocess.run(args[:-1], check=True, capture_output=True, text=True)
    assert "0 run now, 4 already" in p.stdout


def test_a_sweep_on_a_dask_local_cluster_equals_the_serial_sweep(tmp_path):
    distributed = pytest.importorskip("distributed")
    sc = qoslab.Scenario.from_toml(TINY, "tiny.toml")
    serial = qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "serial", workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            dask = qoslab.sweep(sc, GRID, seeds=range(2), client=client, store=tmp_path / "dask", progress=False)
    pdt.assert_frame_equal(serial, dask)
    assert len(list((tmp_path / "dask").glob("cell-*.parquet"))) == 8


def _interrupt_after_first_cell(code, store):
    """Runs `code` in a subprocess, sends SIGINT once a cell is written and a second
    has run ~1 s, and returns (return code, stdout, seconds from SIGINT to exit)."""
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(store.glob("cell-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    return p.returncode, out, time.monotonic() - t0


def test_ctrl_c_stops_a_long_sweep_cleanly_and_it_resumes(tmp_path, tiny_path):
    # cell 1 is 2 s simulated (milliseconds), cell 2 is ten hours simulated (tens of seconds
    # even with the extension optimised; sampled each second to stay within the series
    # limit): SIGINT lands in it
    grid = {"duration": ["2s", "36000s"], "output.sample_interval": ["1s"]}
    store = tmp_path / "s"
    code = (
        "import qoslab, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored\n"
        "try:\n"
        f"    qoslab.sweep(qoslab.Scenario.load({str(tiny_path)!r}), {grid!r}, seeds=[1], "
        f"store={str(store)!r}, workers=1, progress=False)\n"
        "except KeyboardInterrupt:\n    print('interrupted', flush=True); sys.exit(3)\n"
    )
    rc, out, took = _interrupt_after_first_cell(code, store)
    assert rc == 3 and "interrupted" in out
    assert took < 5, took
    # the finished cell is whole, the interrupted one absent; no temporary file left
    files = sorted(p.name for p in store.iterdir())
    assert len(files) == 2 and files[1] == "sweep.json" and files[0].startswith("cell-"), files
    pd.read_parquet(store / files[0])
    plan = qoslab._native.sweep_plan(qoslab.Scenario.load(tiny_path), list(grid.items()), [1], str(store))
    assert [c[3] for c in plan] == [True, False]
    # resumed with a shorter second point: only that cell runs, next to the kept one
    df = qoslab.sweep(qoslab.Scenario.load(tiny_path), {"duration": ["2s", "3s"], "output.sample_interval": ["1s"]},
                      seeds=[1], store=store,
                      progress=False)
    assert df["duration"].tolist() == ["2s", "3s"] and df["cell"].iloc[0] == plan[0][0]


def test_ctrl_c_stops_a_long_pcn_run_and_a_pcn_sweep(tmp_path):
    pcn = ROOT / "scenarios" / "pcn-stm" / "adm-cbr-single.toml"  # 300 s at 128 Mbit/s: minutes
    code = (
        "import qoslab, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored\n"
        f"sc = qoslab.Scenario.load({str(pcn)!r})\n"
        "print('go', flush=True)\n"
        "try:\n    qoslab.run(sc)\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True); sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "go"
    time.sleep(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 3 and "interrupted" in out
    assert time.monotonic() - t0 < 5
    store = tmp_path / "pcn"
    grid = {"pcn.duration": ["1s", "300s"], "pcn.measure.oa_from": ["0.5s"], "pcn.measure.oa_to": ["1s"]}
    code = (
        "import qoslab, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored\n"
        "try:\n"
        f"    qoslab.sweep(qoslab.Scenario.load({str(pcn)!r}), {grid!r}, seeds=[1], store={str(store)!r}, "
        "workers=1, progress=False)\n"
        "except KeyboardInterrupt:\n    print('interrupted', flush=True); sys.exit(3)\n"
    )
    rc, out, took = _interrupt_after_first_cell(code, store)
    assert rc == 3 and "interrupted" in out and took < 5, (rc, out, took)
    assert len(list(store.glob("cell-*.parquet"))) == 1 and len(list(store.iterdir())) == 2


def test_the_progress_bar_shows_done_total_and_rate_when_asked(tmp_path, capsys):
    sc = qoslab.Scenario.from_toml(TINY, "tiny.toml")
    qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "s", progress="always")
    err = capsys.readouterr().err
    lines = [l for l in err.splitlines() if l.startswith("sweep")]
    done, rate, unit = lines[-1].split()[-3:]
    assert (done, unit) == ("8/8", "runs/s") and float(rate) > 0, lines
    # a resumed sweep starts from the cells already done
    qoslab.sweep(sc, {**GRID, "link[G->D].queue.max_p": [0.02, 0.2, 0.1]}, seeds=range(2), store=tmp_path / "s",
                 progress="always")
    err = capsys.readouterr().err.splitlines()
    assert "8/12" in err[0] and "12/12" in err[-1], err
    qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "s2", progress=False)
    assert capsys.readouterr().err == ""


def test_compaction_merges_cells_and_keeps_resume_and_results(tmp_path, tiny_path, cli):
    sc = qoslab.Scenario.from_toml(TINY, "tiny.toml")
    ref = qoslab.sweep(sc, GRID, seeds=range(2), store=tmp_path / "ref", progress=False)
    store = tmp_path / "s"
    df = qoslab.sweep(sc, GRID, seeds=range(2), store=store, progress=False, compact=True)
    pdt.assert_frame_equal(df, ref)
    names = sorted(p.name for p in store.iterdir())
    assert len(names) == 2 and names[0].startswith("part-") and names[1] == "sweep.json", names
    assert len(pd.read_parquet(store / names[0])) == 8
    # resumed: nothing runs, nothing is written, the same frame
    again = qoslab.sweep(sc, GRID, seeds=range(2), store=store, progress=False)
    pdt.assert_frame_equal(again, ref)
    assert sorted(p.name for p in store.iterdir()) == names
    # a grown grid runs only the new cells, which a second compaction merges
    grid3 = {**GRID, "link[G->D].queue.max_p": [0.02, 0.2, 0.1]}
    ref3 = qoslab.sweep(sc, grid3, seeds=range(2), store=tmp_path / "ref", progress=False)
    df3 = qoslab.sweep(sc, grid3, seeds=range(2), store=store, progress=False)
    assert len(list(store.glob("cell-*.parquet"))) == 4
    pdt.assert_frame_equal(df3, ref3)
    assert qoslab.compact(store) == {"cells": 4, "parts": 1, "stale": 0}
    assert len(list(store.glob("part-*.parquet"))) == 2 and not list(store.glob("cell-*"))
    pdt.assert_frame_equal(qoslab.sweep(sc, grid3, seeds=range(2), store=store, progress=False), ref3)
    # the CLI: --compact, and a resumed CLI sweep counts compacted cells as done
    out = tmp_path / "cli"
    args = [cli, "sweep", str(tiny_path), "--set", "link[G->D].queue.max_p=0.02,0.2", "--seeds", "2",
            "--out", str(out), "--compact"]
    p = subprocess.run(args, check=True, capture_output=True, text=True)
    assert "compacted 4 cell files into 1 part files" in p.stdout
    p = subprocess.run(args[:-1], check=True, capture_output=True, text=True)
    assert "0 run now, 4 already" in p.stdout
    assert [p.name for p in out.glob("*.parquet")][0].startswith("part-")
