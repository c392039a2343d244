import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pandas.testing as pdt
import pytest

import qoslab
from conftest import TINY

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
