"""Heterogeneous distributed ML jobs (Zhou et al.; spec zhou-heterogeneous.md §1).

Servers ``h`` have capacities ``C[h][r]``; a type-``m`` worker takes ``e[m][r]`` and a type-``p``
parameter server ``z[p][r]``. Resource ``bandwidth`` (an index) is also the bandwidth ``b_m = e[m][bw]``
and ``B_p = z[p][bw]`` of (2i). Job ``j`` arrives at slot ``a_j`` with weight ``w_j``, ``E_j`` epochs
of ``D_j`` chunks of ``K_j`` mini-batches (``W_j = E_j D_j K_j`` mini-batches in all) and at most
``D_j`` workers, all of one type.

Frameworks (an instance attribute):

* ``ps`` (eq. (1)): one mini-batch on a type-``m`` worker with type-``p`` PSs takes
  ``v_jm + U^p_j`` slots when every worker and PS of the job share a server (``q = 1``), plus
  ``2 π_j / b_m`` otherwise.
* ``allreduce`` (eq. (14)): ``Φ`` workers in a ring; one mini-batch takes
  ``v_jm + (U_j + [q = 0] 2 π_j / b_m)(Φ − 1)/Φ`` slots; no PSs.

Durations are exact: times per mini-batch are rational (every float is), so ``d = ⌈W t / N⌉`` is
computed with :class:`fractions.Fraction` (spec §0: one shared helper for workers vs duration).
Time (§1.3): slot ``t`` is ``[t, t+1)``; a job started at ``t`` for ``d`` slots occupies
``t .. t+d−1`` and completes at ``t + d``; it may start in its arrival slot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from ..errors import InputError
from ..limits import MAX_SLOTS, refuse_above
from ..schema import Fields, integer, number

FRAMEWORKS = ("ps", "allreduce")


@dataclass(frozen=True)
class Job:
    """A job (spec §1): arrival a_j, weight w_j, epochs E_j, D_j chunks (also its most workers), K_j mini-batches per
    chunk, training time per mini-batch on each worker type, update time per PS type, and the gradient size."""
    arrival: int  #: a_j >= 1
    weight: float  #: w_j > 0 (D14)
    epochs: int  #: E_j
    chunks: int  #: D_j, also the most workers the job may use (2g)
    minibatches: int  #: K_j, per chunk
    train: tuple[float, ...]  #: v_jm per worker type: slots per mini-batch
    update: tuple[float, ...]  #: U^p_j per PS type (ps), or (U_j,) (allreduce): slots
    gradient: float  #: π_j, in bandwidth-units x slots (2π/b is a time in slots)

    @property
    def work(self) -> int:
        """``W_j = E_j D_j K_j`` mini-batches."""
        return self.epochs * self.chunks * self.minibatches

    def to_dict(self) -> dict:
        """This ``Job`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"arrival": self.arrival, "weight": self.weight, "epochs": self.epochs, "chunks": self.chunks,
                "minibatches": self.minibatches, "train": list(self.train), "update": list(self.update),
                "gradient": self.gradient}


def ps_type(p: int | None) -> int:
    """``p`` where the ps framework guarantees a PS type; ValueError for allreduce's None."""
    if p is None:
        raise ValueError("an allreduce job has no parameter-server type")
    return p


@dataclass(frozen=True)
class Shape:
    """A way to run a job (W1/W2): worker type ``m``, PS type ``p`` (None for allreduce), co-location
    flag ``q``, ``workers`` (N, or Φ) and the minimal duration ``d`` for them."""

    m: int
    p: int | None
    q: int
    workers: int
    d: int


@dataclass(frozen=True)
class ShapeTable:
    """One job's shapes with one flag ``q``, in the oracles' loop order (§3.9): worker type, PS
    type, duration ascending (ps), or worker type, worker count ascending (allreduce); with their
    fields as arrays for vectorised bounds."""

    shapes: tuple[Shape, ...]
    m: np.ndarray
    p: np.ndarray  #: -1 for allreduce
    workers: np.ndarray
    d: np.ndarray

    @classmethod
    def of(cls, shapes: list[Shape], framework: str) -> ShapeTable:
        """The table of ``shapes`` as sorted numpy columns (by worker type, PS type and duration for PS jobs; by worker
        type and count for Ring-AllReduce), for the oracles' vectorised search."""
        key = (lambda s: (s.m, s.p, s.d)) if framework == "ps" else (lambda s: (s.m, s.workers))
        ordered = tuple(sorted(shapes, key=key))

        def column(field):
            return np.array([field(s) for s in ordered], dtype=np.int64)

        return cls(ordered, column(lambda s: s.m), column(lambda s: -1 if s.p is None else s.p),
                   column(lambda s: s.workers), column(lambda s: s.d))


@dataclass(frozen=True)
class Instance:
    """A ``hetero`` instance: the framework (``ps`` or ``allreduce``), the price horizon T, each server's capacity per
    resource, each worker and PS type's demand, which resource is bandwidth, and the jobs."""
    framework: str
    T: int  #: the horizon of the paper's λ = 2THRF + 1 (offline models pick their own, spec §2.7)
    capacity: tuple[tuple[float, ...], ...]  #: C[h][r]
    worker_demand: tuple[tuple[float, ...], ...]  #: e[m][r]
    ps_demand: tuple[tuple[float, ...], ...]  #: z[p][r]; empty for allreduce
    bandwidth: int  #: the resource index that is bandwidth
    jobs: tuple[Job, ...]

    def __post_init__(self):
        _validate(self)

    @property
    def H(self) -> int:
        """The number of servers."""
        return len(self.capacity)

    @property
    def R(self) -> int:
        """The number of resources."""
        return len(self.capacity[0])

    @property
    def M(self) -> int:
        """The number of worker types."""
        return len(self.worker_demand)

    @property
    def P(self) -> int:
        """The number of PS types (0 for Ring-AllReduce)."""
        return len(self.ps_demand)

    def b(self, m: int) -> float:
        """b_m: the bandwidth a type-``m`` worker needs."""
        return self.worker_demand[m][self.bandwidth]

    def B(self, p: int) -> float:
        """B_p: the bandwidth a type-``p`` PS provides."""
        return self.ps_demand[p][self.bandwidth]

    def ps_cover(self, m: int, p: int, remote: int) -> int:
        """W3: the fewest type-``p`` PSs on one server whose bandwidth covers ``remote`` type-``m``
        workers on other servers ((2i)); at least one (V4)."""
        return max(1, math.ceil(self.b(m) * remote / self.B(p) - 1e-9))

    def time_per_batch(self, j: int, m: int, p: int | None, q: int, workers: int) -> Fraction:
        """Slots one worker needs per mini-batch: ``1/ρ`` of eq. (1) (ps) or eq. (14) (allreduce)."""
        job = self.jobs[j]
        comm = 0 if q else 2 * Fraction(job.gradient) / Fraction(self.b(m))
        if self.framework == "ps":
            return Fraction(job.train[m]) + Fraction(job.update[ps_type(p)]) + comm
        return Fraction(job.train[m]) + (Fraction(job.update[0]) + comm) * Fraction(workers - 1, workers)

    def duration(self, j: int, m: int, p: int | None, q: int, workers: int) -> int:
        """The shortest duration for ``workers`` workers: ``⌈W_j / (N ρ)⌉`` (2f), exactly."""
        need = self.jobs[j].work * self.time_per_batch(j, m, p, q, workers) / workers
        return max(1, -(-need.numerator // need.denominator))

    def fast_enough(self, j: int, m: int, p: int | None, q: int, workers: int, d: int) -> bool:
        """(2f): ``d N ρ >= W_j``, exactly."""
        return d * workers >= self.jobs[j].work * self.time_per_batch(j, m, p, q, workers)

    @cached_property
    def shapes(self) -> tuple[tuple[Shape, ...], ...]:
        """Per job, the shapes of W1/W2: for each (m, p, q) and worker count, the minimal duration;
        deduplicated on (m, p, q, d), keeping the fewest workers. ``q = 0`` needs two servers, and
        for allreduce at least two workers (E9)."""
        out = []
        ps_types = range(self.P) if self.framework == "ps" else (None,)
        for j, job in enumerate(self.jobs):
            shapes = []
            for m in range(self.M):
                for p in ps_types:
                    for q in (1, 0):
                        if q == 0 and self.H < 2:
                            continue
                        if self.framework == "ps":
                            shapes += self._ps_shapes(j, m, ps_type(p), q)
                            continue
                        seen = set()
                        for n in range(1 + (1 - q), job.chunks + 1):
                            d = self.duration(j, m, p, q, n)
                            if d not in seen:
                                seen.add(d)
                                shapes.append(Shape(m, p, q, n, d))
            out.append(tuple(shapes))
        return tuple(out)

    def _ps_shapes(self, j: int, m: int, p: int, q: int) -> list[Shape]:
        n, d = self._ps_durations(j, m, p, q)
        return [Shape(m, p, q, n_, d_) for n_, d_ in zip(n.tolist(), d.tolist())]

    def _ps_durations(self, j: int, m: int, p: int, q: int) -> tuple[np.ndarray, np.ndarray]:
        """ps: ρ does not depend on ``N``, so ``d(N) = ⌈W t / N⌉ = ⌈⌈W t⌉ / N⌉``, non-increasing
        in ``N``: a duration's fewest workers is where it first appears. Returns those ``(N, d)``."""
        total = self.jobs[j].work * self.time_per_batch(j, m, p, q, 1)
        whole = max(1, -(-total.numerator // total.denominator))
        n = np.arange(1, self.jobs[j].chunks + 1, dtype=np.int64)
        d = -(-whole // n)
        first = np.flatnonzero(np.concatenate([[True], d[1:] != d[:-1]]))
        return n[first], d[first]

    def unfittable(self) -> list[int]:
        """The jobs that have no shape fitting the empty cluster: no schedule can run them."""
        return [j for j, tables in enumerate(self.shape_tables) if not any(len(t.shapes) for t in tables.values())]

    @cached_property
    def shape_tables(self) -> tuple[dict[int, ShapeTable], ...]:
        """Per job, per flag ``q``: its shapes in the oracles' loop order (:class:`ShapeTable`),
        leaving out those that fit the empty cluster in no placement (:attr:`empty_fit`): with
        less room they fit nowhere either. ps shapes are filtered before they are built (most of
        them never fit), so A_online does not pay for :attr:`shapes`."""
        fit = self.empty_fit
        if self.framework != "ps":
            return tuple({q: ShapeTable.of([s for s in shapes if s.q == q and fit[s.m, s.p, q][s.workers]],
                                           self.framework) for q in (0, 1)} for shapes in self.shapes)
        out = []
        for j in range(len(self.jobs)):
            kept: dict[int, list[Shape]] = {0: [], 1: []}
            for m in range(self.M):
                for p in range(self.P):
                    for q in (1, 0) if self.H >= 2 else (1,):
                        n, d = self._ps_durations(j, m, p, q)
                        ok = fit[m, p, q][n]
                        kept[q] += [Shape(m, p, q, n_, d_) for n_, d_ in zip(n[ok].tolist(), d[ok].tolist())]
            out.append({q: ShapeTable.of(kept[q], self.framework) for q in (0, 1)})
        return tuple(out)

    @cached_property
    def empty_fit(self) -> dict[tuple[int, int | None, int], np.ndarray]:
        """Per ``(m, p, q)``, indexed by the worker count ``N <= max D_j``: whether ``N`` workers fit
        the empty cluster in a placement the oracles consider. ps, ``q = 1``: ``N e + z`` on one
        server; ``q = 0``: a PS server ``n`` with ``g <= N − 1`` workers and the ``s(N − g)`` PSs
        of W3, and room for the other ``N − g`` workers elsewhere (E2). allreduce: ``N`` workers
        on one server (``q = 1``), anywhere (``q = 0``)."""
        C = np.asarray(self.capacity, float)
        top = max(job.chunks for job in self.jobs)
        N = np.arange(top + 1)
        out: dict[tuple[int, int | None, int], np.ndarray] = {}
        for m, e in enumerate(np.asarray(self.worker_demand, float)):
            per = _items(C, e)  # workers per server
            if self.framework == "allreduce":
                out[m, None, 1] = N <= per.max()
                out[m, None, 0] = N <= per.sum()
                continue
            g = np.arange(top)
            for p, z in enumerate(np.asarray(self.ps_demand, float)):
                out[m, p, 1] = np.array([bool(np.all(n * e + z <= C + 1e-9, axis=1).any()) for n in N])
                spare = np.stack([_items(C - k * e, z) for k in g], axis=1)  # PSs beside k workers, [h, k]
                spare[g[None, :] > per[:, None]] = -1  # k workers do not fit
                remote = N[:, None] - g[None, :]  # [N, g]
                s = np.maximum(1, np.ceil(self.b(m) * remote / self.B(p) - 1e-9))
                elsewhere = per.sum() - per  # [h]
                ok = (remote[None] >= 1) & (s[None] <= spare[:, None, :]) & (remote[None] <= elsewhere[:, None, None])
                out[m, p, 0] = ok.any(axis=(0, 2))
        return out

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"framework": self.framework, "T": self.T, "capacity": [list(c) for c in self.capacity],
                "worker_demand": [list(e) for e in self.worker_demand],
                "ps_demand": [list(z) for z in self.ps_demand], "bandwidth": self.bandwidth,
                "jobs": [job.to_dict() for job in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        framework = f.text("framework", choices=FRAMEWORKS)
        T = f.integer("T", min=1)
        refuse_above(T, MAX_SLOTS, f.path("T"))
        capacity = _matrix(f.array("capacity", nonempty=True), f.path("capacity"))
        workers = _matrix(f.array("worker_demand", nonempty=True), f.path("worker_demand"))
        pss = _matrix(f.array("ps_demand", default=[]), f.path("ps_demand"))
        bandwidth = f.integer("bandwidth", min=0)
        jobs = tuple(_job(raw, f.path(f"jobs[{j}]")) for j, raw in enumerate(f.array("jobs", nonempty=True)))
        f.done()
        return cls(framework, T, capacity, workers, pss, bandwidth, jobs)


def _items(room: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """Per server (row of ``room``): how many items of ``demand`` fit; resources it does not use
    are no limit (E4), and negative room fits none."""
    used = demand > 0
    if not used.any():
        return np.where(np.all(room >= -1e-9, axis=1), 10**9, -1)
    return np.floor(room[:, used] / demand[used] + 1e-9).min(axis=1).astype(np.int64)


def _matrix(rows: list, where: str) -> tuple[tuple[float, ...], ...]:
    out = []
    for k, row in enumerate(rows):
        if not isinstance(row, list) or not row:
            raise InputError(f"{where}[{k}]: must be a non-empty list of numbers")
        out.append(tuple(number(x, f"{where}[{k}][{r}]", min=0) for r, x in enumerate(row)))
    return tuple(out)


def _job(raw: object, where: str) -> Job:
    f = Fields(raw, where)
    job = Job(arrival=f.integer("arrival", min=1), weight=f.number("weight", positive=True),
              epochs=f.integer("epochs", min=1), chunks=f.integer("chunks", min=1),
              minibatches=f.integer("minibatches", min=1),
              train=tuple(number(x, f.path(f"train[{m}]"), positive=True) for m, x in enumerate(f.array("train"))),
              update=tuple(number(x, f.path(f"update[{p}]"), min=0) for p, x in enumerate(f.array("update"))),
              gradient=f.number("gradient", min=0))
    f.done()
    return job


def _validate(inst: Instance) -> None:
    if inst.framework not in FRAMEWORKS:
        raise InputError(f"instance.framework: must be one of {', '.join(FRAMEWORKS)}, got {inst.framework!r}")
    R = len(inst.capacity[0]) if inst.capacity else 0
    if not inst.capacity or R == 0:
        raise InputError("instance.capacity: needs at least one server with at least one resource")
    for name, rows in (("capacity", inst.capacity), ("worker_demand", inst.worker_demand),
                       ("ps_demand", inst.ps_demand)):
        for k, row in enumerate(rows):
            if len(row) != R:
                raise InputError(f"instance.{name}[{k}]: needs one entry per resource ({R}), got {len(row)}")
    if not inst.worker_demand:
        raise InputError("instance.worker_demand: needs at least one worker type")
    if not 0 <= inst.bandwidth < R:
        raise InputError(f"instance.bandwidth: must be a resource index in 0..{R - 1}, got {inst.bandwidth}")
    if any(inst.b(m) <= 0 for m in range(inst.M)):
        raise InputError("instance.worker_demand: every worker type needs a positive bandwidth b_m")
    if inst.framework == "ps":
        if not inst.ps_demand:
            raise InputError("instance.ps_demand: the ps framework needs at least one PS type")
        if any(inst.B(p) <= 0 for p in range(inst.P)):
            raise InputError("instance.ps_demand: every PS type needs a positive bandwidth B_p")
    elif inst.ps_demand:
        raise InputError("instance.ps_demand: the allreduce framework has no parameter servers")
    updates = inst.P if inst.framework == "ps" else 1
    for j, job in enumerate(inst.jobs):
        if len(job.train) != inst.M:
            raise InputError(f"instance.jobs[{j}].train: needs one time per worker type ({inst.M}), "
                             f"got {len(job.train)}")
        if len(job.update) != updates:
            what = f"one time per PS type ({updates})" if inst.framework == "ps" else "one time (U_j)"
            raise InputError(f"instance.jobs[{j}].update: needs {what}, got {len(job.update)}")
    integer(inst.T, "instance.T", min=1)
