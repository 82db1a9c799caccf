"""Edge-cloud preemptive scheduling instances (paper §III; spec edge-preemptive.md §1).

Edge servers ``s`` host typed workers and PSs; the remote cloud has unlimited workers and PSs of
every type. Job ``j`` is released at slot ``r_j`` with ``D_j`` equal data chunks; one chunk needs
``p^0_j`` slots on one qualified worker (edge, or cloud while the job is split), or ``p^1_j <= p^0_j``
slots when every worker and the PS of the job are in the cloud (no worker-PS exchange: ``ζ_j = 1``).
Processing times are integers [E2]: generators round ``E_j B_j / n_j`` up, with ``n_j`` from eq. (1).
A chunk can be trained on server ``s`` from slot ``r_j + Δ_js`` on (its upload delay).

Time [E1]: slot ``t`` is ``[t, t+1)``; a job's completion is its last busy slot + 1; its JCT is
``C_j − r_j``. Qualification: a worker (PS) qualifies iff its type is the job's worker (PS) type; cloud
workers and PSs qualify for every job [R]. ``cloud = False`` removes the cloud (edge-only families).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from ..errors import InputError
from ..limits import MAX_SLOTS, refuse_above
from ..schema import Fields, integer, number

#: Where a chunk runs: its edge worker's position in ``Instance.workers``, or ``("cloud", job, chunk)``
#: for the chunk's own cloud worker.
Place = int | tuple[str, int, int]


@dataclass(frozen=True)
class Server:
    """An edge server: the type of each of its workers and of each of its PSs."""
    workers: tuple[str, ...]  #: the type of each worker on this edge server
    ps: tuple[str, ...]  #: the type of each PS on this edge server

    def to_dict(self) -> dict:
        """This ``Server`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"workers": list(self.workers), "ps": list(self.ps)}


@dataclass(frozen=True)
class Job:
    """A job (spec §1): release ``r_j``, ``D_j`` chunks, slots per chunk on the edge (``p^0_j``) and in the cloud
    (``p^1_j``), upload delays to each edge server and to the cloud, worker and PS types, the trace's gang size
    [E34] and the communication share of a slot."""
    release: int  #: r_j >= 0
    chunks: int  #: D_j
    p_edge: int  #: p^0_j: slots per chunk unless the whole job is in the cloud
    p_cloud: int  #: p^1_j <= p^0_j: slots per chunk when the whole job is in the cloud (ζ_j = 1)
    delay_edge: tuple[int, ...]  #: Δ_js per edge server
    delay_cloud: int  #: Δ_{j,c}
    worker_type: str = "w"
    ps_type: str = "p"
    gang: int = 1  #: workers the trace gave the job (the rigid baselines' gang size, [E34])
    comm_fraction: float = 0.0  #: share of an edge slot spent on worker-PS exchange (metrics only)

    @property
    def rate(self) -> Fraction:
        """``γ = 1/(D_j p^0_j)``: HAPRF's average processing rate on any edge worker (spec §3.4)."""
        return Fraction(1, self.chunks * self.p_edge)

    def to_dict(self) -> dict:
        """This ``Job`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"release": self.release, "chunks": self.chunks, "p_edge": self.p_edge, "p_cloud": self.p_cloud,
                "delay_edge": list(self.delay_edge), "delay_cloud": self.delay_cloud,
                "worker_type": self.worker_type, "ps_type": self.ps_type, "gang": self.gang,
                "comm_fraction": self.comm_fraction}


@dataclass(frozen=True)
class Instance:
    """An ``edge`` instance: the edge servers, the jobs, and whether the cloud may be used."""
    servers: tuple[Server, ...]
    jobs: tuple[Job, ...]
    cloud: bool = True

    def __post_init__(self):
        _validate(self)

    @cached_property
    def workers(self) -> tuple[tuple[int, int], ...]:
        """Every edge worker as ``(server, index)``, in server order."""
        return tuple((s, w) for s, server in enumerate(self.servers) for w in range(len(server.workers)))

    @cached_property
    def qualified(self) -> tuple[tuple[int, ...], ...]:
        """Per job, the positions (in :attr:`workers`) of the edge workers it may use."""
        return tuple(tuple(e for e, (s, w) in enumerate(self.workers) if self.servers[s].workers[w] == job.worker_type)
                     for job in self.jobs)

    @property
    def max_chunks(self) -> int:
        """D_max: the most chunks of any job (Theorem 3's ratio D_max (1 + 1/ε))."""
        return max((job.chunks for job in self.jobs), default=1)

    def horizon(self, j: int | None = None) -> int:
        """An exclusive slot bound that some optimal schedule respects (spec §2.5): per job
        ``r + Δ_c + p^1`` when the cloud is usable (the whole job moved there finishes then, hurting
        nobody); otherwise, for every job, ``max(r + Δ) + Σ D p^0`` (left-shift argument)."""
        if self.cloud and j is not None:
            job = self.jobs[j]
            return job.release + job.delay_cloud + job.p_cloud
        delays = [max((*job.delay_edge, job.delay_cloud if self.cloud else 0), default=0) for job in self.jobs]
        latest = max((job.release + delay for job, delay in zip(self.jobs, delays)), default=0)
        return latest + sum(job.chunks * job.p_edge for job in self.jobs)

    @property
    def last_slot(self) -> int:
        """The slots the loader bounds: without a cloud the global horizon; with one, the latest
        per-job horizon the exact models use or the end of a job alone on one edge worker
        (``r + max Δ + D p^0``), whichever is later, since algorithms may keep a job on the edge."""
        if self.cloud:
            alone = (job.release + max((*job.delay_edge, job.delay_cloud)) + job.chunks * job.p_edge
                     for job in self.jobs)
            return max((*(self.horizon(j) for j in range(len(self.jobs))), *alone), default=0)
        return self.horizon()

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"cloud": self.cloud, "servers": [s.to_dict() for s in self.servers],
                "jobs": [job.to_dict() for job in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        cloud = f.raw("cloud", True)
        if not isinstance(cloud, bool):
            raise InputError(f"{f.path('cloud')}: must be true or false")
        servers = tuple(_server(raw, f.path(f"servers[{s}]")) for s, raw in enumerate(f.array("servers")))
        jobs = tuple(_job(raw, len(servers), f.path(f"jobs[{j}]")) for j, raw in enumerate(f.array("jobs")))
        f.done()
        instance = cls(servers, jobs, cloud)
        refuse_above(instance.last_slot, MAX_SLOTS, f"{where}: the horizon (time slots, spec §2.5)")
        return instance


def _types(raw: object, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) and x for x in raw):
        raise InputError(f"{where}: must be a list of type names")
    return tuple(raw)


