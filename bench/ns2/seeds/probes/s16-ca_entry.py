#!/usr/bin/env python3
"""Finding 54, session 16 (s16-ca): the B.1 / B.2 cells with the configured loss decided at the
link's entry (`at = "entry"` in every `loss = {...}` table: ns-2.35's `$ns lossmodel` puts its
error module at the link's head, before the queue, so a lost packet never occupies the link;
ours by default occupies it, `at = "wire"`) and, with S16CA_CA=1, RFC 5348 §4.5's factor with
q2 = 0.95 (ns-2's `ca_ 1`) on the `ns2_compat` TFRC flows, as probes/s15-f64_ca.py.
Exploration; the scenarios are not changed.

usage: [S16CA_CA=1] nice -n 19 python3 s16-ca_entry.py audit --part b2tfrc --values 0.02,0.04 --seeds 100 --qoslab BIN
       [S16CA_CA=1] nice -n 19 python3 s16-ca_entry.py cell --p 0.5 --seeds 1-400 --qoslab BIN
(the arguments after the first are those of s13-audit_ci.py / s15-opt24_cell.py; s15-opt24_cell.py
caches per binary, so give each variant its own copy of the binary)
"""
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import qoslab_run  # noqa: E402

CA = os.environ.get("S16CA_CA") == "1"
_run = qoslab_run.run


def patch(text):
    text = re.sub(r"(?m)^(loss = \{[^}\n]*?)\s*\}", r'\1, at = "entry" }', text)
    if not CA:
        return text
    out = []
    for block in re.split(r"(?m)^(?=\[\[)", text):
        if re.search(r'(?m)^kind = "tfrc"', block) and re.search(r"(?m)^ns2_compat = true", block):
            block = re.sub(r"(?m)^ns2_compat = true$",
                           "ns2_compat = true\noscillation_prevention = true\noscillation_q2 = 0.95", block, count=1)
        out.append(block)
    return "".join(out)


def run(exe, text, seed, *a, **k):
    return _run(exe, patch(text), seed, *a, **k)


qoslab_run.run = run


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, name))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


if __name__ == "__main__":
    which = sys.argv.pop(1)
    mod = load({"audit": "s13-audit_ci.py", "cell": "s15-opt24_cell.py"}[which])
    mod.main()
