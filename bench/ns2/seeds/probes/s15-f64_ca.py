#!/usr/bin/env python3
"""Finding 54, session 15 (s15-f64): a look at ns-2's `ca_` factor (tcp/tfrc.cc nextpkt():
xrate = rate_ * sqrtrtt_/sqrt(rttcur_), `ca_ 1` by default, sqrtrtt_ filtered with df_ = 0.95,
update_rtt()), which our `ns2_compat` TFRC flows do not apply: RFC 5348 §4.5's oscillation
prevention is the same formula (X_inst = X * R_sqmean / sqrt(R_sample)), so this runs a probe
from this directory with `oscillation_q2 = 0.95` added to every `ns2_compat` TFRC flow of the
scenario (RFC-mode flows unchanged). Exploration only: no model change.

usage: nice -n 19 python3 s15-f64_ca.py audit --part b2tfrc --values 0.02,0.04 --seeds 40 --qoslab BIN
       nice -n 19 python3 s15-f64_ca.py cell --p 0.5 --seeds 1-400 --qoslab BIN
(the arguments after the first are those of s13-audit_ci.py / s15-opt24_cell.py)
"""
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import qoslab_run  # noqa: E402

Q2 = os.environ.get("S15F64_Q2", "0.95")
_run = qoslab_run.run


def with_ca(text):
    out = []
    for block in re.split(r"(?m)^(?=\[\[)", text):
        if re.search(r'(?m)^kind = "tfrc"', block) and re.search(r"(?m)^ns2_compat = true", block):
            block = re.sub(r"(?m)^ns2_compat = true$", f"ns2_compat = true\noscillation_prevention = true\noscillation_q2 = {Q2}",
                           block, count=1)
        out.append(block)
    return "".join(out)


def run(exe, text, seed, *a, **k):
    return _run(exe, with_ca(text), seed, *a, **k)


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
