"""Eqs. (4)-(7), α^max / α^min, the job graph Ω and the verifiers (spec asrpt.md §1, §3.1, §3.2, §4.8)."""


import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.asrpt.instance import Instance, StreamJob
from optsched.asrpt.schedule import Run, Schedule, objective, verify
from optsched.errors import InputError
from optsched.placement.graph import job_graph, tree_edges, weights
from optsched.placement.instance import Cluster, Job, PlacementInstance, Stage
from optsched.placement.patterns import alpha_min, best_counts
from optsched.placement.schedule import Placement
from optsched.placement.schedule import verify as verify_placement
from optsched.placement.timing import alpha, alpha_max, alpha_one_server, compute_bound

from ..placement.strategies import clusters, jobs, spread_matrices


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


@given(jobs())
def test_graph_has_one_vertex_per_replica_and_the_stated_weights(job):
    graph = job_graph(job)
    assert graph.number_of_nodes() == job.gpus
    for s, stage in enumerate(job.stages[:-1]):
        nxt = job.stages[s + 1]
        for r in range(stage.replicas):
            out = sum(graph[(s, r)][(s + 1, q)]["weight"] for q in range(nxt.replicas) if graph.has_edge((s, r), (s + 1, q)))
            assert out == pytest.approx(2 * job.d_out[s] if job.d_out[s] > 0 else 0.0)
    w = weights(job)
    assert (w == w.T).all() and (w.diagonal() == 0).all()


@given(st.integers(2, 40))
def test_double_binary_tree_is_two_spanning_trees(k):
    edges = tree_edges(k)
    for tree in (edges[:k - 1], edges[k - 1:]):
        graph = nx.Graph(tree)
        graph.add_nodes_from(range(k))
        assert graph.number_of_edges() == k - 1 and nx.is_connected(graph)


def test_ring_of_two_merges_into_one_edge_and_tree_halves_it():
    for flavour, expected in (("ring", 2 * 10.0), ("tree", 10.0)):
        graph = job_graph(Job((Stage(0.01, 2, 10.0, 0.0, flavour),)))
        assert graph.number_of_edges() == 1
        assert graph[(0, 0)][(0, 1)]["weight"] == pytest.approx(expected)
    ring = job_graph(Job((Stage(0.01, 5, 10.0, 0.0, "ring"),)))
    assert ring.number_of_edges() == 5


def test_placement_verifier_catches_each_violation():
    job = Job((Stage(0.01, 2, 1.0, 1.0), Stage(0.01, 1)))
    instance = PlacementInstance(job, 4, 100.0, 1000.0, (2, 2), "at_most")
    assert verify_placement(instance, Placement(((2, 0), (0, 1)))) == []
    assert any("stage 1" in p for p in verify_placement(instance, Placement(((2, 0), (0, 0)))))
    assert any("server 0" in p for p in verify_placement(instance, Placement(((2, 1), (0, 0)))))
    exact = PlacementInstance(job, 4, 100.0, 1000.0, (2, 1), "exact")
    assert verify_placement(exact, Placement(((2, 0), (0, 1)))) == []
    assert any("exactly" in p for p in verify_placement(exact, Placement(((1, 0), (1, 1)))))


def test_stream_verifier_uses_half_open_intervals_and_counts_gpus_per_server():
    cluster = Cluster(1, 2, 1.0, 1.0)
    job = Job((Stage(2.0, 2),))  # all-reduce volume 0: α = 2 s
    instance = Instance(cluster, (StreamJob(job, 0.0, 1, 1.0), StreamJob(job, 0.0, 1, 1.0)))
    back_to_back = Schedule((Run(0.0, {0: (2,)}), Run(2.0, {0: (2,)})))
    assert verify(instance, back_to_back) == []
    assert objective(instance, back_to_back) == pytest.approx(2.0 + 4.0)
    overlap = Schedule((Run(0.0, {0: (2,)}), Run(1.5, {0: (2,)})))
    assert any("runs 4 GPUs" in p for p in verify(instance, overlap))
    early = Schedule((Run(0.0, {0: (2,)}), Run(2.0, {0: (1,)})))
    assert any("replicas placed" in p for p in verify(instance, early))


def test_bad_documents_are_one_line_errors():
    with pytest.raises(InputError, match="last stage sends nothing"):
        Job.from_dict({"stages": [{"compute": 1.0, "send": 2.0}]})
    with pytest.raises(InputError, match="compute"):
        Job.from_dict({"stages": [{"compute": 0}]})
    with pytest.raises(InputError, match="offer"):
        PlacementInstance(Job((Stage(0.01, 4),)), 4, 1.0, 1.0, (1, 1))
    with pytest.raises(InputError, match="intra_bw"):
        Instance(Cluster(2, 4, 100.0, 10.0), (StreamJob(Job((Stage(1.0),)), 0.0, 1, 1.0),))


def test_bundled_templates_match_their_derivation():
    import json
    from pathlib import Path

    from optsched.placement.templates import MODELS, table

    shipped = json.loads((Path(__file__).parents[2] / "instances/asrpt/table1_models.json").read_text())
    assert shipped == json.loads(json.dumps(table()))
    # Table I's parameter counts (millions), as the analytic layer tables give them
    expected = {"vgg19": 144, "resnet152": 60, "inception-v3": 24, "bert-large": 333, "xlnet-large": 335}
    for name, millions in expected.items():
        assert MODELS[name].params / 1e6 == pytest.approx(millions, rel=0.02)
