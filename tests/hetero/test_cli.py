"""The hetero family through the command line: the issue's 'done when'."""

import pytest

from tests.cli_helpers import run, run_json

ALGORITHMS = ["aonline", "fifo", "drf", "antman", "tiresias"]


def test_families_lists_hetero(capfd):
    _, families, _ = run_json(capfd, "families")
    hetero = next(f for f in families if f["name"] == "hetero")
    assert hetero["sense"] == "min"
    assert set(hetero["formulations"]) == {"time-indexed", "configuration", "reduced-configuration", "cp-sat", "column-generation", "pooled"}
    assert hetero["algorithms"] == ALGORITHMS


@pytest.mark.parametrize("framework,seed", [("ps", 0), ("ps", 5), ("allreduce", 1), ("allreduce", 4)])
def test_done_when_on_tiny_instances(framework, seed, capfd, tmp_path):
    inst = tmp_path / "i.json"
    assert run(capfd, "generate", "hetero", "--preset", "tiny", "--seed", seed, "--option",
               f"framework={framework}", "-o", inst)[0] == 0
    values = {}
    for name in ("configuration", "time-indexed"):
        for flags in ([], ["--relax"]):
            code, d, _ = run_json(capfd, "solve", inst, "--formulation", name, *flags, "--cross-check")
            assert code == 0 and d["status"] == "optimal" and d["cross_check"]["verdict"] == "agree"
            values[name, bool(flags)] = d["objective"]
    opt = values["configuration", False]
    assert values["time-indexed", False] == pytest.approx(opt)
    assert values["configuration", True] <= opt + 1e-6 and values["time-indexed", True] <= opt + 1e-6
    for name in ("configuration", "time-indexed"):
        sched = tmp_path / f"{name}.json"
        assert run_json(capfd, "solve", inst, "--formulation", name, "-o", sched)[0] == 0
        assert run_json(capfd, "verify", inst, sched)[1]["objective"] == pytest.approx(opt)
    for algorithm in ALGORITHMS:
        code, d, _ = run_json(capfd, "run", inst, "--algorithm", algorithm)
        assert code == 0 and d["feasible"] and d["objective"] >= opt - 1e-6


def test_aonline_parameters_reach_the_algorithm(capfd, tmp_path):
    inst = tmp_path / "i.json"
    run(capfd, "generate", "hetero", "--preset", "tiny", "--seed", 2, "-o", inst)
    objectives = {}
    for alpha in (1, 4):
        code, d, _ = run_json(capfd, "run", inst, "--algorithm", "aonline", "--param", f"alpha={alpha}",
                              "--param", "oracle=paper")
        assert code == 0 and d["feasible"]
        objectives[alpha] = d["objective"]
    assert objectives[1] < objectives[4]  # every batch waits until α τ_i
    code, out, err = run(capfd, "run", inst, "--algorithm", "aonline", "--param", "alpha_mode=sometimes")
    assert code == 2 and out == "" and err.count("\n") == 1 and "alpha_mode" in err


def test_column_generation_reports_the_configuration_lp_as_a_bound(capfd, tmp_path):
    inst = tmp_path / "i.json"
    run(capfd, "generate", "hetero", "--preset", "small", "--jobs", 6, "--seed", 2, "-o", inst)
    code, generated, _ = run_json(capfd, "solve", inst, "--formulation", "column-generation")
    _, lp, _ = run_json(capfd, "solve", inst, "--formulation", "configuration", "--relax")
    assert code == 0 and generated["status"] == "optimal" and generated["mip"] is False
    assert generated["objective"] == pytest.approx(lp["objective"], rel=1e-6)
    assert generated["bound"] <= generated["objective"] and "converged" in generated["message"]
