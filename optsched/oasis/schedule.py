"""OASiS schedules and the independent verifier of problem (1) (paper §III-B; spec §2.1).

A schedule says, for each job, whether it is admitted (``x_i``) and how many workers ``y_ih(t)``
and PSs ``z_ik(t)`` it runs on each server in each slot. Slots are 1-based as in the paper; server
indices are positions in the instance's server lists (0-based). The verifier checks constraints
(2)-(10) and (12)-(13) directly, with (2) replaced by (2B) in the ``chunks`` mode; the objective is
(1): the utility ``f_i(t̂_i − a_i)`` of each admitted job, ``t̂_i`` its last slot with a worker (8).

Every algorithm returns a solution of (1): a job that a baseline leaves unfinished at ``T`` is
reported as not admitted, and its resource use is left out (model (1) has no unfinished jobs; the
utility is the same, and capacities only get looser).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import InputError
from ..numeric import FEAS_TOL, leq
from ..schema import Fields, integer, per_job
from .instance import Instance


@dataclass(frozen=True)
class JobPlan:
    """One job's plan: whether it was admitted, and its workers (t, h, y_ih(t)) and PSs (t, k, z_ik(t)) per slot
    and server."""
    admitted: bool
    workers: tuple[tuple[int, int, int], ...] = ()  #: (slot t, worker server h, y_ih(t) > 0)
    ps: tuple[tuple[int, int, int], ...] = ()  #: (slot t, PS server k, z_ik(t) > 0)

    def workers_per_slot(self) -> dict[int, int]:
        """Σ_h y_ih(t) per slot t with workers."""
        per: defaultdict[int, int] = defaultdict(int)
        for t, _, n in self.workers:
            per[t] += n
        return dict(per)

    def ps_per_slot(self) -> dict[int, int]:
        """Σ_k z_ik(t) per slot t with PSs."""
        per: defaultdict[int, int] = defaultdict(int)
        for t, _, m in self.ps:
            per[t] += m
        return dict(per)

    def completion(self) -> int | None:
        """``t̂_i`` of (8): the last slot with at least one worker (None without workers)."""
        return max((t for t, _, n in self.workers if n > 0), default=None)

    def to_dict(self) -> dict:
        """This ``JobPlan`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"admitted": self.admitted, "workers": [list(e) for e in self.workers],
                "ps": [list(e) for e in self.ps]}


REJECTED = JobPlan(False)


@dataclass(frozen=True)
class Schedule:
    """One plan per job (problem (1)). ``unfinished`` records, as ``(job, plan)``, what a baseline ran
    for jobs that did not finish by ``T``: not part of the solution (they earn nothing; the verifier
    and JSON ignore it), but what it decided (the online-property test reads it)."""

    plans: tuple[JobPlan, ...]
    unfinished: tuple[tuple[int, JobPlan], ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        """This ``Schedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"jobs": [plan.to_dict() for plan in self.plans]}

    @classmethod
    def from_dict(cls, d: object, instance: Instance, where: str = "schedule") -> Schedule:
        """Read a ``Schedule`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        plans = []
        for entry, path in per_job(d, len(instance.jobs), where, "plans"):
            p = Fields(entry, path)
            admitted = p.raw("admitted")
            if not isinstance(admitted, bool):
                raise InputError(f"{p.path('admitted')}: must be true or false")
            workers = _entries(p.array("workers", default=[]), p.path("workers"), instance.T, instance.H)
            ps = _entries(p.array("ps", default=[]), p.path("ps"), instance.T, instance.K)
            p.done()
            plans.append(JobPlan(admitted, workers, ps))
        return cls(tuple(plans))


def _entries(raw: list, where: str, T: int, servers: int) -> tuple[tuple[int, int, int], ...]:
    out, seen = [], set()
    for e, entry in enumerate(raw):
        if not isinstance(entry, list) or len(entry) != 3:
            raise InputError(f"{where}[{e}]: must be [slot, server, count]")
        t = integer(entry[0], f"{where}[{e}][0]", min=1)
        s = integer(entry[1], f"{where}[{e}][1]", min=0)
        n = integer(entry[2], f"{where}[{e}][2]", min=1)
        if t > T or s >= servers:
            raise InputError(f"{where}[{e}]: slot must be in 1..{T} and server in 0..{servers - 1}, got {entry}")
        if (t, s) in seen:
            raise InputError(f"{where}[{e}]: slot {t}, server {s} is listed twice")
        seen.add((t, s))
        out.append((t, s, n))
    return tuple(sorted(out))


