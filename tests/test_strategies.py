"""The public strategies (optsched/strategies.py and the families' strategies modules): every
family's instances are valid and of the size asked, and the schedules drawn verify."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import optsched
from optsched import strategies
from optsched.single.strategies import instances as single_instances

FAMILIES = [name for name, family in optsched.families().items() if family.demo_sizes]


@pytest.mark.parametrize("name", FAMILIES)
@given(data=st.data())
@settings(max_examples=8, deadline=None)
def test_every_familys_instances_have_the_size_asked_and_their_schedules_verify(name, data):
    family = optsched.get(name)
    instance = data.draw(strategies.instances(family, jobs=st.integers(2, 4)))
    assert len(instance.jobs) in (2, 3, 4)
    family.check_instance(instance)
    schedule = data.draw(strategies.schedules(family, instance))
    assert family.judge(instance, schedule).feasible


@given(single_instances(max_jobs=3))
@settings(max_examples=20)
def test_a_familys_own_strategies_are_public(instance):
    assert 1 <= instance.n <= 3 and all(job.p <= 4 for job in instance.jobs)


def test_a_bad_preset_is_refused_before_drawing():
    with pytest.raises(optsched.InputError, match="no preset 'huge'"):
        strategies.instances(optsched.get("edge"), presets=("huge",))


@pytest.mark.parametrize("name", [*FAMILIES, "placement"])
def test_mutations_of_a_schedule_are_read_and_judged_and_the_verifier_refuses_some(name):
    """Every drawn mutation is one of the family's schedules, judged without error; among 60 draws
    the verifier refuses at least one (it is not vacuous) and, where it accepts one, the objective
    is the verifier's own."""
    family = optsched.get(name)
    instance = family.generate("tiny", seed=1, **({"jobs": 4} if family.demo_sizes else {}))
    schedule = family.run(instance, next(iter(family.algorithms))).schedule
    verdicts = []

    @given(strategies.mutations(family, instance, schedule))
    @settings(max_examples=60, deadline=None, database=None)
    def judge(mutated):
        family.check_schedule(mutated)
        verdict = family.judge(instance, mutated)
        assert verdict.feasible == (not verdict.violations)
        verdicts.append(verdict)

    judge()
    assert any(not v.feasible for v in verdicts), f"{name}: the verifier accepted every mutation"
