"""Per-job oracles (spec §3.5-§3.6): the co-located oracle plus the exact distributed one equal brute
force over Γ_j at any prices (Theorem 1 as repaired); golden case A.1."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job
from optsched.hetero.oracles import (
    INF,
    Market,
    brute_force,
    colocated_allreduce,
    colocated_ps,
    distributed_allreduce,
    distributed_exact,
    distributed_paper,
    nbytes,
)

CORPUS = Path(__file__).resolve().parents[2] / "instances" / "counterexamples" / "hetero" / "theorem1-mincost1.json"


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


def a5():
    """Servers of capacity 4 and 6 in resource 0, zero prices; e = 1, z = 3 (a PS is expensive); the
    bandwidth (resource 1, ample) has b = B = 1."""
    job = Job(arrival=1, weight=100.0, epochs=1, chunks=4, minibatches=1, train=(1.0,), update=(0.0,), gradient=0.0)
    inst = Instance("ps", 2, ((4.0, 100.0), (6.0, 100.0)), ((1.0, 1.0),), ((3.0, 1.0),), 1, (job,))
    return inst, Market.empty(inst, 2)


def test_golden_a1_the_paper_greedy_pays_10():
    inst, market = a1()
    cost, schedule = distributed_paper(market, 0)
    assert cost == pytest.approx(10) and schedule.y == (2, 2) and schedule.s == (0, 2)


def test_golden_a1_algorithm_4_as_printed_returns_a_job_without_workers():
    """Without E1-E3, line by line: the first PS server (A) cannot host the PSs, yet its walk spends
    N̂ (line 23), which is never reset; for B, N̂ is 0, lines 12-13 give every server 0 workers, and
    line 19 gives B 4 PSs: cost 8, below the optimum 9, and no worker at all (the job needs 4)."""
    inst, market = a1()
    cost, schedule = distributed_paper(market, 0, as_printed=True)
    assert cost == pytest.approx(8) and schedule.y == (0, 0) and schedule.s == (0, 4)
    assert cost < brute_force(market, 0)[0] and sum(schedule.y) < 4  # not a schedule of the job


def test_the_corpus_instance_breaks_theorem_1_as_printed_and_repaired():
    """instances/counterexamples/hetero/theorem1-mincost1.json at zero prices in its first round
    (τ = 2): Algorithm 4 as printed and as repaired (E1-E4) both find nothing, where the exact oracle
    places the job at cost 0. What fails is lines 11-13 (every server before the PS server takes all
    the workers it can), which no erratum touches: the label is "false as printed"."""
    from optsched.jsonio import read_json

    item = read_json(str(CORPUS))
    market = Market.empty(Instance.from_dict(item["instance"]), 2)
    assert distributed_paper(market, 0, as_printed=True) == (INF, None)
    assert distributed_paper(market, 0) == (INF, None)
    assert distributed_exact(market, 0)[0] == 0.0
    assert item["label"] == "false as printed"


def test_golden_a5_the_paper_greedy_misses_a_placement_that_exists_at_zero_prices():
    inst, market = a5()
    assert distributed_paper(market, 0) == (INF, None)
    assert colocated_ps(market, 0) == (INF, None)
    cost, schedule = distributed_exact(market, 0)
    assert cost == 0 and schedule.y == (1, 3) and schedule.s == (0, 1)


def _random_market(inst, tau, price_seed, fill):
    market = Market.empty(inst, tau)
    rng = np.random.default_rng(price_seed)
    market.price[:, :, 1:] = rng.uniform(0, 3, market.price[:, :, 1:].shape).round(2)
    market.residual[:, :, 1:] -= np.floor(fill * market.residual[:, :, 1:] * rng.random(market.residual[:, :, 1:].shape))
    return market


def _fits_market(market, j, schedule):
    """The schedule respects the residual capacity of its window, and its cost is what it claims."""
    inst = market.instance
    sums, room = market.windows(schedule.d)
    for h in range(inst.H):
        f = np.asarray(schedule.footprint(inst, h))
        if np.any(f > room[h, :, schedule.start - 1] + 1e-9):
            return False
    return schedule.start + schedule.d <= market.tau and inst.fast_enough(
        j, schedule.m, schedule.p, schedule.q, schedule.workers, schedule.d)


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), tau=st.integers(2, 7), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7))
def test_the_paper_greedy_is_feasible_and_never_below_the_distributed_optimum(seed, tau, price_seed, fill):
    inst = generate("tiny", seed, jobs=1)
    market = _random_market(inst, tau, price_seed, fill)
    paper, schedule = distributed_paper(market, 0)
    if schedule is not None:
        assert _fits_market(market, 0, schedule)
        assert paper >= distributed_exact(market, 0)[0] - 1e-9


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), tau=st.integers(2, 7), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7))
def test_allreduce_oracles_together_equal_brute_force(seed, tau, price_seed, fill):
    """Theorem 6 after errata E6-E9."""
    inst = generate("tiny", seed, jobs=1, framework="allreduce")
    market = _random_market(inst, tau, price_seed, fill)
    results = [colocated_allreduce(market, 0), distributed_allreduce(market, 0)]
    for _, schedule in results:
        if schedule is not None:
            assert _fits_market(market, 0, schedule)
            assert schedule.workers == next(s.workers for s in inst.shapes[0]
                                             if (s.m, s.q, s.d) == (schedule.m, schedule.q, schedule.d))  # E6
    assert min(c for c, _ in results) == pytest.approx(brute_force(market, 0)[0])


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), tau=st.integers(2, 7), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7), zeros=st.floats(0, 1))
def test_cheapest_slots_sums_the_k_cheapest_unit_slots(seed, tau, price_seed, fill, zeros):
    """The pruning bound: checked against listing every unit-slot, one copy per item that fits."""
    inst = generate("tiny", seed, jobs=1)
    market = _random_market(inst, tau, price_seed, fill)
    rng = np.random.default_rng(price_seed + 1)
    market.price[:, :, 1:] *= rng.random(market.price[:, :, 1:].shape) > zeros  # some slots free
    for key, demand in [(("worker", m), inst.worker_demand[m]) for m in range(inst.M)] + \
                       [(("ps", p), inst.ps_demand[p]) for p in range(inst.P)]:
        e = np.asarray(demand)
        listed = sorted(
            float(market.price[h, :, t] @ e)
            for h in range(inst.H) for t in range(1, tau)
            for _ in range(int(min(np.floor(market.residual[h, r, t] / e[r] + 1e-9) for r in range(inst.R) if e[r] > 0))))
        k = np.arange(len(listed) + 2)
        expected = [sum(listed[:n]) if n <= len(listed) else INF for n in k]
        assert market.cheapest_slots(key, demand, k) == pytest.approx(expected)


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), tau=st.integers(2, 7), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7), cut=st.floats(0, 1.5))
def test_a_cutoff_only_hides_results_that_do_not_beat_it(seed, tau, price_seed, fill, cut):
    for framework, oracles in (("ps", (colocated_ps, distributed_exact, distributed_paper)),
                               ("allreduce", (colocated_allreduce, distributed_allreduce))):
        inst = generate("tiny", seed, jobs=1, framework=framework)
        market = _random_market(inst, tau, price_seed, fill)
        for oracle in oracles:
            cost, schedule = oracle(market, 0)
            below = cut * cost if cost < INF else 10.0
            expected = (cost, schedule) if cost < below else (INF, None)
            assert oracle(market, 0, below=below) == expected


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), tau=st.integers(3, 8), price_seed=st.integers(0, 10_000),
       fill=st.floats(0, 0.7), framework=st.sampled_from(["ps", "allreduce"]))
def test_earliest_completion_keeps_the_cost_and_finishes_no_later_than_any_tied_schedule(
        seed, tau, price_seed, fill, framework):
    """D17. Integer prices with many zeros make ties exact; a schedule completing before the chosen
    one is a schedule of the market cut at that completion, so brute force there must cost more."""
    inst = generate("tiny", seed, jobs=1, framework=framework)
    market = _random_market(inst, tau, price_seed, fill)
    rng = np.random.default_rng(price_seed)
    market.price[:, :, 1:] = rng.choice([0.0, 0.0, 0.0, 1.0, 2.0], market.price[:, :, 1:].shape)
    colocated, distributed = (colocated_ps, distributed_exact) if framework == "ps" else (colocated_allreduce, distributed_allreduce)
    c1, l1 = colocated(market, 0, tie_break="earliest_completion")
    cost, chosen = distributed(market, 0, below=c1, tie_break="earliest_completion", incumbent=l1)
    optimum = brute_force(market, 0)[0]
    assert cost == pytest.approx(optimum)
    if chosen is not None:
        assert _fits_market(market, 0, chosen)
        cut = chosen.completion - 1
        earlier = Market(inst, cut, market.price[:, :, :cut + 1].copy(), market.residual[:, :, :cut + 1].copy())
        assert brute_force(earlier, 0)[0] > cost + 1e-9
        paper = min(colocated(market, 0)[0], distributed(market, 0)[0])
        assert paper == pytest.approx(cost)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), cache_bytes=st.sampled_from([None, 0, 20_000]))
def test_a_market_edited_on_some_servers_caches_what_a_fresh_one_computes_bit_for_bit(seed, cache_bytes):
    """Market.changed(servers=...) recomputes only the edited servers' rows of the window sums, the
    least residuals and the per-item costs and counts, when next asked; after several edits (some
    entries asked between them, some not, some evicted) every array equals, bit for bit, a fresh
    market's at the same prices and room."""
    rng = np.random.default_rng(seed)
    instance = generate("paper", seed % 50, jobs=6, servers=8)
    tau = int(rng.integers(3, 12))
    market = Market.empty(instance, tau)
    market.cache_bytes = cache_bytes
    demand = np.asarray(instance.worker_demand[0])
    asked = [int(d) for d in rng.integers(1, tau + 1, size=4)]
    for _ in range(4):
        for d in asked[:int(rng.integers(1, len(asked) + 1))]:
            market.windows(d)
            market.per_unit(d, ("worker", 0), demand)
        rows = sorted({int(h) for h in rng.integers(0, instance.H, size=int(rng.integers(0, 3)))})
        market.price[rows] += rng.random((len(rows), instance.R, tau + 1))
        market.residual[rows] -= rng.random((len(rows), instance.R, tau + 1))
        market.changed(servers=rows)
    fresh = Market(instance, tau, market.price.copy(), market.residual.copy())
    for d in asked:
        for mine, theirs in [*zip(market.windows(d), fresh.windows(d)),
                             *zip(market.per_unit(d, ("worker", 0), demand), fresh.per_unit(d, ("worker", 0), demand))]:
            assert mine.dtype == theirs.dtype and mine.tobytes() == theirs.tobytes()


