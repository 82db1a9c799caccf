"""Units of work (optsched/study/units.py): keys from content, kind, method, seed, code and solver
versions; each kind's record; a crash recorded, not raised; task values as plain JSON."""

import os
from fractions import Fraction

import numpy as np
import pytest

from optsched.jsonio import fingerprint
from optsched.registry import get
from optsched.study.units import make_task_unit, make_unit, run_unit

SINGLE = get("single")
INSTANCE = SINGLE.generate("tiny", 2).to_dict()
REFERENCE = {"formulation": "time-indexed", "solver": "highs", "time_limit": None, "node_limit": 1000,
             "work_limit": 10.0, "cross_check": True}
SOLVERS = {"highs": "1", "cbc": "2"}


def unit(kind="algorithm", spec=None, seed=0, solvers=SOLVERS):
    spec = spec if spec is not None else {"algorithm": "wspt", "params": {}}
    return make_unit("single", INSTANCE, fingerprint(INSTANCE), kind, spec, seed, solvers)


def test_keys_change_with_what_changes_the_result_and_only_solves_with_solver_versions():
    assert unit().key == unit().key != unit(seed=1).key
    assert unit().key != unit(spec={"algorithm": "fifo", "params": {}}).key
    assert unit().key == unit(solvers={"highs": "9"}).key  # an algorithm run does not call a solver
    assert unit("reference", REFERENCE).key != unit("reference", REFERENCE, solvers={"highs": "9"}).key


def test_a_reference_record_is_the_verifiers_objective_with_the_solvers_bound():
    out = run_unit(unit("reference", REFERENCE).payload)
    assert out["status"] == "optimal" and out["verified"] is True and out["cross_check"] == "agree"
    assert out["objective"] == pytest.approx(out["solver_objective"]) and out["code"]
    relaxed = run_unit(unit("relaxation", {"formulation": "time-indexed", "solver": "highs",
                                           "time_limit": None}).payload)
    assert relaxed["status"] == "optimal" and relaxed["objective"] <= out["objective"] + 1e-9


def test_an_algorithm_record_and_a_crash_that_is_recorded_not_raised():
    out = run_unit(unit().payload)
    assert out["status"] == "feasible" and out["objective"] > 0 and out["theorem"] is None
    crashed = run_unit(unit(spec={"algorithm": "wspt", "params": {"nope": 1}}).payload)
    assert crashed["status"] == "error" and crashed["message"].startswith("InputError: algorithm wspt has no")
    # where it failed, named inside the package, never by the machine's absolute path (issue 49)
    assert "(optsched/params.py:" in crashed["message"] and os.sep + "optsched" + os.sep not in crashed["message"]


def plain_values(task):
    return {"fraction": Fraction(1, 4), "numpy": np.int64(task), "list": [np.float64(0.5)]}


def not_plain(task):
    return {"object": object()}


def test_task_values_come_back_as_plain_json_and_others_are_errors():
    out = run_unit(make_task_unit(plain_values, 3).payload)
    assert out["value"] == {"fraction": 0.25, "numpy": 3, "list": [0.5]}
    assert make_task_unit(plain_values, 3).key != make_task_unit(plain_values, 4).key
    bad = run_unit(make_task_unit(not_plain, 0).payload)
    assert bad["status"] == "error" and "not plain JSON data" in bad["message"]


def test_a_best_reference_records_the_formulation_it_chose_and_its_lp():
    """``best`` on hetero is the CP-SAT model, cross-checked against the configuration ILP; its LP
    relaxation is the configuration LP (a CP-SAT model has none)."""
    instance = get("hetero").generate("tiny", seed=1).to_dict()
    spec = {**REFERENCE, "formulation": "best"}
    made = make_unit("hetero", instance, "i", "reference", spec, 0, SOLVERS)
    out = run_unit(made.payload)
    assert (out["formulation"], out["solver"], out["status"], out["cross_check"]) == ("cp-sat", "cp-sat", "optimal",
                                                                                     "agree")
    relaxed = run_unit(make_unit("hetero", instance, "i", "relaxation", {"formulation": "best", "solver": "highs",
                                                                          "time_limit": None}, 0, SOLVERS).payload)
    assert relaxed["formulation"] == "configuration" and relaxed["objective"] <= out["objective"] + 1e-9


def test_a_relaxation_too_large_to_build_falls_back_on_the_family_bound_route():
    from dataclasses import replace

    from optsched.hetero.generate import generate
    from optsched.study.units import _relaxation

    small = generate("small", 0, jobs=4)
    wide = replace(small, capacity=small.capacity * 10)  # 10x the servers: too many placements to enumerate
    hetero = get("hetero")
    record = _relaxation(hetero, wide, {"formulation": "best", "solver": "highs", "time_limit": None}, 0)
    assert record["formulation"] == "pooled" and record["status"] == "optimal"
    assert "refused" in record["message"] and record["bound"] <= record["objective"] * (1 + 1e-9)
    alone = sum(job.weight * (job.arrival + min(s.d for s in shapes)) for job, shapes in zip(wide.jobs, wide.shapes))
    assert record["bound"] >= alone * (1 - 1e-9)  # at least L(0)
    with pytest.raises(Exception, match="enumerate"):
        hetero.solve(wide, "configuration", relax=True)


def test_edge_falls_back_on_the_pooled_models_lp_where_milp2_is_refused(monkeypatch):
    import optsched.limits
    from optsched.edge import formulations
    from optsched.edge.generate import generate
    from optsched.study.units import _relaxation

    instance = generate("paper", 0, jobs=20)
    per_server = len(formulations.worker_groups(instance))
    pooled = len(formulations.pooled_groups(instance))
    slots = sum(instance.horizon(j) for j in range(len(instance.jobs)))
    monkeypatch.setattr(optsched.limits, "MAX_MODEL_VARIABLES", slots * (per_server + pooled) // 2)
    assert pooled < per_server
    record = _relaxation(get("edge"), instance, {"formulation": "best", "solver": "highs", "time_limit": None}, 0)
    assert record["formulation"] == "pooled" and record["status"] == "optimal"
    assert "pooled (its LP relaxation)" in record["message"]
    assert record["bound"] <= get("edge").run(instance, "aonline").objective + 1e-6
