"""The verifier of problem (1) (optsched/oasis/schedule.py): one broken constraint at a time."""

import pytest

from optsched.errors import InputError
from optsched.oasis.instance import Instance, TableUtility, job_from_rho
from optsched.oasis.schedule import REJECTED, JobPlan, Schedule, objective, verify

# one job: W = 2 worker-slots, N = 2, b = 1, B = 2, two slots from slot 1
INSTANCE = Instance(3, ("cpu", "bandwidth"), ((2.0, 4.0),), ((2.0, 4.0),),
                    (job_from_rho(2, 1, 2, 1.0, [1.0, 1.0], [1.0, 2.0], TableUtility((9.0, 5.0, 1.0))),))


def check(workers, ps, admitted=True):
    return verify(INSTANCE, Schedule((JobPlan(admitted, tuple(workers), tuple(ps)),)))


def test_a_feasible_plan_and_its_utility():
    plan = JobPlan(True, ((2, 0, 1), (3, 0, 1)), ((2, 0, 1), (3, 0, 1)))
    assert verify(INSTANCE, Schedule((plan,))) == []
    assert objective(INSTANCE, Schedule((plan,))) == 5.0  # completes in slot 3, delay 1


@pytest.mark.parametrize("workers, ps, admitted, fragment", [
    ([(1, 0, 2)], [(1, 0, 1)], True, "before its arrival"),
    ([(2, 0, 1)], [(2, 0, 1)], True, "(2)"),
    ([(2, 0, 2)], [], True, "(6)"),
    ([(2, 0, 1)], [(2, 0, 1)], False, "not admitted"),
    ([(2, 0, 3)], [(2, 0, 2)], True, "(3)"),
])
def test_each_constraint_is_checked(workers, ps, admitted, fragment):
    assert any(fragment in v for v in check(workers, ps, admitted))


def test_capacity_and_ps_count():
    two = Instance(1, ("cpu", "bandwidth"), ((1.0, 4.0),), ((9.0, 9.0),),
                   (job_from_rho(1, 1, 2, 1.0, [1.0, 1.0], [1.0, 1.0], TableUtility((1.0,))),))
    violations = verify(two, Schedule((JobPlan(True, ((1, 0, 2),), ((1, 0, 3),)),)))
    assert any("exceeds capacity" in v for v in violations) and any("(7)" in v for v in violations)


def test_from_dict_checks_shape_ranges_and_duplicates():
    with pytest.raises(InputError, match="has 2 plans"):
        Schedule.from_dict({"jobs": [REJECTED.to_dict()] * 2}, INSTANCE)
    with pytest.raises(InputError, match="slot must be in 1..3"):
        Schedule.from_dict({"jobs": [{"admitted": True, "workers": [[4, 0, 1]]}]}, INSTANCE)
    with pytest.raises(InputError, match="listed twice"):
        Schedule.from_dict({"jobs": [{"admitted": True, "workers": [[2, 0, 1], [2, 0, 1]]}]}, INSTANCE)
    plan = JobPlan(True, ((2, 0, 1), (3, 0, 1)), ((2, 0, 1),))
    assert Schedule.from_dict(Schedule((plan,)).to_dict(), INSTANCE) == Schedule((plan,))
