import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Two TCP senders through a RED bottleneck, 2 s: a run takes a few milliseconds.
TINY = """name = "tiny"
duration = "2s"
warmup = "0.5s"

[output]
sample_interval = "10ms"
monitor = ["G->D"]
tcp_series = true

[[node]]
name = "S{i}"
count = 2

[[node]]
name = "G"
kind = "router"

[[node]]
name = "D"

[[link]]
from = "S{i}"
to = "G"
count = 2
rate = "10Mbps"
delay = "2ms"

[[link]]
from = "G"
to = "D"
rate = "4Mbps"
delay = "5ms"
queue = { kind = "red", limit = "60p", min_th = 5, max_th = 30, max_p = 0.1, w_q = 0.002 }

[[flow]]
name = "t{i}"
count = 2
src = "S{i}"
dst = "D"
kind = "tcp"
"""

# The line of `queue = {...}` on the bottleneck, 1-based.
TINY_QUEUE_LINE = TINY.splitlines().index(
    'queue = { kind = "red", limit = "60p", min_th = 5, max_th = 30, max_p = 0.1, w_q = 0.002 }'
) + 1


@pytest.fixture
def tiny_path(tmp_path):
    p = tmp_path / "tiny.toml"
    p.write_text(TINY)
    return p


def qoslab_bin():
    """The CLI binary: $QOSLAB_BIN, or the one cargo built last (release, then debug)."""
    env = os.environ.get("QOSLAB_BIN")
    if env:
        return env
    for prof in ("release", "debug"):
        p = ROOT / "target" / prof / "qoslab"
        if p.exists():
            return str(p)
    return shutil.which("qoslab")


@pytest.fixture
def cli():
    b = qoslab_bin()
    if b is None:
        pytest.fail("no qoslab binary: build it (cargo build -p qoslab) or set QOSLAB_BIN")
    return b
