"""qoslab: a fast, exact, packet-level laboratory for network QoS mechanisms, from Python.

The simulations run in the Rust engine (the same crates as the ``qoslab`` command line);
this package converts scenarios and results, and orchestrates sweeps.

    >>> import qoslab
    >>> sc = qoslab.Scenario.load("scenarios/dumbbell.toml")
    >>> sc.set("link[G1->G2].rate", "50Mbps")          # key paths: see Scenario.set
    >>> r = qoslab.run(sc, seed=1)
    >>> r.flows[["name", "goodput_bps"]]                # pandas DataFrames (via Arrow)
    >>> df = qoslab.sweep(sc, grid={"link[G1->G2].queue.max_p": [0.05, 0.1]}, seeds=range(3))
"""

from ._native import EVENTS_PER_CHECK, Scenario, ScenarioError
from ._run import RunResult, run
from ._sweep import compact, sweep
from ._tools import condition, reproduce

__all__ = ["Scenario", "ScenarioError", "RunResult", "run", "sweep", "compact", "condition", "reproduce", "EVENTS_PER_CHECK"]
