"""RED max_p x offered load on the dumbbell: goodput and mean queue, with matplotlib.

    pip install matplotlib            # besides the qoslab package (see the README)
    python python/examples/red_sweep.py [--dask] [--seeds 3] [--out red_sweep.png]

Offered load is varied through the bottleneck rate: the same 20 flows are offered to a
35, 70 or 140 Mb/s bottleneck, i.e. 2x, 1x and 0.5x the base load (changing the number of
senders, `flow[tcp{i}].count`, would need the node and link counts changed with it). The
sweep resumes: rerun it after an interruption and only the missing runs are made.
"""

import argparse
import pathlib

import qoslab

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="run on a dask LocalCluster")
    ap.add_argument("--store", default="red_sweep.parquet")
    ap.add_argument("--out", default="red_sweep.png")
    a = ap.parse_args()

    sc = qoslab.Scenario.load(ROOT / "scenarios" / "dumbbell.toml")
    sc.set("duration", "10s")
    sc.set("output.tcp_series", False)
    grid = {
        "link[G1->G2].rate": ["35Mbps", "70Mbps", "140Mbps"],
        "link[G1->G2].queue.max_p": [0.02, 0.05, 0.1, 0.2, 0.5],
    }
    client = None
    if a.dask:
        from distributed import Client, LocalCluster

        client = Client(LocalCluster(dashboard_address=None))
    df = qoslab.sweep(sc, grid, seeds=range(1, a.seeds + 1), client=client, store=a.store)
    m = df.groupby(list(grid), sort=False).mean(numeric_only=True).reset_index()

    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for rate, g in m.groupby("link[G1->G2].rate", sort=False):
        x = g["link[G1->G2].queue.max_p"]
        ax1.plot(x, g["goodput_bps"] / 1e6, marker="o", label=f"bottleneck {rate}")
        ax2.plot(x, g["queue[G1->G2].ql_time_mean"], marker="o", label=f"bottleneck {rate}")
    ax1.set(xscale="log", xlabel="RED max_p", ylabel="aggregate goodput (Mb/s)")
    ax2.set(xscale="log", xlabel="RED max_p", ylabel="mean queue (packets, time average)")
    ax1.legend()
    fig.tight_layout()
    fig.savefig(a.out)
    print(m.to_string())
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
