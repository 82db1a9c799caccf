"""The CP-SAT backend (optsched/solvers/cpsat.py) through the door: honest statuses, the objective
and bound in the family's units, a deterministic budget, and the options that do not apply refused."""

import itertools
import random

import pytest
from ortools.sat.python import cp_model

from optsched.solvers import CpSatModel, solve


def sequencing(n=9, seed=0, scale=1, offset=0.0):
    """One machine, weighted completion times, release dates: (model, brute-force optimum)."""
    rnd = random.Random(seed)
    jobs = [(rnd.randint(1, 6), rnd.randint(1, 9), rnd.randint(0, 10)) for _ in range(n)]  # p, w, r
    horizon = max(r for _, _, r in jobs) + sum(p for p, _, _ in jobs)
    model = cp_model.CpModel()
    start = [model.new_int_var(r, horizon - p, f"S{j}") for j, (p, _, r) in enumerate(jobs)]
    model.add_no_overlap([model.new_fixed_size_interval_var(s, p, f"I{j}") for j, (s, (p, _, _))
                          in enumerate(zip(start, jobs))])
    model.minimize(sum(w * scale * (s + p) for s, (p, w, _) in zip(start, jobs)))
    best = None
    if n <= 7:
        for order in itertools.permutations(range(n)):
            t = total = 0
            for j in order:
                p, w, r = jobs[j]
                t = max(t, r) + p
                total += w * t
            best = total if best is None else min(best, total)
    return CpSatModel(model, "min", {f"S{j}": s for j, s in enumerate(start)}, scale=scale, offset=offset), best


def test_an_optimum_is_proven_and_equals_brute_force():
    for seed in range(4):
        model, best = sequencing(n=7, seed=seed)
        result = solve(model)
        assert (result.status, result.objective, result.bound, result.gap) == ("optimal", best, best, 0.0)
        assert result.solver == "cp-sat" and result.is_mip and set(result.values) == {f"S{j}" for j in range(7)}


def test_objective_and_bound_are_in_the_family_units():
    model, best = sequencing(n=6, seed=1, scale=100, offset=2.5)
    result = solve(model)
    assert result.objective == pytest.approx(best + 2.5) and result.bound == pytest.approx(best + 2.5)


def test_a_deterministic_budget_stops_with_a_bound_and_gives_the_same_answer_twice():
    runs = [solve(sequencing(n=40, seed=3)[0], work_limit=0.05) for _ in range(2)]
    first = runs[0]
    assert first.status == "feasible" and first.bound < first.objective and first.gap > 0
    assert first.message == "deterministic work limit reached" and first.options["threads"] == 1
    assert (runs[1].objective, runs[1].bound, dict(runs[1].values)) == (first.objective, first.bound,
                                                                       dict(first.values))


def test_a_gap_stop_is_feasible_not_optimal():
    result = solve(sequencing(n=20, seed=3)[0], gap=0.9, work_limit=5.0)  # CP-SAT's first bound is weak here
    assert result.status == "feasible" and 0 < result.gap <= 0.9 and "not proven optimal" in result.message


def test_infeasible_and_invalid_models():
    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    model.add(x >= 5)
    model.minimize(x)
    assert solve(CpSatModel(model, "min", {"x": x})).status == "infeasible"
    bad = cp_model.CpModel()
    y = bad.new_int_var(0, 3, "y")
    bad.add_no_overlap([bad.new_fixed_size_interval_var(y, -2, "negative")])
    refused = solve(CpSatModel(bad, "min", {"y": y}))
    assert refused.status == "error" and "CP-SAT refused the model" in refused.message


def test_options_of_other_engines_are_refused():
    model = sequencing(n=3)[0]
    for options, says in (({"node_limit": 5}, "node_limit is a MILP budget"), ({"solver": "highs"}, "solved by cp-sat"),
                          ({"cross_check": True}, "another model"), ({"work_limit": -1.0}, "positive")):
        with pytest.raises(ValueError, match=says):
            solve(model, **options)
