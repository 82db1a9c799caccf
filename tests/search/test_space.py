"""A family's search space and its moves: mutations, shrinks and what a start instance holds (optsched/search/space.py), over every family's mutate.py."""

from __future__ import annotations

import numpy as np
import pytest

import optsched
from optsched.search import space as moves
from optsched.search.strategy import text_of

FAMILIES = tuple(name for name, family in optsched.families().items() if family.space is not None)


@pytest.mark.parametrize("name", FAMILIES)
def test_mutations_leave_the_parent_alone_and_mostly_give_valid_instances(name):
    family = optsched.get(name)
    space = family.space()
    rng = np.random.default_rng(1)
    doc = space.start(0, 4)
    before = text_of(doc)
    valid = 0
    for _ in range(100):
        child = moves.mutate(space, doc, rng, 4)
        assert text_of(doc) == before
        try:
            instance = family.instance_from_dict(child, "child")
        except optsched.InputError:
            continue
        valid += not space.refusal(instance)
        assert moves.size_of(space, child)[0] <= 4
    assert valid >= 60


@pytest.mark.parametrize("name", FAMILIES)
def test_every_declared_number_and_list_is_somewhere_in_a_start_instance(name):
    space = optsched.get(name).space()
    doc = space.start(0, 4)
    for declared in (*space.numbers, *space.items):
        assert moves.places(doc, declared.path), f"{declared.path} reaches nothing"


@pytest.mark.parametrize("name", FAMILIES)
def test_every_shrink_is_simpler(name):
    space = optsched.get(name).space()
    doc = space.start(3, 4)
    size = moves.measure(space, doc)
    options = list(moves.shrinks(space, doc))
    assert options
    for option in options:
        smaller = moves.measure(space, option)
        assert smaller[0] < size[0] or smaller[1:] != size[1:]
        assert smaller[0] <= size[0]

