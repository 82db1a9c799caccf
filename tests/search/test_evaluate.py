"""Scoring one instance for the search (optsched/search/evaluate.py): the ratio against the proven
optimum, a claim's slack, refusals that make an instance invalid, and the theorem:bound slack."""

import json
import math

import pytest

from optsched.errors import InputError
from optsched.registry import get
from optsched.search.evaluate import bound_slack, check_of, evaluate, ratio_of
from optsched.single.instance import Instance, Job

SINGLE = get("single")


def task(instance, target, algorithm="fifo"):
    return ("single", algorithm, (), target, json.dumps(instance.to_dict()))


def test_ratio_of_follows_the_sense_and_is_undefined_at_zero():
    assert ratio_of("min", 6.0, 4.0) == 1.5 and ratio_of("max", 3.0, 4.5) == 1.5
    assert ratio_of("min", 1.0, 0.0) is None and ratio_of("max", 0.0, 2.0) is None


def test_the_ratio_target_is_alg_over_the_proven_optimum():
    instance = SINGLE.generate("tiny", 3)
    scored = evaluate(task(instance, "ratio"))
    opt = SINGLE.solve(instance, "time-indexed").verdict.objective
    alg = SINGLE.run(instance, "fifo").objective
    assert scored["valid"] and scored["status"] == "optimal"
    assert (scored["alg"], scored["opt"], scored["value"]) == (alg, opt, alg / opt)


def test_a_theorem_target_scores_minus_the_slack_and_zero_is_plus_zero():
    zero_release = Instance((Job(3, 1.0), Job(1, 4.0), Job(2, 2.0)))
    scored = evaluate(task(zero_release, "theorem:smith", "wspt"))
    assert scored["value"] == 0.0 and math.copysign(1.0, scored["value"]) == 1.0
    assert scored["details"]["applies"] and scored["guide"] == 1.0


def test_what_is_not_an_instance_is_invalid_not_an_error():
    scored = evaluate(("single", "fifo", (), "ratio", json.dumps({"jobs": []})))
    assert not scored["valid"] and scored["reason"].startswith("not an instance")


def test_check_of_knows_bound_and_the_familys_checks_and_names_the_rest():
    assert check_of(SINGLE, "bound").needs_optimum and check_of(SINGLE, "smith").name == "smith"
    with pytest.raises(InputError, match=r"no theorem check 'nope' \(checks: bound, smith\)"):
        check_of(SINGLE, "nope")


def test_bound_slack_is_the_relative_room_under_c_opt():
    hetero = get("hetero")
    instance = hetero.generate("tiny", 0)
    opt = hetero.solve(instance, "configuration").verdict.objective
    slack, details = bound_slack(instance, "aonline", {}, opt, hetero)
    big = details["bound"] * opt
    assert slack == pytest.approx((big - details["alg"]) / max(big, details["alg"]))
    assert details["ratio"] == pytest.approx(details["alg"] / opt)
    with pytest.raises(InputError, match="no competitive bound"):
        bound_slack(SINGLE.generate("tiny", 0), "fifo", {}, 1.0, SINGLE)
