"""Solver models of one job's placement (spec asrpt.md §2.2-§2.3). Each returns a
:class:`~optsched.solvers.Model`; ``relax=True`` gives the LP relaxation.

* :func:`placement_ilp` (F1, §2.2): count-level MILP of the bottleneck (7). One-hot ``z[m,s,c]``
  (server ``m`` holds exactly ``c`` replicas of stage ``s``) linearises the ``1/x`` law of (6); the
  bottleneck ``A`` is above every hosted pair's ``β`` (a big-M switches the row off when ``c = 0``).
  ``fill = "at_most"`` lets the job use any free GPUs; ``"exact"`` fills an allotment (Table II's
  apples-to-apples comparison). Servers with equal room are interchangeable, so their loads are
  ordered (symmetry breaking). Objective in milliseconds, the placement family's unit.
* :func:`graph_cut` (F2, §2.3): the least total weight of job-graph edges cut by the servers: the
  exact version of what Heavy-Edge approximates (MB per iteration). Its solution is a placement
  (:func:`cut_placement`), its objective is not the family's (``α``).
"""

from __future__ import annotations

from itertools import product

import pulp

from ..numeric import integral
from ..solvers import Model, Result
from .graph import stage_of, weights
from .instance import Instance
from .schedule import Schedule

MS = 1000.0  #: the placement objective's unit: milliseconds per second


def placement_ilp(instance: Instance, relax: bool = False) -> Model:
    """F1: the least per-iteration time (ms) over placements allowed by ``instance.fill``.

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; the placement problem and Table II.
    """
    job, cluster = instance.job, instance.cluster
    theta, phi = MS * cluster.theta, MS * cluster.phi
    binary = pulp.LpContinuous if relax else pulp.LpBinary
    prob = pulp.LpProblem("placement_ilp", pulp.LpMinimize)
    S = len(job.stages)
    servers = [m for m, a in enumerate(instance.available) if a > 0]
    A = prob.add_variable("A", 0)
    top = {(m, s): min(job.stages[s].replicas, instance.available[m]) for m, s in product(servers, range(S))}
    z, x = {}, {}
    for m, s in product(servers, range(S)):
        for c in range(top[m, s] + 1):
            z[m, s, c] = prob.add_variable(f"z_{m}_{s}_{c}", 0, 1, binary)
        prob += pulp.lpSum(z[m, s, c] for c in range(top[m, s] + 1)) == 1, f"one_count_{m}_{s}"  # (F1.1)
        x[m, s] = pulp.lpSum(c * z[m, s, c] for c in range(1, top[m, s] + 1))
    for s, stage in enumerate(job.stages):
        prob += pulp.lpSum(x[m, s] for m in servers) == stage.replicas, f"placed_{s}"  # (F1.2)
    for m in servers:
        load = pulp.lpSum(x[m, s] for s in range(S))
        if instance.fill == "exact":
            prob += load == instance.available[m], f"fill_{m}"  # (F1.3)
        else:
            prob += load <= instance.available[m], f"room_{m}"
    for a, b in zip(servers, servers[1:]):
        if instance.available[a] == instance.available[b]:
            prob += (pulp.lpSum(x[a, s] for s in range(S)) >= pulp.lpSum(x[b, s] for s in range(S)),
                     f"symmetry_{a}_{b}")
    for m, s in product(servers, range(S)):
        stage = job.stages[s]
        k = stage.replicas
        terms, worst = [MS * stage.compute], MS * stage.compute
        for t, d in ((s - 1, job.d_in[s]), (s + 1, job.d_out[s])):
            if d > 0 and 0 <= t < S:
                share = x[m, t] * (1.0 / job.stages[t].replicas)
                terms.append(2 * d * (theta - (theta - phi) * share))
                worst += 2 * d * max(theta, phi)
        ar = {c: MS * _allreduce(stage.params, k, c, cluster.theta, cluster.phi) for c in range(1, top[m, s] + 1)}
        worst += max(ar.values(), default=0.0)
        prob += (A >= pulp.lpSum(terms) + pulp.lpSum(ar[c] * z[m, s, c] for c in ar) - worst * z[m, s, 0],
                 f"bottleneck_{m}_{s}")  # (F1.4)
    # Valid, and what keeps the LP relaxation above 0: every stage is hosted somewhere, so A >= P_s.
    prob += A >= MS * max(stage.compute for stage in job.stages), "compute_bound"
    prob += A
    if relax:
        return Model(prob)

    def decode(result: Result) -> Schedule:
        rows = {m: [sum(c * integral(result.value(z[m, s, c])) for c in range(1, top[m, s] + 1)) for s in range(S)]
                for m in servers}
        return Schedule.from_rows(rows, instance)

    return Model(prob, decode, start=_heavy_edge_start(instance, servers, z))


