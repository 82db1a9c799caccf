"""Best counts per server split and the true α^min (optsched/placement/patterns.py; spec asrpt.md §3.2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.placement.instance import Cluster, Job, Stage
from optsched.placement.patterns import alpha_min, best_counts
from optsched.placement.timing import alpha, alpha_one_server

from .strategies import jobs, spread_matrices


@given(jobs(max_stages=3, max_replicas=3).filter(lambda j: j.gpus <= 6), st.integers(2, 4))
def test_alpha_min_is_the_brute_force_minimum(job, g):
    cluster = Cluster(3, g, 1000.0, 1000.0 * 3)
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

