"""F3 (single machine) and F4 (time-indexed) on job streams (optsched/asrpt/formulations.py; spec asrpt.md §2.4, §2.5)."""

import dataclasses

import pytest

from optsched.asrpt import baselines
from optsched.asrpt.formulations import lower_bound, single_machine, single_machine_milp, time_indexed
from optsched.asrpt.generate import generate_stream
from optsched.asrpt.online import run_asrpt
from optsched.asrpt.schedule import objective, verify
from optsched.asrpt.theory import virtual_optimum
from optsched.placement import patterns
from optsched.registry import get
from optsched.solvers import solve

BASELINES = ("spjf", "spwf", "wcs_duration", "wcs_workload", "wcs_subtime")


def optimum(instance, **kwargs):
    model = time_indexed(instance)
    result = solve(model, **kwargs)
    assert result.optimal, result.message
    return result, model.decoder(result)


def test_single_machine_formulation_is_srpt_on_a_min_and_below_the_optimum():
    for seed in range(2):
        instance = generate_stream("tiny", seed)
        result = solve(single_machine(instance), cross_check=True)
        assert result.optimal and result.solver == "srpt"
        assert result.cross_check.verdict == "agree", result.cross_check  # the completion-order MILP, by HiGHS
        assert result.objective == pytest.approx(virtual_optimum(instance, "min"), rel=1e-6)
        opt, _ = optimum(instance)
        assert result.objective <= opt.objective * (1 + 1e-9)


@pytest.mark.parametrize("seed", [2, 3, 5, 6, 7, 8])  # seed 4: CBC needs 40 s for its F3 MILP
def test_the_computed_single_machine_bound_equals_the_f3_milp_by_both_solvers(seed):
    instance = generate_stream("tiny", seed)
    computed = solve(single_machine(instance))
    for solver in ("highs", "cbc"):
        milp = solve(single_machine_milp(instance), solver=solver)
        assert milp.optimal, milp.message
        assert computed.objective == pytest.approx(milp.objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_the_lower_bound_is_the_larger_of_f3_and_the_job_floor_and_below_the_optimum(seed):
    instance = generate_stream("tiny", seed)
    result = solve(lower_bound(instance), cross_check=True)
    assert result.optimal and result.cross_check.verdict == "agree", result.cross_check
    floor = sum(sj.release + sj.iterations * patterns.alpha_min(sj.job, instance.cluster) for sj in instance.jobs)
    assert result.objective == pytest.approx(max(floor, solve(single_machine(instance)).objective), rel=1e-12)
    assert result.objective <= optimum(instance)[0].objective * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_tiny_streams_milp_verifies_solvers_agree_and_no_algorithm_beats_it(seed):
    instance = generate_stream("tiny", seed)
    result, schedule = optimum(instance, cross_check=True)
    assert result.cross_check.verdict == "agree", result.cross_check
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective, rel=1e-9)
    relaxed = solve(time_indexed(instance, relax=True))
    assert relaxed.objective <= result.objective * (1 + 1e-9)
    runs = [run_asrpt(instance).schedule, run_asrpt(instance, perfect=True).schedule,
            run_asrpt(instance, blocking=False, tau=2.0).schedule]
    runs += [getattr(baselines, name)(instance) for name in BASELINES]
    for run in runs:
        assert verify(instance, run) == []
        assert objective(instance, run) >= result.objective * (1 - 1e-9)



def _with_deadlines_at_the_horizon(monkeypatch):
    """F4's and the CP-SAT models' stream with every deadline moved out to the safe horizon."""
    from optsched.asrpt import formulations

    shipped = formulations.stream

    def loose(instance, where):
        shared = shipped(instance, where)
        horizon = max(shared.releases) + sum(max(D for *_, D in choices) for choices in shared.options)
        return dataclasses.replace(shared, latest=[horizon] * len(shared.latest))

    monkeypatch.setattr(formulations, "stream", loose)


@pytest.mark.parametrize(("preset", "jobs", "seed"), [("tiny", None, s) for s in range(4)] + [("small", 6, s) for s in range(2)])
def test_the_deadlines_cut_off_no_optimum(monkeypatch, preset, jobs, seed):
    """The deadlines ``UB − (a lower bound on the other jobs' total)`` keep every optimum: F4 with
    them proves what F4 with every deadline at the horizon proves."""
    instance = generate_stream(preset, seed, jobs=jobs)
    shipped = solve(time_indexed(instance))
    with monkeypatch.context() as patched:
        _with_deadlines_at_the_horizon(patched)
        loose = solve(time_indexed(instance))
    assert shipped.optimal and loose.optimal
    assert shipped.objective == pytest.approx(loose.objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_the_pooled_bound_lies_between_the_lower_bound_route_and_the_optimum(seed):
    instance = generate_stream("small", seed, jobs=8)
    family = get("asrpt")
    pooled_bound = family.solve(instance, "pooled")
    its_lp = family.solve(instance, "pooled", relax=True)
    cheap = family.solve(instance, "lower-bound")
    exact = family.solve(instance, "cp-sat")  # the time-indexed MILP is the exact model of the next test
    assert pooled_bound.result.optimal and exact.result.optimal and pooled_bound.schedule is None
    assert cheap.result.objective <= pooled_bound.result.objective * (1 + 1e-9)
    assert its_lp.result.objective <= pooled_bound.result.objective * (1 + 1e-9)
    assert pooled_bound.result.objective <= exact.verdict.objective * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_pool_and_place_proves_f4s_optimum_where_the_pooled_bound_is_reached(seed):
    """At 8 jobs the pooled optimum is placed on the servers and meets its own bound: pool-and-place
    proves the optimum the time-indexed MILP proves, with a verified schedule."""
    instance = generate_stream("small", seed, jobs=8)
    family = get("asrpt")
    placed = family.solve(instance, "pool-and-place", threads=1)
    exact = family.solve(instance, "time-indexed")
    assert placed.result.optimal and placed.problem is None and placed.verdict.feasible
    assert placed.verdict.objective == pytest.approx(exact.verdict.objective, rel=1e-9)
    assert placed.verdict.objective == pytest.approx(family.solve(instance, "pooled").result.objective, rel=1e-9)
