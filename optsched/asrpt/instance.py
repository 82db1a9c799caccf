"""The job stream of family ``asrpt`` (paper §III; spec asrpt.md §1).

An :class:`Instance` is a job stream on ``M`` identical servers: per job a release time, the true
iteration count ``n_i`` (revealed to an online algorithm only at completion) and a predicted count.
Clusters, jobs and units are those of :mod:`optsched.placement.instance`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..placement.instance import Cluster, Job
from ..schema import Fields


@dataclass(frozen=True)
class StreamJob:
    """One job of a stream: its configuration, release time and iteration counts."""

    job: Job
    release: float  #: r_i (s)
    iterations: int  #: n_i, the true count, revealed at completion
    predicted: float  #: ñ_i, the prediction the online algorithm uses (0 for unseen groups)
    group: int = -1  #: recurring-job group (trace instances), -1 if none
    user: int = -1

    def to_dict(self) -> dict:
        """This ``StreamJob`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"release": self.release, "iterations": self.iterations, "predicted": self.predicted,
                "group": self.group, "user": self.user, **self.job.to_dict()}


@dataclass(frozen=True)
class Instance:
    """A job stream on a homogeneous GPU cluster (family ``asrpt``; problem (8))."""

    cluster: Cluster
    jobs: tuple[StreamJob, ...]
    slot: float = 1.0  #: Δ, the slot length (s) of the time-indexed model
    provenance: dict = field(default_factory=dict, compare=False)  #: where the stream came from

    def __post_init__(self):
        if not self.jobs:
            raise InputError("instance: needs at least one job")
        for i, sj in enumerate(self.jobs):
            if sj.job.gpus > self.cluster.total_gpus:
                raise InputError(f"jobs[{i}]: needs {sj.job.gpus} GPUs, the cluster has {self.cluster.total_gpus}")
            if sj.release < 0 or sj.iterations < 1 or sj.predicted < 0:
                raise InputError(f"jobs[{i}]: release and predicted must be >= 0 and iterations >= 1")
        if self.cluster.intra_bw < self.cluster.inter_bw / self.cluster.gpus:
            raise InputError("cluster: intra_bw must be at least inter_bw / gpus (spec §1.3, [A23])")

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"kind": "stream", "cluster": self.cluster.to_dict(), "slot": self.slot,
                "provenance": dict(self.provenance), "jobs": [sj.to_dict() for sj in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        f.text("kind", choices=("stream",))
        cluster = Cluster.from_dict(f.raw("cluster"), f.path("cluster"))
        slot = f.number("slot", positive=True, default=1.0)
        provenance = f.raw("provenance", default={})
        if not isinstance(provenance, dict):
            raise InputError(f"{f.path('provenance')}: must be an object")
        jobs = []
        for i, raw in enumerate(f.array("jobs", nonempty=True)):
            path = f.path(f"jobs[{i}]")
            g = Fields(raw, path)
            release = g.number("release", min=0.0)
            iterations = g.integer("iterations", min=1)
            predicted = g.number("predicted", min=0.0)
            group, user = g.integer("group", min=-1, default=-1), g.integer("user", min=-1, default=-1)
            job = Job.from_dict({"model": g.raw("model", default=""), "stages": g.raw("stages")}, path)
            g.done()
            jobs.append(StreamJob(job, release, iterations, predicted, group, user))
        f.done()
        return cls(cluster, tuple(jobs), slot, provenance)
