"""``optsched reproduce asrpt-sim`` end to end, shrunk for the test run."""

import csv

import pytest

from optsched.asrpt import reproduce
from optsched.cli import main


@pytest.mark.slow
def test_sim_writes_its_report(monkeypatch, tmp_path, capfd):
    monkeypatch.setitem(reproduce.SIM, "default", {"jobs": [300, 600], "fixed": 600, "shares": [0.8, 0.0],
                                                   "nics": [1.0, 50.0], "taus": [0.0, 1.0]})
    out = tmp_path / "sim"
    assert main(["reproduce", "asrpt-sim", "--seeds", "1", "--workers", "1", "-o", str(out)]) == 0
    for file in ("report.md", "results.csv", "completion_vs_jobs.png", "completion_vs_single_gpu_share.png",
                 "completion_vs_single_gpu_share_trace_arrivals.png",
                 "completion_vs_nic_gbps.png"):
        assert (out / file).stat().st_size > 0
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert {r["algorithm"] for r in rows if r["sweep"] == "jobs"} == set(reproduce.ALGORITHMS)
    assert "synthetic" in capfd.readouterr().out
