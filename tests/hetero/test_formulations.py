"""Models A (configuration) and B (compact time-indexed) of problem (2)/(15): exact, equal,
solver-independent; their LP relaxations are lower bounds; the golden case A.3 (spec Appendix A)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero.formulations import configuration, time_indexed
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job
from optsched.hetero.schedule import objective, verify
from optsched.numeric import close
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
