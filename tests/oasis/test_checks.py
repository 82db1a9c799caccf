"""The ``dual`` check (optsched/oasis/checks.py, Theorem 2's dual part [A10]): the slack is minus
the dual infeasibility of OASiS's payoffs and prices, so never positive; the corpus's
counterexample keeps the slack it was found with."""

from pathlib import Path

import pytest

from optsched.jsonio import read_json
from optsched.oasis.checks import dual_slack
from optsched.oasis.online import run_oasis
from optsched.oasis.theory import dual_check
from optsched.registry import get

OASIS = get("oasis")
ENTRY = Path(__file__).resolve().parents[2] / "instances" / "counterexamples" / "oasis" / "theorem2-dual.json"


def test_the_corpus_counterexample_keeps_its_dual_infeasibility():
    entry = read_json(str(ENTRY))
    instance = OASIS.instance_from_dict(entry["instance"], "instance")
    slack, details = dual_slack(instance, "oasis", entry["params"], None)
    assert slack < 0 and slack == pytest.approx(entry["found"]["slack"])
    assert details["infeasibility"] == pytest.approx(-slack)


@pytest.mark.parametrize("seed", range(3))
def test_the_slack_is_minus_the_measured_infeasibility(seed):
    instance = OASIS.generate("tiny", seed)
    slack, details = dual_slack(instance, "oasis", {}, None)
    run = run_oasis(instance)
    assert slack == -dual_check(instance, run.prices_w, run.prices_p, run.payoffs).infeasibility <= 0.0
    assert details["primal"] == run.primal
