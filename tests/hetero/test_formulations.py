"""Models A (configuration) and B (compact time-indexed) of problem (2)/(15): exact, equal,
solver-independent; their LP relaxations are lower bounds; the golden case A.3 (spec Appendix A)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero import formulations as F
from optsched.hetero.formulations import configuration, time_indexed
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job
from optsched.hetero.schedule import objective, verify
from optsched.numeric import close
from optsched.registry import get
from optsched.solvers import solve


def a3() -> Instance:
    """Demand elasticity (the paper's introduction): 3 GPUs; a 1-GPU type (v = 1.5) and a 2-GPU type
    (v = 1.0); two jobs of K = 2 mini-batches. OPT = 7 (3 + 4, in parallel on different types)."""
    job = Job(arrival=1, weight=1.0, epochs=1, chunks=1, minibatches=2, train=(1.5, 1.0), update=(0.0,), gradient=0.0)
    return Instance("ps", 8, ((3.0, 100.0),), ((1.0, 1.0), (2.0, 1.0)), ((0.0, 1.0),), 1, (job, job))


def test_golden_a3_demand_elasticity():
    inst = a3()
    for build in (configuration, time_indexed):
        model = build(inst)
        result = solve(model, cross_check=True)
        assert result.optimal and result.objective == pytest.approx(7)
        assert result.cross_check.verdict == "agree"
        schedule = model.decoder(result)
        assert verify(inst, schedule) == [] and objective(inst, schedule) == pytest.approx(7)
        assert {job.m for job in schedule.jobs} == {0, 1}  # the two types, in parallel
    assert solve(configuration(inst, relax=True)).objective == pytest.approx(7)  # spec: LP also 7


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]), jobs=st.integers(2, 4))
def test_both_exact_models_agree_verify_and_bound_their_relaxations(seed, framework, jobs):
    inst = generate("tiny", seed, jobs=jobs, framework=framework)
    a, b = configuration(inst), time_indexed(inst)
    ra, rb = solve(a), solve(b)
    assert ra.optimal and rb.optimal and close(ra.objective, rb.objective)
    for model, result in ((a, ra), (b, rb)):
        schedule = model.decoder(result)
        assert verify(inst, schedule) == []
        assert close(objective(inst, schedule), result.objective)
    lp_a, lp_b = solve(configuration(inst, relax=True)), solve(time_indexed(inst, relax=True))
    assert lp_b.objective <= lp_a.objective + 1e-6 and lp_a.objective <= ra.objective + 1e-6


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
def test_highs_and_cbc_agree_on_both_models(framework):
    inst = generate("tiny", 3, framework=framework)
    for build in (configuration, time_indexed):
        result = solve(build(inst), cross_check=True)
        assert result.optimal and result.cross_check.verdict == "agree"


def test_d7_the_optimum_may_end_after_t_which_is_a_price_parameter_not_a_deadline():
    """docs/hetero.md D7: both exact models solve the unbounded-horizon problem, and on this instance
    its optimum runs a job past T; the verifier accepts it."""
    instance = generate("tiny", seed=9, framework="ps")
    found = []
    for build in (configuration, time_indexed):
        model = build(instance)
        result = solve(model)
        schedule = model.decoder(result)
        assert result.optimal and verify(instance, schedule) == []
        found.append(objective(instance, schedule))
        assert max(l.completion - 1 for l in schedule.jobs) > instance.T
    assert found[0] == pytest.approx(found[1]) == pytest.approx(302)


def test_cp_sat_drops_exactly_the_dominated_options():
    """An option no shorter and using at least as much everywhere as another is dropped; of two equal
    ones the first is kept; incomparable ones both stay."""
    from optsched.hetero.columns import Option
    from optsched.hetero.formulations import _undominated
    from optsched.hetero.instance import Shape

    def option(d):
        return Option(Shape(0, 0, 1, 1, d), (1, 0), (1, 0))

    fast_small, slow_big, equal, wide = (option(2), ((1, 1), (0, 0))), (option(3), ((2, 1), (0, 0))), \
        (option(2), ((1, 1), (0, 0))), (option(1), ((3, 3), (0, 0)))
    assert _undominated([fast_small, slow_big]) == [fast_small]
    assert _undominated([fast_small, equal]) == [fast_small]
    assert _undominated([fast_small, wide]) == [fast_small, wide]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.lists(st.integers(0, 2), min_size=4, max_size=4)), max_size=12))
def test_undominated_keeps_what_no_other_option_beats(rows):
    """Against the definition, pair by pair: a candidate goes when another is no longer and uses no
    more anywhere, unless the two are equal and it comes first."""
    from optsched.hetero.columns import Option
    from optsched.hetero.formulations import _undominated
    from optsched.hetero.instance import Shape

    candidates = [(Option(Shape(0, 0, 1, 1, d), (1, 0), (1, 0)), ((u[0], u[1]), (u[2], u[3]))) for d, u in rows]

    def beats(a, b, a_first):
        no_worse = a[0].shape.d <= b[0].shape.d and all(x <= y for ra, rb in zip(a[1], b[1]) for x, y in zip(ra, rb))
        equal = (a[0].shape.d, a[1]) == (b[0].shape.d, b[1])
        return no_worse and (not equal or a_first)

    expected = [c for i, c in enumerate(candidates)
                if not any(beats(o, c, k < i) for k, o in enumerate(candidates) if k != i)]
    assert _undominated(candidates) == expected


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
def test_cp_sat_model_c_equals_model_a_on_small_instances(framework):
    family = get("hetero")
    for seed in range(6):
        instance = family.generate("small", seed=seed, jobs=4, framework=framework)
        c = family.solve(instance, "cp-sat")
        assert c.result.optimal and c.problem is None
        assert c.verdict.objective == pytest.approx(family.solve(instance, "configuration").verdict.objective)


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
def test_reduced_cost_fixing_keeps_an_optimum_and_drops_most_columns(framework):
    """Model A over the columns whose reduced cost is at most UB − L(π) has model A's optimum (the
    same as model C's, an independent model)."""
    family = get("hetero")
    for seed in range(4):
        instance = family.generate("small", seed=seed, jobs=6, framework=framework)
        reduced = F.reduced_configuration(instance)
        full = F.configuration(instance)
        assert len(reduced.problem.variables()) < len(full.problem.variables())
        solved = family.solve(instance, "reduced-configuration")
        assert solved.result.optimal and solved.problem is None and solved.verdict.feasible
        assert solved.verdict.objective == pytest.approx(family.solve(instance, "cp-sat").verdict.objective)


def test_reduced_cost_fixing_keeps_every_column_a_schedule_at_most_ub_can_use():
    """The kept set is ``δ <= UB − L``: with UB far above the optimum nothing is dropped, and with
    UB at the LP bound only columns of reduced cost 0 stay."""
    from optsched.hetero import column_generation as generation
    from optsched.hetero.columns import horizon, options

    instance = get("hetero").generate("small", seed=1, jobs=6)
    opts = options(instance)
    hz = horizon(instance, opts)
    state = generation.run(instance)
    reduced = F._reduced_costs(instance, opts, hz, state.prices)
    every = sum(max(0, hz.latest[j] - o.shape.d + 1 - job.arrival) for j, job in enumerate(instance.jobs)
                for o in opts[j])
    assert len(F._kept(reduced, 1e12)) == every
    tight = F._kept(reduced, state.lower)
    assert len({j for j, _ in tight}) == len(instance.jobs) and len(tight) < every


@pytest.mark.slow
def test_the_refinement_leaves_the_exact_solve_most_of_a_time_limit():
    """At 24 jobs (seed 0) 200 refinement nodes take longer than a 60 s limit; with its share of
    the seconds left, the reduced model is built and solved within the limit, and the answer is
    the solver's own schedule with a bound, not the online fallback without one."""
    import time

    family = get("hetero")
    instance = family.generate("small", seed=0, jobs=24)
    started = time.perf_counter()
    solved = family.solve(instance, "reduced-configuration", time_limit=60.0, threads=1)
    assert time.perf_counter() - started <= 60.0 * 1.05 + 0.5
    assert solved.verdict.feasible and solved.schedule_from is None
    assert solved.result.bound is not None and solved.result.bound <= solved.verdict.objective
