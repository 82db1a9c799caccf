"""OASiS instances (Bao et al., INFOCOM 2018, §III; spec oasis.md §1).

Discrete slots ``t = 1..T`` (1-based, as in the paper). Two server pools with ``R`` resources each:
``H`` worker servers and ``K`` parameter-server (PS) servers. The last resource is bandwidth: a
worker of job ``i`` reserves ``b_i = w_i[-1]`` and a PS ``B_i = s_i[-1]``. Job ``i`` arrives in slot
``a_i`` and trains ``E_i`` epochs over ``N_i`` chunks of ``M_i`` mini-batches; one mini-batch costs
``τ_i`` slots of compute plus ``2 e_i / b_i`` of communication (``e_i`` in MB, bandwidth in Gbps,
converted with the slot length, [A15]). Its utility ``f_i`` is non-increasing in the completion
delay ``t̂_i − a_i``.

Derived per job (spec §1.2): ``ρ_i = M_i(τ_i + 2e_i/b_i)`` worker-slots per chunk, the total work
``V_i = E_i N_i ρ_i`` and ``W_i = ⌈V_i⌉``, the shortest duration ``n_min = ⌈E_i ρ_i⌉`` slots.

The workload granularity (spec §2.4, [A1]) is an attribute of the instance, so that every model,
algorithm and check reads the same one: ``worker_slots`` (mode A, the default: ``Σ_t n_t ≥ W_i``,
exactly constraint (2)) or ``chunks`` (mode B, the paper's Algorithm 2: integer chunks per slot
``d_t`` with ``n_t ≥ ⌈ρ_i d_t⌉`` and ``Σ_t d_t ≥ E_i N_i``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from ..errors import InputError
from ..limits import MAX_SLOTS, refuse_above
from ..numeric import ceil_tol, floor_tol
from ..schema import Fields, number

MODES = ("worker_slots", "chunks")
#: Seconds of communication per (MB of gradient / Gbps of bandwidth): 1 MB = 8e6 bit, 1 Gbps = 1e9 bit/s.
SECONDS_PER_MB_PER_GBPS = 8e6 / 1e9


@dataclass(frozen=True)
class Sigmoid:
    """``f(d) = γ1 / (1 + exp(γ2 (d − γ3)))`` (the evaluation's utility, spec §1.3).

    ``γ2 = 0`` gives the constant ``γ1 / 2`` [A23]. Values are computed in log space, because a
    time-critical job's utility far past its target underflows float64 [A8].
    """

    gamma1: float
    gamma2: float
    gamma3: float

    def log_value(self, d: float) -> float:
        """ln f(d) for a completion delay ``d`` in slots, computed in log space so that it never underflows [A8]."""
        return math.log(self.gamma1) - _softplus(self.gamma2 * (d - self.gamma3))

    def value(self, d: float) -> float:
        """f(d) = γ1 / (1 + exp(γ2 (d − γ3)))."""
        return math.exp(self.log_value(d))

    def to_dict(self) -> dict:
        """This ``Sigmoid`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"kind": "sigmoid", "gamma1": self.gamma1, "gamma2": self.gamma2, "gamma3": self.gamma3}


@dataclass(frozen=True)
class TableUtility:
    """Any non-increasing, non-negative utility given by its values ``f(0), f(1), ...``; the last
    value holds for every larger delay (step and clipped-linear utilities are tables)."""

    values: tuple[float, ...]

    def value(self, d: float) -> float:
        """f(d): the table's value at delay ``d`` (its last value beyond the table)."""
        return self.values[min(int(d), len(self.values) - 1)]

    def log_value(self, d: float) -> float:
        """ln f(d) (−inf where f(d) = 0)."""
        v = self.value(d)
        return math.log(v) if v > 0 else -math.inf

    def to_dict(self) -> dict:
        """This ``TableUtility`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"kind": "table", "values": list(self.values)}


Utility = Sigmoid | TableUtility


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


