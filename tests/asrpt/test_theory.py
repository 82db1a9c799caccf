"""Lemmas 1-3 and Theorem 1 of Luo et al. on integral instances against the exact optimum
(spec asrpt.md §4.1-§4.4, §4.7)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.asrpt.formulations import time_indexed
from optsched.asrpt.generate import generate_stream
from optsched.asrpt.online import run_asrpt
from optsched.asrpt.schedule import objective
from optsched.asrpt.strategies import integral_streams
from optsched.asrpt.theory import (
    constants,
    lemma2_bound,
    lemma3_bound,
    lemma3_sharp,
    theorem1_bound,
    virtual_optimum,
)
from optsched.solvers import solve

RTOL = 1e-9


def opt(instance):
    result = solve(time_indexed(instance))
    assert result.optimal
    return result.objective


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 4), st.integers(0, 9), st.integers(1, 9)),
                min_size=1, max_size=30))
@settings(max_examples=200)
def test_lemma3_sharp_and_stated_on_large_streams(rows):
    """Both sides are SRPT totals, so no solver is needed."""
    from optsched.asrpt.instance import Instance, StreamJob
    from optsched.placement.instance import Cluster, Job, Stage

    cluster = Cluster(2, 4, 1.0, 1.0)
    jobs = tuple(StreamJob(Job((Stage(1.0, g),)), float(r), n, float(guess)) for r, g, guess, n in rows)
    instance = Instance(cluster, jobs)
    tilde = virtual_optimum(instance, "tilde")
    assert tilde <= lemma3_sharp(instance) * (1 + RTOL) + 1e-9
    assert lemma3_sharp(instance) <= lemma3_bound(instance) * (1 + RTOL) + 1e-9


@given(integral_streams(max_jobs=5))
@settings(max_examples=30)
def test_lemma1_three_forms(instance):
    optimum = opt(instance)
    c = constants(instance)
    a1 = virtual_optimum(instance, "true")
    assert virtual_optimum(instance, "min") <= optimum * (1 + RTOL)
    assert a1 <= c.rho_prime * optimum * (1 + RTOL)
    assert c.rho_prime <= c.rho * (1 + RTOL)


@given(integral_streams(max_jobs=5), st.sampled_from([0.0, 0.5, 1.0, 2.0]), st.booleans())
@settings(max_examples=30)
def test_lemma2_and_theorem1(instance, tau, perfect):
    optimum = opt(instance)
    gamma = objective(instance, run_asrpt(instance, tau=tau, perfect=perfect).schedule)
    assert gamma <= lemma2_bound(instance, optimum, tau, perfect) * (1 + RTOL)
    c = constants(instance, perfect)
    bound = theorem1_bound(c.rho, c.rho_bar, tau, c.G, c.g_max, c.epsilon_bar)
    assert gamma <= bound * optimum * (1 + RTOL)


def test_theorem1_reference_values_and_monotonicity():
    assert theorem1_bound(1.0, 1.0, 0.0, 2000, 8, 0.0) == pytest.approx(2 + 2000 / 1992)
    assert theorem1_bound(1.0, 1.0, 0.0, 4, 3, 0.0) == pytest.approx(6.0)
    assert math.isinf(theorem1_bound(1.0, 1.0, 0.0, 4, 4, 0.0))
    base = dict(rho=1.5, rho_bar=3.0, tau=1.0, G=16, g_max=4, epsilon_bar=0.5)
    for key, bigger in (("rho", 2.0), ("rho_bar", 4.0), ("tau", 2.0), ("g_max", 6), ("epsilon_bar", 1.0)):
        assert theorem1_bound(**{**base, key: bigger}) >= theorem1_bound(**base)


def test_theorem_hook_reports_constants_on_tiny_presets():
    from optsched.asrpt import ASRPT

    instance = generate_stream("tiny", 0)
    theorem = ASRPT.algorithm("asrpt").theorem(instance, tau=1.0, blocking=True)
    assert theorem.bound >= 2 and {"rho", "tau", "epsilon_bar"} <= set(theorem.constants)
    assert ASRPT.algorithm("asrpt").theorem(instance, tau=1.0, blocking=False) is None
    perfect = ASRPT.algorithm("asrpt-perfect").theorem(instance, tau=1.0, blocking=True)
    assert perfect.constants["epsilon_bar"] == 0 and perfect.bound <= theorem.bound
