"""Speed figures of the Python package (issue 16). Run after `maturin develop --release`
and `cargo build --release -p qoslab`:

    python python/bench/bench.py sweep   # qoslab.sweep vs parallel CLI processes, 1,000 runs
    python python/bench/bench.py series  # a ~10-million-row series into pandas vs the run
    python python/bench/bench.py dask    # per-task overhead on a dask LocalCluster

Prints the figures; nothing is compared against a stored number.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import qoslab

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("QOSLAB_BIN", str(ROOT / "target" / "release" / "qoslab"))
JOBS = os.cpu_count() or 1


def short_dumbbell(duration="1s"):
    sc = qoslab.Scenario.load(ROOT / "scenarios" / "dumbbell.toml")
    sc.update({"duration": duration, "warmup": "0.5s"})
    sc.set("output.tcp_series", False)
    return sc


def bench_sweep(n_points=10, n_seeds=100):
    sc = short_dumbbell()
    maxp = [round(0.02 * (i + 1), 2) for i in range(n_points)]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="qoslab-bench-"))
    try:
        # the same runs as CLI processes, JOBS at a time (each writes its CSV files)
        files = []
        for p in maxp:
            one = sc.copy()
            one.set("link[G1->G2].queue.max_p", p)
            f = tmp / f"p{p}.toml"
            f.write_text(one.toml)
            files.append(f)
        cmds = [
            [CLI, "run", str(f), "--seed", str(s), "--out", str(tmp / "cli" / f"{f.stem}-{s}"), "-q"]
            for f in files
            for s in range(n_seeds)
        ]
        t0 = time.monotonic()
        running = []
        for c in cmds:
            while len(running) >= JOBS:
                running = [p for p in running if p.poll() is None]
                if len(running) >= JOBS:
                    time.sleep(0.0005)
            running.append(subprocess.Popen(c))
        for p in running:
            p.wait()
        t_cli = time.monotonic() - t0
        t0 = time.monotonic()
        df = qoslab.sweep(sc, {"link[G1->G2].queue.max_p": maxp}, seeds=range(n_seeds), store=tmp / "sweep",
                          workers=JOBS, progress=False)
        t_py = time.monotonic() - t0
        n = len(cmds)
        assert len(df) == n
        print(f"{n} runs of {sc.name} (1 s simulated, {df['events'].mean():.0f} events each), {JOBS} at a time:")
        print(f"  CLI processes : {t_cli:7.2f} s  {n / t_cli:7.1f} runs/s")
        print(f"  qoslab.sweep  : {t_py:7.2f} s  {n / t_py:7.1f} runs/s  ({t_cli / t_py * 100:.0f} % of the CLI's rate)")
        t0 = time.monotonic()
        qoslab.sweep(sc, {"link[G1->G2].queue.max_p": maxp}, seeds=range(n_seeds), store=tmp / "sweep",
                     progress=False)
        print(f"  resumed call with all {n} cells present: {time.monotonic() - t0:.2f} s (plan + read)")
    finally:
        shutil.rmtree(tmp)


def bench_series():
    sc = qoslab.Scenario.load(ROOT / "scenarios" / "dumbbell.toml")
    base = sc.copy()
    base.set("output.tcp_series", False)
    base.set("output.sample_interval", "1s")
    t0 = time.monotonic()
    qoslab.run(base)
    t_plain = time.monotonic() - t0
    sc.set("output.sample_interval", "83us")  # 240,964 samples x 41 series: just under the 10 M row limit
    t0 = time.monotonic()
    r = qoslab.run(sc)
    t_run = time.monotonic() - t0
    t0 = time.monotonic()
    frames = [r.queue_series, r.flow_series, r.tcp_series]
    t_pd = time.monotonic() - t0
    rows = sum(len(f) for f in frames)
    mem = sum(f.memory_usage(deep=True).sum() for f in frames) / 1e6
    print(f"dumbbell, 20 s simulated: run without series {t_plain:.2f} s; with {rows / 1e6:.2f} M series rows "
          f"{t_run:.2f} s (simulation, sampling and Arrow buffers)")
    print(f"  Arrow IPC -> pandas for those rows: {t_pd:.3f} s ({t_pd / t_run * 100:.1f} % of the run), {mem:.0f} MB")


def bench_dask(n=400):
    import distributed

    sc = short_dumbbell("1s")
    sc.update({"duration": "10ms", "warmup": "0s"})
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        qoslab.sweep(sc, {"link[G1->G2].queue.max_p": [0.1]}, seeds=range(n), store=pathlib.Path(tmp) / "local", workers=JOBS,
                     progress=False)
        t_local = time.monotonic() - t0
        with distributed.LocalCluster(n_workers=JOBS, threads_per_worker=1, dashboard_address=None) as cl:
            with distributed.Client(cl) as client:
                t0 = time.monotonic()
                qoslab.sweep(sc, {"link[G1->G2].queue.max_p": [0.1]}, seeds=range(n), client=client, store=pathlib.Path(tmp) / "dask",
                             progress=False)
                t_dask = time.monotonic() - t0
    print(f"{n} near-empty runs (10 ms simulated): local threads {t_local:.2f} s, dask LocalCluster "
          f"({JOBS} workers) {t_dask:.2f} s")
    print(f"  per-task overhead of the dask path: {(t_dask - t_local) / n * 1e3:.2f} ms wall per task "
          f"({(t_dask - t_local) * JOBS / n * 1e3:.2f} ms of worker time)")


if __name__ == "__main__":
    what = sys.argv[1:] or ["sweep", "series", "dask"]
    for w in what:
        {"sweep": bench_sweep, "series": bench_series, "dask": bench_dask}[w]()
