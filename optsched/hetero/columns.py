"""Single-job schedules that fit the empty cluster (the sets Γ_j of model A, spec §2.3) and the
offline horizon of spec §2.7.

For each shape (W1/W2) the placements are, with PSs on one server only (W3):

* ``q = 1``: all ``N`` workers and one PS on one server ``h``;
* ``q = 0`` (ps): a PS server ``n``, a split ``y`` of ``N`` workers with at least one off ``n``, and
  ``s_n = max(1, ⌈b_m (N − y_n) / B_p⌉)`` PSs on ``n``;
* ``q = 0`` (allreduce): a split of ``Φ`` workers over at least two servers.

Each placement must fit the empty cluster. Columns add a start slot; columns of a job with the same
start, duration and footprint are kept once.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InputError
from ..limits import MAX_MODEL_VARIABLES, refuse_above
from ..numeric import floor_tol
from .instance import Instance, Shape, ps_type
from .schedule import JobSchedule


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every composition of ``total`` into ``parts`` non-negative integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def _fits(instance: Instance, m: int, p: int | None, y: tuple[int, ...], s: tuple[int, ...]) -> bool:
    e = instance.worker_demand[m]
    z = instance.ps_demand[p] if p is not None else None
    for h, cap in enumerate(instance.capacity):
        for r, c in enumerate(cap):
            used = y[h] * e[r] + (s[h] * z[r] if z is not None else 0.0)
            if used > c + 1e-9 * max(1.0, c):
                return False
    return True


def placements(instance: Instance, shape: Shape) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ``(y, s)`` placements of ``shape`` that fit the empty cluster."""
    H, N, m, p = instance.H, shape.workers, shape.m, shape.p
    ps = instance.framework == "ps"
    found = []
    if shape.q == 1:
        for h in range(H):
            y = tuple(N if k == h else 0 for k in range(H))
            s = tuple(1 if (k == h and ps) else 0 for k in range(H))
            if _fits(instance, m, p, y, s):
                found.append((y, s))
        return found
    for y in compositions(N, H):
        if ps:
            for n in range(H):
                if y[n] > N - 1:
                    continue
                need = instance.ps_cover(m, ps_type(p), N - y[n])
                s = tuple(need if k == n else 0 for k in range(H))
                if _fits(instance, m, p, y, s):
                    found.append((y, s))
        elif sum(1 for k in y if k) >= 2 and _fits(instance, m, p, y, (0,) * H):
            found.append((y, (0,) * H))
    return found


@dataclass(frozen=True)
class Option:
    """One placed shape of a job (a column without its start)."""

    shape: Shape
    y: tuple[int, ...]
    s: tuple[int, ...]

    def at(self, start: int) -> JobSchedule:
        """This placement option as a ``JobSchedule`` starting at slot ``start``."""
        sh = self.shape
        return JobSchedule(start, sh.d, sh.m, sh.p, sh.q, self.y, self.s)


def splits(instance: Instance) -> int:
    """How many placements :func:`options` would examine: per shape, the compositions of its
    workers over the servers (times the PS servers for PS); counted before any is enumerated."""
    H = instance.H
    total = 0
    for shapes in instance.shapes:
        for shape in shapes:
            spread = math.comb(shape.workers + H - 1, H - 1) * (H if instance.framework == "ps" else 1)
            total += H if shape.q == 1 else spread
    return total


def options(instance: Instance, limit: float | None = MAX_MODEL_VARIABLES) -> tuple[tuple[Option, ...], ...]:
    """Per job, every placed shape that fits the empty cluster, deduplicated on (d, footprint).
    Refuses (one line) an instance with more than ``limit`` placements to examine (None: no limit)."""
    if limit is not None:
        refuse_above(splits(instance), limit, "the number of placements models A and C enumerate",
                     "--formulation column-generation bounds instances this large")
    out = []
    for j in range(len(instance.jobs)):
        seen, kept = set(), []
        for shape in instance.shapes[j]:
            for y, s in placements(instance, shape):
                option = Option(shape, y, s)
                key = (shape.d, tuple(option.at(1).footprint(instance, h) for h in range(instance.H)))
                if key not in seen:
                    seen.add(key)
                    kept.append(option)
        out.append(tuple(kept))
    return tuple(out)


@dataclass(frozen=True)
class Horizon:
    """Spec §2.7, in one pass: a feasible schedule (each job alone, one after another, WSPT order)
    has objective ``upper``; every schedule at least as good completes job ``j`` by
    ``latest[j] = ⌊(upper − Σ_{k≠j} w_k LB_k) / w_j⌋`` with ``LB_k = a_k + d^min_k``, so columns
    that complete later can be dropped without losing any optimum."""

    upper: float
    shortest: tuple[int, ...]  #: d^min_j over options that fit
    latest: tuple[int, ...]

    @property
    def last_slot(self) -> int:
        """The last slot any job may occupy under this horizon."""
        return max(self.latest) - 1


def horizon(instance: Instance, opts: tuple[tuple[Option, ...], ...]) -> Horizon:
    """The horizon above; a job with no option that fits the empty cluster is bad input."""
    for j, o in enumerate(opts):
        if not o:
            raise InputError(f"job {j} fits the empty cluster in no shape: it can never run")
    jobs = instance.jobs
    shortest = tuple(min(o.shape.d for o in opt) for opt in opts)
    order = sorted(range(len(jobs)), key=lambda j: (-jobs[j].weight / shortest[j], j))
    clock, upper = 0, 0.0
    for j in order:
        clock = max(clock, jobs[j].arrival) + shortest[j]
        upper += jobs[j].weight * clock
    lower = [job.weight * (job.arrival + d) for job, d in zip(jobs, shortest)]
    total = sum(lower)
    latest = tuple(floor_tol((upper - (total - lower[j])) / jobs[j].weight) for j in range(len(jobs)))
    return Horizon(upper, shortest, latest)


def sequential(instance: Instance, opts: tuple[tuple[Option, ...], ...], hz: Horizon) -> list[tuple[int, int]]:
    """The horizon's schedule (§2.7) as ``(option index, start)`` per job: the jobs alone, one after
    another in WSPT order, each in its first shortest option. Feasible (each option fits the empty
    cluster) and within every ``latest[j]`` (its objective is ``hz.upper``): the MIP start and hint
    of the exact models."""
    jobs = instance.jobs
    order = sorted(range(len(jobs)), key=lambda j: (-jobs[j].weight / hz.shortest[j], j))
    picked: list[tuple[int, int]] = [(0, 0)] * len(jobs)
    clock = 0
    for j in order:
        k = next(i for i, o in enumerate(opts[j]) if o.shape.d == hz.shortest[j])
        begin = max(clock, jobs[j].arrival)
        clock = begin + hz.shortest[j]
        picked[j] = (k, begin)
    return picked
