"""Schedules of 1|r_j|Σ w_j C_j and the independent verifier (docs/design.md, principle 1).

A schedule gives each job a start time; the job then runs without interruption for ``p_j``. The
verifier checks the model's two rules directly, without any solver: no job starts before its release
date, and no two jobs overlap on the one machine. Start times may be any reals.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InputError
from ..numeric import FEAS_TOL
from ..schema import Fields, number
from .instance import Instance


@dataclass(frozen=True)
class Schedule:
    """A schedule: each job's start time, in instance order (non-preemptive)."""
    start: tuple[float, ...]  #: start time of each job, in instance order

    def completion(self, instance: Instance) -> tuple[float, ...]:
        """C_j = S_j + p_j per job."""
        return tuple(s + job.p for s, job in zip(self.start, instance.jobs))

    def to_dict(self) -> dict:
        """This ``Schedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"start": [int(s) if float(s).is_integer() else s for s in self.start]}

    @classmethod
    def from_dict(cls, d: object, instance: Instance, where: str = "schedule") -> Schedule:
        """Read a ``Schedule`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        fields = Fields(d, where)
        raw = fields.array("start")
        fields.done()
        if len(raw) != instance.n:
            raise InputError(f"{fields.path('start')}: has {len(raw)} start times, the instance has {instance.n} jobs")
        return cls(tuple(number(s, fields.path(f"start[{j}]")) for j, s in enumerate(raw)))


def left_shifted(instance: Instance, order: tuple[int, ...]) -> Schedule:
    """Run the jobs in ``order``, each at ``max(r_j, completion of the previous job)``: for a fixed
    order, the best schedule (every job starts as early as the order allows)."""
    start = [0.0] * instance.n
    t = 0
    for j in order:
        t = max(t, instance.jobs[j].r)
        start[j] = float(t)
        t += instance.jobs[j].p
    return Schedule(tuple(start))


def verify(instance: Instance, schedule: Schedule) -> list[str]:
    """Every violated rule, as readable sentences; an empty list means the schedule is feasible."""
    violations = []
    if len(schedule.start) != instance.n:
        return [f"schedule has {len(schedule.start)} start times for {instance.n} jobs"]
    for j, (s, job) in enumerate(zip(schedule.start, instance.jobs)):
        if not math.isfinite(s):
            violations.append(f"job {j} has no finite start time ({s})")
        elif s < job.r - FEAS_TOL:
            violations.append(f"job {j} starts at {s:g}, before its release date {job.r}")
    order = sorted(range(instance.n), key=lambda j: (schedule.start[j], j))
    for a, b in zip(order, order[1:]):
        end_a = schedule.start[a] + instance.jobs[a].p
        if schedule.start[b] < end_a - FEAS_TOL:
            violations.append(f"jobs {a} and {b} overlap on the machine: job {a} runs "
                              f"[{schedule.start[a]:g}, {end_a:g}), job {b} starts at {schedule.start[b]:g}")
    return violations


def objective(instance: Instance, schedule: Schedule) -> float:
    """Total weighted completion time ``Σ_j w_j (S_j + p_j)``."""
    return sum(job.w * c for job, c in zip(instance.jobs, schedule.completion(instance)))


def releases(instance: Instance) -> list[float]:
    """Each job's release on the time axis of :func:`bars`: ``r_j``."""
    return [float(job.r) for job in instance.jobs]


def bars(instance: Instance, schedule: Schedule) -> Iterator[tuple]:
    """The rectangles of the schedule's Gantt chart (``optsched.plot.gantt``): ``(row, start, end, job)``,
    each job on the one machine."""
    for j, (job, start) in enumerate(zip(instance.jobs, schedule.start)):
        yield "machine", start, start + job.p, j
