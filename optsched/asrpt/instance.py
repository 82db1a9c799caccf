"""Clusters, jobs and the two kinds of instance of Luo et al. (paper §III; spec asrpt.md §1).

Units, used everywhere in the package: time in **seconds**, data in **MB**, bandwidth in **MB/s**
(10 Gbps = 1,250 MB/s). The placement family reports per-iteration time in milliseconds, as the
paper's Table II does; that conversion happens only in its objective.

A job is a chain of stages (pipeline parallelism), stage ``s`` replicated on ``k_s`` GPUs (data
parallelism). Per stage: ``compute`` = ``P_s = p^f_s + p^b_s`` (one mini-batch on one replica),
``params`` = ``h_s`` (MB of trainable parameters, the AllReduce volume), ``send`` = the total volume
stage ``s`` sends to stage ``s+1`` per iteration in one direction (activations; the gradients flow
back with the same size). Per replica, ``d^out_s = send_s / k_s`` and ``d^in_{s+1} = send_s / k_{s+1}``
[A1]: storing the boundary volume makes the consistency condition ``k_s d^out_s = k_{s+1} d^in_{s+1}``
hold by construction. The last stage sends nothing.

* :class:`PlacementInstance`: one job, the free GPUs of each server, and whether the job must use
  every free GPU it is given (``fill = "exact"``, the allotment comparison of Table II) or at most
  that many (``"at_most"``).
* :class:`Instance`: a job stream on ``M`` identical servers: per job a release time, the true
  iteration count ``n_i`` (revealed to an online algorithm only at completion) and a predicted count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..errors import InputError
from ..schema import Fields, integer

ALLREDUCE = ("ring", "tree")  #: RAR and TAR; they weight the job graph only (§1.4)
FILLS = ("at_most", "exact")


@dataclass(frozen=True)
class Cluster:
    """``M`` identical servers of ``g`` GPUs; NIC ``B_inter`` per server, GPU links ``B_intra``."""

    servers: int  #: M
    gpus: int  #: g, GPUs per server
    inter_bw: float  #: B_inter, MB/s in each direction
    intra_bw: float  #: B_intra, MB/s

    @property
    def total_gpus(self) -> int:
        return self.servers * self.gpus

    @property
    def theta(self) -> float:
        """``θ = g / B_inter``: seconds per MB through one GPU's share of the NIC."""
        return self.gpus / self.inter_bw

    @property
    def phi(self) -> float:
        """``φ = 1 / B_intra``: seconds per MB over the intra-server links."""
        return 1.0 / self.intra_bw

    def to_dict(self) -> dict:
        return {"servers": self.servers, "gpus": self.gpus, "inter_bw": self.inter_bw, "intra_bw": self.intra_bw}

    @classmethod
    def from_dict(cls, d: object, where: str = "cluster") -> Cluster:
        f = Fields(d, where)
        cluster = cls(f.integer("servers", min=1), f.integer("gpus", min=1), f.number("inter_bw", positive=True),
                      f.number("intra_bw", positive=True))
        f.done()
        return cluster


@dataclass(frozen=True)
class Stage:
    compute: float  #: P_s: forward + backward time of one mini-batch on one replica (s)
    replicas: int = 1  #: k_s
    params: float = 0.0  #: h_s: parameter size (MB), the AllReduce volume
    send: float = 0.0  #: volume to stage s+1 per iteration, one direction, whole stage (MB)
    allreduce: str = "ring"  #: ring (RAR) or tree (TAR): graph weights only

    def to_dict(self) -> dict:
        return {"compute": self.compute, "replicas": self.replicas, "params": self.params, "send": self.send,
                "allreduce": self.allreduce}

    @classmethod
    def from_dict(cls, d: object, where: str) -> Stage:
        f = Fields(d, where)
        stage = cls(f.number("compute", positive=True), f.integer("replicas", min=1, default=1),
                    f.number("params", min=0.0, default=0.0), f.number("send", min=0.0, default=0.0),
                    f.text("allreduce", default="ring", choices=ALLREDUCE))
        f.done()
        return stage


