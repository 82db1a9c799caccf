"""Stream schedules and their independent verifier (spec asrpt.md §1, §2.1).

A :class:`Schedule` gives every job of a stream a start time ``t_i`` and counts ``{server: [x_s]}``.
Valid when (1) ``t_i >= r_i``, (2) every replica is placed on an existing server
(:func:`optsched.placement.schedule.count_errors`), and (3) no server ever runs more than ``g``
GPUs, each job holding its GPUs over the half-open interval ``[t_i, t_i + n_i α_i(x))`` [A6]:
non-preemptive, no migration. Objective: ``Σ_i C_i`` (s), the sum of absolute completion times of
problem (8).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InputError
from ..numeric import FEAS_TOL
from ..placement.schedule import count_errors
from ..placement.timing import alpha
from ..schema import Fields, integer, number, per_job
from .instance import Instance


@dataclass(frozen=True)
class JobRun:
    """One job's run: its start time ``t_i`` (s) and its placement, the replicas of each stage per server (non-
    preemptive: it holds these GPUs until it completes)."""
    start: float  #: t_i (s)
    counts: dict[int, tuple[int, ...]]  #: server -> replicas per stage

    def to_dict(self) -> dict:
        """This ``JobRun`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"start": self.start, "placement": [[m, list(row)] for m, row in sorted(self.counts.items())]}


@dataclass(frozen=True)
class Schedule:
    """A schedule of an ``asrpt`` instance: one ``JobRun`` per job, in instance order."""
    jobs: tuple[JobRun, ...]

    def to_dict(self) -> dict:
        """This ``Schedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"jobs": [run.to_dict() for run in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, instance: Instance, where: str = "schedule") -> Schedule:
        """Read a ``Schedule`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        runs = []
        for entry, path in per_job(d, len(instance.jobs), where):
            f = Fields(entry, path)
            start = number(f.raw("start"), f.path("start"), min=0.0)
            counts = {}
            for k, pair in enumerate(f.array("placement", nonempty=True)):
                at = f.path(f"placement[{k}]")
                if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], list)):
                    raise InputError(f"{at}: must be [server, [replicas per stage]]")
                m = integer(pair[0], f"{at}[0]", min=0)
                if m >= instance.cluster.servers:
                    raise InputError(f"{at}[0]: server {m} does not exist ({instance.cluster.servers} servers)")
                if m in counts:
                    raise InputError(f"{at}[0]: server {m} listed twice")
                counts[m] = tuple(integer(x, f"{at}[1][{s}]", min=0) for s, x in enumerate(pair[1]))
            f.done()
            runs.append(JobRun(start, counts))
        return cls(tuple(runs))


def durations(instance: Instance, schedule: Schedule) -> list[float]:
    """``n_i α_i(x_i)`` per job (s)."""
    return [sj.iterations * alpha(sj.job, list(run.counts.values()), instance.cluster)
            for sj, run in zip(instance.jobs, schedule.jobs)]


def verify(instance: Instance, schedule: Schedule) -> list[str]:
    """Every violated constraint of problem (8), readably (empty when feasible)."""
    if len(schedule.jobs) != len(instance.jobs):
        return [f"schedule has {len(schedule.jobs)} jobs, the instance has {len(instance.jobs)}"]
    cluster = instance.cluster
    problems = []
    for i, (sj, run) in enumerate(zip(instance.jobs, schedule.jobs)):
        if run.start < sj.release - FEAS_TOL:
            problems.append(f"job {i} starts at {run.start:g} before its release {sj.release:g} (1)")
        if any(not 0 <= m < cluster.servers for m in run.counts):
            problems.append(f"job {i}: placement names a server outside 0..{cluster.servers - 1}")
            continue
        problems += count_errors(sj.job, {m: list(r) for m, r in run.counts.items()}, f"job {i}")
    if problems:
        return problems
    events: dict[int, list[tuple[float, int, int]]] = {}
    for run, length in zip(schedule.jobs, durations(instance, schedule)):
        for m, row in run.counts.items():
            if sum(row):
                # Ends sort before starts at the same time (half-open intervals, [A6]).
                events.setdefault(m, []).append((run.start, 1, sum(row)))
                events.setdefault(m, []).append((run.start + length - FEAS_TOL, 0, -sum(row)))
    for m, items in sorted(events.items()):
        busy = 0
        for time, _, delta in sorted(items):
            busy += delta
            if busy > cluster.gpus:
                problems.append(f"server {m} runs {busy} GPUs at time {time:g}, has {cluster.gpus} (3)")
                break
    return problems


def completions(instance: Instance, schedule: Schedule) -> list[float]:
    """``C_i = t_i + n_i α_i`` per job (s)."""
    return [run.start + length for run, length in zip(schedule.jobs, durations(instance, schedule))]


def objective(instance: Instance, schedule: Schedule) -> float:
    """``Σ_i C_i`` (s), objective (8)."""
    return sum(completions(instance, schedule))


def releases(instance: Instance) -> list[float]:
    """Each job's release on the time axis of :func:`bars`: ``r_i`` (s)."""
    return [float(job.release) for job in instance.jobs]


def bars(instance: Instance, schedule: Schedule) -> Iterator[tuple]:
    """The rectangles of the schedule's Gantt chart (``optsched.plot.gantt``): ``(row, start, end, job)``
    per server a job's GPUs are on, in seconds."""
    for j, (run, end) in enumerate(zip(schedule.jobs, completions(instance, schedule))):
        for server in sorted(run.counts):
            yield f"server {server}", run.start, end, j