def _cached_bytes(market: Market) -> int:
    caches = (market._by_duration, market._per_unit, market._order, market._fills)
    return sum(nbytes(value) for cache in caches for value in cache.values())


@pytest.mark.parametrize("budget", [0, 200_000, 2_000_000])
def test_a_markets_caches_stay_within_the_budget_and_one_duration(budget):
    """Past Market.cache_bytes only the current duration's entries are kept: visiting a job's shapes
    duration by duration, the caches never hold more than the budget and the largest duration's
    entries, and what they return is what an unbounded market returns."""
    instance = generate("paper", 3, jobs=6, servers=8)
    tau = 40
    bounded, unbounded = Market.empty(instance, tau), Market.empty(instance, tau)
    bounded.cache_bytes, unbounded.cache_bytes = budget, None
    largest = 0  # the most bytes one duration's entries take (measured on the unbounded market)
    for d in range(1, tau):
        before = _cached_bytes(unbounded)
        for m in range(len(instance.worker_demand)):
            demand = np.asarray(instance.worker_demand[m])
            for mine, theirs in zip(bounded.cost_order(d, ("worker", m), demand),
                                    unbounded.cost_order(d, ("worker", m), demand)):
                assert mine.tobytes() == theirs.tobytes()
        largest = max(largest, _cached_bytes(unbounded) - before)
        assert _cached_bytes(bounded) <= budget + largest
    assert _cached_bytes(unbounded) > budget + largest  # the bound did something
