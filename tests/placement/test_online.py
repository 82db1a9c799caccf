"""Heavy-Edge and the allotment rules (optsched/placement/online.py; spec asrpt.md §3.3, §3.4, §4.6)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.placement.instance import Cluster, Job, Stage
from optsched.placement.online import allot, fewest_empty, heavy_edge_counts
from optsched.placement.strategies import jobs
from optsched.placement.timing import alpha, alpha_one_server


def fig2_job():
    # Fig. 2: 3 stages x 2 replicas; stage-1 AllReduce edge 20 MB (h = 10, ring of two: 2h);
    # every inter-stage pair 1 MB (send = 2: per replica 1 MB out, 2 * 1 / 2 per pair).
    return Job((Stage(0.01, 2, 10.0, 2.0), Stage(0.01, 2, 0.0, 2.0), Stage(0.01, 2, 0.0, 0.0)))


def test_fig2_walk_through():
    counts = heavy_edge_counts(fig2_job(), [(0, 4), (1, 1), (2, 1)])
    assert counts == {0: [2, 2, 0], 1: [0, 0, 1], 2: [0, 0, 1]}


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

