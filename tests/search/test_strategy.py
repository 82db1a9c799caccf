"""The search strategies: determinism, shrinking and ranking (optsched/search/strategy.py)."""

from __future__ import annotations

import json

import pytest

import optsched
from optsched.search import run
from optsched.search import space as moves
from optsched.search.strategy import Scored, fitness, rank


def test_a_search_is_deterministic_and_beats_its_own_start(tmp_path):
    found = [run("oasis", "oasis", "ratio", budget=24, shrink_budget=8, out_dir=tmp_path / str(k)) for k in (0, 1)]
    a, b = (json.loads((tmp_path / str(k) / "result.json").read_text()) for k in (0, 1))
    assert a["best"] == b["best"] and a["shrunk"] == b["shrunk"]
    history = [s.value for s in found[0].history if s.value is not None and s.phase == "search"]
    assert found[0].best.value == max(history)  # the best is the largest value the search scored
    assert max(history) > history[0]  # and it beats the first instance scored
    assert found[0].certificate["cross_check"] == "agree"


def test_shrinking_a_ratio_never_lowers_it_and_never_grows_the_instance(tmp_path):
    found = run("placement", "heavy-edge", "ratio", budget=16, shrink_budget=24, out_dir=tmp_path)
    space = optsched.get("placement").space()
    assert found.shrunk.value >= found.best.value
    assert moves.measure(space, found.shrunk.doc) <= moves.measure(space, found.best.doc)
    assert found.certificate["alg"] / found.certificate["opt"] == pytest.approx(found.shrunk.value)


def test_of_equal_values_the_larger_guide_ranks_first():
    space = optsched.get("hetero").space()
    doc = space.start(0, 2)
    near, far = (Scored(doc, "", {"valid": True, "value": 0.0, "guide": g}, n) for n, g in ((2, 0.9), (1, 0.1)))
    assert min((far, near), key=lambda s: rank(s, space)) is near
    assert min((far, near), key=fitness) is near

