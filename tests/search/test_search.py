"""optsched search: the moves, the search's determinism, and the command at the process boundary."""

from __future__ import annotations

import json

import numpy as np
import pytest

import optsched
from optsched.search import run
from optsched.search import space as moves
from optsched.search.strategy import Scored, fitness, rank, text_of
from tests.contract_helpers import optsched as installed

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


def test_the_lemma2b_search_finds_a_counterexample_of_at_most_three_jobs(tmp_path):
    proc = installed("search", "edge", "--algorithm", "aonline", "--target", "theorem:lemma2b", "--budget", 16,
                     "--workers", 1, "-o", tmp_path / "out", "--quiet")
    assert proc.code == 0, proc.err
    assert "counterexample: yes" in proc.out
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    instance = json.loads((tmp_path / "out" / "instance.json").read_text())["instance"]
    assert result["violation"] is True and result["shrunk"]["slack"] < 0
    assert len(instance["jobs"]) <= 3
    for name in ("alg.schedule.json", "found.instance.json", "history.csv", "progress.png", "report.md"):
        assert (tmp_path / "out" / name).exists()
    check = installed("verify", tmp_path / "out" / "instance.json", tmp_path / "out" / "alg.schedule.json")
    assert check.code == 0


@pytest.mark.parametrize("argv,message", [
    (["search", "nope", "--algorithm", "x"], "unknown family"),
    (["search", "edge", "--algorithm", "aonline", "--target", "theorem:nope"], "no theorem check"),
    (["search", "edge", "--algorithm", "srtf", "--target", "theorem:lemma2b"], "is about"),
    (["search", "edge", "--algorithm", "aonline", "--target", "best"], "ratio or theorem"),
    (["search", "edge", "--algorithm", "aonline", "--size-max", "99"], "--size-max"),
    (["search", "edge", "--algorithm", "aonline", "--target", "theorem:lemma2b", "--exceed", "2"], "--exceed"),
    (["search", "edge", "--algorithm", "aonline", "-o", "/nonexistent/dir/out"], "does not exist"),
])
def test_bad_requests_get_one_line_and_exit_2_and_write_nothing(tmp_path, argv, message):
    proc = installed(*argv, cwd=tmp_path)
    assert proc.code == 2 and proc.out == ""
    assert proc.err.count("\n") == 1 and message in proc.err
    assert list(tmp_path.iterdir()) == []
