"""Per-job oracles (spec §3.5-§3.6): the co-located oracle plus the exact distributed one equal brute
force over Γ_j at any prices (Theorem 1 as repaired); golden case A.1."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job
from optsched.hetero.oracles import Market, brute_force, colocated_ps, distributed_exact


def a1():
    """Two servers, one resource, one slot: ω = (2, 6), δ = (1, 2); a job of W = 4 with ρ = 1."""
    job = Job(arrival=1, weight=100.0, epochs=1, chunks=4, minibatches=1, train=(1.0,), update=(0.0,), gradient=0.0)
    inst = Instance("ps", 2, ((2.0,), (6.0,)), ((1.0,),), ((1.0,),), 0, (job,))
    market = Market.empty(inst, 2)
    market.price[:, 0, 1] = (1.0, 2.0)
    return inst, market


def test_golden_a1_the_exact_distributed_oracle_finds_cost_9():
    inst, market = a1()
    cost, schedule = distributed_exact(market, 0)
    assert cost == pytest.approx(9) and schedule.y == (1, 3) and schedule.s == (0, 1)
    assert colocated_ps(market, 0)[0] == pytest.approx(10)  # 4 workers + 1 PS on B
    assert brute_force(market, 0)[0] == pytest.approx(9)


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), tau=st.integers(2, 7), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7))
def test_colocated_plus_exact_distributed_equals_brute_force(seed, tau, price_seed, fill):
    inst = generate("tiny", seed, jobs=1)
    market = Market.empty(inst, tau)
    rng = np.random.default_rng(price_seed)
    market.price[:, :, 1:] = rng.uniform(0, 3, market.price[:, :, 1:].shape).round(2)
    market.residual[:, :, 1:] -= np.floor(fill * market.residual[:, :, 1:] * rng.random(market.residual[:, :, 1:].shape))
    best = min(colocated_ps(market, 0)[0], distributed_exact(market, 0)[0])
    assert best == pytest.approx(brute_force(market, 0)[0])
