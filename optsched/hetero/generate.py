"""Seeded hetero instances.

* ``tiny`` (spec §6.1): 4 jobs, 2 servers, T = 12; M = P = 2 worker and PS types; resource 0 is
  GPU-like, resource 1 bandwidth (``b_m = e[m][1]``, ``B_p = z[p][1]``); ``e ∈ {1, 2}``, a PS takes
  no GPU and ``z[p][1] ∈ {1, 2}``; capacities in 3..6; ``E = 1``, ``K ∈ 1..3``, ``D ∈ 1..4``;
  ``v ∈ {0.5, 1, 1.5}``, ``U ∈ {0, 0.25}``, ``π ∈ {0, 0.5, 1}`` slots; ``a ∈ 1..⌈T/3⌉``; integer
  weights in 1..10. Every parameter is a multiple of 1/4, so durations are exact. Jobs that fit the
  empty cluster in no shape are redrawn.
* ``small``: the same recipe with 6 jobs, 3 servers and T = 16.
* ``paper`` (spec §5.1, with the assumptions of §5.2 marked [D]): T = 150 one-hour slots, 150
  servers, 100 jobs; R = 3 resources (GPUs, vCPUs, Mbps; bandwidth is resource 2). 8 worker types
  (1-4 GPUs, 1-16 vCPUs, 100-5000 Mbps) and 10 PS types (no GPU, 1-16 vCPUs, 5-20 Gbps). Jobs:
  ``w ∈ [200, 5000]``, ``E ∈ 50..100``, ``D ∈ 5..50``, ``K ∈ 10..50``, ``U ∈ [10, 100]`` ms,
  ``π ∈ [30, 575]`` MB, and [D] ``v_jm = v_j / GPU_m^0.8`` with ``v_j ∈ [0.001, 0.05]`` slots
  (D25). Arrivals [D] uniform in ``1..T``. Servers [D] are EC2 P3/P2/G3 shapes drawn uniformly,
  then each resource is rescaled so that the cluster holds ``kappa`` (default 0.35) of the jobs'
  total ideal demand, GPUs and vCPUs rounded down (at least 1).
* ``trace``: real servers and arrivals. Servers are distinct Alibaba 2023 GPU nodes (GPU model,
  GPU count, vCPUs), default 30; every GPU model present is a resource of its own, so a worker of
  model ``X`` only runs on ``X`` nodes. Worker types: 1- and 2-GPU workers of each model (4 vCPUs
  and 1000 Mbps per GPU [D]); per-model speeds [D] in :data:`GPU_SPEED`. Node bandwidth [D]: 25 Gbps
  with 4 or more GPUs, else 10 Gbps. Arrivals: a seeded window of T = 150 hours of Philly jobs
  (:mod:`optsched.traces`); a job's worker count cap ``D`` is ``2 x`` its trace GPUs (5..50) and its
  single-GPU time per mini-batch makes ``W v`` equal its trace GPU-hours (clamped to the paper's
  range); the other parameters are drawn as in ``paper``.

Options: ``framework`` (``ps`` or ``allreduce``; allreduce jobs have one ``U`` and no PS types),
``servers`` (0: the preset's count), ``kappa`` (paper only). Jobs that fit the empty cluster in no
shape are redrawn.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .. import traces
from ..errors import InputError
from .columns import options
from .instance import Instance, Job, ps_type

PRESETS = ("tiny", "small", "paper", "trace")
SIZES = {"tiny": (4, 2, 12), "small": (6, 3, 16), "paper": (100, 150, 150), "trace": (100, 30, 150)}
#: EC2 P3/P2/G3 shapes (GPUs, vCPUs, Mbps), spec §5.2.
EC2_SHAPES = ((1, 8, 10_000), (4, 32, 10_000), (8, 64, 25_000), (1, 4, 1_000), (8, 32, 10_000), (16, 64, 25_000),
              (1, 16, 10_000), (2, 32, 10_000), (4, 64, 25_000))
#: [D] Relative training speed per GPU model of the Alibaba trace (V100 = 1); G2 and G3 are
#: undisclosed models and get the middle of the range.
GPU_SPEED = {"V100M32": 1.0, "V100M16": 1.0, "A10": 0.9, "P100": 0.6, "T4": 0.45, "G2": 0.7, "G3": 0.7}
MS_PER_SLOT = 3_600_000.0


def _job(rng: np.random.Generator, framework: str, M: int, P: int, T: int) -> Job:
    updates = P if framework == "ps" else 1
    return Job(arrival=int(rng.integers(1, math.ceil(T / 3), endpoint=True)),
               weight=float(rng.integers(1, 10, endpoint=True)), epochs=1,
               chunks=int(rng.integers(1, 4, endpoint=True)), minibatches=int(rng.integers(1, 3, endpoint=True)),
               train=tuple(float(rng.choice([0.5, 1.0, 1.5])) for _ in range(M)),
               update=tuple(float(rng.choice([0.0, 0.25])) for _ in range(updates)),
               gradient=float(rng.choice([0.0, 0.5, 1.0])))


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None, framework: str = "ps",
             servers: int = 0, kappa: float = 0.35) -> Instance:
    """A seeded instance of ``preset`` (see the module docstring): ``jobs`` and ``servers`` override the preset's
    counts (0: its own), ``framework`` is ``ps`` or ``allreduce``, and ``kappa`` rescales the ``paper`` servers
    to that share of the jobs' ideal demand."""
    if preset not in SIZES:
        raise InputError(f"hetero has no preset '{preset}' (presets: {', '.join(PRESETS)})")
    if framework not in ("ps", "allreduce"):
        raise InputError(f"framework must be ps or allreduce, got {framework!r}")
    if servers < 0 or not 0 < kappa <= 10:
        raise InputError("servers must be >= 0 and kappa in (0, 10]")
    J, H, T = SIZES[preset]
    J, H = jobs or J, servers or H
    rng = np.random.default_rng(seed)
    if preset == "paper":
        return _paper(rng, framework, J, H, T, kappa)
    if preset == "trace":
        return _trace(rng, framework, J, H, T)
    M = P = 2
    capacity = tuple(tuple(float(rng.integers(3, 6, endpoint=True)) for _ in range(2)) for _ in range(H))
    workers = tuple((float(rng.integers(1, 2, endpoint=True)), float(rng.integers(1, 2, endpoint=True)))
                    for _ in range(M))
    pss = tuple((0.0, float(rng.integers(1, 2, endpoint=True))) for _ in range(P)) if framework == "ps" else ()
    kept: list[Job] = []
    while len(kept) < J:
        job = _job(rng, framework, M, P, T)
        trial = Instance(framework, T, capacity, workers, pss, 1, (job,))
        if options(trial, limit=None)[0]:  # the generator's own check, as slow as ever with many servers
            kept.append(job)
    return Instance(framework, T, capacity, workers, pss, 1, tuple(kept))


