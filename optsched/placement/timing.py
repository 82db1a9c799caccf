"""Per-iteration training time, eqs. (4)-(7) of Luo et al. (spec asrpt.md §1.2, §1.3, §3.1).

A placement is given by counts ``x[m][s]``: replicas of stage ``s`` on server ``m``. For every
(server, stage) pair hosting at least one replica [A3]:

* (4) ``comp = P_s``;
* (5) ``comm = 2 d^in_s [θ(1 - f_{s-1}) + φ f_{s-1}] + 2 d^out_s [θ(1 - f_{s+1}) + φ f_{s+1}]`` with
  ``f_{s'} = x[m][s'] / k_{s'}`` the share of the neighbour stage on the same server (the ``x`` of the
  printed form cancels); the missing neighbour of a boundary stage contributes nothing [A2];
* (6) ``AllReduce = 2 (k_s - 1) h_s / k_s`` times ``θ / x[m][s]`` if the stage is split across
  servers, ``φ`` if all its replicas are on ``m``, 0 if ``k_s = 1``;
* (7) ``α(x) = max over hosted pairs of comp + comm + AllReduce``.

``α`` depends only on the counts, never on which GPU of a server a replica gets, and jobs never
interfere (each GPU owns ``1/g`` of its server's NIC).
"""

from __future__ import annotations

from collections.abc import Sequence

from .instance import Cluster, Job


def allreduce_time(job: Job, s: int, x: int, cluster: Cluster) -> float:
    """Eq. (6) for stage ``s`` with ``x >= 1`` of its replicas on one server."""
    k = job.stages[s].replicas
    if k == 1:
        return 0.0
    volume = 2.0 * (k - 1) * job.stages[s].params / k
    return volume * (cluster.phi if x == k else cluster.theta / x)


def stage_time(job: Job, counts: Sequence[int], s: int, cluster: Cluster) -> float:
    """``β^m_s`` of eq. (7) for one server holding ``counts[s'] = x[m][s']`` (requires ``counts[s] >= 1``)."""
    theta, phi = cluster.theta, cluster.phi
    stages = job.stages
    beta = stages[s].compute
    if s > 0:
        f = counts[s - 1] / stages[s - 1].replicas
        beta += 2.0 * job.d_in[s] * (theta * (1 - f) + phi * f)
    if s < len(stages) - 1:
        f = counts[s + 1] / stages[s + 1].replicas
        beta += 2.0 * job.d_out[s] * (theta * (1 - f) + phi * f)
    return beta + allreduce_time(job, s, counts[s], cluster)


def alpha(job: Job, placement: Sequence[Sequence[int]], cluster: Cluster) -> float:
    """Eq. (7): the per-iteration time (s) of ``job`` under ``placement[m][s]`` (any number of rows)."""
    best = 0.0
    for counts in placement:
        for s, x in enumerate(counts):
            if x >= 1:
                best = max(best, stage_time(job, counts, s, cluster))
    return best


def alpha_max(job: Job, cluster: Cluster) -> float:
    """``α^max`` (§1.3): every replica on a server of its own. The true maximum of ``α`` over
    placements when ``B_intra >= B_inter / g``; defined by this formula even when ``g_i > M`` [A23]."""
    theta = cluster.theta
    best = 0.0
    for s, stage in enumerate(job.stages):
        beta = stage.compute + 2.0 * theta * (job.d_in[s] + job.d_out[s])
        if stage.replicas > 1:
            beta += 2.0 * theta * (stage.replicas - 1) * stage.params / stage.replicas
        best = max(best, beta)
    return best


def alpha_one_server(job: Job, cluster: Cluster) -> float:
    """``α`` with the whole job on one server: ``α^min`` when ``g_i <= g`` (§1.3)."""
    return alpha(job, [[stage.replicas for stage in job.stages]], cluster)


def alpha_lower(job: Job, cluster: Cluster) -> float:
    """A lower bound of ``α`` under any placement, in closed form: each stage at its cheapest
    terms, eq. (5) with its neighbours co-located (``min(θ, φ)`` per MB) and eq. (6) with the most
    replicas a server can hold (``φ`` for a whole stage that fits, else ``θ / x`` at the largest
    ``x``). Exact (``α`` on one server) when the job fits on one server."""
    if job.gpus <= cluster.gpus:
        return alpha_one_server(job, cluster)
    link = min(cluster.theta, cluster.phi)
    best = 0.0
    for s, stage in enumerate(job.stages):
        k = stage.replicas
        beta = stage.compute + 2.0 * link * (job.d_in[s] + job.d_out[s])
        if k > 1:
            volume = 2.0 * (k - 1) * stage.params / k
            share = min(cluster.phi, cluster.theta / (k - 1)) if k <= cluster.gpus else cluster.theta / cluster.gpus
            beta += volume * share
        best = max(best, beta)
    return best


def compute_bound(job: Job) -> float:
    """``max_s P_s``: a lower bound of ``α`` under any placement (communication only adds)."""
    return max(stage.compute for stage in job.stages)
