"""Clusters and jobs of Luo et al. (paper §III; spec asrpt.md §1), and the placement instance.

Units, used by both Luo et al. families: time in **seconds**, data in **MB**, bandwidth in **MB/s**
(10 Gbps = 1,250 MB/s). The placement family reports per-iteration time in milliseconds, as the
paper's Table II does; that conversion happens only in its objective.

A job is a chain of stages (pipeline parallelism), stage ``s`` replicated on ``k_s`` GPUs (data
parallelism). Per stage: ``compute`` = ``P_s = p^f_s + p^b_s`` (one mini-batch on one replica),
``params`` = ``h_s`` (MB of trainable parameters, the AllReduce volume), ``send`` = the total volume
stage ``s`` sends to stage ``s+1`` per iteration in one direction (activations; the gradients flow
back with the same size). Per replica, ``d^out_s = send_s / k_s`` and ``d^in_{s+1} = send_s / k_{s+1}``
[A1]: storing the boundary volume makes the consistency condition ``k_s d^out_s = k_{s+1} d^in_{s+1}``
hold by construction. The last stage sends nothing.

A :class:`Instance` is one job, the free GPUs of each server, and whether the job must use
every free GPU it is given (``fill = "exact"``, the allotment comparison of Table II) or at most
that many (``"at_most"``). The job stream of family ``asrpt`` is in :mod:`optsched.asrpt.instance`.
"""

from __future__ import annotations

from dataclasses import dataclass
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
        """The cluster's GPUs, servers x GPUs per server."""
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
        """This ``Cluster`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"servers": self.servers, "gpus": self.gpus, "inter_bw": self.inter_bw, "intra_bw": self.intra_bw}

    @classmethod
    def from_dict(cls, d: object, where: str = "cluster") -> Cluster:
        """Read a ``Cluster`` from its JSON form ``d`` (what ``to_dict`` writes); a malformed document raises
        ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        cluster = cls(f.integer("servers", min=1), f.integer("gpus", min=1), f.number("inter_bw", positive=True),
                      f.number("intra_bw", positive=True))
        f.done()
        return cluster


@dataclass(frozen=True)
class Stage:
    """One pipeline stage of a job (spec asrpt.md §1): compute time P_s per mini-batch on one replica, replicas
    k_s, parameter size h_s (its AllReduce volume), the volume it sends to the next stage, and the AllReduce
    kind."""
    compute: float  #: P_s: forward + backward time of one mini-batch on one replica (s)
    replicas: int = 1  #: k_s
    params: float = 0.0  #: h_s: parameter size (MB), the AllReduce volume
    send: float = 0.0  #: volume to stage s+1 per iteration, one direction, whole stage (MB)
    allreduce: str = "ring"  #: ring (RAR) or tree (TAR): graph weights only

    def to_dict(self) -> dict:
        """This ``Stage`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"compute": self.compute, "replicas": self.replicas, "params": self.params, "send": self.send,
                "allreduce": self.allreduce}

    @classmethod
    def from_dict(cls, d: object, where: str) -> Stage:
        """Read a ``Stage`` from its JSON form ``d`` (what ``to_dict`` writes); a malformed document raises
        ``InputError`` naming ``where`` and the field."""
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
        """This ``Job`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"model": self.model, "stages": [stage.to_dict() for stage in self.stages]}

    @classmethod
    def from_dict(cls, d: object, where: str = "job") -> Job:
        """Read a ``Job`` from its JSON form ``d`` (what ``to_dict`` writes); a malformed document raises
        ``InputError`` naming ``where`` and the field."""
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
class Instance:
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
        """The cluster this instance's servers form."""
        return Cluster(len(self.available), self.gpus, self.inter_bw, self.intra_bw)

    @property
    def jobs(self) -> tuple[Job]:
        """The one job, as the sequence every family's instance has (studies count jobs)."""
        return (self.job,)

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"kind": "placement", "gpus": self.gpus, "inter_bw": self.inter_bw, "intra_bw": self.intra_bw,
                "available": list(self.available), "fill": self.fill, "job": self.job.to_dict()}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against
        ``instance``; a malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        f.text("kind", choices=("placement",))
        gpus = f.integer("gpus", min=1)
        inter, intra = f.number("inter_bw", positive=True), f.number("intra_bw", positive=True)
        available = tuple(_integers(f.array("available", nonempty=True), f.path("available")))
        fill = f.text("fill", default="at_most", choices=FILLS)
        job = Job.from_dict(f.raw("job"), f.path("job"))
        f.done()
        return cls(job, gpus, inter, intra, available, fill)


def _integers(values: list, where: str) -> list[int]:
    return [integer(v, f"{where}[{k}]", min=0) for k, v in enumerate(values)]
