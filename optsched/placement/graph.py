"""The job graph Ω, input of Heavy-Edge (paper §IV-B; spec asrpt.md §1.4, §3.2).

Vertices are stage replicas ``(s, r)``, numbered consecutively by stage then replica. Edges carry
the bytes exchanged per iteration:

* between consecutive stages, complete bipartite, each pair ``2 d^out_{s-1} / k_s`` MB
  (activations forward and gradients back);
* inside a stage with ``k >= 2`` replicas, its AllReduce: a ring (RAR), ``(r, r+1 mod k)`` of weight
  ``2(k-1)h/k``, or NCCL's double binary tree (TAR), each edge ``(k-1)h/k`` [A5].

Parallel edges (a ring of two, an edge in both trees) are merged by summing weights [A5]. Edges of
zero weight carry nothing and are left out. :func:`weights` gives the symmetric matrix Heavy-Edge
works on; :func:`job_graph` the same graph as a networkx ``Graph`` for drawing and inspection.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .instance import Job


def vertices(job: Job) -> list[tuple[int, int]]:
    """``(stage, replica)`` of every vertex, in vertex-id order."""
    return [(s, r) for s, stage in enumerate(job.stages) for r in range(stage.replicas)]


def stage_of(job: Job) -> np.ndarray:
    """The stage of each vertex id."""
    return np.repeat(np.arange(len(job.stages)), [stage.replicas for stage in job.stages])


def tree_edges(k: int) -> list[tuple[int, int]]:
    """NCCL's double binary tree over ranks ``0..k-1`` [A5]: tree 1 is the in-order bit tree (the
    parent of ``r`` clears its lowest set bit ``b`` and sets ``2b``, or only clears it if that leaves
    the ranks); tree 2 is tree 1 shifted by one rank when ``k`` is even, mirrored when ``k`` is odd."""
    first = []
    for r in range(1, k):
        b = r & -r
        parent = (r ^ b) | (b << 1)
        if parent >= k:
            parent = r ^ b
        first.append((parent, r))
    if k % 2 == 0:
        second = [((u + 1) % k, (v + 1) % k) for u, v in first]
    else:
        second = [(k - 1 - u, k - 1 - v) for u, v in first]
    return first + second


def weights(job: Job) -> np.ndarray:
    """The symmetric weight matrix of Ω (MB per iteration), zero diagonal."""
    offsets = np.cumsum([0] + [stage.replicas for stage in job.stages])
    w = np.zeros((offsets[-1], offsets[-1]))
    for s, stage in enumerate(job.stages):
        k, base = stage.replicas, offsets[s]
        if s > 0 and job.d_out[s - 1] > 0:
            w[offsets[s - 1]:base, base:base + k] += 2.0 * job.d_out[s - 1] / k
        if k >= 2 and stage.params > 0:
            if stage.allreduce == "ring":
                pairs, each = [(r, (r + 1) % k) for r in range(k)], 2.0 * (k - 1) * stage.params / k
            else:
                pairs, each = tree_edges(k), (k - 1) * stage.params / k
            for u, v in pairs:
                a, b = min(u, v), max(u, v)
                w[base + a, base + b] += each
    return np.triu(w, 1) + np.triu(w, 1).T


def job_graph(job: Job) -> nx.Graph:
    """Ω as a networkx graph: nodes ``(stage, replica)``, edge attribute ``weight`` (MB)."""
    names = vertices(job)
    w = weights(job)
    graph = nx.Graph()
    graph.add_nodes_from(names)
    for u, v in zip(*np.nonzero(np.triu(w, 1))):
        graph.add_edge(names[u], names[v], weight=float(w[u, v]))
    return graph
