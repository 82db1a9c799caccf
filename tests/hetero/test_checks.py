"""The ``mincost1`` check (optsched/hetero/checks.py, Theorem 1 [E5]): the corpus's counterexample
gives the slack it was found with, the check does not apply to Ring-AllReduce, and it holds (slack
0) on instances where A_mincost1 finds the cheapest schedule."""

from pathlib import Path

import pytest

from optsched.hetero.checks import mincost1_slack
from optsched.jsonio import read_json
from optsched.registry import get

HETERO = get("hetero")
ENTRY = Path(__file__).resolve().parents[2] / "instances" / "counterexamples" / "hetero" / "theorem1-mincost1.json"


def test_the_corpus_counterexample_breaks_theorem_1_by_what_it_was_found_with():
    entry = read_json(str(ENTRY))
    instance = HETERO.instance_from_dict(entry["instance"], "instance")
    slack, details = mincost1_slack(instance, "aonline", entry["params"], None)
    assert slack < 0 and slack == pytest.approx(entry["found"]["slack"])
    assert details["worst"]["greedy"] > details["worst"]["exact"]


def test_ring_allreduce_is_outside_the_claim():
    instance = HETERO.generate("tiny", 0, framework="allreduce")
    assert mincost1_slack(instance, "aonline", {}, None) == (0.0, {
        "applies": False, "why": "A_mincost1 is the PS framework's oracle"})


@pytest.mark.parametrize("seed", range(3))
def test_the_slack_is_never_positive_and_the_guide_is_a_share(seed):
    slack, details = mincost1_slack(HETERO.generate("tiny", seed), "aonline", {}, None)
    assert slack <= 0.0 and details["calls"] > 0 and 0.0 <= details["guide"]
