"""The ``smith`` check (optsched/single/checks.py): zero slack where Smith's rule applies, no claim
elsewhere, and a negative slack when WSPT is worse than the optimum it is given."""

import pytest
from hypothesis import given, settings

from optsched.registry import get
from optsched.single.checks import smith_slack
from optsched.single.instance import Instance, Job
from optsched.single.strategies import instances

SINGLE = get("single")


@given(instances(max_jobs=6, zero_release=True))
@settings(max_examples=20)
def test_with_every_release_at_zero_wspt_has_zero_slack_against_the_proven_optimum(instance):
    solved = SINGLE.solve(instance, "time-indexed")
    assert solved.result.optimal
    slack, details = smith_slack(instance, "wspt", {}, solved.verdict.objective)
    assert details["applies"] and slack == pytest.approx(0.0, abs=1e-9)


def test_a_release_date_above_zero_leaves_the_claim_out_and_guides_towards_zero():
    instance = Instance((Job(2, 1.0, 0), Job(1, 5.0, 3), Job(3, 2.0, 0)))
    slack, details = smith_slack(instance, "wspt", {}, 100.0)
    assert slack == 0.0 and details == {"applies": False, "why": "Smith's rule needs every release date at 0",
                                        "guide": pytest.approx(2 / 3)}


def test_an_optimum_below_wspt_is_a_violation():
    """The slack is OPT − ALG: FIFO's order is not Smith's, so given FIFO as 'wspt''s rival the
    check reports the difference as negative."""
    instance = Instance((Job(4, 1.0, 0), Job(1, 10.0, 0)))
    wspt = SINGLE.run(instance, "wspt").objective
    slack, _ = smith_slack(instance, "wspt", {}, wspt - 3.0)
    assert slack == pytest.approx(-3.0)
    slack, _ = smith_slack(instance, "fifo", {}, wspt)
    assert slack < 0  # FIFO runs the long light job first: worse than Smith
