"""Explicit enumeration of each job's non-dominated schedules ``L_i`` (spec §2.2, §2.5 (b)).

The columns of the compact-exponential ILP (14) and the rows of the dual (19). A schedule is a
worker count per slot, a placement of those workers, and a placement of the fewest PSs that satisfy
(6), ``m_t = ⌈n_t b_i / B_i⌉``. Dominated schedules (no better utility, no less resource use) are
left out; that changes neither the ILP optimum, nor the LP optimum, nor dual feasibility.

* Worker-count vectors: in mode A every composition of exactly ``W_i`` over the slots ``a_i..T``
  (more worker-slots is dominated); in mode B the vectors ``n_t = ⌈ρ d_t⌉`` of the chunk
  compositions ``Σ d_t = E_i N_i``, without duplicates and without componentwise-larger vectors.
* Per-server caps include the job's own single-server capacity ([A19]'s recommended ``L_i``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product

from ..errors import InputError
from ..numeric import ceil_tol
from .instance import Instance
from .schedule import JobPlan

#: Default largest number of columns enumerated per job (spec §2.5 (b)).
COLUMN_LIMIT = 20_000


class TooManyColumns(InputError):
    """The enumeration would exceed the column limit; the message names the job and the count."""


@dataclass(frozen=True)
class Column:
    """One schedule l of a job in the compact-exponential ILP (14): its completion slot t_il, utility f_i(t_il −
    a_i), and its workers (t, h, y) and PSs (t, k, z)."""
    job: int
    completion: int  #: t_il, the last slot with workers
    utility: float  #: f_i(t_il − a_i)
    workers: tuple[tuple[int, int, int], ...]  #: (t, h, y)
    ps: tuple[tuple[int, int, int], ...]  #: (t, k, z)

    def to_job_plan(self) -> JobPlan:
        """This column as an admitted ``JobPlan``."""
        return JobPlan(True, self.workers, self.ps)


@lru_cache(maxsize=4096)
def _placements(caps: tuple[int, ...], units: int) -> tuple[tuple[int, ...], ...]:
    """Every vector ``v`` with ``Σ v = units`` and ``0 <= v_s <= caps[s]``, in lexicographic order."""
    if not caps:
        return ((),) if units == 0 else ()
    return tuple((take,) + tail for take in range(min(caps[0], units) + 1)
                 for tail in _placements(caps[1:], units - take))


def count_vectors(instance: Instance, i: int) -> list[tuple[int, ...]]:
    """The non-dominated worker-count vectors ``(n_{a_i}, ..., n_T)`` of job ``i``."""
    facts = instance.facts[i]
    if not facts.feasible:
        return []
    S = facts.slots
    if instance.mode == "worker_slots":
        return _compositions(facts.W, S, range(facts.max_workers + 1))
    vectors = set()
    for d in _compositions(facts.chunk_target, S, range(facts.chunk_target + 1)):
        n = tuple(ceil_tol(facts.rho * dt) for dt in d)
        if max(n) <= facts.max_workers:
            vectors.add(n)
    return sorted(v for v in vectors
                  if not any(u != v and all(a <= b for a, b in zip(u, v)) for u in vectors))


def _compositions(total: int, parts: int, allowed) -> list[tuple[int, ...]]:
    allowed = sorted(set(allowed))

    @cache
    def rest(p: int, left: int) -> tuple[tuple[int, ...], ...]:
        if p == 0:
            return ((),) if left == 0 else ()
        return tuple((x,) + tail for x in allowed if x <= left for tail in rest(p - 1, left - x))

    return list(rest(parts, total))


#: Mode B enumerates chunk compositions before removing dominated vectors; beyond this many it refuses.
CHUNK_COMPOSITION_LIMIT = 1_000_000


@lru_cache(maxsize=4096)
def _placement_count(caps: tuple[int, ...], units: int) -> int:
    """How many vectors ``v`` have ``Σ v = units`` and ``0 <= v_s <= caps[s]`` (without listing them)."""
    ways = [1] + [0] * units
    for cap in caps:
        ways = [sum(ways[u - k] for k in range(min(cap, u) + 1)) for u in range(units + 1)]
    return ways[units]


def _compositions_count(total: int, parts: int, weight) -> int:
    """``Σ`` over compositions of ``total`` into ``parts`` parts of ``Π weight(part)``, by DP."""
    ways = [1] + [0] * total
    for _ in range(parts):
        ways = [sum(ways[u - k] * weight(k) for k in range(u + 1)) for u in range(total + 1)]
    return ways[total]


def count_columns(instance: Instance, i: int) -> int:
    """How many columns :func:`enumerate_columns` would produce for job ``i`` (mode A: a DP over the
    slots, without listing anything)."""
    job, facts = instance.jobs[i], instance.facts[i]
    if not facts.feasible:
        return 0

    def per_slot(n: int) -> int:
        if n == 0:
            return 1
        if n > facts.max_workers:
            return 0
        m = ceil_tol(n * job.b / job.B)
        return _placement_count(facts.worker_cap, n) * _placement_count(facts.ps_cap, m)

    if instance.mode == "worker_slots":
        return _compositions_count(facts.W, facts.slots, per_slot)
    compositions = _compositions_count(facts.chunk_target, facts.slots, lambda d: 1)
    if compositions > CHUNK_COMPOSITION_LIMIT:
        raise TooManyColumns(f"job {i} has {compositions:,} chunk compositions to sift, above "
                             f"{CHUNK_COMPOSITION_LIMIT:,}; use the column-generation formulation")
    total = 0
    for vector in count_vectors(instance, i):
        product_count = 1
        for n in vector:
            product_count *= per_slot(n)
        total += product_count
    return total


def _check_limit(instance: Instance, i: int, limit: int) -> None:
    count = count_columns(instance, i)
    if count > limit:
        raise TooManyColumns(f"job {i} has {count:,} non-dominated schedules, above the column limit "
                             f"{limit:,}; use a smaller instance or the column-generation formulation")


def enumerate_columns(instance: Instance, i: int, limit: int = COLUMN_LIMIT) -> list[Column]:
    """Every non-dominated schedule of job ``i``; refuses (:class:`TooManyColumns`) beyond ``limit``."""
    _check_limit(instance, i, limit)
    job, facts = instance.jobs[i], instance.facts[i]
    columns = []
    for vector in count_vectors(instance, i):
        slots = [(job.arrival + s, n) for s, n in enumerate(vector) if n]
        options = []
        for t, n in slots:
            m = ceil_tol(n * job.b / job.B)
            options.append([(t, y, z) for y in _placements(facts.worker_cap, n) for z in _placements(facts.ps_cap, m)])
        completion = slots[-1][0]
        utility = job.utility.value(completion - job.arrival)
        for choice in product(*options):
            workers = tuple((t, h, c) for t, y, _ in choice for h, c in enumerate(y) if c)
            ps = tuple((t, k, c) for t, _, z in choice for k, c in enumerate(z) if c)
            columns.append(Column(i, completion, utility, workers, ps))
    return columns


def all_columns(instance: Instance, limit: int = COLUMN_LIMIT) -> list[list[Column]]:
    """The columns of every job (empty for jobs that cannot run), checking the limit for all first."""
    for i in range(len(instance.jobs)):
        _check_limit(instance, i, limit)
    return [enumerate_columns(instance, i, limit) for i in range(len(instance.jobs))]
