"""Heavy-Edge placement, the placement family's algorithm, and the server-selection rules (paper
§IV-B; spec asrpt.md §3.3, §3.4).

:func:`heavy_edge` is the registered algorithm: Heavy-Edge on the MOST allotment of an instance's
free GPUs. The parts below it are what A-SRPT's cluster reuses.

An allotment is a list of ``(server, c_m)`` with ``Σ c_m = g_i``: how many GPUs each chosen server
gives the job. Heavy-Edge maps the job graph's vertices onto it:

1. servers in descending order of ``c_m``, ties by id [A8];
2. a server that the remaining vertices exactly fill takes them all (case 1);
3. a one-GPU server takes the remaining vertex of least weighted degree in the whole graph (case 2,
   [A9]);
4. any other server grows a node set: first the heaviest edge among unassigned vertices, then again
   and again the unassigned endpoint of the heaviest edge between the node set and the unassigned
   vertices (ties: smallest id) [A9]; with no such edge, a uniformly random unassigned vertex (a
   seeded ``random.Random``; with ``rng=None``, the smallest id).

``criterion="sum"`` (not the paper's: spec §3.3's variant) ranks unassigned vertices by the total
weight into the node set instead of the single heaviest edge.

Allotment rules [A10]: ``most`` takes ``min(free, remaining)`` GPUs from servers in descending order
of free GPUs (consolidation: communication-heavy jobs and the baselines), ``least`` in ascending
order over servers with a free GPU (fills holes), ``fewest_empty`` is ``⌈g_i/g⌉`` empty servers for
the estimate ``α̃^min``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .graph import stage_of, weights
from .instance import Cluster, Instance, Job
from .schedule import Schedule
from .timing import alpha

RULES = ("most", "least")
CRITERIA = ("heaviest", "sum")


def heavy_edge(instance: Instance, *, seed: int = 0, criterion: str = "heaviest") -> Schedule:
    """Heavy-Edge on the MOST allotment of the free GPUs (with ``fill = "exact"``, on all of them),
    the placement family's algorithm (spec §3.3).

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; the Heavy-Edge placement and Table II.
    """
    counts, _ = place(instance.job, allot(instance.available, instance.job.gpus, "most"), instance.cluster,
                      random.Random(seed), criterion)
    return Schedule.from_rows(counts, instance)


def allot(free: Sequence[int], need: int, rule: str = "most") -> list[tuple[int, int]]:
    """Take ``need`` GPUs from servers with ``free[m]`` idle GPUs, by ``rule`` (``most`` / ``least``)."""
    if rule == "most":
        order = sorted(range(len(free)), key=lambda m: (-free[m], m))
    elif rule == "least":
        order = sorted((m for m in range(len(free)) if free[m] > 0), key=lambda m: (free[m], m))
    else:
        raise ValueError(f"unknown allotment rule {rule!r}; choose from {', '.join(RULES)}")
    allotment, left = [], need
    for m in order:
        if left == 0:
            break
        take = min(free[m], left)
        if take > 0:
            allotment.append((m, take))
            left -= take
    if left:
        raise ValueError(f"{need} GPUs requested, only {sum(free)} free")
    return allotment


def fewest_empty(job: Job, cluster: Cluster) -> list[tuple[int, int]]:
    """``⌈g_i/g⌉`` empty servers, all full but the last (spec §3.4)."""
    g, need = cluster.gpus, job.gpus
    count = math.ceil(need / g)
    return [(m, g) for m in range(count - 1)] + [(count - 1, need - (count - 1) * g)]


def assign(job: Job, allotment: Sequence[tuple[int, int]], rng: random.Random | None = None,
           criterion: str = "heaviest") -> np.ndarray:
    """Heavy-Edge's mapping of Ω onto ``allotment``: the server of every vertex (replica)."""
    if criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; choose from {', '.join(CRITERIA)}")
    n = job.gpus
    if sum(c for _, c in allotment) != n:
        raise ValueError(f"the allotment gives {sum(c for _, c in allotment)} GPUs, the job needs {n}")
    server = np.full(n, -1, dtype=np.int64)
    if len(allotment) == 1:  # case 1 on the only server: no graph needed
        server[:] = allotment[0][0]
        return server
    w = weights(job)
    degree = w.sum(axis=1)
    for m, c in sorted(allotment, key=lambda mc: (-mc[1], mc[0])):
        if c == 0:
            continue
        unassigned = server < 0
        if int(unassigned.sum()) == c:
            chosen = np.flatnonzero(unassigned)
        elif c == 1:
            candidates = np.flatnonzero(unassigned)
            chosen = candidates[[np.argmin(degree[candidates])]]
        else:
            chosen = _grow(w, unassigned, c, rng, criterion)
        server[chosen] = m
    return server


def heavy_edge_counts(job: Job, allotment: Sequence[tuple[int, int]], rng: random.Random | None = None,
                      criterion: str = "heaviest") -> dict[int, list[int]]:
    """Heavy-Edge: the counts ``{server: [x_s per stage]}`` of its mapping (:func:`assign`)."""
    server = assign(job, allotment, rng, criterion)
    stages = stage_of(job)
    return {m: np.bincount(stages[server == m], minlength=len(job.stages)).tolist()
            for m, c in allotment if c > 0}


def _grow(w: np.ndarray, unassigned: np.ndarray, c: int, rng: random.Random | None, criterion: str) -> np.ndarray:
    """The node set of one multi-GPU server (steps 7-13 of spec §3.3). Marks nothing itself."""
    free = unassigned.copy()
    chosen: list[int] = []
    link = np.zeros(len(w))  # per vertex: heaviest (or summed) weight into the node set
    while len(chosen) < c:
        pick: list[int]
        if not chosen:
            sub = np.where(np.outer(free, free), np.triu(w, 1), 0.0)
            if sub.max() > 0:
                u, v = np.unravel_index(np.argmax(sub), sub.shape)  # row-major: smallest (min id, max id)
                pick = [int(u), int(v)]  # c >= 2 here: one-GPU servers are case 2
            else:
                pick = [_random_vertex(free, rng)]
        else:
            candidates = np.where(free, link, -1.0)
            best = int(np.argmax(candidates))
            pick = [best] if candidates[best] > 0 else [_random_vertex(free, rng)]
        for vertex in pick:
            chosen.append(vertex)
            free[vertex] = False
            link = np.maximum(link, w[vertex]) if criterion == "heaviest" else link + w[vertex]
    return np.array(chosen)


def _random_vertex(free: np.ndarray, rng: random.Random | None) -> int:
    candidates = np.flatnonzero(free)
    return int(candidates[0] if rng is None else rng.choice(candidates.tolist()))


def place(job: Job, allotment: Sequence[tuple[int, int]], cluster: Cluster, rng: random.Random | None = None,
          criterion: str = "heaviest") -> tuple[dict[int, list[int]], float]:
    """Heavy-Edge's counts on ``allotment`` and their per-iteration time ``α`` (eq. 7)."""
    counts = heavy_edge_counts(job, allotment, rng, criterion)
    return counts, alpha(job, list(counts.values()), cluster)


@lru_cache(maxsize=4096)
def alpha_tilde(job: Job, cluster: Cluster) -> float:
    """``α̃^min`` (§1.3, [A4]): Heavy-Edge on the fewest empty servers, deterministic ties. Cached:
    a trace stream repeats a few configurations thousands of times."""
    return place(job, fewest_empty(job, cluster), cluster)[1]