@dataclass(frozen=True)
class Job:
    """A training job's parallel configuration: a chain of stages (fixed by a pipeline planner)."""

    stages: tuple[Stage, ...]
    model: str = ""  #: the DNN's name (a Table I template, or empty)

    def __post_init__(self):
        if not self.stages:
            raise InputError("a job needs at least one stage")
        if self.stages[-1].send != 0:
            raise InputError("the last stage of a job sends nothing (send must be 0)")

    @property
    def gpus(self) -> int:
        """``g_i = Σ_s k_s``."""
        return sum(stage.replicas for stage in self.stages)

    @cached_property
    def d_in(self) -> tuple[float, ...]:
        """``d^in_s`` per replica (0 for the first stage) [A1, A2]."""
        return (0.0,) + tuple(prev.send / cur.replicas for prev, cur in zip(self.stages, self.stages[1:]))

    @cached_property
    def d_out(self) -> tuple[float, ...]:
        """``d^out_s`` per replica (0 for the last stage) [A1, A2]."""
        return tuple(stage.send / stage.replicas for stage in self.stages)

    def to_dict(self) -> dict:
        return {"model": self.model, "stages": [stage.to_dict() for stage in self.stages]}

    @classmethod
    def from_dict(cls, d: object, where: str = "job") -> Job:
        f = Fields(d, where)
        raw = f.array("stages", nonempty=True)
        stages = tuple(Stage.from_dict(s, f.path(f"stages[{k}]")) for k, s in enumerate(raw))
        model = f.text("model", default="")
        f.done()
        if stages[-1].send != 0:
            raise InputError(f"{f.path(f'stages[{len(stages) - 1}]')}.send: the last stage sends nothing, got "
                             f"{stages[-1].send:g}")
        return cls(stages, model)


@dataclass(frozen=True)
class PlacementInstance:
    """Place one job on servers with ``available[m]`` free GPUs (family ``placement``)."""

    job: Job
    gpus: int  #: g, GPUs per server (sets each GPU's NIC share)
    inter_bw: float
    intra_bw: float
    available: tuple[int, ...]  #: free GPUs per server
    fill: str = "at_most"  #: "exact": every free GPU listed is used (an allotment)

    def __post_init__(self):
        where = "placement instance"
        if any(a < 0 or a > self.gpus for a in self.available):
            raise InputError(f"{where}: available GPUs must lie in [0, {self.gpus}] per server")
        total = sum(self.available)
        if total < self.job.gpus or (self.fill == "exact" and total != self.job.gpus):
            need = "exactly" if self.fill == "exact" else "at least"
            raise InputError(f"{where}: the job needs {self.job.gpus} GPUs and the servers offer {total}; "
                             f"fill={self.fill} needs {need} that many")

    @property
    def cluster(self) -> Cluster:
        return Cluster(len(self.available), self.gpus, self.inter_bw, self.intra_bw)

    @property
    def jobs(self) -> tuple[Job]:
        """The one job, as the sequence every family's instance has (studies count jobs)."""
        return (self.job,)

    def to_dict(self) -> dict:
        return {"kind": "placement", "gpus": self.gpus, "inter_bw": self.inter_bw, "intra_bw": self.intra_bw,
                "available": list(self.available), "fill": self.fill, "job": self.job.to_dict()}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> PlacementInstance:
        f = Fields(d, where)
        f.text("kind", choices=("placement",))
        gpus = f.integer("gpus", min=1)
        inter, intra = f.number("inter_bw", positive=True), f.number("intra_bw", positive=True)
        available = tuple(_integers(f.array("available", nonempty=True), f.path("available")))
        fill = f.text("fill", default="at_most", choices=FILLS)
        job = Job.from_dict(f.raw("job"), f.path("job"))
        f.done()
        return cls(job, gpus, inter, intra, available, fill)


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
        return {"kind": "stream", "cluster": self.cluster.to_dict(), "slot": self.slot,
                "provenance": dict(self.provenance), "jobs": [sj.to_dict() for sj in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
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


def _integers(values: list, where: str) -> list[int]:
    return [integer(v, f"{where}[{k}]", min=0) for k, v in enumerate(values)]

