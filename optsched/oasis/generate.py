"""Seeded OASiS instance generators (spec §5.1, §5.6, §6.1).

Presets:

* ``tiny`` (Family T, spec §6.1): ``T = 4``, 2 worker and 2 PS servers, 2 resources (CPU,
  bandwidth), 4 jobs; capacities 2-6, demands 1-2 with ``b <= B``; ``N <= 3``, ``E <= 2``,
  ``ρ ∈ {1/4, 0.4, 1/2, 3/4, 1}``. Small enough to enumerate every schedule (ILP (14), dual (19)).
* ``small`` (Family S): ``T = 10``, 4 + 4 servers, 3 resources (CPU, memory, bandwidth), 12 jobs,
  capacities 4-10 (contended), demands 1-3, ``N <= 6``, ``E <= 3``: the time-indexed MILP only.
* ``paper``: the evaluation's settings (§5.1) with the calibrated job model the spec recommends
  [A14]: ``ρ ~ U[0.001, 0.1]`` slots per chunk. ``T = 300``, 50 worker servers with EC2 P2/G3 shapes
  and 50 PS servers with C4 shapes (the pools swapped [A13]; PS hosts restricted to c4.4xlarge and
  c4.8xlarge so that PSs fit), bandwidth ``U[20, 50]`` Gbps, 200 jobs with bursty arrivals.
* ``paper-literal``: as ``paper`` but ``τ ~ U[0.001, 0.1]`` and ``e ~ U[30, 575]`` MB drawn as
  printed, with 1-hour slots [A15]; most jobs then cannot finish within T.
* ``trace``: arrivals and sizes from the Philly trace, worker servers from the Alibaba 2023 GPU
  fleet (:mod:`optsched.traces`). A seeded window of ``T = 300`` one-hour slots in October-November
  2017; ``jobs`` of its submissions drawn uniformly (order kept), each arriving in the slot of its
  submission. A job's work is its GPU-seconds in worker-slots (one GPU per worker), split as
  ``E ~ U{50..200}`` epochs over ``N = min(100, max(5, 2·gpus))`` chunks (it may use up to twice the
  GPUs it had in the trace). Worker servers are random Alibaba GPU nodes (GPUs, vCPUs, memory,
  1,000 GB storage, ``U[20, 50]`` Gbps); PS servers, demands and utilities are as in ``paper``.
  The paper used the Google 2011 trace, which is not available here.

Option ``slot_hours`` (``paper`` and ``paper-literal``; 1 hour by default, [A15]): the same jobs,
horizon and utilities in slots of that many hours (:func:`in_slots_of`), for the slot-length sweep.

Every preset draws utilities from the three classes of the evaluation: time-insensitive
(``γ2 = 0``, 10%), time-sensitive (``γ2 ~ U[0.01, 1]``, 55%), time-critical (``γ2 ~ U[4, 6]``, 35%).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .. import traces
from ..errors import InputError
from .instance import Instance, Job, Sigmoid, job_from_rho

PRESETS = ("tiny", "small", "paper", "paper-literal", "trace")
#: Fraction of time-insensitive, time-sensitive and time-critical jobs (§V-A).
CLASS_SHARES = (0.10, 0.55, 0.35)
RHO_CHOICES = (0.25, 0.4, 0.5, 0.75, 1.0)

#: EC2 shapes (GPUs, vCPUs, memory GiB) for worker servers (P2, G3) and PS servers (C4) [A13].
WORKER_SHAPES = ((1, 4, 61), (8, 32, 488), (16, 64, 732), (1, 16, 122), (2, 32, 244), (4, 64, 488))
PS_SHAPES = ((0, 16, 30), (0, 36, 60))
STORAGE_GB = 1000.0


CLASSES = ("time-insensitive", "time-sensitive", "time-critical")


def utility(rng: np.random.Generator, gamma3: tuple[float, float], gamma1: tuple[float, float] = (1.0, 100.0),
            kind: str | None = None) -> Sigmoid:
    """A sigmoid utility of class ``kind`` (one of :data:`CLASSES`), or drawn from the evaluation's
    shares of the three classes when ``kind`` is None."""
    index = int(rng.choice(3, p=CLASS_SHARES)) if kind is None else CLASSES.index(kind)
    gamma2 = 0.0 if index == 0 else float(rng.uniform(0.01, 1.0) if index == 1 else rng.uniform(4.0, 6.0))
    return Sigmoid(float(rng.uniform(*gamma1)), gamma2, float(rng.uniform(*gamma3)))


def _arrivals(rng: np.random.Generator, count: int, T: int) -> list[int]:
    return sorted(int(a) for a in rng.integers(1, T, size=count, endpoint=True))


def small_family(rng: np.random.Generator, T: int, H: int, K: int, resources: tuple[str, ...], jobs: int,
                 cap_range: tuple[int, int], demand_max: int, N_max: int, E_max: int,
                 gamma3: tuple[float, float], mode: str = "worker_slots",
                 gamma1: tuple[float, float] = (1.0, 100.0)) -> Instance:
    """Families T and S of spec §6.1: integer capacities and demands, ``ρ`` from :data:`RHO_CHOICES`."""
    R = len(resources)
    workers = tuple(tuple(float(rng.integers(*cap_range, endpoint=True)) for _ in range(R)) for _ in range(H))
    pss = tuple(tuple(float(rng.integers(*cap_range, endpoint=True)) for _ in range(R)) for _ in range(K))
    job_list = []
    for a in _arrivals(rng, jobs, T):
        b = int(rng.integers(1, demand_max, endpoint=True))
        B = int(rng.integers(b, demand_max, endpoint=True))
        w = [float(rng.integers(1, demand_max, endpoint=True)) for _ in range(R - 1)] + [float(b)]
        s = [float(rng.integers(1, demand_max, endpoint=True)) for _ in range(R - 1)] + [float(B)]
        job_list.append(job_from_rho(a, int(rng.integers(1, E_max, endpoint=True)),
                                     int(rng.integers(1, N_max, endpoint=True)),
                                     float(rng.choice(RHO_CHOICES)), w, s, utility(rng, gamma3, gamma1)))
    return Instance(T, resources, workers, pss, tuple(job_list), mode)


PAPER_RESOURCES = ("gpu", "cpu", "memory", "storage", "bandwidth")


def _server(rng: np.random.Generator, shapes) -> tuple[float, ...]:
    gpu, cpu, mem = shapes[int(rng.integers(len(shapes)))]
    return (float(gpu), float(cpu), float(mem), STORAGE_GB, float(rng.uniform(20, 50)))


def _demands(rng: np.random.Generator, gpus: float | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per-worker and per-PS demands of §V-A (GPU, vCPU, GB, GB, Gbps); ``gpus`` fixes the worker's GPUs."""
    w = (float(rng.integers(0, 4, endpoint=True)) if gpus is None else gpus, float(rng.integers(1, 10, endpoint=True)),
         float(rng.integers(2, 32, endpoint=True)), float(rng.integers(5, 10, endpoint=True)),
         float(rng.uniform(0.1, 5.0)))
    s = (0.0, float(rng.integers(1, 10, endpoint=True)), float(rng.integers(2, 32, endpoint=True)),
         float(rng.integers(5, 10, endpoint=True)), float(rng.uniform(5.0, 20.0)))
    return w, s


