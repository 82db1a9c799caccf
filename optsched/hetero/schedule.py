"""Hetero schedules and the independent verifier of problem (2) / (15) (spec §1.7).

A job's schedule is ``l = (start, d, m, p, q, y, s)``: it starts at slot ``start``, runs ``d``
consecutive slots with ``y[h]`` type-``m`` workers and ``s[h]`` type-``p`` PSs on server ``h``
(no ``p``, ``s`` for allreduce), and ``q = 1`` claims co-location. The verifier checks V1-V9 from
the instance's data only, on any horizon (online schedules run far past ``T``):

V1 one schedule per job; V2 one worker type and one PS type; V3 ``1 <= Σ y <= D_j``; V4 ``Σ s >= 1``
(ps); V5 bandwidth cover (2i) on every server hosting a PS; V6 ``q = 1`` only on one server (the
"only if" half is relaxed, W4/D8); V7 ``d N ρ(q) >= W_j`` (2f, exact); V8 ``start >= a_j``;
V9 capacity (2h) in every slot. The objective is ``Σ_j w_j (start_j + d_j)``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import InputError
from ..schema import Fields, integer, per_job
from .instance import Instance, ps_type

#: Slack for capacity sums of float demands.
CAPACITY_TOL = 1e-9


@dataclass(frozen=True)
class JobSchedule:
    """One job's schedule l (problem (2)): start slot, duration d in slots, worker type m, PS type p (None for Ring-
    AllReduce), PS count q, workers y_h and PSs s_h per server."""
    start: int
    d: int
    m: int
    p: int | None
    q: int
    y: tuple[int, ...]  #: workers per server
    s: tuple[int, ...]  #: PSs per server (all 0 for allreduce)

    @property
    def completion(self) -> int:
        """The completion slot, start + d."""
        return self.start + self.d

    @property
    def workers(self) -> int:
        """The job's worker count, Σ_h y_h."""
        return sum(self.y)

    def footprint(self, instance: Instance, h: int) -> tuple[float, ...]:
        """``f_h(l)``: per-slot usage on server ``h`` of every resource."""
        e = instance.worker_demand[self.m]
        z = instance.ps_demand[self.p] if self.p is not None else (0.0,) * instance.R
        return tuple(self.y[h] * e[r] + self.s[h] * z[r] for r in range(instance.R))

    def to_dict(self) -> dict:
        """This ``JobSchedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"start": self.start, "d": self.d, "m": self.m, "p": self.p, "q": self.q,
                "y": list(self.y), "s": list(self.s)}


@dataclass(frozen=True)
class Schedule:
    """One run per job (problem (2)). ``killed`` records the runs a preemptive baseline started and
    later killed, as ``(job, run, slot killed)``: not part of the solution (the verifier and JSON
    ignore them), but what it decided before then (the online-property test reads them)."""

    jobs: tuple[JobSchedule, ...]
    killed: tuple[tuple[int, JobSchedule, int], ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        """This ``Schedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"jobs": [job.to_dict() for job in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, instance: Instance, where: str = "schedule") -> Schedule:
        """Read a ``Schedule`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        return cls(tuple(_job(entry, instance, path) for entry, path in per_job(d, len(instance.jobs), where)))


def _counts(raw: object, H: int, where: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != H:
        raise InputError(f"{where}: must be a list of {H} counts, one per server")
    return tuple(integer(x, f"{where}[{h}]", min=0) for h, x in enumerate(raw))


def _job(raw: object, instance: Instance, where: str) -> JobSchedule:
    f = Fields(raw, where)
    p_raw = f.raw("p", None)
    job = JobSchedule(start=f.integer("start", min=1), d=f.integer("d", min=1), m=f.integer("m", min=0),
                      p=None if p_raw is None else integer(p_raw, f.path("p"), min=0), q=f.integer("q", min=0),
                      y=_counts(f.raw("y"), instance.H, f.path("y")),
                      s=_counts(f.raw("s", [0] * instance.H), instance.H, f.path("s")))
    f.done()
    return job


def verify(instance: Instance, schedule: Schedule) -> list[str]:
    """Every violated condition of V1-V9, readably; empty when the schedule is feasible."""
    problems: list[str] = []
    if len(schedule.jobs) != len(instance.jobs):  # V1
        return [f"V1: {len(schedule.jobs)} job schedules for {len(instance.jobs)} jobs"]
    usage: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0] * instance.R)
    ps = instance.framework == "ps"
    for j, (job, l) in enumerate(zip(instance.jobs, schedule.jobs)):
        where = f"job {j}"
        ps_type_ok = (l.p is not None and 0 <= l.p < instance.P) if ps else l.p is None
        if not 0 <= l.m < instance.M or not ps_type_ok:
            problems.append(f"V2 {where}: worker type {l.m} / PS type {l.p} do not exist "
                            f"in this {instance.framework} instance")
            continue
        if l.q not in (0, 1):
            problems.append(f"V6 {where}: q must be 0 or 1, got {l.q}")
            continue
        N = l.workers
        if not 1 <= N <= job.chunks:  # V3
            problems.append(f"V3 {where}: {N} workers, needs 1..{job.chunks}")
            continue
        if ps and sum(l.s) < 1:  # V4
            problems.append(f"V4 {where}: no parameter server")
        if not ps and any(l.s):
            problems.append(f"V2 {where}: allreduce jobs have no parameter servers")
        if ps:  # V5
            bandwidth = instance.B(ps_type(l.p))
            for h in range(instance.H):
                if l.s[h] and l.s[h] * bandwidth < instance.b(l.m) * (N - l.y[h]) - CAPACITY_TOL:
                    problems.append(f"V5 {where}: PSs on server {h} cover {l.s[h] * bandwidth:g} of "
                                    f"{instance.b(l.m) * (N - l.y[h]):g} remote worker bandwidth")
        hosts = {h for h in range(instance.H) if l.y[h] or l.s[h]}
        if l.q == 1 and len(hosts) != 1:  # V6
            problems.append(f"V6 {where}: q = 1 but the job is on servers {sorted(hosts)}")
        if not instance.fast_enough(j, l.m, l.p, l.q, N, l.d):  # V7
            problems.append(f"V7 {where}: {N} workers for {l.d} slots process fewer than W = {job.work} mini-batches")
        if l.start < job.arrival:  # V8
            problems.append(f"V8 {where}: starts at {l.start}, before its arrival {job.arrival}")
        for h in hosts:
            f = l.footprint(instance, h)
            for t in range(l.start, l.completion):
                row = usage[(t, h)]
                for r in range(instance.R):
                    row[r] += f[r]
    over = []  # V9, reported in (slot, server, resource) order; only the overloaded ones are sorted
    for (t, h), row in usage.items():
        for r, used in enumerate(row):
            cap = instance.capacity[h][r]
            if used > cap + CAPACITY_TOL * max(1.0, cap):
                over.append((t, h, r, used, cap))
    for t, h, r, used, cap in sorted(over):
        problems.append(f"V9: slot {t}, server {h}, resource {r}: {used:g} used of {cap:g}")
    return problems


def objective(instance: Instance, schedule: Schedule) -> float:
    """Total weighted completion time, Σ_j w_j (start_j + d_j) (objective (2))."""
    return sum(job.weight * l.completion for job, l in zip(instance.jobs, schedule.jobs))


def releases(instance: Instance) -> list[float]:
    """Each job's release on the time axis of :func:`bars`: ``a_j``, the start of slot ``a_j``
    (slot t is [t - 1, t])."""
    return [float(job.arrival - 1) for job in instance.jobs]


def bars(instance: Instance, schedule: Schedule) -> Iterator[tuple]:
    """The rectangles of the schedule's Gantt chart (``optsched.plot.gantt``): ``(row, start, end, job,
    killed)`` per server a run holds workers or PSs on, in slots; a run a baseline killed ends where
    it was killed."""
    def runs(j: int, run: JobSchedule, killed: bool, until: int | None = None) -> Iterator[tuple]:
        end = run.start - 1 + run.d if until is None else until
        for h, (workers, pss) in enumerate(zip(run.y, run.s)):
            if workers or pss:
                yield f"server {h}", run.start - 1, end, j, killed

    for j, run in enumerate(schedule.jobs):
        yield from runs(j, run, False)
    for j, run, killed_at in schedule.killed:
        yield from runs(j, run, True, killed_at - 1)
