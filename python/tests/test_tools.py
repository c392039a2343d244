import subprocess

import pandas as pd
import pandas.testing as pdt
import pytest

import qoslab
from conftest import ROOT

DATA = ROOT / "crates" / "qoslab" / "tests" / "data" / "condition"


def test_condition_matches_the_cli_on_a_path_and_on_a_dataframe(tmp_path, cli):
    out = tmp_path / "out.csv"
    subprocess.run([cli, "condition", "--chain", str(DATA / "srtcm.toml"), "--trace", str(DATA / "burst.csv"),
                    "--out", str(out)], check=True, capture_output=True)
    want = pd.read_csv(out)
    got = qoslab.condition(DATA / "srtcm.toml", DATA / "burst.csv")
    pdt.assert_frame_equal(got, want)
    assert set(got["color"]) <= {"green", "yellow", "red"} and len(got) == len(want) > 0
    trace = pd.read_csv(DATA / "burst.csv", comment="#")
    pdt.assert_frame_equal(qoslab.condition(DATA / "srtcm.toml", trace)[["size", "color"]], want[["size", "color"]])
    with pytest.raises(ValueError, match="bad_key.toml"):
        qoslab.condition(DATA / "bad_key.toml", DATA / "burst.csv")


def test_reproduce_matches_the_cli(tmp_path, cli):
    # RFC 4828 Table 1 is computed from the TFRC equation: no simulation, a few milliseconds
    subprocess.run([cli, "reproduce", "rfc4828", "--table", "1", "--seeds", "1", "--quick", "--out",
                    str(tmp_path / "cli")], check=True, capture_output=True)
    want = pd.read_csv(tmp_path / "cli" / "table_1.csv")
    got = qoslab.reproduce("rfc4828", table="1", seeds=1, quick=True)
    assert list(got["table"].unique()) == ["1"]
    pdt.assert_frame_equal(got.drop(columns="table"), want)
    assert {"ours_mean", "ours_ci95", "published", "diff", "diff_pct"} <= set(got.columns)
    with pytest.raises(ValueError, match="no-such"):
        qoslab.reproduce("no-such")