@dataclass(frozen=True)
class Job:
    """A job (spec §1): arrival a_i, epochs E_i, N_i chunks (also the cap on concurrent workers), M_i mini-batches
    per chunk, compute time per mini-batch τ_i (slots), gradient size e_i (MB), per-worker and per-PS
    demands (the last entry is bandwidth), and its utility f_i of the completion delay."""
    arrival: int  #: a_i, slot 1..T
    epochs: int  #: E_i
    chunks: int  #: N_i, also the cap on concurrent workers (3)
    minibatches: int  #: M_i per chunk
    tau: float  #: compute time per mini-batch, in slots
    grad_mb: float  #: e_i, gradient (= parameter) size in MB; 0 when τ already includes communication
    worker_demand: tuple[float, ...]  #: w_i^r per worker; the last entry is b_i (Gbps)
    ps_demand: tuple[float, ...]  #: s_i^r per PS; the last entry is B_i (Gbps)
    utility: Utility

    @property
    def b(self) -> float:
        """b_i: the bandwidth of one worker (Gbps)."""
        return self.worker_demand[-1]

    @property
    def B(self) -> float:
        """B_i: the bandwidth of one PS (Gbps)."""
        return self.ps_demand[-1]

    def to_dict(self) -> dict:
        """This ``Job`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"arrival": self.arrival, "epochs": self.epochs, "chunks": self.chunks,
                "minibatches": self.minibatches, "tau": self.tau, "grad_mb": self.grad_mb,
                "worker_demand": list(self.worker_demand), "ps_demand": list(self.ps_demand),
                "utility": self.utility.to_dict()}


@dataclass(frozen=True)
class JobFacts:
    """Quantities derived from a job and its instance (spec §1.2, 'Derived quantities')."""

    rho: float  #: worker-slots per chunk
    work: float  #: V_i = E N ρ
    W: int  #: ⌈V_i⌉, integer worker-slots (mode A target)
    chunk_target: int  #: E N, chunk-trainings (mode B target)
    n_min: int  #: ⌈E ρ⌉, fewest slots the job can take
    slots: int  #: S_i = T − a_i + 1
    worker_cap: tuple[int, ...]  #: per worker server: min(N, ⌊c_h^r / w^r⌋ over r with w^r > 0)
    ps_cap: tuple[int, ...]  #: per PS server, likewise (capped at N: never more PSs than workers)
    max_workers: int  #: most workers usable in one slot, PS requirement (6) included
    feasible: bool  #: L_i ≠ ∅: the job can finish by T alone on the empty cluster

    def chunks_of(self, workers: int) -> int:
        """Mode B: the most chunks ``workers`` workers can train in one slot, ``⌊n / ρ⌋``."""
        return floor_tol(workers / self.rho)

    def ps_needed(self, workers: int, b: float, B: float) -> int:
        """Fewest PSs that satisfy (6) for ``workers`` workers: ``⌈n b / B⌉``."""
        return ceil_tol(workers * b / B)


@dataclass(frozen=True)
class Instance:
    """An ``oasis`` instance: T slots, the resource names (the last is bandwidth), the worker and PS servers'
    capacities, the jobs in arrival order, how the workload is counted ([A1]) and the slot length [A15]."""
    T: int
    resources: tuple[str, ...]  #: resource names; the last is bandwidth
    worker_servers: tuple[tuple[float, ...], ...]  #: c_h^r
    ps_servers: tuple[tuple[float, ...], ...]  #: c_k^r
    jobs: tuple[Job, ...]  #: in arrival order
    mode: str = "worker_slots"
    slot_seconds: float = 3600.0

    def __post_init__(self):
        _validate(self)

    @property
    def H(self) -> int:
        """The number of worker servers."""
        return len(self.worker_servers)

    @property
    def K(self) -> int:
        """The number of PS servers."""
        return len(self.ps_servers)

    @property
    def R(self) -> int:
        """The number of resources."""
        return len(self.resources)

    @cached_property
    def facts(self) -> tuple[JobFacts, ...]:
        """Each job's derived quantities (``JobFacts``: ρ, its work, fewest slots, worker caps, feasibility),
        computed once."""
        return tuple(_facts(self, job) for job in self.jobs)

    def rho(self, job: Job) -> float:
        """ρ_i: worker-slots per chunk, M_i (τ_i + the gradient exchange 2 e_i / b_i in slots)."""
        comm = 2 * job.grad_mb * SECONDS_PER_MB_PER_GBPS / job.b / self.slot_seconds
        return job.minibatches * (job.tau + comm)

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"T": self.T, "resources": list(self.resources), "mode": self.mode,
                "slot_seconds": self.slot_seconds,
                "worker_servers": [list(c) for c in self.worker_servers],
                "ps_servers": [list(c) for c in self.ps_servers],
                "jobs": [job.to_dict() for job in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        T = f.integer("T", min=1)
        refuse_above(T, MAX_SLOTS, f.path("T"))
        resources = tuple(_names(f.array("resources", nonempty=True), f.path("resources")))
        mode = f.text("mode", default="worker_slots", choices=MODES)
        slot_seconds = f.number("slot_seconds", positive=True, default=3600.0)
        R = len(resources)
        workers = _servers(f.array("worker_servers", nonempty=True), R, f.path("worker_servers"))
        pss = _servers(f.array("ps_servers", nonempty=True), R, f.path("ps_servers"))
        jobs = tuple(_job(raw, R, T, f.path(f"jobs[{i}]")) for i, raw in enumerate(f.array("jobs")))
        f.done()
        return cls(T, resources, workers, pss, jobs, mode, slot_seconds)


def _names(raw: list, where: str) -> list[str]:
    if not all(isinstance(x, str) and x for x in raw) or len(set(raw)) != len(raw):
        raise InputError(f"{where}: must be distinct non-empty names")
    return raw


def _vector(raw: object, R: int, where: str, positive_last: bool = False) -> tuple[float, ...]:
    if not isinstance(raw, list) or len(raw) != R:
        raise InputError(f"{where}: must be a list of {R} numbers (one per resource)")
    values = tuple(number(x, f"{where}[{r}]", min=0.0) for r, x in enumerate(raw))
    if positive_last and values[-1] <= 0:
        raise InputError(f"{where}[{R - 1}]: bandwidth (the last resource) must be positive, got {values[-1]:g}")
    return values


def _servers(raw: list, R: int, where: str) -> tuple[tuple[float, ...], ...]:
    return tuple(_vector(c, R, f"{where}[{h}]") for h, c in enumerate(raw))


def _utility(raw: object, where: str) -> Utility:
    f = Fields(raw, where)
    kind = f.text("kind", choices=("sigmoid", "table"))
    u: Utility
    if kind == "sigmoid":
        u = Sigmoid(f.number("gamma1", positive=True), f.number("gamma2", min=0.0), f.number("gamma3"))
    else:
        values = tuple(number(v, f"{f.path('values')}[{d}]", min=0.0)
                       for d, v in enumerate(f.array("values", nonempty=True)))
        if any(b > a for a, b in zip(values, values[1:])):
            raise InputError(f"{f.path('values')}: a utility must be non-increasing in the delay")
        u = TableUtility(values)
    f.done()
    return u


def _job(raw: object, R: int, T: int, where: str) -> Job:
    f = Fields(raw, where)
    job = Job(
        arrival=f.integer("arrival", min=1), epochs=f.integer("epochs", min=1),
        chunks=f.integer("chunks", min=1), minibatches=f.integer("minibatches", min=1),
        tau=f.number("tau", positive=True), grad_mb=f.number("grad_mb", min=0.0, default=0.0),
        worker_demand=_vector(f.raw("worker_demand"), R, f.path("worker_demand"), positive_last=True),
        ps_demand=_vector(f.raw("ps_demand"), R, f.path("ps_demand"), positive_last=True),
        utility=_utility(f.raw("utility"), f.path("utility")),
    )
    f.done()
    if job.arrival > T:
        raise InputError(f"{where}.arrival: must be a slot in 1..{T}, got {job.arrival}")
    return job


def _validate(instance: Instance) -> None:
    R = instance.R
    if instance.T < 1 or R < 1 or instance.H < 1 or instance.K < 1:
        raise InputError("an instance needs T >= 1, at least one resource, worker server and PS server")
    if instance.mode not in MODES:
        raise InputError(f"mode must be one of {', '.join(MODES)}, got {instance.mode!r}")
    for pool in (instance.worker_servers, instance.ps_servers):
        for c in pool:
            if len(c) != R or any(not (math.isfinite(x) and x >= 0) for x in c):
                raise InputError(f"server capacities must be {R} finite numbers >= 0, got {c}")
    arrivals = [job.arrival for job in instance.jobs]
    if arrivals != sorted(arrivals):
        raise InputError("jobs must be listed in arrival order (non-decreasing arrival slots)")
    for i, job in enumerate(instance.jobs):
        if not 1 <= job.arrival <= instance.T:
            raise InputError(f"jobs[{i}].arrival must be in 1..{instance.T}, got {job.arrival}")
        if len(job.worker_demand) != R or len(job.ps_demand) != R or job.b <= 0 or job.B <= 0:
            raise InputError(f"jobs[{i}]: demands need {R} entries and positive bandwidth (the last)")


def _capacity(servers, demand: tuple[float, ...], limit: int) -> tuple[int, ...]:
    caps = []
    for c in servers:
        fits = [floor_tol(c[r] / demand[r]) for r in range(len(demand)) if demand[r] > 0]
        caps.append(max(0, min([limit, *fits])))
    return tuple(caps)


def _facts(instance: Instance, job: Job) -> JobFacts:
    rho = instance.rho(job)
    work = job.epochs * job.chunks * rho
    worker_cap = _capacity(instance.worker_servers, job.worker_demand, job.chunks)
    ps_cap = _capacity(instance.ps_servers, job.ps_demand, job.chunks)
    total_ps = sum(ps_cap)
    max_workers = 0
    for n in range(min(job.chunks, sum(worker_cap)), 0, -1):
        m = ceil_tol(n * job.b / job.B)
        if m <= n and m <= total_ps:
            max_workers = n
            break
    slots = instance.T - job.arrival + 1
    W = max(1, ceil_tol(work))
    chunk_target = job.epochs * job.chunks
    if instance.mode == "worker_slots":
        feasible = max_workers >= 1 and W <= max_workers * slots
    else:
        feasible = max_workers >= 1 and chunk_target <= slots * floor_tol(max_workers / rho)
    return JobFacts(rho=rho, work=work, W=W, chunk_target=chunk_target, n_min=max(1, ceil_tol(job.epochs * rho)),
                    slots=slots, worker_cap=worker_cap, ps_cap=ps_cap, max_workers=max_workers,
                    feasible=feasible)


def job_from_rho(arrival: int, epochs: int, chunks: int, rho: float, worker_demand, ps_demand,
                 utility: Utility, minibatches: int = 1) -> Job:
    """A job given its worker-slots per chunk ``ρ`` directly (``τ = ρ/M``, communication included)."""
    return Job(arrival, epochs, chunks, minibatches, rho / minibatches, 0.0, tuple(worker_demand),
               tuple(ps_demand), utility)

