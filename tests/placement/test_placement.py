"""Heavy-Edge, the allotment rules, F1 and F2 (spec asrpt.md §2.2, §2.3, §3.3, §3.4, §4.6)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.placement.formulations import cut_placement, graph_cut, placement_ilp
from optsched.placement.generate import generate as generate_placement
from optsched.placement.graph import weights
from optsched.placement.instance import Cluster, Job, PlacementInstance, Stage
from optsched.placement.online import allot, assign, fewest_empty, heavy_edge, heavy_edge_counts
from optsched.placement.schedule import Placement
from optsched.placement.schedule import objective as placement_objective
from optsched.placement.schedule import verify as verify_placement
from optsched.placement.timing import alpha, alpha_max, alpha_one_server
from optsched.solvers import solve

from .strategies import jobs, placements, spread_matrices


def fig2_job():
    # Fig. 2: 3 stages x 2 replicas; stage-1 AllReduce edge 20 MB (h = 10, ring of two: 2h);
    # every inter-stage pair 1 MB (send = 2: per replica 1 MB out, 2 * 1 / 2 per pair).
    return Job((Stage(0.01, 2, 10.0, 2.0), Stage(0.01, 2, 0.0, 2.0), Stage(0.01, 2, 0.0, 0.0)))


def test_fig2_walk_through():
    counts = heavy_edge_counts(fig2_job(), [(0, 4), (1, 1), (2, 1)])
    assert counts == {0: [2, 2, 0], 1: [0, 0, 1], 2: [0, 0, 1]}


def cut_weight(job, counts_by_vertex):
    w = weights(job)
    return sum(w[u, v] for u in range(len(w)) for v in range(u + 1, len(w)) if counts_by_vertex[u] != counts_by_vertex[v])


@given(jobs(), st.lists(st.integers(0, 8), min_size=1, max_size=6), st.integers(0, 10**6))
def test_heavy_edge_places_every_replica_within_the_allotment(job, free, seed):
    free = [f for f in free]
    if sum(free) < job.gpus:
        free.append(job.gpus)
    allotment = allot(free, job.gpus, "most")
    counts = heavy_edge_counts(job, allotment, random.Random(seed))
    given_gpus = dict(allotment)
    assert set(counts) == set(given_gpus)
    for m, row in counts.items():
        assert sum(row) == given_gpus[m]
    for s, stage in enumerate(job.stages):
        assert sum(row[s] for row in counts.values()) == stage.replicas
    assert heavy_edge_counts(job, allotment, random.Random(seed)) == counts  # determinism under a seed


def test_allotment_rules():
    free = [3, 8, 1, 0, 5]
    assert allot(free, 10, "most") == [(1, 8), (4, 2)]
    assert allot(free, 10, "least") == [(2, 1), (0, 3), (4, 5), (1, 1)]
    with pytest.raises(ValueError):
        allot(free, 20, "most")
    job = Job((Stage(0.01, 5), Stage(0.01, 6)))
    assert fewest_empty(job, Cluster(4, 4, 1.0, 1.0)) == [(0, 4), (1, 4), (2, 3)]


@given(placements())
@settings(max_examples=60)
def test_ilp_is_the_brute_force_optimum_and_at_most_heavy_edge(instance):
    model = placement_ilp(instance)
    result = solve(model)
    assert result.optimal
    placement = model.decoder(result)
    assert verify_placement(instance, placement) == []
    assert placement_objective(instance, placement) == pytest.approx(result.objective, rel=1e-6)
    cluster = instance.cluster
    brute = min(alpha(instance.job, rows, cluster)
                for rows in spread_matrices(instance.job, len(instance.available), instance.job.gpus)
                if all(sum(r) <= a for r, a in zip(rows, instance.available)))
    assert result.objective == pytest.approx(1000 * brute, rel=1e-6)
    heavy = heavy_edge(instance)
    assert verify_placement(instance, heavy) == []
    assert result.objective <= placement_objective(instance, heavy) * (1 + 1e-6)
    assert placement_objective(instance, heavy) <= 1000 * alpha_max(instance.job, cluster) * (1 + 1e-9)
    relaxed = solve(placement_ilp(instance, relax=True))
    assert relaxed.objective <= result.objective * (1 + 1e-6)


@given(placements(fill="at_most"))
@settings(max_examples=25)
def test_sandwich_at_most_exact_heavy_edge_and_min_cut(instance):
    """α*(availability) <= α*(HE's allotment) <= α(HE) and cut* <= cut(HE) (spec §4.6)."""
    allotment = dict(allot(instance.available, instance.job.gpus, "most"))
    exact = PlacementInstance(instance.job, instance.gpus, instance.inter_bw, instance.intra_bw,
                              tuple(allotment.get(m, 0) for m in range(len(instance.available))), "exact")
    free_best = solve(placement_ilp(instance)).objective
    exact_best = solve(placement_ilp(exact)).objective
    heavy = placement_objective(exact, heavy_edge(exact))
    assert free_best <= exact_best * (1 + 1e-6) and exact_best <= heavy * (1 + 1e-6)
    cut = solve(graph_cut(exact))
    assert cut.optimal
    assert verify_placement(exact, cut_placement(exact, cut)) == []
    assert cut.objective <= cut_weight(exact.job, assign(exact.job, sorted(allotment.items()))) + 1e-6


@given(jobs(max_stages=4, max_replicas=4), st.integers(2, 8))
def test_exact_cases_of_heavy_edge(job, g):
    cluster = Cluster(8, g, 1000.0, 50_000.0)
    if job.gpus <= g:  # one server: every replica on it, the single-server (minimum) time
        counts = heavy_edge_counts(job, [(0, job.gpus)])
        assert alpha(job, list(counts.values()), cluster) == pytest.approx(alpha_one_server(job, cluster))
    data_parallel = Job((Stage(job.stages[0].compute, job.stages[0].replicas, job.stages[0].params),))
    allotment = allot([g] * 8, data_parallel.gpus, "most")
    counts = heavy_edge_counts(data_parallel, allotment)
    assert sorted(r[0] for r in counts.values()) == sorted(c for _, c in allotment)


def test_ilp_agrees_across_solvers_and_modes_on_tiny_presets():
    for seed in range(4):
        for fill in ("at_most", "exact"):
            instance = generate_placement("tiny", seed, fill=fill)
            result = solve(placement_ilp(instance), cross_check=True)
            assert result.optimal and result.cross_check.verdict == "agree", result.cross_check
            heavy = heavy_edge(instance)
            assert result.objective <= placement_objective(instance, heavy) * (1 + 1e-6)


def test_placement_json_round_trip():
    instance = generate_placement("paper", 3, model="gpt-175b", gpus=8)
    again = PlacementInstance.from_dict(instance.to_dict())
    assert again == instance
    placement = heavy_edge(instance)
    assert Placement.from_dict(placement.to_dict(), again) == placement
