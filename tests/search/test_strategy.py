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



def test_a_search_within_a_regime_scores_only_instances_inside_it(tmp_path):
    """``--regime small-demands`` (OASiS, Appendix E's w ≪ c): every instance scored, and the
    shrunk find, keeps each job within a tenth of a server; the result and report say so."""
    from optsched.oasis.mutate import SMALL_SHARE
    from optsched.oasis.theory import largest_share

    found = run("oasis", "oasis", "theorem:bound", budget=16, shrink_budget=8, out_dir=tmp_path, regime="small-demands")
    family = optsched.get("oasis")
    scored = [s for s in found.history if s.result.get("valid")]
    assert scored and all(largest_share(family.instance_from_dict(s.doc, "i")) <= SMALL_SHARE + 1e-12 for s in scored)
    assert json.loads((tmp_path / "result.json").read_text())["regime"] == "small-demands"
    assert "Within the regime `small-demands`" in (tmp_path / "report.md").read_text()
    whole = family.space()
    inside = whole.within("small-demands")
    assert whole.within("") is whole and inside.regimes == {}
    assert any(n.high == 240 for n in inside.numbers if n.path == "worker_servers.*.*")


def test_within_small_demands_a_search_starts_where_a_server_s_capacity_binds():
    """Issue 52 item 8: the Theorem 4 regime (OASiS, w ≪ c) reaches servers that capacity binds:
    its own start crowds every job into slot 1 of one worker and one PS server over T = 2, and its
    size limit (40) passes the search's general one (8), where every job still takes at most a
    tenth of a server; on such 30-job starts capacity binds: doubling every capacity raises the
    proven optimum, and the optimum's fullest server has less room left than one job's share."""
    from optsched.limits import NODE_LIMIT
    from optsched.oasis.mutate import SMALL_SHARE
    from optsched.oasis.theory import largest_share, peak_load
    from optsched.search import MAX_SIZE, settings

    family = optsched.get("oasis")
    inside = family.space().within("small-demands")
    assert family.space().regimes["small-demands"].size_max == 40 > MAX_SIZE
    settings("oasis", "oasis", "theorem:bound", size_max=40, regime="small-demands")  # accepted within it
    with pytest.raises(optsched.InputError, match="--size-max"):
        settings("oasis", "oasis", "theorem:bound", size_max=40)
    for seed in range(2):
        data = inside.normalize(inside.start(seed, 30))
        instance = family.instance_from_dict(data, "instance")
        assert not inside.refusal(instance) and largest_share(instance) <= SMALL_SHARE + 1e-12
        solved = family.solve(instance, "time-indexed", node_limit=NODE_LIMIT, threads=1)
        assert solved.result.optimal and peak_load(instance, solved.schedule) >= 1 - SMALL_SHARE
        roomy = {**data, **{key: [[2 * c for c in server] for server in data[key]]
                            for key in ("worker_servers", "ps_servers")}}
        more = family.solve(family.instance_from_dict(roomy, "instance"), "time-indexed", node_limit=NODE_LIMIT,
                            threads=1)
        assert more.result.optimal and more.result.objective > solved.result.objective + 1e-6