def paper_over(horizon: int, seed: int, jobs: int, servers: int, framework: str = "ps") -> Instance:
    """The ``paper`` preset's instance of ``seed`` (``generate("paper", seed, jobs=jobs, servers=servers,
    framework=framework)``'s draws) over a horizon of ``horizon`` slots instead of 150: Sec. 7 runs
    T in [100, 300] with 150 as the default, and Fig. 2's text says T = 300."""
    if horizon < 1:
        raise InputError(f"horizon must be at least 1 slot, got {horizon}")
    return _paper(np.random.default_rng(seed), framework, jobs, servers, horizon, 0.35)


def _ps_types(rng: np.random.Generator, gpu_resources: int) -> tuple[tuple[float, ...], ...]:
    """10 PS types: no GPU, 1-16 vCPUs, 5-20 Gbps (spec §5.1)."""
    return tuple((0.0,) * gpu_resources
                 + (float(rng.integers(1, 16, endpoint=True)), float(round(rng.uniform(5000, 20000))))
                 for _ in range(10))


def _paper_job(rng: np.random.Generator, framework: str, arrival: int, speeds: list[float], P: int,
               chunks: int | None = None, single_gpu_slots: float | None = None) -> Job:
    """A job with the paper's ranges (spec §5.1); ``v_jm = v_j / speed_m`` (D25). ``single_gpu_slots``
    (trace) fixes ``W v_j`` instead of drawing ``v_j``."""
    E = int(rng.integers(50, 100, endpoint=True))
    D = chunks or int(rng.integers(5, 50, endpoint=True))
    K = int(rng.integers(10, 50, endpoint=True))
    if single_gpu_slots is None:
        v = float(rng.uniform(0.001, 0.05))
    else:
        v = float(np.clip(single_gpu_slots / (E * D * K), 0.001, 0.05))
    updates = P if framework == "ps" else 1
    return Job(arrival=arrival, weight=float(round(rng.uniform(200, 5000))), epochs=E, chunks=D, minibatches=K,
               train=tuple(round(v / s, 6) for s in speeds),
               update=tuple(round(float(rng.uniform(10, 100)) / MS_PER_SLOT, 9) for _ in range(updates)),
               gradient=round(float(rng.uniform(30, 575)) * 8 / 3600, 6))  # MB -> Mbps x slots


