"""qoslab.run: one simulation, results as pandas DataFrames through Arrow."""

import json

import pyarrow as pa

from . import _native
from ._native import Scenario

TABLES = ("flows", "queues", "queue_series", "flow_series", "tcp_series", "tfrc_series")  # IP runs


def _scenario(s):
    """A Scenario from a Scenario, a path or a dict."""
    if isinstance(s, Scenario):
        return s
    if isinstance(s, dict):
        return Scenario.from_dict(s)
    return Scenario.load(s)


class RunResult:
    """The results of one run.

    ``kind`` is the engine that ran it: ``"ip"``, ``"pcn"`` or ``"atm"``. ``summary`` is
    ``summary.json`` as a dict (for PCN and ATM runs, the engine's whole result).
    ``tables`` lists the tables of the run; each is a DataFrame by attribute
    (``r.flows``) or ``frame(name)``, and a pyarrow Table by ``table(name)``. Frames are
    built on first use from one Arrow buffer each (no Python object per row).

    IP runs: ``flows``, ``queues``, ``queue_series``, ``flow_series``, ``tcp_series`` and
    ``tfrc_series``, with the columns of the CSV files ``qoslab run`` writes (``flows``
    and ``queues`` carry every number of the summary, flattened: ``measured.data_pkts``,
    ``length.mean``). A series the scenario did not ask for is an empty frame with its
    columns.

    PCN runs: ``links``, ``ieas`` (one row per ingress-egress aggregate),
    ``terminations``, ``fairness`` (a row per entry of the result's list of that name,
    every number flattened to a column: ``over_admission.oa_pct``, ``out_marks.2``) and
    ``link_series`` (``time_s``, ``link``, ``rate_bps``).

    ATM runs: ``vcs`` (per VC: goodput, MCR met, ``data.cells_dropped_clp0``,
    ``data.cells_dropped_by_reason.<reason>``, frames lost, ...), ``ports`` (per switch
    port: cells dropped by CLP and by reason, frames refused, occupancy), ``connections``
    (``vc``, ``connection``, ``goodput_mbps``) and, when the scenario samples the buffers,
    ``queue_series`` (``time_s``, ``port``, ``total``, one column per VC). The fairness
    index, total goodput and ``all_mcr_met`` are in ``summary``.
    """

    def __init__(self, kind, summary_json, tables):
        self.kind = kind
        self._json = summary_json
        self._ipc = dict(tables)
        self._summary = None
        self._tables = {}

    @property
    def summary(self):
        if self._summary is None:
            self._summary = json.loads(self._json)
        return self._summary

    @property
    def tables(self):
        """The names of the run's tables, in order."""
        return list(self._ipc)

    def table(self, name):
        if name not in self._tables:
            if name not in self._ipc:
                raise KeyError(f"no table {name!r}; this {self.kind} run's tables are {', '.join(self._ipc)}")
            self._tables[name] = pa.ipc.open_stream(self._ipc[name]).read_all()
        return self._tables[name]

    def frame(self, name):
        return self.table(name).to_pandas()

    def __getattr__(self, name):
        # only for names not found otherwise: the tables by attribute
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.frame(name)
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._ipc))

    def __repr__(self):
        s = self.summary
        if self.kind == "ip":
            what = f"goodput_bps={s['aggregate']['goodput_bps']:.6g}"
        elif self.kind == "atm":
            what = f"total_goodput_mbps={s['total_goodput_mbps']:.6g}, fairness_index={s['fairness_index']:.6g}"
        else:
            what = f"links={len(s['links'])}, ieas={len(s['ieas'])}"
        name = s.get("scenario", s.get("name"))
        return f"RunResult(kind={self.kind!r}, scenario={name!r}, seed={s['seed']}, events={s['events']}, {what})"


def run(scenario, seed=None):
    """Runs ``scenario`` (a Scenario, a path or a dict; IP, PCN or ATM) with ``seed``
    (default: the scenario's own ``seed``, which defaults to 1) and returns a
    :class:`RunResult`.

    The GIL is released while the simulation runs (other threads go on; runs in several
    threads use several cores). Ctrl-C raises ``KeyboardInterrupt``: an IP or ATM run
    stops within about ``EVENTS_PER_CHECK`` events, a PCN run within one of its 1,000
    slices of simulated time. A failed conservation check raises ``RuntimeError``; a refused
    scenario ``ScenarioError``.
    """
    kind, summary, tables = _native.run(_scenario(scenario), seed)
    return RunResult(kind, summary, tables)
