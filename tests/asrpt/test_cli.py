"""The placement and asrpt families through the command line: the issue's 'done when'."""

import json

import pytest

from tests.cli_helpers import run, run_json

ASRPT = ["asrpt", "asrpt-perfect", "spjf", "spwf", "wcs-duration", "wcs-workload", "wcs-subtime", "sjf-packed"]


def test_families_lists_both(capfd):
    _, families, _ = run_json(capfd, "families")
    found = {f["name"]: f for f in families}
    assert found["placement"]["sense"] == "min" and found["asrpt"]["sense"] == "min"
    assert found["placement"]["formulations"] == ["ilp", "graph-cut"]
    assert found["placement"]["algorithms"] == ["heavy-edge"]
    assert found["asrpt"]["formulations"] == ["time-indexed", "cp-sat", "pool-and-place", "pooled", "single-machine",
                                             "lower-bound"]
    assert found["asrpt"]["algorithms"] == ASRPT


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_placement_done_when(seed, capfd, tmp_path):
    inst = tmp_path / "p.json"
    assert run(capfd, "generate", "placement", "--preset", "tiny", "--seed", seed, "-o", inst)[0] == 0
    code, d, _ = run_json(capfd, "solve", inst, "--formulation", "ilp", "--cross-check")
    assert code == 0 and d["status"] == "optimal" and d["cross_check"]["verdict"] == "agree"
    assert d["verified"]["feasible"] and d["verified"]["matches_solver"]
    code, relaxed, _ = run_json(capfd, "solve", inst, "--formulation", "ilp", "--relax")
    assert relaxed["objective"] <= d["objective"] + 1e-6
    code, he, _ = run_json(capfd, "run", inst, "--algorithm", "heavy-edge")
    assert code == 0 and he["feasible"] and he["objective"] >= d["objective"] - 1e-6
    code, cut, _ = run_json(capfd, "solve", inst, "--formulation", "graph-cut", "--cross-check")
    assert code == 0 and cut["status"] == "optimal" and "verified" not in cut


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_asrpt_done_when(seed, capfd, tmp_path):
    inst, sched = tmp_path / "a.json", tmp_path / "s.json"
    assert run(capfd, "generate", "asrpt", "--preset", "tiny", "--seed", seed, "-o", inst)[0] == 0
    code, d, _ = run_json(capfd, "solve", inst, "--formulation", "time-indexed", "--cross-check", "-o", sched)
    assert code == 0 and d["status"] == "optimal" and d["cross_check"]["verdict"] == "agree"
    opt = d["objective"]
    assert run_json(capfd, "verify", inst, sched)[1]["objective"] == pytest.approx(opt)
    code, bound, _ = run_json(capfd, "solve", inst, "--formulation", "single-machine")
    assert code == 0 and bound["objective"] <= opt + 1e-6
    for algorithm in ASRPT:
        code, r, _ = run_json(capfd, "run", inst, "--algorithm", algorithm)
        assert code == 0 and r["feasible"] and r["objective"] >= opt - 1e-6


def test_bad_input_is_one_line_and_exit_2(capfd, tmp_path):
    inst = tmp_path / "a.json"
    run(capfd, "generate", "asrpt", "--preset", "tiny", "-o", inst)
    doc = json.loads(inst.read_text())
    doc["instance"]["jobs"][0]["stages"][0]["replicas"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    for argv in (("run", bad, "--algorithm", "asrpt"),
                 ("run", inst, "--algorithm", "asrpt", "--param", "tau=-"),
                 ("generate", "asrpt", "--preset", "tiny", "--option", "prediction=psychic"),
                 ("generate", "placement", "--preset", "paper", "--option", "model=alexnet")):
        code, out, err = run(capfd, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
    doc = json.loads(inst.read_text())
    doc["instance"]["jobs"][0]["release"] = 0.3
    off = tmp_path / "off.json"
    off.write_text(json.dumps(doc))
    code, out, err = run(capfd, "solve", off, "--formulation", "time-indexed")
    assert code == 2 and "slot boundary" in err and err.count("\n") == 1
