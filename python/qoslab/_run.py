"""qoslab.run: one simulation, results as pandas DataFrames through Arrow."""

import json

import pyarrow as pa

from . import _native
from ._native import Scenario

TABLES = ("flows", "queues", "queue_series", "flow_series", "tcp_series", "tfrc_series")


def _scenario(s):
    """A Scenario from a Scenario, a path or a dict."""
    if isinstance(s, Scenario):
        return s
    if isinstance(s, dict):
        return Scenario.from_dict(s)
    return Scenario.load(s)


class RunResult:
    """The results of one run.

    ``summary`` is ``summary.json`` as a dict; ``flows``, ``queues``, ``queue_series``,
    ``flow_series``, ``tcp_series`` and ``tfrc_series`` are DataFrames with the columns of
    the CSV files ``qoslab run`` writes (``flows`` and ``queues`` carry every number of the
    summary, flattened: ``measured.data_pkts``, ``length.mean``). A series the scenario did
    not ask for is an empty frame with its columns. ``table(name)`` gives the pyarrow Table.
    Frames are built on first use from one Arrow buffer each (no Python object per row).
    """

    def __init__(self, summary_json, tables):
        self._json = summary_json
        self._ipc = dict(tables)
        self._summary = None
        self._tables = {}

    @property
    def summary(self):
        if self._summary is None:
            self._summary = json.loads(self._json)
        return self._summary

    def table(self, name):
        if name not in self._tables:
            if name not in self._ipc:
                raise KeyError(f"no table {name!r}; the tables are {', '.join(TABLES)}")
            self._tables[name] = pa.ipc.open_stream(self._ipc[name]).read_all()
        return self._tables[name]

    def frame(self, name):
        return self.table(name).to_pandas()

    flows = property(lambda self: self.frame("flows"))
    queues = property(lambda self: self.frame("queues"))
    queue_series = property(lambda self: self.frame("queue_series"))
    flow_series = property(lambda self: self.frame("flow_series"))
    tcp_series = property(lambda self: self.frame("tcp_series"))
    tfrc_series = property(lambda self: self.frame("tfrc_series"))

    def __repr__(self):
        s = self.summary
        return (
            f"RunResult(scenario={s['scenario']!r}, seed={s['seed']}, events={s['events']}, "
            f"goodput_bps={s['aggregate']['goodput_bps']:.6g})"
        )


def run(scenario, seed=None):
    """Runs ``scenario`` (a Scenario, a path or a dict) with ``seed`` (default: the
    scenario's own ``seed``, which defaults to 1) and returns a :class:`RunResult`.

    The GIL is released while the simulation runs (other threads go on; runs in several
    threads use several cores). Ctrl-C stops the run within about ``EVENTS_PER_CHECK``
    events and raises ``KeyboardInterrupt``. A failed conservation check raises
    ``RuntimeError``; a refused scenario ``ScenarioError``.
    """
    summary, tables = _native.run(_scenario(scenario), seed)
    return RunResult(summary, tables)
