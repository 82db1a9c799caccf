"""Seeded generators of edge-cloud instances (spec §4.9 families, §5.1 testbed, §5.2 simulator, §6).

Small integer families for exact checks (processing times drawn as integers, ``p^1 <= p^0``):

* ``tiny``: 4 jobs, 2 edge servers × 2 workers, ``D <= 3``, ``p <= 4``, ``r <= 6``, edge ``Δ <= 2``,
  cloud ``Δ ∈ [2, 8]`` (property tests, the CLI).
* ``small``: 8 jobs, 2 × 2 workers, ``D <= 3``, ``p <= 4``, ``r <= 16``, cloud ``Δ ∈ [4, 8]`` (ratio studies).
* ``f1`` one edge worker, far cloud; ``f2`` 2-4 identical workers, ``r = 0``, ``D = 1``, far cloud;
  ``f3`` two servers × 2 workers of two types (restricted assignment), job-dependent edge ``Δ <= 3``;
  ``f4`` near cloud with ``p^1 ≪ p^0``; ``f5`` ``D ∈ [4, 6]`` on 2 workers; ``f6`` edge only (no cloud).

Physical presets, processing times from eq. (1) with 1-hour slots (spec §1.3, rounded up [E2]):

* ``testbed``: the paper's replica (§5.1): 8 edge servers, each with one GPU worker, three CPU workers
  and one PS; 30 jobs on the Table II models (``D``, ``B``), ``E ~ U[20, 60]``, worker type uniform,
  edge ``Δ ~ U{1..4}``, cloud ``Δ ~ U{10..15}``; ``m, G, q, b`` from the simulator's ranges (the
  testbed's pre-trained rates are not given); arrivals and gang sizes from the Philly trace.
* ``paper`` (F7): the simulator (§5.2): 100 servers drawn from the Alibaba 2023 GPU fleet, a worker
  per GPU and a PS per vCPU, 9 worker types and 9 PS types drawn uniformly; 300 Philly jobs (their
  submission pattern in hourly slots, their GPU count as gang size); models from Table II.
* ``synthetic``: the spec's stand-in: GPUs per server from {1, 2, 4, 8}, vCPUs from {8, 16, 24, 32},
  arrivals from a two-peak random process, gang sizes from {1, 2, 4, 8}.

Options: ``servers`` overrides the edge-server count of ``testbed``, ``paper`` and ``synthetic``;
``epsilon`` > 0 returns one of the two speed-augmented copies of the instance (spec §3.7), the
``offline`` one (speed 1) or the ``online`` one (speed ``1 + ε``), chosen by ``copy``: both come from
the same seed, so ``solve`` on the first and ``run`` on the second compare like with like.
"""

from __future__ import annotations

import math

import numpy as np

from .. import traces
from ..errors import InputError
from .instance import Instance, Job, Server, speed_augmented

PRESETS = ("tiny", "small", "f1", "f2", "f3", "f4", "f5", "f6", "testbed", "paper", "synthetic")

#: Table II: (model, dataset, chunks D_j, mini-batches per chunk B_j).
TABLE_II = (("ResNet-50", "CIFAR10", 27, 58), ("ResNet-101", "CIFAR10", 27, 58),
            ("GoogLeNet", "Caltech101", 115, 58), ("LeNet", "Caltech101", 115, 58),
            ("AlexNet", "ImageNet-12", 60, 58), ("Inception-BN", "ImageNet-12", 60, 58))


def _integer_jobs(rng, count, servers, D, p, r, delta_edge, delta_cloud, cloud_ratio=None, types=("w",),
                  job_dependent=True):
    """Jobs with integer times: ``D, p^0`` uniform on the given ranges, ``p^1 <= p^0`` uniform (or
    ``⌈p^0 · cloud_ratio⌉``), releases sorted."""
    shared = [int(rng.integers(*delta_edge, endpoint=True)) for _ in range(servers)]
    jobs = []
    for release in sorted(int(rng.integers(*r, endpoint=True)) for _ in range(count)):
        p0 = int(rng.integers(*p, endpoint=True))
        p1 = max(1, math.ceil(p0 * cloud_ratio)) if cloud_ratio else int(rng.integers(1, p0, endpoint=True))
        if job_dependent:
            delays = tuple(int(rng.integers(*delta_edge, endpoint=True)) for _ in range(servers))
        else:
            delays = tuple(shared)
        jobs.append(Job(release, int(rng.integers(*D, endpoint=True)), p0, p1, delays,
                        int(rng.integers(*delta_cloud, endpoint=True)), str(rng.choice(types))))
    return tuple(jobs)


