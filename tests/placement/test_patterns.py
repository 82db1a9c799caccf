"""Best counts per server split and the true α^min (optsched/placement/patterns.py; spec asrpt.md §3.2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.placement import patterns
from optsched.placement.instance import Cluster, Job, Stage
from optsched.placement.patterns import (
    alpha_floor,
    alpha_min,
    best_counts,
    merging_never_hurts,
    splits,
    unmergeable_splits,
)
from optsched.placement.strategies import clusters, jobs, spread_matrices
from optsched.placement.timing import alpha, alpha_lower, alpha_one_server


@given(jobs(max_stages=3, max_replicas=3).filter(lambda j: j.gpus <= 6), st.integers(2, 4),
       st.sampled_from([0.5, 1.0, 3.0]))
def test_alpha_min_is_the_brute_force_minimum(job, g, intra_over_inter):
    cluster = Cluster(3, g, 1000.0, 1000.0 * intra_over_inter)
    if job.gpus > 3 * g:
        return
    brute = min(alpha(job, [r for r in rows if sum(r)], cluster) for rows in spread_matrices(job, 3, g))
    assert alpha_min(job, cluster) == pytest.approx(brute, rel=1e-12)
    if job.gpus <= g:
        assert alpha_min(job, cluster) == pytest.approx(alpha_one_server(job, cluster))


def test_best_counts_falls_back_to_the_ilp_for_large_splits():
    job = Job(tuple(Stage(0.02, 6, 50.0, 30.0 if s < 3 else 0.0) for s in range(4)))
    cluster = Cluster(4, 8, 1250.0, 300_000.0)
    value, counts = best_counts(job, (8, 8, 8), cluster)
    assert [sum(r) for r in counts] == [8, 8, 8]
    assert value == pytest.approx(alpha(job, counts, cluster))



@given(jobs(max_stages=3, max_replicas=4), clusters(servers=(2, 4), gpus=(2, 4)), st.data())
def test_merging_two_servers_that_fit_never_raises_alpha(job, cluster, data):
    """The lemma behind :func:`unmergeable_splits`: when ``B_intra >= B_inter``, moving server
    m2's replicas onto server m1 (when they fit) gives an ``α`` no larger."""
    if not merging_never_hurts(cluster):
        return
    matrices = [rows for rows in spread_matrices(job, 2, cluster.gpus)
                if all(sum(r) for r in rows) and sum(map(sum, rows)) <= cluster.gpus]
    if not matrices:
        return
    rows = data.draw(st.sampled_from(matrices))
    merged = [[a + b for a, b in zip(*rows)]]
    assert alpha(job, merged, cluster) <= alpha(job, rows, cluster) * (1 + 1e-12)


@pytest.mark.parametrize(("gpus", "servers", "per_server"), [(6, 4, 3), (9, 4, 4), (12, 5, 4), (16, 8, 8)])
def test_unmergeable_splits_are_the_splits_whose_shares_never_fit_pairwise(gpus, servers, per_server):
    every = list(splits(gpus, servers, per_server))
    expected = [p for p in every if all(a + b > per_server for i, a in enumerate(p) for b in p[i + 1:])]
    assert list(unmergeable_splits(gpus, servers, per_server)) == expected and len(expected) < len(every)


@given(jobs(max_stages=3, max_replicas=4).filter(lambda j: j.gpus > 2), st.integers(2, 4))
def test_alpha_min_over_unmergeable_splits_equals_the_search_over_every_split(job, g):
    cluster = Cluster(job.gpus, g, 1000.0, 2000.0)
    assert merging_never_hurts(cluster)
    every = min(best_counts(job, parts, cluster)[0] for parts in splits(job.gpus, cluster.servers, g))
    assert alpha_min(job, cluster) == pytest.approx(every, rel=1e-12)


@given(jobs(max_stages=3, max_replicas=4), clusters(servers=(2, 4), gpus=(2, 4)))
def test_alpha_lower_and_alpha_floor_never_exceed_alpha_min(job, cluster):
    if job.gpus > cluster.servers * cluster.gpus:
        return
    exact = alpha_min(job, cluster)
    assert alpha_lower(job, cluster) <= exact * (1 + 1e-12)
    assert alpha_floor(job, cluster) == pytest.approx(exact, rel=1e-12)  # a small search: exact


def test_alpha_floor_settles_for_the_closed_form_when_the_search_is_large(monkeypatch):
    job = Job(tuple(Stage(0.02, 4, 50.0, 30.0 if s < 3 else 0.0) for s in range(4)))
    cluster = Cluster(4, 8, 1250.0, 300_000.0)
    exact = alpha_min(job, cluster)
    monkeypatch.setattr(patterns, "FLOOR_SEARCH_LIMIT", 10)
    patterns.alpha_floor.cache_clear()
    assert alpha_floor(job, cluster) == alpha_lower(job, cluster) < exact
    patterns.alpha_floor.cache_clear()
