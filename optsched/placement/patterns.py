"""The best stage counts for a given split of a job's GPUs over servers, and the true ``α^min``
(spec asrpt.md §1.3, §2.5).

``α`` depends only on how many replicas of each stage sit on each server, so the best placement of
a job on servers giving ``parts = (u_1, u_2, ...)`` GPUs (each used fully) is a small search over count
matrices with row sums ``u`` and column sums ``k_s``. Small searches enumerate every matrix; larger
ones solve the placement ILP F1 (EXACT mode) and refuse a non-optimal status.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..errors import SolverFailure
from ..registry import get
from .instance import Cluster, Instance, Job
from .timing import alpha, alpha_lower, alpha_one_server

#: Count matrices enumerated before handing a split to the ILP.
ENUMERATION_LIMIT = 20_000
#: Count matrices :func:`alpha_floor` enumerates over all of a job's splits before it settles for
#: :func:`~optsched.placement.timing.alpha_lower` (a count, so the choice is the same on every machine).
FLOOR_SEARCH_LIMIT = 200_000


def _rows(k: int, caps: tuple[int, ...]):
    """Every way to spread ``k`` replicas over servers with room ``caps``."""
    if len(caps) == 1:
        if k <= caps[0]:
            yield (k,)
        return
    rest = sum(caps[1:])
    for x in range(max(0, k - rest), min(k, caps[0]) + 1):
        for tail in _rows(k - x, caps[1:]):
            yield (x,) + tail


def _matrices(job: Job, parts: tuple[int, ...]):
    """Count matrices ``x[m][s]`` with row sums ``parts`` and column sums ``k_s`` (stage by stage)."""
    S = len(job.stages)

    def walk(s: int, room: tuple[int, ...], columns: list):
        if s == S:
            if not any(room):
                yield [tuple(col[m] for col in columns) for m in range(len(parts))]
            return
        later = sum(stage.replicas for stage in job.stages[s + 1:])
        for col in _rows(job.stages[s].replicas, room):
            left = tuple(r - x for r, x in zip(room, col))
            if sum(left) == later:
                yield from walk(s + 1, left, columns + [col])

    yield from walk(0, parts, [])


def _count_matrices(job: Job, parts: tuple[int, ...]) -> int:
    """An upper bound on the matrices :func:`_matrices` walks (product of per-stage spreads)."""
    total = 1
    for stage in job.stages:
        total *= math.comb(stage.replicas + len(parts) - 1, len(parts) - 1)
    return total


#: Branch-and-bound nodes the placement ILP may take to prove the best counts of one split (one
#: thread): a budget that gives the same answer, or the same refusal, on every machine.
NODE_LIMIT = 100_000


def best_counts(job: Job, parts: tuple[int, ...], cluster: Cluster) -> tuple[float, list[tuple[int, ...]]]:
    """``(min α, counts)`` over placements using exactly ``parts[m]`` GPUs of server ``m``: by
    enumeration when the count matrices are few, else by the placement ILP (F1) proven optimal
    within :data:`NODE_LIMIT` nodes (:class:`~optsched.errors.SolverFailure` when it is not)."""
    return _best_counts(job, tuple(parts), cluster)


@lru_cache(maxsize=4096)
def _best_counts(job: Job, parts: tuple[int, ...], cluster: Cluster):
    if len(parts) == 1:
        return alpha_one_server(job, cluster), [tuple(stage.replicas for stage in job.stages)]
    if _count_matrices(job, parts) <= ENUMERATION_LIMIT:
        best = None
        for matrix in _matrices(job, parts):
            value = alpha(job, matrix, cluster)
            if best is None or value < best[0]:
                best = (value, matrix)
        return best
    instance = Instance(job, cluster.gpus, cluster.inter_bw, cluster.intra_bw, parts, "exact")
    solved = get("placement").solve(instance, "ilp", node_limit=NODE_LIMIT, threads=1)  # decoded and verified
    if not solved.result.optimal or solved.schedule is None or solved.problem:
        why = f"; {solved.problem}" if solved.problem else ""
        raise SolverFailure(f"the placement ILP did not prove the best counts for split {parts} "
                            f"({solved.result.status} within {NODE_LIMIT:,} nodes{why})")
    counts = list(solved.schedule.counts)
    return alpha(job, counts, cluster), counts

def splits(gpus: int, servers: int, per_server: int):
    """Multisets of server shares (non-increasing tuples) of ``gpus`` over at most ``servers``."""
    def walk(left: int, cap: int, room: int):
        if left == 0:
            yield ()
            return
        if room == 0:
            return
        for first in range(min(cap, left), 0, -1):
            for tail in walk(left - first, first, room - 1):
                yield (first,) + tail

    yield from walk(gpus, per_server, servers)


def unmergeable_splits(gpus: int, servers: int, per_server: int):
    """The :func:`splits` in which no two shares fit on one server together (every pair sums to
    more than ``per_server``): in a non-increasing tuple, the last two shares do not fit together."""
    def walk(left: int, cap: int, room: int, previous: int | None):
        if left == 0:
            yield ()
            return
        if room == 0:
            return
        least = 1 if previous is None else max(1, per_server - previous + 1)
        for first in range(min(cap, left), least - 1, -1):
            for tail in walk(left - first, first, room - 1, first):
                yield (first,) + tail

    yield from walk(gpus, per_server, servers, None)


def merging_never_hurts(cluster: Cluster) -> bool:
    """Whether moving the replicas of two servers onto one (when they fit) never raises ``α``:
    it raises every co-located share ``f`` (eq. (5) falls with ``f`` when ``φ <= θ``) and every
    replica count ``x`` (eq. (6): ``θ / x`` falls, and turns into ``φ <= θ / g`` when the stage
    becomes whole), which holds when ``B_intra >= B_inter``, i.e. ``φ g <= θ``."""
    return cluster.phi * cluster.gpus <= cluster.theta


@lru_cache(maxsize=4096)
def alpha_min(job: Job, cluster: Cluster) -> float:
    """The true ``α^min`` (§1.3): the least ``α`` over every placement on an empty cluster (cached).

    Where :func:`merging_never_hurts`, a placement whose split has two shares that fit on one
    server is no better than the placement with them merged, so only :func:`unmergeable_splits`
    are searched (for 64 GPUs on servers of 8: 92 splits instead of 116,263); otherwise every split."""
    if job.gpus <= cluster.gpus:
        return alpha_one_server(job, cluster)
    return min(best_counts(job, parts, cluster)[0] for parts in _searched_splits(job, cluster))


def _searched_splits(job: Job, cluster: Cluster):
    """The splits :func:`alpha_min` searches (see there)."""
    candidates = unmergeable_splits if merging_never_hurts(cluster) else splits
    return candidates(job.gpus, cluster.servers, cluster.gpus)


@lru_cache(maxsize=4096)
def alpha_floor(job: Job, cluster: Cluster) -> float:
    """A certified lower bound on ``α^min``: :func:`alpha_min` itself when its search is small
    (every split's count matrices enumerated, :data:`FLOOR_SEARCH_LIMIT` in all), else the closed
    form :func:`~optsched.placement.timing.alpha_lower`. For bounds at the paper's scale, where a
    64-GPU job of 8 stages would need the placement ILP on each of its splits."""
    if job.gpus <= cluster.gpus:
        return alpha_one_server(job, cluster)
    work = 0
    for parts in _searched_splits(job, cluster):
        work += _count_matrices(job, parts)
        if work > FLOOR_SEARCH_LIMIT:
            return alpha_lower(job, cluster)
    return alpha_min(job, cluster)