def _cluster(servers: int, workers: int, types=("w",), rng=None) -> tuple[Server, ...]:
    """Edge servers with ``workers`` workers each (types drawn from ``types``) and as many PSs."""
    def kind():
        return str(rng.choice(types)) if rng is not None and len(types) > 1 else types[0]
    return tuple(Server(tuple(kind() for _ in range(workers)), ("p",) * (workers * servers)) for _ in range(servers))


def _small(preset: str, rng: np.random.Generator, jobs: int | None) -> Instance:
    if preset == "tiny":
        return Instance(_cluster(2, 2), _integer_jobs(rng, jobs or 4, 2, (1, 3), (1, 4), (0, 6), (0, 2), (2, 8)))
    if preset == "small":
        return Instance(_cluster(2, 2), _integer_jobs(rng, jobs or 8, 2, (1, 3), (1, 4), (0, 16), (0, 2), (4, 8)))
    if preset == "f1":
        return Instance(_cluster(1, 1), _integer_jobs(rng, jobs or 5, 1, (1, 3), (1, 6), (0, 10), (0, 0), (10, 14)))
    if preset == "f2":
        workers = int(rng.integers(2, 4, endpoint=True))
        return Instance(_cluster(1, workers),
                        _integer_jobs(rng, jobs or 5, 1, (1, 1), (1, 5), (0, 0), (0, 0), (12, 16)))
    if preset == "f3":
        servers = _cluster(2, 2, ("a", "b"), rng)
        return Instance(servers,
                        _integer_jobs(rng, jobs or 4, 2, (1, 3), (1, 4), (0, 6), (0, 3), (3, 8), types=("a", "b")))
    if preset == "f4":
        return Instance(_cluster(1, 2),
                        _integer_jobs(rng, jobs or 4, 1, (1, 3), (2, 5), (0, 6), (0, 1), (2, 6), cloud_ratio=0.34))
    if preset == "f5":
        return Instance(_cluster(1, 2), _integer_jobs(rng, jobs or 3, 1, (4, 6), (1, 3), (0, 4), (0, 1), (4, 8)))
    return Instance(_cluster(1, 2), _integer_jobs(rng, jobs or 4, 1, (1, 3), (1, 4), (0, 6), (0, 1), (0, 0)),
                    cloud=False)


def _physical_times(rng: np.random.Generator, epochs: int, minibatches: int, hours: float) -> tuple[int, int, float]:
    """``(p^0, p^1, comm_fraction)`` from eq. (1) with the simulator's ranges, in slots of ``hours``
    (1 in the paper): ``m ~ U[0.001, 0.05]`` h, ``G ~ U[10, 100]`` ms, ``q ~ U[30, 575]`` MB,
    ``b ~ U[100, 5120]`` Mbps; exchange ``2q/b`` h ``= 2 · 8 · q / b / 3600`` (MB = 10^6 bytes)."""
    m = rng.uniform(0.001, 0.05)
    G = rng.uniform(10, 100) / 3.6e6
    exchange = 2 * 8 * rng.uniform(30, 575) / rng.uniform(100, 5 * 1024) / 3600
    p0 = math.ceil(epochs * minibatches * (m + G + exchange) / hours)
    p1 = max(1, math.ceil(epochs * minibatches * (m + G) / hours))
    return p0, min(p1, p0), exchange / (m + G + exchange)