def completed_work(instance: Instance, i: int, per_slot: dict[int, int]) -> tuple[float, float]:
    """(supplied, required) work of job ``i`` under the instance's mode: worker-slots against
    ``W_i`` (2), or chunks ``Σ_t ⌊n_t/ρ⌋`` against ``E_i N_i`` (2B)."""
    facts = instance.facts[i]
    if instance.mode == "worker_slots":
        return float(sum(per_slot.values())), float(facts.W)
    return float(sum(facts.chunks_of(n) for n in per_slot.values())), float(facts.chunk_target)


def verify(instance: Instance, schedule: Schedule) -> list[str]:
    """Every violated constraint of (1), as readable sentences (empty: feasible)."""
    if len(schedule.plans) != len(instance.jobs):
        return [f"schedule has {len(schedule.plans)} plans for {len(instance.jobs)} jobs"]
    violations: list[str] = []
    used_w: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0] * instance.R)
    used_p: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0] * instance.R)
    for i, (job, plan) in enumerate(zip(instance.jobs, schedule.plans)):
        if not plan.admitted:
            if plan.workers or plan.ps:
                violations.append(f"job {i} is not admitted but runs workers or PSs (3), (7)")
            continue
        for t, _, _ in plan.workers + plan.ps:
            if t < job.arrival:
                violations.append(f"job {i} runs in slot {t}, before its arrival {job.arrival} (9), (10)")
                break
        n, m = plan.workers_per_slot(), plan.ps_per_slot()
        supplied, required = completed_work(instance, i, n)
        if supplied < required - FEAS_TOL:
            unit = "worker-slots" if instance.mode == "worker_slots" else "chunks"
            constraint = "2" if unit == "worker-slots" else "2B"
            violations.append(f"job {i} is admitted but gets {supplied:g} {unit} of the {required:g} it needs "
                              f"({constraint})")
        for t in sorted(set(n) | set(m)):
            nt, mt = n.get(t, 0), m.get(t, 0)
            if nt > job.chunks:
                violations.append(f"job {i} runs {nt} workers in slot {t}, more than its {job.chunks} chunks (3)")
            if not leq(job.b * nt, job.B * mt):
                violations.append(f"job {i} in slot {t}: {nt} workers need {job.b * nt:g} Gbps, "
                                  f"its {mt} PSs give {job.B * mt:g} (6)")
            if mt > nt:
                violations.append(f"job {i} in slot {t}: {mt} PSs for {nt} workers (7)")
        for t, h, y in plan.workers:
            for r in range(instance.R):
                used_w[t, h][r] += job.worker_demand[r] * y
        for t, k, z in plan.ps:
            for r in range(instance.R):
                used_p[t, k][r] += job.ps_demand[r] * z
    for (pool, used, servers, eq) in (("worker server", used_w, instance.worker_servers, "(4)"),
                                      ("PS server", used_p, instance.ps_servers, "(5)")):
        for (t, s), amounts in sorted(used.items()):
            for r, amount in enumerate(amounts):
                if not leq(amount, servers[s][r]):
                    violations.append(f"{pool} {s} in slot {t}: {instance.resources[r]} use "
                                      f"{amount:g} exceeds capacity {servers[s][r]:g} {eq}")
    return violations


def objective(instance: Instance, schedule: Schedule) -> float:
    """Total utility (1): ``Σ_i x_i f_i(t̂_i − a_i)`` over admitted jobs with workers."""
    total = 0.0
    for job, plan in zip(instance.jobs, schedule.plans):
        done = plan.completion() if plan.admitted else None
        if done is not None:
            total += job.utility.value(done - job.arrival)
    return total


def releases(instance: Instance) -> list[float]:
    """Each job's release on the time axis of :func:`bars`: ``a_i``, the start of slot ``a_i``
    (slot t is [t - 1, t])."""
    return [float(job.arrival - 1) for job in instance.jobs]


def bars(instance: Instance, schedule: Schedule) -> Iterator[tuple]:
    """The rectangles of the schedule's Gantt chart (``optsched.plot.gantt``): ``(row, start, end, job)``
    per slot a job holds workers or PSs on a server (slot t is the interval [t - 1, t])."""
    for j, plan in enumerate(schedule.plans):
        for pool, entries in (("worker server", plan.workers), ("PS server", plan.ps)):
            for t, server, count in entries:
                if count > 0:
                    yield f"{pool} {server}", t - 1, t, j
