"""Smith's rule (optsched/single/theory.py): with every release date 0 its sequence is optimal, and WSPT is exactly it."""

import pytest
from hypothesis import given, settings

from optsched.single.formulations import time_indexed
from optsched.single.instance import Instance, Job
from optsched.single.online import wspt
from optsched.single.schedule import objective
from optsched.single.strategies import instances
from optsched.single.theory import smith_schedule
from optsched.solvers import solve


@given(instances(max_jobs=8, max_p=6, zero_release=True))
@settings(max_examples=30)
def test_with_zero_release_dates_the_optimum_is_smiths_rule(instance):
    result = solve(time_indexed(instance))
    assert result.optimal
    assert result.objective == pytest.approx(objective(instance, smith_schedule(instance)))


@given(instances(max_jobs=8, zero_release=True))
def test_wspt_with_all_jobs_at_time_zero_is_smiths_rule(instance):
    assert objective(instance, wspt(instance)) == pytest.approx(objective(instance, smith_schedule(instance)))



def test_smiths_order_compares_exact_ratios_and_breaks_ties_by_index():
    from optsched.single.theory import smith_order

    instance = Instance((Job(p=3, w=1.0), Job(p=1, w=5.0), Job(p=2, w=10.0), Job(p=6, w=2.0)))
    assert smith_order(instance) == (1, 2, 0, 3)  # 5 = 10/2 tie: lower index first; 1/3 = 2/6 tie too
