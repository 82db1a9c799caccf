"""The ``alpha-max`` check (optsched/placement/checks.py): Heavy-Edge's per-iteration time is at
most α^max wherever B_intra >= B_inter / g, and the check reports a violation when it is not."""

from dataclasses import replace

import pytest

import optsched.placement.checks as checks
from optsched.placement.checks import NOT_APPLICABLE, alpha_max_slack
from optsched.registry import get

PLACEMENT = get("placement")


@pytest.mark.parametrize("seed", range(6))
def test_heavy_edge_stays_under_alpha_max(seed):
    instance = PLACEMENT.generate("tiny", seed=seed)
    slack, details = alpha_max_slack(instance, "heavy-edge", {"seed": seed}, None)
    assert details["applies"] and 0.0 <= slack <= 1.0
    assert details["alg_ms"] == PLACEMENT.run(instance, "heavy-edge", seed=seed).objective


def test_slow_gpu_links_leave_the_claim_out():
    instance = PLACEMENT.generate("tiny", seed=0)
    slow = replace(instance, intra_bw=instance.inter_bw / (10 * instance.gpus))
    assert alpha_max_slack(slow, "heavy-edge", {}, None) == (NOT_APPLICABLE, {
        "applies": False, "why": "B_intra < B_inter / g: alpha^max is not the largest time"})


def test_a_placement_above_alpha_max_is_a_violation(monkeypatch):
    instance = PLACEMENT.generate("tiny", seed=1)
    heavy = PLACEMENT.run(instance, "heavy-edge").objective
    monkeypatch.setattr(checks, "alpha_max", lambda job, cluster: heavy / 2000.0)  # half Heavy-Edge's, in s
    slack, _ = alpha_max_slack(instance, "heavy-edge", {}, None)
    assert slack == pytest.approx(-1.0)
