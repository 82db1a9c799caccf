"""Model A's LP by column generation: its pricing is exact (against enumerating Γ_j and every start),
it converges to the LP written out in full, and every bound it reports, converged or stopped,
is at most that LP's optimum."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched import pipeline
from optsched.hetero import column_generation as generation
from optsched.hetero.columns import horizon, options
from optsched.hetero.formulations import configuration
from optsched.hetero.generate import generate
from optsched.hetero.schedule import Schedule, verify
from optsched.numeric import close
from optsched.registry import get
from optsched.solvers import solve


def enumerated_value(instance, j, pi, latest):
    """min over Γ_j and every start completing by ``latest`` of ``w_j (t + d) + Σ π f``."""
    best = np.inf
    for option in options(instance)[j]:
        for t in range(instance.jobs[j].arrival, latest - option.shape.d + 1):
            best = min(best, generation._cost(instance, j, option.at(t), pi))
    return best


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]),
       density=st.sampled_from([0.0, 0.2, 0.6]), scale=st.sampled_from([0.1, 1.0, 10.0]))
def test_pricing_equals_enumerating_every_column(seed, framework, density, scale):
    inst = generate("tiny", seed, jobs=3, framework=framework)
    rng = np.random.default_rng(seed)
    T = horizon(inst, options(inst)).last_slot + 2
    pi = rng.random((inst.H, inst.R, T)) * (rng.random((inst.H, inst.R, T)) < density) * scale
    for j in range(len(inst.jobs)):
        value, schedule = generation.price(inst, j, pi)
        # past the last priced slot a later start only costs more, so this horizon holds every minimum
        latest = T + max(s.d for s in inst.shapes[j]) + inst.jobs[j].arrival
        assert close(value, enumerated_value(inst, j, pi, latest))
        assert schedule is not None and close(generation._cost(inst, j, schedule, pi), value)


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_converges_to_model_a_lp_written_out(framework, seed):
    inst = generate("small", seed, jobs=6, framework=framework)
    lp = solve(configuration(inst, relax=True))
    state = generation.run(inst)
    assert state.converged and state.lower <= lp.objective <= state.upper * (1 + 1e-9)
    assert close(state.upper, lp.objective) and close(state.lower, lp.objective)
    assert all(bound <= lp.objective * (1 + 1e-12) for bound, _ in state.history)


def test_a_stopped_generation_still_brackets_the_lp():
    inst = generate("small", 4, jobs=10)
    lp = solve(configuration(inst, relax=True)).objective
    state = generation.run(inst, rounds=1)
    assert not state.converged and "1 pricing rounds" in state.stopped
    assert state.lower <= lp <= state.upper


def test_the_greedy_start_is_a_feasible_schedule():
    for seed in range(4):
        inst = generate("small", seed, jobs=12)
        assert verify(inst, Schedule(tuple(generation.greedy(inst)))) == []


def test_through_the_pipeline_optimal_when_converged_and_cross_checked_by_the_lp():
    family, inst = get("hetero"), generate("small", 2, jobs=6)
    solved = pipeline.solve(family, inst, "column-generation", cross_check=True)
    r = solved.result
    assert r.status == "optimal" and not r.is_mip and r.cross_check.verdict == "agree"
    assert solved.schedule is None and r.bound <= r.objective


def test_through_the_pipeline_a_time_limit_gives_no_optimum_and_only_a_valid_bound():
    """A 1 ms limit ends the generation early: never an optimum, and a bound, where the time allowed
    one (on a loaded machine the limit may pass before the first; the round budget's test below is
    the deterministic one), no more than the LP's."""
    family, inst = get("hetero"), generate("small", 2, jobs=12)
    r = pipeline.solve(family, inst, "column-generation", time_limit=1e-3).result
    lp = solve(configuration(inst, relax=True)).objective
    assert r.status in ("feasible", "not_solved") and r.status != "optimal"
    assert r.bound is None or r.bound <= lp


def test_a_round_budget_stops_the_generation_with_its_bound_certified():
    """``node_limit`` is a column generation's deterministic budget: pricing rounds."""
    from optsched.hetero.generate import generate
    from optsched.registry import get

    instance = generate("small", 1, jobs=10)
    hetero = get("hetero")
    one = hetero.solve(instance, "column-generation", node_limit=1).result
    full = hetero.solve(instance, "column-generation").result
    assert one.status == "feasible" and "after 1 pricing rounds" in one.message
    assert full.optimal and one.bound <= full.objective * (1 + 1e-9) and one.objective >= full.objective * (1 - 1e-9)
