"""Edge-cloud schedules and the independent verifier of problem (2) (paper §III; spec §2.1).

A schedule is job-level, as (2) is: for each job, which edge workers work for it in which slots
(``y_jsw(t)``), how many cloud workers it uses per slot, and which PS serves it in each busy slot
(an edge PS ``z_jsp(t)`` or a cloud PS). ``ζ_j = 1`` iff the job never touches the edge.

The verifier checks (2a)-(2j) directly: qualification, enough worker-slots at the job's rate
(``D_j p^1_j`` if ``ζ_j = 1``, else ``D_j p^0_j``: (2b) with integral times), at most ``D_j`` workers
at once, one job per worker and per PS and slot, exactly one PS in every busy slot, nothing before
``r_j + Δ_js`` on a server. PSs hold no data chunk, so upload delays do not apply to them (only
``t >= r_j``). The chunk structure and the no-migration rule of the operational model are
properties of the online algorithm, tested there: problem (2) itself may migrate work [E22].
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InputError
from ..schema import Fields, integer, per_job
from .instance import Instance


@dataclass(frozen=True)
class JobRun:
    """One job's schedule: the (slot, server, worker) triples it occupies on the edge, its cloud workers per slot, and
    its PSs on the edge or in the cloud."""
    edge: tuple[tuple[int, int, int], ...] = ()  #: (slot, server, worker) busy for the job
    cloud: tuple[tuple[int, int], ...] = ()  #: (slot, number of cloud workers)
    edge_ps: tuple[tuple[int, int, int], ...] = ()  #: (slot, server, PS)
    cloud_ps: tuple[int, ...] = ()  #: slots served by a cloud PS

    @property
    def zeta(self) -> bool:
        """ζ_j: every worker and PS of the job is in the cloud (2g)/(2h)."""
        return not self.edge and not self.edge_ps

    def busy_slots(self) -> set[int]:
        """The slots in which the job trains at least one chunk, on the edge or in the cloud."""
        return {t for t, _, _ in self.edge} | {t for t, k in self.cloud if k > 0}

    def completion(self) -> int | None:
        """C_j: last busy slot + 1 [E1] (None if the job never runs)."""
        busy = self.busy_slots()
        return max(busy) + 1 if busy else None

    def to_dict(self) -> dict:
        """This ``JobRun`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"edge": [list(e) for e in self.edge], "cloud": [list(c) for c in self.cloud],
                "edge_ps": [list(e) for e in self.edge_ps], "cloud_ps": list(self.cloud_ps)}


@dataclass(frozen=True)
class Schedule:
    """A schedule of an ``edge`` instance: one ``JobRun`` per job, in instance order."""
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
            g = Fields(entry, path)
            edge = _triples(g.array("edge"), g.path("edge"))
            cloud = tuple(_pair(x, f"{g.path('cloud')}[{k}]") for k, x in enumerate(g.array("cloud")))
            edge_ps = _triples(g.array("edge_ps"), g.path("edge_ps"))
            cloud_ps = tuple(integer(x, f"{g.path('cloud_ps')}[{k}]", min=0) for k, x in enumerate(g.array("cloud_ps")))
            g.done()
            runs.append(JobRun(edge, cloud, edge_ps, cloud_ps))
        return cls(tuple(runs))


def _triples(raw: list, where: str) -> tuple[tuple[int, int, int], ...]:
    out: list[tuple[int, int, int]] = []
    for k, x in enumerate(raw):
        if not isinstance(x, list) or len(x) != 3:
            raise InputError(f"{where}[{k}]: must be [slot, server, index]")
        slot, server, index = (integer(v, f"{where}[{k}][{i}]", min=0) for i, v in enumerate(x))
        out.append((slot, server, index))
    return tuple(out)


def _pair(x: object, where: str) -> tuple[int, int]:
    if not isinstance(x, list) or len(x) != 2:
        raise InputError(f"{where}: must be [slot, count]")
    return integer(x[0], f"{where}[0]", min=0), integer(x[1], f"{where}[1]", min=1)


def verify(instance: Instance, schedule: Schedule) -> list[str]:
    """Every violated constraint of (2), as readable sentences (empty: feasible)."""
    if len(schedule.jobs) != len(instance.jobs):
        return [f"schedule has {len(schedule.jobs)} entries for {len(instance.jobs)} jobs"]
    violations: list[str] = []
    # who holds each (slot, server, worker) and (slot, server, PS) first, and the users of the ones held twice
    worker_use: dict[tuple[int, int, int], int] = {}
    ps_use: dict[tuple[int, int, int], int] = {}
    worker_clash: dict[tuple[int, int, int], list[int]] = {}
    ps_clash: dict[tuple[int, int, int], list[int]] = {}
    for j, (job, run) in enumerate(zip(instance.jobs, schedule.jobs)):
        if run.cloud and not instance.cloud:
            violations.append(f"job {j} uses cloud workers, but this instance has no cloud")
        per_slot: Counter = Counter()
        for t, s, w in run.edge:
            if s >= len(instance.servers) or w >= len(instance.servers[s].workers):
                violations.append(f"job {j}: worker {w} of server {s} does not exist")
                continue
            if instance.servers[s].workers[w] != job.worker_type:
                violations.append(f"job {j} uses worker {w} of server {s}, of type {instance.servers[s].workers[w]!r}, "
                                  f"not its type {job.worker_type!r} (2a)")
            if t < job.release + job.delay_edge[s]:
                violations.append(f"job {j} works on server {s} in slot {t}, before its data arrives at "
                                  f"{job.release + job.delay_edge[s]} (2i)")
            _hold(worker_use, worker_clash, (t, s, w), j)
            per_slot[t] += 1
        for t, k in run.cloud:
            if t < job.release + job.delay_cloud:
                violations.append(f"job {j} works in the cloud in slot {t}, before its data arrives at "
                                  f"{job.release + job.delay_cloud} (2i)")
            per_slot[t] += k
        for t, count in sorted(per_slot.items()):
            if count > job.chunks:
                violations.append(f"job {j} runs {count} workers in slot {t}, more than its {job.chunks} chunks (2c)")
        rate = job.p_cloud if run.zeta else job.p_edge
        needed, supplied = job.chunks * rate, sum(per_slot.values())
        if supplied < needed:
            violations.append(f"job {j} gets {supplied} worker-slots of the {needed} it needs at "
                              f"{'the cloud' if run.zeta else 'the edge'} rate (2b)")
        ps_slots: Counter = Counter()
        for t, s, p in run.edge_ps:
            if s >= len(instance.servers) or p >= len(instance.servers[s].ps):
                violations.append(f"job {j}: PS {p} of server {s} does not exist")
                continue
            if instance.servers[s].ps[p] != job.ps_type:
                violations.append(f"job {j} uses PS {p} of server {s}, of type {instance.servers[s].ps[p]!r}, "
                                  f"not its type {job.ps_type!r} (2e)")
            _hold(ps_use, ps_clash, (t, s, p), j)
            ps_slots[t] += 1
        for t in run.cloud_ps:
            if not instance.cloud:
                violations.append(f"job {j} uses a cloud PS, but this instance has no cloud")
            ps_slots[t] += 1
        for t in sorted(set(ps_slots) | set(per_slot)):
            if t < job.release:
                violations.append(f"job {j} holds a PS or worker in slot {t}, before its release {job.release} (2i)")
            if per_slot[t] > 0 and ps_slots[t] != 1:
                violations.append(f"job {j} has {ps_slots[t]} PSs in busy slot {t}, not exactly one (2e)")
    for (t, s, w), users in sorted(worker_clash.items()):
        violations.append(f"worker {w} of server {s} serves jobs {users} in slot {t} (2d)")
    for (t, s, p), users in sorted(ps_clash.items()):
        violations.append(f"PS {p} of server {s} serves jobs {users} in slot {t} (2f)")
    return violations


def _hold(holder: dict[tuple[int, int, int], int], clash: dict[tuple[int, int, int], list[int]],
          key: tuple[int, int, int], j: int) -> None:
    """Job ``j`` uses ``key`` (a worker or PS in a slot): record it, and every user of a key used twice."""
    if key in holder:
        clash.setdefault(key, [holder[key]]).append(j)
    else:
        holder[key] = j


def objective(instance: Instance, schedule: Schedule) -> float:
    """Total JCT ``Σ_j (C_j − r_j)`` with end-exclusive completions [E1]."""
    completions = ((run.completion(), job.release) for job, run in zip(instance.jobs, schedule.jobs))
    return float(sum(c - r for c, r in completions if c is not None))


def releases(instance: Instance) -> list[float]:
    """Each job's release on the time axis of :func:`bars`: ``r_j``, the start of slot ``r_j``
    (slot t is [t, t + 1])."""
    return [float(job.release) for job in instance.jobs]


def bars(instance: Instance, schedule: Schedule) -> Iterator[tuple]:
    """The rectangles of the schedule's Gantt chart (``optsched.plot.gantt``): ``(row, start, end, job)``
    per slot a job runs on an edge worker (row ``server s/worker w``) or in the cloud."""
    for j, run in enumerate(schedule.jobs):
        for t, server, worker in run.edge:
            yield f"server {server}/worker {worker}", t, t + 1, j
        for t, count in run.cloud:
            if count > 0:
                yield "cloud", t, t + 1, j
