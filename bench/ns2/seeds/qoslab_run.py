"""The qoslab side of the ns-2 differential scripts: one `qoslab run` of a scenario text.

Every script here builds a scenario text (a file of `scenarios/` with its `@`-marked lines
replaced) and reads the run's results; this runs it in a scratch directory, from the
repository root (so relative paths in a scenario resolve as they do for `scenarios/`), under
`nice` (ns-2 runs share the machine), and returns what the run wrote.
"""
import csv
import json
import os
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def run(exe, text, seed, tables=()):
    """`qoslab run` of scenario `text` with `seed`: summary.json as a dict, and the rows
    (dicts) of each output CSV named in `tables` (e.g. "queues.csv"), keyed by name."""
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "scenario.toml")
        with open(f, "w") as w:
            w.write(text)
        subprocess.run(["nice", exe, "run", f, "--seed", str(seed), "--out", d, "-q"],
                       check=True, cwd=ROOT)
        with open(os.path.join(d, "summary.json")) as s:
            summary = json.load(s)
        rows = {}
        for t in tables:
            with open(os.path.join(d, t)) as c:
                rows[t] = list(csv.DictReader(c))
    return summary, rows


def summary(exe, text, seed):
    """`qoslab run` of scenario `text` with `seed`: summary.json as a dict."""
    return run(exe, text, seed)[0]