def _heavy_edge_start(instance: Instance, servers: list[int], z: dict) -> dict[str, float]:
    """F1's MIP start: Heavy-Edge's placement, its rows reordered within each group of servers with
    equal room so that loads fall (the symmetry rows; such servers are interchangeable, so ``α``
    is unchanged), and ``A`` its per-iteration time in ms."""
    from .online import heavy_edge
    from .timing import alpha

    counts = [list(row) for row in heavy_edge(instance).counts]
    by_room: dict[int, list[int]] = {}
    for m in servers:
        by_room.setdefault(instance.available[m], []).append(m)
    for group in by_room.values():
        rows = sorted((counts[m] for m in group), key=sum, reverse=True)
        for m, row in zip(group, rows):
            counts[m] = row
    start = {"A": MS * alpha(instance.job, [counts[m] for m in servers], instance.cluster)}
    start.update({z[m, s, c].name: 1.0 for m in servers for s, c in enumerate(counts[m])})
    return start


def _allreduce(params: float, k: int, c: int, theta: float, phi: float) -> float:
    """Eq. (6) in seconds for ``c`` of ``k`` replicas on one server."""
    if k == 1:
        return 0.0
    return 2.0 * (k - 1) * params / k * (phi if c == k else theta / c)


def graph_cut(instance: Instance, relax: bool = False) -> Model:
    """F2: the least cut weight (MB per iteration) of the job graph over the allowed placements."""
    job = instance.job
    w = weights(job)
    n = job.gpus
    servers = [m for m, a in enumerate(instance.available) if a > 0]
    binary = pulp.LpContinuous if relax else pulp.LpBinary
    prob = pulp.LpProblem("graph_cut", pulp.LpMinimize)
    y = {(v, m): prob.add_variable(f"y_{v}_{m}", 0, 1, binary) for v in range(n) for m in servers}
    for v in range(n):
        prob += pulp.lpSum(y[v, m] for m in servers) == 1, f"assigned_{v}"
    for m in servers:
        load = pulp.lpSum(y[v, m] for v in range(n))
        prob += (load == instance.available[m]) if instance.fill == "exact" else (load <= instance.available[m]), \
            f"room_{m}"
    cut = []
    for u in range(n):
        for v in range(u + 1, n):
            if w[u, v] > 0:
                q = prob.add_variable(f"q_{u}_{v}", 0, 1)
                for m in servers:
                    prob += q >= y[u, m] - y[v, m], f"cut_{u}_{v}_{m}_a"
                    prob += q >= y[v, m] - y[u, m], f"cut_{u}_{v}_{m}_b"
                cut.append(w[u, v] * q)
    prob += pulp.lpSum(cut)
    return Model(prob)


def cut_placement(instance: Instance, result: Result) -> Schedule:
    """The placement of a solved :func:`graph_cut` (its objective is the cut, so the model itself
    has no decoder: the family's objective of this placement is its ``α``)."""
    stages = stage_of(instance.job)
    rows = {m: [0] * len(instance.job.stages) for m, a in enumerate(instance.available) if a > 0}
    for v in range(instance.job.gpus):
        for m in rows:
            if integral(result.value(f"y_{v}_{m}")) == 1:
                rows[m][stages[v]] += 1
    return Schedule.from_rows(rows, instance)