def _require_fit(capacity, workers, pss) -> None:
    """Refuse a cluster on which no job can run alone: one worker (allreduce: on one server) and,
    for ps, one PS somewhere (q = 0 lets them sit on different servers; one PS covers one worker
    since every ``B_p >= b_m``). Whether a job fits does not depend on the job."""
    cap = np.asarray(capacity)
    for e in workers:
        if not np.any(np.all(cap >= np.asarray(e) - 1e-9, axis=1)):
            continue
        if not pss or any(np.any(np.all(cap >= np.asarray(z) - 1e-9, axis=1)) for z in pss):
            return
    raise InputError(f"no worker type{' with a PS type' if pss else ''} fits a server of this cluster "
                     f"({len(capacity)} servers): use fewer servers or a larger kappa")


def _draw_jobs(rng, framework, J, T, speeds, P, arrivals=None, extra=None) -> list[Job]:
    return [_paper_job(rng, framework, arrivals[k] if arrivals is not None else int(rng.integers(1, T, endpoint=True)),
                       speeds, P, **(extra[k] if extra else {})) for k in range(J)]


def _paper(rng: np.random.Generator, framework: str, J: int, H: int, T: int, kappa: float) -> Instance:
    workers = tuple((float(rng.integers(1, 4, endpoint=True)), float(rng.integers(1, 16, endpoint=True)),
                     float(round(rng.uniform(100, 5000)))) for _ in range(8))
    pss = _ps_types(rng, 1) if framework == "ps" else ()
    speeds = [e[0] ** 0.8 for e in workers]
    base = [EC2_SHAPES[int(k)] for k in rng.integers(0, len(EC2_SHAPES), size=H)]
    largest = np.max(np.asarray(EC2_SHAPES, float), axis=0)
    _require_fit([largest], workers, pss)
    job_list = _draw_jobs(rng, framework, J, T, speeds, len(pss))
    demand = sum(_ideal_demand(framework, job, workers, pss, largest) for job in job_list)
    scale = kappa * demand / np.asarray(base, float).sum(axis=0)
    # [D] a PS of the type with the least bandwidth fits every server: at the paper's 150 servers and
    # 50-100 jobs the rescaled servers would otherwise be too small for any PS (too fragmented)
    floor = min(pss, key=lambda z: (z[2], z[1])) if pss else (0.0, 1.0, 0.0)
    capacity = tuple((float(max(1, math.floor(g * scale[0]))), float(max(floor[1], 1, math.floor(c * scale[1]))),
                      float(max(floor[2], round(b * scale[2])))) for g, c, b in base)
    _require_fit(capacity, workers, pss)
    return Instance(framework, T, capacity, workers, pss, 2, tuple(job_list))


