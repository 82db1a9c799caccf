"""OASiS's offline models (optsched/oasis/formulations.py): OPT(1) = OPT(14), LP(14) = Dual(19) =
column generation >= OPT, and every decoded schedule passes the verifier."""

import pytest
from hypothesis import given, settings

from optsched.errors import InputError
from optsched.oasis import formulations as F
from optsched.oasis.columns import TooManyColumns, count_columns, enumerate_columns
from optsched.oasis.generate import generate
from optsched.oasis.online import run_oasis
from optsched.oasis.schedule import objective, verify
from optsched.oasis.strategies import instances
from optsched.solvers import max_violation, solve


def assert_identities(instance, cross_check=True):
    ti_model = F.time_indexed(instance)
    ti = solve(ti_model, cross_check=cross_check)
    ce_model = F.compact_exponential(instance)
    ce = solve(ce_model, cross_check=cross_check)
    assert ti.optimal and ce.optimal, (ti.message, ce.message)
    if cross_check:
        assert ti.cross_check.verdict == ce.cross_check.verdict == "agree"
    assert ti.objective == pytest.approx(ce.objective, rel=1e-6, abs=1e-9)  # OPT(1) = OPT(14)
    for model, result in ((ti_model, ti), (ce_model, ce)):
        schedule = model.decoder(result)
        assert verify(instance, schedule) == []
        assert objective(instance, schedule) == pytest.approx(result.objective, rel=1e-6, abs=1e-9)
    lp = solve(F.compact_exponential(instance, relax=True))
    dual = solve(F.dual(instance))
    cg = solve(F.column_generation(instance))
    assert lp.objective == pytest.approx(dual.objective, rel=1e-6, abs=1e-9)  # LP(14) = Dual(19)
    assert cg.objective == pytest.approx(lp.objective, rel=1e-6, abs=1e-9)
    assert lp.objective >= ti.objective - 1e-6 * max(1.0, ti.objective)
    relaxed_ti = solve(F.time_indexed(instance, relax=True))
    assert relaxed_ti.objective >= ti.objective - 1e-6 * max(1.0, ti.objective)
    return ti.objective


@pytest.mark.parametrize("mode", ["worker_slots", "chunks"])
@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_family_t_identities(seed, mode):
    """The issue's 'done when': on Family T, time-indexed = compact-exponential (HiGHS and CBC),
    dual = relaxed compact-exponential = column generation >= the optimum."""
    assert_identities(generate("tiny", seed, mode=mode))


@given(instances(max_T=3, max_jobs=3))
@settings(max_examples=25)
def test_identities_on_random_tiny_instances(instance):
    assert_identities(instance, cross_check=False)


@given(instances(max_T=4, max_jobs=3))
@settings(max_examples=40, deadline=None)
def test_the_cp_sat_model_agrees_with_the_milp_and_its_schedule_verifies(instance):
    model = F.cp_sat(instance)
    result = solve(model)
    milp = solve(F.time_indexed(instance))
    assert result.optimal and milp.optimal and result.solver == "cp-sat"
    # utilities are rounded to 1 / UTILITY_SCALE in the CP-SAT objective
    slack = len(instance.jobs) / F.UTILITY_SCALE
    assert result.objective == pytest.approx(milp.objective, rel=1e-6, abs=slack + 1e-9)
    schedule = model.decoder(result)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective, rel=1e-6, abs=slack + 1e-9)


def test_lp_duals_are_prices_and_payoffs():
    """LP(14)'s row duals read as p, q, μ: they are non-negative and price the LP exactly."""
    instance = generate("tiny", 3)
    lp = solve(F.compact_exponential(instance, relax=True))
    assert lp.optimal and all(v >= -1e-9 for v in lp.duals.values())
    assert any(name.startswith("cap_w_") for name in lp.duals) and any(name.startswith("job_") for name in lp.duals)


