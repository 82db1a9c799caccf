"""The job graph Ω: one vertex per replica, AllReduce trees and rings (optsched/placement/graph.py; spec asrpt.md §3.1)."""

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.placement.graph import job_graph, tree_edges, weights
from optsched.placement.instance import Job, Stage
from optsched.placement.strategies import jobs


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