def _paper(rng: np.random.Generator, jobs: int, literal: bool, mode: str, T: int, H: int) -> Instance:
    K = H
    workers = tuple(_server(rng, WORKER_SHAPES) for _ in range(H))
    pss = tuple(_server(rng, PS_SHAPES) for _ in range(K))
    job_list = []
    for a in _bursty_arrivals(rng, jobs, T):
        E, N, M = (int(rng.integers(lo, hi, endpoint=True)) for lo, hi in ((50, 200), (5, 100), (10, 100)))
        w, s = _demands(rng)
        u = utility(rng, (1.0, 15.0))
        if literal:
            job_list.append(Job(a, E, N, M, float(rng.uniform(0.001, 0.1)), float(rng.uniform(30, 575)), w, s, u))
        else:
            job_list.append(job_from_rho(a, E, N, float(rng.uniform(0.001, 0.1)), w, s, u, minibatches=M))
    return Instance(T, PAPER_RESOURCES, workers, pss, tuple(job_list), mode)


def _trace(rng: np.random.Generator, jobs: int, mode: str, T: int, H: int) -> Instance:
    K, slot = H, 3600.0
    start, chosen = traces.sample_jobs(rng, jobs, 27 * 86400, 80 * 86400, T * slot)  # inside Oct-Nov 2017
    workers = tuple((float(n.gpus), n.cpus, n.memory_gb, STORAGE_GB, float(rng.uniform(20, 50)))
                    for n in traces.sample_nodes(rng, H))
    pss = tuple(_server(rng, PS_SHAPES) for _ in range(K))
    job_list = []
    for tj in chosen:
        E = int(rng.integers(50, 200, endpoint=True))
        N = min(100, max(5, 2 * tj.gpus))
        work = max(tj.gpu_seconds, 1.0) / slot  # worker-slots, one GPU per worker
        w, s = _demands(rng, gpus=1.0)
        job_list.append(job_from_rho(1 + int((tj.submit_s - start) // slot), E, N, work / (E * N), w, s,
                                     utility(rng, (1.0, 15.0))))
    return Instance(T, PAPER_RESOURCES, workers, pss, tuple(job_list), mode)


def _bursty_arrivals(rng: np.random.Generator, count: int, T: int) -> list[int]:
    """Arrival slots from a diurnally modulated rate (slots are hours): the stand-in for the Google
    trace the paper uses, which is not available here (spec §5.6)."""
    t = np.arange(1, T + 1)
    rate = 1.0 + 0.8 * np.sin(2 * np.pi * (t - 6) / 24)
    return sorted(int(a) for a in rng.choice(t, size=count, p=rate / rate.sum()))


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None, mode: str = "worker_slots",
             slots: int = 0, servers: int = 0, slot_hours: float = 1.0) -> Instance:
    """A seeded instance of ``preset`` (see the module docstring); ``jobs`` overrides the job count,
    and for ``paper``, ``paper-literal`` and ``trace``, ``slots`` overrides ``T = 300`` (hours) and
    ``servers`` the 50 worker and 50 PS servers (0 keeps the preset's value). ``slot_hours``
    (``paper`` and ``paper-literal``): the same instance in slots of that many hours [A15]."""
    if preset not in PRESETS:
        raise InputError(f"unknown oasis preset {preset!r} (presets: {', '.join(PRESETS)})")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if slots < 0 or servers < 0:
        raise InputError(f"slots and servers must be positive (0: the preset's), got {slots} and {servers}")
    if not slot_hours > 0 or (slot_hours != 1.0 and preset not in ("paper", "paper-literal")):
        raise InputError(f"slot_hours must be > 0, and applies to the paper and paper-literal presets only "
                         f"(got {slot_hours:g} for {preset!r})")
    T, H = slots or 300, servers or 50
    rng = np.random.default_rng(seed)
    if preset == "tiny":
        return small_family(rng, 4, 2, 2, ("cpu", "bandwidth"), jobs or 4, (2, 6), 2, 3, 2, (1.0, 3.0), mode)
    if preset == "small":
        return small_family(rng, 10, 4, 4, ("cpu", "memory", "bandwidth"), jobs or 12, (4, 10), 3, 6, 3,
                            (1.0, 4.0), mode)
    if preset == "trace":
        return _trace(rng, jobs or 200, mode, T, H)
    instance = _paper(rng, jobs or 200, preset == "paper-literal", mode, T, H)
    return instance if slot_hours == 1.0 else in_slots_of(instance, slot_hours)


def in_slots_of(instance: Instance, hours: float) -> Instance:
    """``instance`` (drawn in 1-hour slots) in slots of ``hours`` [A15]: the horizon of ``T`` hours
    becomes ``⌈T / hours⌉`` slots, an arrival in hour ``a`` arrives in the slot holding that hour's
    start, a mini-batch of ``τ`` hours takes ``τ / hours`` slots, and a utility of the completion delay
    keeps its value at every delay in hours (``γ2`` times ``hours``, ``γ3`` over ``hours``).
    Rounding the arrivals and the ``⌈·⌉`` of each job's work in slots is all that changes."""
    def utility_in_slots(u) -> Sigmoid:
        if not isinstance(u, Sigmoid):
            raise ValueError(f"in_slots_of rescales the generators' sigmoid utilities only, not {type(u).__name__}")
        return Sigmoid(u.gamma1, u.gamma2 * hours, u.gamma3 / hours)

    jobs = tuple(replace(job, arrival=1 + math.floor((job.arrival - 1) / hours), tau=job.tau / hours,
                         utility=utility_in_slots(job.utility)) for job in instance.jobs)
    return replace(instance, T=math.ceil(instance.T / hours), jobs=jobs, slot_seconds=instance.slot_seconds * hours)
