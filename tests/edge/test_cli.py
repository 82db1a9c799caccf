"""The edge family through the command line: the issue's 'done when'."""

import pytest

from tests.cli_helpers import run, run_json


def test_families_lists_edge(capfd):
    _, families, _ = run_json(capfd, "families")
    edge = next(f for f in families if f["name"] == "edge")
    assert edge["sense"] == "min"
    assert edge["formulations"] == ["time-indexed", "fractional-flow", "cp-sat", "pooled", "dual"]
    assert edge["algorithms"] == ["aonline", "aonline-edge", "srtf", "tiresias-l", "batchsche",
                                  "earliest-completion"]


@pytest.mark.parametrize("seed", [0, 3])
def test_done_when_on_tiny_instances(seed, capfd, tmp_path):
    inst = tmp_path / "i.json"
    assert run(capfd, "generate", "edge", "--preset", "tiny", "--seed", seed, "-o", inst)[0] == 0
    values = {}
    for name, flags in (("time-indexed", []), ("fractional-flow", []), ("fractional-flow", ["--relax"]), ("dual", [])):
        code, d, _ = run_json(capfd, "solve", inst, "--formulation", name, *flags, "--cross-check")
        assert code == 0 and d["status"] == "optimal" and d["cross_check"]["verdict"] == "agree"
        values[name, bool(flags)] = d["objective"]
    lp, dual = values["fractional-flow", True], values["dual", False]
    ilp, milp = values["fractional-flow", False], values["time-indexed", False]
    assert lp == pytest.approx(dual) and dual <= ilp + 1e-6 and ilp <= milp + 1e-6  # Lemma 1
    sched = tmp_path / "s.json"
    code, d, _ = run_json(capfd, "solve", inst, "--formulation", "time-indexed", "-o", sched)
    assert code == 0 and run_json(capfd, "verify", inst, sched)[1]["objective"] == pytest.approx(milp)
    for algorithm in ("aonline", "aonline-edge", "srtf", "tiresias-l", "batchsche"):
        code, d, _ = run_json(capfd, "run", inst, "--algorithm", algorithm)
        assert code == 0 and d["feasible"] and d["objective"] >= milp - 1e-6
