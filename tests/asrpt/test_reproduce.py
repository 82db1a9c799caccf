"""``optsched reproduce asrpt-sim`` end to end, shrunk for the test run."""

import csv

import pytest

from optsched.asrpt import reproduce
from optsched.cli import main


@pytest.mark.slow
def test_sim_writes_its_report(monkeypatch, tmp_path, capfd):
    monkeypatch.setitem(reproduce.SIM, "default", reproduce.Preset(
        jobs=(300, 600), fixed=600, shares=(0.8, 0.0), nics=(1.0, 10.0, 50.0), taus=(0.0, 1.0), loads=(0.6, 1.0)))
    out = tmp_path / "sim"
    assert main(["reproduce", "asrpt-sim", "--seeds", "1", "--workers", "1", "-o", str(out)]) == 0
    for file in ("report.md", "results.csv", "completion_vs_jobs_intervals.svg", "completion_vs_single_gpu_share_intervals.svg",
                 "completion_vs_single_gpu_share_trace_arrivals_intervals.svg",
                 "completion_vs_nic_gbps_intervals.svg"):
        assert (out / file).stat().st_size > 0
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert {r["algorithm"] for r in rows if r["sweep"] == "jobs"} == set(reproduce.ALGORITHMS)
    # points shared by two sweeps are computed once: 10 Gbps is the 0% share point, load 1.0 the 600-job one
    assert not [r for r in rows if r["sweep"] == "NIC (Gbps)" and float(r["value"]) == 10.0]
    assert not [r for r in rows if r["sweep"] == "offered load" and float(r["value"]) == 1.0]
    assert {float(r["value"]) for r in rows if r["sweep"] == "offered load"} == {0.6}
    summary = list(csv.DictReader(open(out / "summary.csv")))
    shared = [r for r in summary if r["sweep"] == "NIC (Gbps)" and r["method"] != "claim" and float(r["value"]) == 10.0]
    assert shared and not any(r.get("p_value") for r in shared)  # shown in its sweep, tested in the other
    assert (out / "completion_vs_offered_load_intervals.svg").stat().st_size > 0
    assert "synthetic" in capfd.readouterr().out
