"""The ``lemma2`` check (optsched/asrpt/checks.py): Lemma 2's relative slack on A-SRPT's runs
against the proven optimum, computed independently here; no claim outside the lemma's proof."""

import pytest
from hypothesis import given, settings

from optsched.asrpt.checks import NOT_APPLICABLE, lemma2_slack
from optsched.asrpt.strategies import integral_streams
from optsched.asrpt.theory import lemma2_bound
from optsched.registry import get

ASRPT = get("asrpt")


@given(integral_streams(max_jobs=4))
@settings(max_examples=10, deadline=None)
def test_lemma2_holds_and_the_slack_is_the_relative_room_under_the_bound(instance):
    solved = ASRPT.solve(instance, "time-indexed")
    assert solved.result.optimal
    optimum = solved.verdict.objective
    for algorithm in ("asrpt", "asrpt-perfect"):
        slack, details = lemma2_slack(instance, algorithm, {"tau": 0.5}, optimum)
        gamma = ASRPT.run(instance, algorithm, tau=0.5).objective
        bound = lemma2_bound(instance, optimum, 0.5, perfect=algorithm == "asrpt-perfect")
        assert details["applies"] and slack == pytest.approx((bound - gamma) / max(bound, gamma))
        assert 0.0 <= slack <= 1.0


@given(integral_streams(max_jobs=3))
@settings(max_examples=5, deadline=None)
def test_the_slack_rises_with_the_optimum_it_is_given(instance):
    """The bound grows by ρ OPT_A: a larger optimum leaves more room, a smaller one less."""
    gamma = ASRPT.run(instance, "asrpt").objective
    slacks = [lemma2_slack(instance, "asrpt", {}, opt)[0] for opt in (0.0, gamma, 10 * gamma)]
    assert slacks[0] < slacks[1] < slacks[2] and slacks[2] > 0


def test_the_non_blocking_variant_is_outside_the_lemma():
    instance = ASRPT.generate("tiny", seed=0, jobs=2)
    slack, details = lemma2_slack(instance, "asrpt", {"blocking": False}, 1.0)
    assert slack == NOT_APPLICABLE and not details["applies"]
