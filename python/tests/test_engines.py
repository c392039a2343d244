"""PCN and ATM scenarios through qoslab.run, qoslab.sweep and `qoslab run --format parquet`."""

import json
import subprocess

import pandas as pd
import pandas.testing as pdt
import pytest

import qoslab
from conftest import ROOT

# The shipped files, shortened: a PCN admission run of 3 s on a 10 Mbit/s link (~40 ms), an
# ATM/GFR run of 0.6 s (~1 s unoptimised).
PCN_SHORT = {
    "pcn.duration": "3s",
    "pcn.link_rate": "10Mbps",
    "pcn.measure.oa_from": "1s",
    "pcn.measure.oa_to": "3s",
    "pcn.admission.holding_mean": "5s",
}
ATM_SHORT = {"duration": "0.6s", "warmup": "0.3s"}


def pcn():
    sc = qoslab.Scenario.load(ROOT / "scenarios" / "pcn-stm" / "adm-cbr-single.toml")
    sc.update(PCN_SHORT)
    return sc


def atm():
    sc = qoslab.Scenario.load(ROOT / "scenarios" / "gfr-kim2001" / "table1.toml")
    sc.update(ATM_SHORT)
    return sc


def test_a_pcn_run_gives_its_links_aggregates_and_series_as_frames(tmp_path, cli):
    sc = pcn()
    assert sc.kind == "pcn"
    r = qoslab.run(sc, seed=2)
    assert r.kind == "pcn"
    assert {"links", "ieas", "terminations", "fairness", "link_series"} <= set(r.tables)
    s = r.summary
    assert len(r.links) == len(s["links"]) and len(r.ieas) == len(s["ieas"])
    assert r.links["name"].tolist() == [l["name"] for l in s["links"]]
    assert r.ieas["offered"].tolist() == [i["offered"] for i in s["ieas"]]
    assert r.ieas["offered"].dtype == "uint64" and r.ieas["offered"].iloc[0] > 0
    assert r.links["over_admission.oa_pct"].iloc[0] == s["links"][0]["over_admission"]["oa_pct"]
    assert r.links["out_marks.1"].iloc[0] == s["links"][0]["out_marks"][1]
    assert "rate_series_bps" not in " ".join(r.links.columns)
    ls = r.link_series
    assert list(ls.columns) == ["time_s", "link", "rate_bps"]
    assert ls["rate_bps"].tolist() == s["links"][0]["rate_series_bps"]
    assert str(ls["link"].dtype) == "category"
    # the same seed, the same frames; the CLI's summary.json is the same dict
    pdt.assert_frame_equal(qoslab.run(sc, seed=2).ieas, r.ieas)
    p = tmp_path / "adm-cbr-single.toml"  # a PCN run is named after its file
    p.write_text(sc.toml)
    subprocess.run([cli, "run", str(p), "--seed", "2", "--out", str(tmp_path / "o"), "-q"], check=True)
    assert json.loads((tmp_path / "o" / "summary.json").read_text()) == s
    # and its --format parquet tables are the same frames
    subprocess.run([cli, "run", str(p), "--seed", "2", "--out", str(tmp_path / "pq"), "-q", "--format", "parquet"],
                   check=True)
    assert json.loads((tmp_path / "pq" / "summary.json").read_text()) == s
    for name in ("links", "ieas", "link_series"):
        pdt.assert_frame_equal(pd.read_parquet(tmp_path / "pq" / f"{name}.parquet"), r.frame(name))


def test_an_atm_run_gives_vcs_ports_and_connections_as_frames(tmp_path, cli):
    sc = atm()
    assert sc.kind == "atm"
    r = qoslab.run(sc)
    s = r.summary
    assert r.kind == "atm" and {"vcs", "ports", "connections"} <= set(r.tables)
    v = r.vcs
    assert v["name"].tolist() == [f"VC{i}" for i in range(1, 7)]
    assert v["goodput_mbps"].tolist() == [x["goodput_mbps"] for x in s["vcs"]]
    assert v["mcr_met"].dtype == bool and v["mcr_met"].tolist() == [x["mcr_met"] for x in s["vcs"]]
    for col in ("data.cells_dropped_clp0", "data.cells_dropped_clp1", "data.frames_lost_in_network"):
        assert v[col].dtype == "uint64", col
    assert set(r.ports["name"]) >= {"SW1->SW2"}
    c = r.connections
    assert len(c) == 30 and list(c.columns) == ["vc", "connection", "goodput_mbps"]
    assert c.groupby("vc", observed=True)["goodput_mbps"].sum().round(9).tolist() == pytest.approx(
        v["goodput_mbps"].tolist())
    assert 0 < s["fairness_index"] <= 1
    p = tmp_path / "atm.toml"
    p.write_text(sc.toml)
    subprocess.run([cli, "run", str(p), "--out", str(tmp_path / "pq"), "-q", "--format", "parquet"], check=True)
    assert json.loads((tmp_path / "pq" / "summary.json").read_text()) == s
    pdt.assert_frame_equal(pd.read_parquet(tmp_path / "pq" / "vcs.parquet"), v)


def test_pcn_and_atm_sweeps_give_each_cells_figures(tmp_path):
    sc = pcn()
    df = qoslab.sweep(sc, {"pcn.stm.n": [2, 3]}, seeds=range(2), store=tmp_path / "pcn", progress=False)
    assert len(df) == 4 and df["cell"].is_unique
    assert df["pcn.stm.n"].tolist() == [2, 2, 3, 3]
    one = sc.copy()
    one.set("pcn.stm.n", 3)
    r = qoslab.run(one, seed=1)
    row = df.iloc[3]
    link, iea = r.summary["links"][0], r.summary["ieas"][0]
    assert row["events"] == r.summary["events"]
    assert row[f"links[{link['name']}].arrived"] == link["arrived"]
    assert row[f"links[{link['name']}].over_admission.oa_pct"] == link["over_admission"]["oa_pct"]
    assert row[f"ieas[{iea['name']}].admitted"] == iea["admitted"]

    sc = atm()
    grid = {"buffer.policy": ["double-epd", "dynamic-threshold"]}
    df = qoslab.sweep(sc, grid, seeds=[1], store=tmp_path / "atm", progress=False, workers=2)
    assert df["buffer.policy"].tolist() == grid["buffer.policy"]
    one = sc.copy()
    one.set("buffer.policy", "dynamic-threshold")
    s = qoslab.run(one, seed=1).summary
    row = df.iloc[1]
    for k in ("fairness_index", "total_goodput_mbps", "all_mcr_met"):
        assert row[k] == s[k], k
    for i, vc in enumerate(s["vcs"]):
        assert row[f"vcs[{vc['name']}].goodput_mbps"] == vc["goodput_mbps"]
        assert row[f"vcs[{vc['name']}].mcr_met"] == vc["mcr_met"]
        assert row[f"vcs[{vc['name']}].data.cells_dropped_clp1"] == vc["data"]["cells_dropped_clp1"]


def test_pcn_scenario_errors_carry_the_readers_location():
    sc = pcn()
    with pytest.raises(qoslab.ScenarioError) as ei:
        sc.set("pcn.stm.n", -1)
    assert ei.value.key.startswith("pcn.stm.n") and ei.value.line is not None
