"""The oasis family through the command line: the issue's 'done when', and its refusals."""

import json

import pytest

from tests.cli_helpers import run, run_json


def test_families_lists_oasis(capfd):
    _, families, _ = run_json(capfd, "families")
    oasis = next(f for f in families if f["name"] == "oasis")
    assert oasis["sense"] == "max"
    assert oasis["formulations"] == ["time-indexed", "compact-exponential", "cp-sat", "dual", "column-generation",
                                    "pooled"]
    assert oasis["algorithms"] == ["oasis", "fifo", "drf", "rrh", "dorm"]


@pytest.mark.parametrize("seed", [0, 2])
def test_done_when_on_family_t(seed, capfd, tmp_path):
    inst = tmp_path / "i.json"
    assert run(capfd, "generate", "oasis", "--preset", "tiny", "--seed", seed, "-o", inst)[0] == 0
    objectives = {}
    for formulation in ("time-indexed", "compact-exponential"):
        for solver in ("highs", "cbc"):
            sched = tmp_path / f"{formulation}-{solver}.json"
            code, d, _ = run_json(capfd, "solve", inst, "--formulation", formulation, "--solver", solver, "-o", sched)
            assert code == 0 and d["status"] == "optimal" and d["verified"]["feasible"]
            objectives[formulation, solver] = d["objective"]
            code, v, _ = run_json(capfd, "verify", inst, sched)
            assert code == 0 and v["objective"] == pytest.approx(d["objective"])
    optimum = objectives["time-indexed", "highs"]
    assert all(v == pytest.approx(optimum, rel=1e-6) for v in objectives.values())
    bounds = [run_json(capfd, "solve", inst, "--formulation", name, *flags)[1]["objective"]
              for name, flags in (("dual", []), ("compact-exponential", ["--relax"]), ("column-generation", []))]
    assert bounds == pytest.approx([bounds[0]] * 3, rel=1e-6) and bounds[0] >= optimum - 1e-6
    for algorithm in ("oasis", "fifo", "drf", "rrh", "dorm"):
        code, d, _ = run_json(capfd, "run", inst, "--algorithm", algorithm)
        assert code == 0 and d["feasible"] and d["objective"] <= optimum + 1e-6


def test_generator_options_and_refusals(capfd, tmp_path):
    code, out, _ = run(capfd, "generate", "oasis", "--option", "mode=chunks")
    assert code == 0 and json.loads(out)["instance"]["mode"] == "chunks"
    code, _, err = run(capfd, "generate", "oasis", "--option", "speed=9")
    assert code == 2 and "no parameter 'speed'" in err
    small = tmp_path / "s.json"
    run(capfd, "generate", "oasis", "--preset", "small", "-o", small)
    code, out, err = run(capfd, "solve", small, "--formulation", "compact-exponential")
    assert code == 2 and out == "" and "column limit" in err and err.count("\n") == 1
    code, _, err = run(capfd, "solve", small, "--formulation", "dual", "-o", tmp_path / "x.json")
    assert code == 2 and "does not give one" in err and not (tmp_path / "x.json").exists()
    code, _, err = run(capfd, "run", small, "--algorithm", "oasis", "--param", "u_scale=big")
    assert code == 2 and "expected a number" in err


def test_dorm_runs_on_a_node_budget_and_a_wall_clock_one_is_flagged(capfd, tmp_path):
    """Dorm's default budget does not depend on the machine; a time limit is a wall-clock budget,
    listed in the run record and noted for people."""
    inst = tmp_path / "i.json"
    run(capfd, "generate", "oasis", "--preset", "small", "--seed", 1, "-o", inst)
    code, d, _ = run_json(capfd, "run", inst, "--algorithm", "dorm")
    assert code == 0 and d["wall_clock"] == [] and d["params"]["node_limit"] == 1 and d["params"]["time_limit"] == 0
    code, d, _ = run_json(capfd, "run", inst, "--algorithm", "dorm", "--param", "time_limit=5")
    assert code == 0 and d["wall_clock"] == ["time_limit"]
    code, out, _ = run(capfd, "run", inst, "--algorithm", "dorm", "--param", "time_limit=5")
    assert code == 0 and "note: time_limit=5 is a wall-clock budget" in out
    code, _, err = run(capfd, "run", inst, "--algorithm", "dorm", "--param", "node_limit=0")
    assert code == 2 and "node_limit: must be >= 1" in err