def _ideal_demand(framework: str, job: Job, workers, pss, largest: np.ndarray) -> np.ndarray:
    """Per-slot demand of the job's ideal configuration (spec §5.2): the fastest single-server
    configuration that fits the largest server shape, ties to fewer resources; ``s`` PSs cover the
    workers' bandwidth. Worker counts ``n = 1..D_j`` are compared at once per (worker type, PS
    type), in that order, the first of equal keys winning (tests/hetero/test_generate.py checks it
    against the configuration-by-configuration search)."""
    n = np.arange(1, job.chunks + 1)
    best: tuple[tuple[float, float], np.ndarray] | None = None
    for m, e in enumerate(workers):
        for p in (range(len(pss)) if framework == "ps" else (None,)):
            if framework == "ps":
                z = np.asarray(pss[ps_type(p)])
                s = np.maximum(1, np.ceil(n * e[2] / z[2]))
                time = job.work * (job.train[m] + job.update[ps_type(p)]) / n
            else:
                z, s = np.zeros(3), np.zeros(len(n))
                time = job.work * (job.train[m] + job.update[0] * (n - 1) / n) / n
            use = n[:, None] * np.asarray(e) + s[:, None] * z
            fits = np.flatnonzero(~np.any(use > largest, axis=1))
            if not len(fits):
                continue
            total = use[fits].sum(axis=1)
            i = np.lexsort((total, time[fits]))[0]  # stable: the fewest workers among equal keys
            key = (float(time[fits[i]]), float(total[i]))
            if best is None or key < best[0]:
                best = (key, use[fits[i]])
    return best[1] if best is not None else np.zeros(3)


def _trace(rng: np.random.Generator, framework: str, J: int, H: int, T: int) -> Instance:
    nodes = traces.sample_nodes(rng, H)
    models = sorted({n.model for n in nodes})
    G = len(models)
    capacity = tuple(tuple(float(n.gpus) if models[g] == n.model else 0.0 for g in range(G))
                     + (n.cpus, 25_000.0 if n.gpus >= 4 else 10_000.0) for n in nodes)
    workers, speeds = [], []
    for g, model in enumerate(models):
        for count in (1, 2):
            workers.append(tuple(float(count) if k == g else 0.0 for k in range(G)) + (4.0 * count, 1000.0 * count))
            speeds.append(GPU_SPEED.get(model, 0.7) * count ** 0.8)
    pss = _ps_types(rng, G) if framework == "ps" else ()
    start, chosen = traces.sample_jobs(rng, J, 0, 60 * 86400, T * 3600)
    arrivals = [1 + int((tj.submit_s - start) // 3600) for tj in chosen]
    extra = [{"chunks": int(np.clip(2 * tj.gpus, 5, 50)), "single_gpu_slots": max(tj.gpu_seconds, 1.0) / 3600}
             for tj in chosen]
    _require_fit(capacity, workers, pss)
    job_list = _draw_jobs(rng, framework, len(chosen), T, speeds, len(pss), arrivals, extra)
    return Instance(framework, T, capacity, tuple(workers), pss, G + 1, tuple(job_list))


def with_worker_type(instance: Instance, m: int) -> Instance:
    """``instance`` with worker type ``m`` as the only one (Fig. 9: every job uses one fixed type,
    against A_online's free choice); each job keeps its own ``v_jm``."""
    if not 0 <= m < len(instance.worker_demand):
        raise InputError(f"worker type {m} does not exist (the instance has {len(instance.worker_demand)})")
    jobs = tuple(replace(job, train=(job.train[m],)) for job in instance.jobs)
    return replace(instance, worker_demand=(instance.worker_demand[m],), jobs=jobs)
