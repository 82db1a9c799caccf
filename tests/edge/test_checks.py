"""The edge paper's claims as slacks (optsched/edge/checks.py): the search finds a Lemma 2(b) counterexample."""

from __future__ import annotations

import json

from tests.contract_helpers import optsched as installed


def test_the_lemma2b_search_finds_a_counterexample_of_at_most_three_jobs(tmp_path):
    proc = installed("search", "edge", "--algorithm", "aonline", "--target", "theorem:lemma2b", "--budget", 16,
                     "--workers", 1, "-o", tmp_path / "out", "--quiet")
    assert proc.code == 0, proc.err
    assert "counterexample: yes" in proc.out
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    instance = json.loads((tmp_path / "out" / "instance.json").read_text())["instance"]
    assert result["violation"] is True and result["shrunk"]["slack"] < 0
    assert len(instance["jobs"]) <= 3
    for name in ("alg.schedule.json", "found.instance.json", "history.csv", "progress.svg", "report.md"):
        assert (tmp_path / "out" / name).exists()
    check = installed("verify", tmp_path / "out" / "instance.json", tmp_path / "out" / "alg.schedule.json")
    assert check.code == 0