def _server(raw: object, where: str) -> Server:
    f = Fields(raw, where)
    server = Server(_types(f.raw("workers"), f.path("workers")), _types(f.raw("ps", []), f.path("ps")))
    f.done()
    return server


def _job(raw: object, servers: int, where: str) -> Job:
    f = Fields(raw, where)
    delays = f.array("delay_edge")
    if len(delays) != servers:
        raise InputError(f"{f.path('delay_edge')}: needs one delay per edge server ({servers}), got {len(delays)}")
    job = Job(
        release=f.integer("release", min=0), chunks=f.integer("chunks", min=1),
        p_edge=f.integer("p_edge", min=1), p_cloud=f.integer("p_cloud", min=1),
        delay_edge=tuple(integer(x, f"{f.path('delay_edge')}[{s}]", min=0) for s, x in enumerate(delays)),
        delay_cloud=f.integer("delay_cloud", min=0),
        worker_type=f.text("worker_type", default="w"), ps_type=f.text("ps_type", default="p"),
        gang=f.integer("gang", min=1, default=1),
        comm_fraction=number(f.raw("comm_fraction", 0.0), f.path("comm_fraction"), min=0.0),
    )
    f.done()
    return job


def _validate(instance: Instance) -> None:
    releases = [job.release for job in instance.jobs]
    if releases != sorted(releases):
        raise InputError("jobs must be listed in release order (non-decreasing release slots)")
    for j, job in enumerate(instance.jobs):
        if not 1 <= job.p_cloud <= job.p_edge:
            raise InputError(f"jobs[{j}]: need 1 <= p_cloud <= p_edge, got p_cloud={job.p_cloud}, p_edge={job.p_edge}")
        if len(job.delay_edge) != len(instance.servers):
            raise InputError(f"jobs[{j}]: needs one edge delay per server ({len(instance.servers)})")
        if job.comm_fraction >= 1:
            raise InputError(f"jobs[{j}].comm_fraction: must be below 1, got {job.comm_fraction}")
        if not instance.cloud and not instance.qualified[j]:
            raise InputError(f"jobs[{j}]: no edge worker of type {job.worker_type!r} and no cloud: it can never run")
    if not instance.cloud:
        # Without a cloud PS, PSs must never run out: the exact models leave PSs out [R], so every PS
        # type a job needs must have at least as many edge PSs as there are edge workers.
        edge_workers = len(instance.workers)
        for ps_type in {job.ps_type for job in instance.jobs}:
            have = sum(server.ps.count(ps_type) for server in instance.servers)
            if have < edge_workers:
                raise InputError(f"without a cloud, PS type {ps_type!r} needs at least {edge_workers} edge PSs "
                                 f"(one per edge worker), got {have}")


def time_scaled(instance: Instance, release_factor: int, work_factor: int) -> Instance:
    """Every release and delay times ``release_factor``, every processing time times ``work_factor``."""
    jobs = tuple(replace(job, release=job.release * release_factor, delay_cloud=job.delay_cloud * release_factor,
                         delay_edge=tuple(d * release_factor for d in job.delay_edge),
                         p_edge=job.p_edge * work_factor, p_cloud=job.p_cloud * work_factor) for job in instance.jobs)
    return replace(instance, jobs=jobs)


def speed_augmented(instance: Instance, epsilon: Fraction | float | str) -> tuple[Instance, Instance]:
    """Speed augmentation by time scaling (spec §3.7): with ``1 + ε = a/b``, the offline copy has
    ``r·a, Δ·a, p·a`` and the online copy ``r·a, Δ·a, p·b``, both on a grid of ``1/a`` slot, so the
    online machines are exactly ``(1+ε)`` times faster. Returns ``(offline, online)``."""
    speed = 1 + Fraction(epsilon).limit_denominator(1000)
    a, b = speed.numerator, speed.denominator
    return time_scaled(instance, a, a), time_scaled(instance, a, b)