def _trace_jobs(rng: np.random.Generator, count: int, hours: float) -> list[tuple[int, int]]:
    """``count`` Philly jobs from a seeded 30-day window in their submission order, as
    (release slot of ``hours`` from the first, GPUs)."""
    _, jobs = traces.sample_jobs(rng, count, 27 * 86400, 70 * 86400, 30 * 86400)
    return [(int((job.submit_s - jobs[0].submit_s) // (3600 * hours)), job.gpus) for job in jobs]


def _physical_jobs(rng, arrivals, servers: int, worker_types, ps_types, hours: float) -> tuple[Job, ...]:
    """Jobs of Table II models; upload delays of 1-4 hours to an edge server and 10-15 to the cloud,
    in slots of ``hours`` (rounded up)."""
    jobs = []
    for release, gpus in arrivals:
        _, _, D, B = TABLE_II[int(rng.integers(len(TABLE_II)))]
        p0, p1, comm = _physical_times(rng, int(rng.integers(20, 60, endpoint=True)), B, hours)
        edge = tuple(math.ceil(int(rng.integers(1, 4, endpoint=True)) / hours) for _ in range(servers))
        jobs.append(Job(release, D, p0, p1, edge, math.ceil(int(rng.integers(10, 15, endpoint=True)) / hours),
                        str(rng.choice(worker_types)), str(rng.choice(ps_types)), min(gpus, D), comm))
    return tuple(sorted(jobs, key=lambda job: job.release))


def _physical(preset: str, rng: np.random.Generator, jobs: int | None, servers: int, hours: float) -> Instance:
    if preset == "testbed":
        S = servers or 8
        cluster = tuple(Server(("gpu", "cpu", "cpu", "cpu"), ("ps",)) for _ in range(S))
        return Instance(cluster, _physical_jobs(rng, _trace_jobs(rng, jobs or 30, hours), S, ("gpu", "cpu"), ("ps",),
                                                hours))
    worker_types = tuple(f"w{k}" for k in range(9))
    ps_types = tuple(f"p{k}" for k in range(9))
    S = servers or 100
    if preset == "paper":
        shapes = [(node.gpus, int(node.cpus)) for node in traces.sample_nodes(rng, S)]
        arrivals = _trace_jobs(rng, jobs or 300, hours)
    else:
        shapes = [(int(rng.choice([1, 2, 4, 8])), int(rng.choice([8, 16, 24, 32]))) for _ in range(S)]
        arrivals = _two_peak_arrivals(rng, jobs or 300, hours)
    cluster = tuple(Server(tuple(str(rng.choice(worker_types)) for _ in range(gpus)),
                           tuple(str(rng.choice(ps_types)) for _ in range(cpus))) for gpus, cpus in shapes)
    return Instance(cluster, _physical_jobs(rng, arrivals, S, worker_types, ps_types, hours))


def _two_peak_arrivals(rng: np.random.Generator, count: int, hours: float) -> list[tuple[int, int]]:
    """Release slots (of ``hours``) from a two-peak mixture over 240 hours, GPUs from {1, 2, 4, 8}
    (spec §5.2 stand-in)."""
    peaks = np.where(rng.random(count) < 0.5, rng.normal(60, 18, count), rng.normal(170, 25, count))
    releases = sorted(int(x / hours) for x in np.clip(peaks, 0, 239))
    return [(r, int(rng.choice([1, 2, 4, 8]))) for r in releases]


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None, servers: int = 0,
             epsilon: float = 0.0, copy: str = "offline", slot_hours: float = 1.0) -> Instance:
    """A seeded instance of ``preset`` (see the module docstring); ``slot_hours``: the slot length
    of the physical presets (``testbed``, ``paper``, ``synthetic``; 1 hour in the paper), the same
    jobs in finer or coarser slots."""
    if epsilon < 0 or copy not in ("offline", "online"):
        raise InputError(f"epsilon must be >= 0 and copy offline or online, got {epsilon} and {copy!r}")
    if not slot_hours > 0 or (slot_hours != 1.0 and preset not in ("testbed", "paper", "synthetic")):
        raise InputError(f"slot_hours must be > 0, and applies to the testbed, paper and synthetic presets only "
                         f"(got {slot_hours:g} for {preset!r})")
    if epsilon > 0:
        offline, online = speed_augmented(generate(preset, seed, jobs, servers, slot_hours=slot_hours), epsilon)
        return offline if copy == "offline" else online
    if preset not in PRESETS:
        raise InputError(f"unknown edge preset {preset!r} (presets: {', '.join(PRESETS)})")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if servers < 0:
        raise InputError(f"servers must be positive (0: the preset's), got {servers}")
    rng = np.random.default_rng(seed)
    if preset in ("testbed", "paper", "synthetic"):
        return _physical(preset, rng, jobs, servers, slot_hours)
    return _small(preset, rng, jobs)
