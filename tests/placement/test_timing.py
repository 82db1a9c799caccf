"""Eqs. (4)-(7): α, its closed forms and bounds α^max, α on one server (optsched/placement/timing.py; spec asrpt.md §1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.placement.instance import Cluster, Job, Stage
from optsched.placement.strategies import clusters, jobs
from optsched.placement.timing import alpha, alpha_max, alpha_one_server, compute_bound


@given(jobs(), clusters(), st.randoms())
def test_alpha_is_invariant_under_server_order_and_between_its_bounds(job, cluster, rnd):
    rows = [[0] * len(job.stages) for _ in range(job.gpus)]
    for s, stage in enumerate(job.stages):
        for _ in range(stage.replicas):
            rows[rnd.randrange(len(rows))][s] += 1
    value = alpha(job, rows, cluster)
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    assert alpha(job, shuffled, cluster) == pytest.approx(value, rel=1e-12)
    assert compute_bound(job) <= value <= alpha_max(job, cluster) * (1 + 1e-12)


@given(jobs(), clusters(), st.floats(1.5, 10.0))
def test_alpha_scales_linearly_and_falls_with_bandwidth(job, cluster, factor):
    rows = [[st.replicas for st in job.stages]]
    split = [[st.replicas // 2 for st in job.stages], [st.replicas - st.replicas // 2 for st in job.stages]]
    scaled = Job(tuple(Stage(s.compute * factor, s.replicas, s.params * factor, s.send * factor) for s in job.stages))
    for x in (rows, split):
        x = [r for r in x if sum(r)]
        assert alpha(scaled, x, cluster) == pytest.approx(factor * alpha(job, x, cluster), rel=1e-9)
        faster = Cluster(cluster.servers, cluster.gpus, cluster.inter_bw * factor, cluster.intra_bw * factor)
        assert alpha(job, x, faster) <= alpha(job, x, cluster) * (1 + 1e-12)


def test_closed_forms_on_a_worked_example():
    # 2 stages x 2 replicas; P = 10 ms; 100 MB boundary; 40 MB parameters in stage 0.
    job = Job((Stage(0.01, 2, 40.0, 100.0), Stage(0.01, 2, 0.0, 0.0)))
    cluster = Cluster(4, 4, 1000.0, 10_000.0)  # θ = 4 ms/MB, φ = 0.1 ms/MB
    # one server: stage 0 sends 2 * 50 MB at φ and all-reduces 2 * 1 * 40 / 2 = 40 MB at φ
    assert alpha_one_server(job, cluster) == pytest.approx(0.01 + 100 * 1e-4 + 40 * 1e-4)
    # one replica per server: 2 * 50 MB at θ plus 40 MB at θ / 1
    assert alpha_max(job, cluster) == pytest.approx(0.01 + 100 * 4e-3 + 40 * 4e-3)
    assert alpha(job, [[1, 0], [1, 0], [0, 1], [0, 1]], cluster) == pytest.approx(alpha_max(job, cluster))
    # stage 0 together, stage 1 split: stage 1's replica on the stage-0 server sees f = 0 for its
    # neighbour... stage 0 sees f = 1/2 of stage 1 beside it
    mixed = alpha(job, [[2, 1], [0, 1]], cluster)
    beta0 = 0.01 + 2 * 50 * (4e-3 * 0.5 + 1e-4 * 0.5) + 40 * 1e-4
    beta1_with = 0.01 + 2 * 50 * 1e-4
    beta1_alone = 0.01 + 2 * 50 * 4e-3
    assert mixed == pytest.approx(max(beta0, beta1_with, beta1_alone))