def test_column_generation_converges_with_bounds_that_close():
    state = F.run_column_generation(generate("tiny", 3))
    assert state.iterations >= 2
    assert state.upper_bounds[-1] == pytest.approx(state.master_values[-1], rel=1e-7)
    assert all(u >= m - 1e-7 for u, m in zip(state.upper_bounds, state.master_values))


def test_enumeration_refuses_beyond_the_column_limit():
    with pytest.raises(TooManyColumns, match="column limit"):
        F.compact_exponential(generate("small", 0), column_limit=1000)
    assert issubclass(TooManyColumns, InputError)  # the CLI turns it into exit 2


def test_oasis_schedule_is_feasible_for_the_milp_and_never_beats_it():
    """Spec §4.3: feed OASiS's solution to the MILP as fixed values (§6.3 caught a solver bug so)."""
    for seed in range(4):
        instance = generate("tiny", seed)
        run = run_oasis(instance)
        model = F.time_indexed(instance)
        problem = model.problem
        values = {v.name: 0.0 for v in problem.variables()}
        for i, plan in enumerate(run.schedule.plans):
            if plan.admitted:
                values[f"phi_{i}_{plan.completion()}"] = 1.0
                for t, h, n in plan.workers:
                    values[f"y_{i}_{h}_{t}"] = float(n)
                for t, k, n in plan.ps:
                    values[f"z_{i}_{k}_{t}"] = float(n)
        assert max_violation(problem, values) <= 1e-9
        milp_value = sum(c * values[v.name] for v, c in problem.objective.items())
        assert milp_value == pytest.approx(run.primal, rel=1e-9)
        assert solve(model).objective >= run.primal - 1e-6


@given(instances())
@settings(max_examples=60)
def test_column_counts_match_the_enumeration(instance):
    for i in range(len(instance.jobs)):
        assert count_columns(instance, i) == len(enumerate_columns(instance, i))


def test_column_generation_stopped_early_still_bounds_lp14_from_above():
    instance = generate("small", 1)
    lp = solve(F.column_generation(instance))
    assert lp.optimal and lp.bound >= lp.objective - 1e-7 * abs(lp.objective)
    state = F.run_column_generation(instance, max_iterations=1)
    assert not state.converged and "1 master solves" in state.stopped
    assert min(state.upper_bounds) >= lp.objective * (1 - 1e-9) >= state.master_values[-1] * (1 - 1e-9)
    cut = solve(F.column_generation(instance), time_limit=1e-4)
    assert not cut.optimal and cut.bound >= lp.objective * (1 - 1e-9)


def test_a_round_budget_stops_column_generation_with_its_upper_bound_certified():
    from optsched.oasis.generate import generate
    from optsched.registry import get

    instance = generate("small", 0, jobs=8)
    oasis = get("oasis")
    one = oasis.solve(instance, "column-generation", node_limit=1).result
    full = oasis.solve(instance, "column-generation").result
    assert full.optimal and one.status == "feasible" and "after 1 master solves" in one.message
    assert one.bound >= full.objective * (1 - 1e-9) and one.objective <= full.objective * (1 + 1e-9)


@given(instances(max_T=4, max_jobs=3))
@settings(max_examples=40, deadline=None)
def test_the_mip_start_is_the_better_online_schedule_and_feasible(instance):
    from optsched.oasis.baselines import rrh
    from optsched.solvers.model import variables

    model = F.time_indexed(instance)
    values = {v.name: model.start.get(v.name, 0.0) for v in variables(model.problem)}
    assert max_violation(model.problem, values) <= 1e-9
    started = sum(instance.jobs[int(name.split("_")[1])].utility.value(int(name.split("_")[2])
                                                                        - instance.jobs[int(name.split("_")[1])].arrival)
                  for name in model.start if name.startswith("phi_"))
    best = max(objective(instance, run_oasis(instance).schedule), objective(instance, rrh(instance)))
    assert started == pytest.approx(best, rel=1e-9, abs=1e-12)
