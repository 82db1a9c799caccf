"""Seeded generators of family ``asrpt`` (a job stream; spec asrpt.md §4.7, §5), by preset:

- ``tiny``: integral (§4.7): 2 servers x 2 GPUs, ``B_inter = B_intra = 1`` MB/s, stages of 1-2
  replicas with ``P`` in {1, 2, 3} s and volumes in {0, 2} MB, parameters in {0, 1} MB, 1-3
  iterations, releases in 0..5 s; every ``α`` is a whole number of seconds; 4 jobs unless ``jobs``.
- ``small``: the same on 3 servers, 6 jobs unless ``jobs``.
- ``paper``: the simulation of §V-B: 250 servers x 8 GPUs (option ``servers``), 10 Gbps NICs
  (``nic_gbps``), 300 GB/s NVLink; consecutive jobs of the recurring-job Philly workload
  (:mod:`.workload`, 2,000 unless ``jobs``). The seed draws the workload's synthetic layer (groups,
  users, models: ``workload(cluster, seed)``, so the predictors train per seed) and picks the window
  in the held-out last 20%; a window as long as the held-out part is the same for every seed, so
  there the layer is what makes the seeds different instances.

Options of ``asrpt``: ``prediction`` (tiny/small: ``noisy`` = true count +-1, ``perfect``, ``zero``,
``over``, ``under``; paper: a predictor of :mod:`.predict`, default ``rf``), ``single_gpu_share``
(paper: -1 keeps the trace's GPU counts; a share in [0, 1] makes each job single-GPU with that
probability and otherwise gives it the GPU count of a random multi-GPU trace job, Fig. 7), ``load``
(paper: submission times are scaled so that the offered load, ``Σ g_i n_i α̃_i / (G x span)``, is
this; 0 keeps the trace's times. The Philly window offers about 0.06 of the simulated cluster, far
less than the paper's denser trace on a third of its GPUs; the default 1.0 is an assumption [A21]).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from ..errors import InputError
from ..placement.instance import Cluster, Job, Stage
from ..placement.online import alpha_tilde
from ..placement.templates import PAPER_CLUSTER, configure
from .instance import Instance, StreamJob
from .predict import PREDICTORS, predict
from .workload import SINGLE_GPU_MODELS, TRAIN_SHARE, workload

PRESETS = ("tiny", "small", "paper")
TOY_PREDICTIONS = ("noisy", "perfect", "zero", "over", "under")


def _integral_stream(rng: np.random.Generator, servers: int, count: int, prediction: str) -> Instance:
    prediction = prediction or "noisy"
    if prediction not in TOY_PREDICTIONS:
        raise InputError(f"asrpt generator: prediction must be one of {', '.join(TOY_PREDICTIONS)}, got {prediction!r}")
    cluster = Cluster(servers, 2, 1.0, 1.0)
    jobs = []
    for _ in range(count):
        S = int(rng.integers(1, 3))
        ks = [int(rng.integers(1, 3)) for _ in range(S)]
        if sum(ks) >= cluster.total_gpus:  # Theorem 1 needs g_i < G
            ks = [1] * S
        stages = tuple(Stage(float(rng.integers(1, 4)), k, float(rng.integers(0, 2)),
                             2.0 * float(rng.integers(0, 2)) if s < S - 1 else 0.0) for s, k in enumerate(ks))
        n = int(rng.integers(1, 4))
        guess = {"noisy": max(0, n + int(rng.integers(-1, 2))), "perfect": n, "zero": 0,
                 "over": n + int(rng.integers(1, 3)), "under": int(rng.integers(0, n))}[prediction]
        jobs.append(StreamJob(Job(stages), float(rng.integers(0, 6)), n, float(guess)))
    return Instance(cluster, tuple(jobs), 1.0, {"preset": "integral (spec §4.7)", "prediction": prediction})


@lru_cache(maxsize=8)
def _predictions(reference: Cluster, predictor: str, seed: int, spread: float = 0.0) -> tuple[float, ...]:
    """Predictions for every job of ``workload(reference, seed, spread)``, trained on the first 80%
    (computed once per process)."""
    jobs = workload(reference, seed, spread)
    cut = int(TRAIN_SHARE * len(jobs))
    train = jobs[:cut]
    return tuple(predict(predictor, [j.group for j in train], [j.user for j in train], [j.iterations for j in train],
                         [j.group for j in jobs], [j.user for j in jobs], [j.iterations for j in jobs], seed))


#: How a trace window's submission times are stretched [A21]: ``fixed-load`` scales each generated stream
#: to the offered load ``load`` (so every setting of a sweep offers the same load); ``trace`` scales the
#: window as recorded to ``load`` and keeps that time scale when the single-GPU share changes the jobs,
#: so the offered load rises as multi-GPU jobs replace single-GPU ones (the paper's reason for Fig. 7).
ARRIVALS = ("fixed-load", "trace")
#: The largest within-group spread σ (a lognormal factor with σ = 2 already spans two orders of magnitude).
MAX_SPREAD = 2.0


def _trace_stream(rng: np.random.Generator, layer: int, count: int, servers: int, nic_gbps: float, predictor: str,
                  single_gpu_share: float, load: float, arrivals: str = "fixed-load", spread: float = 0.0) -> Instance:
    predictor = predictor or "rf"
    if predictor not in PREDICTORS:
        raise InputError(f"asrpt generator: prediction must be one of {', '.join(PREDICTORS)}, got {predictor!r}")
    if servers < 1 or not nic_gbps > 0 or not (single_gpu_share == -1 or 0 <= single_gpu_share <= 1) or load < 0:
        raise InputError("asrpt generator: need servers >= 1, nic_gbps > 0, single_gpu_share -1 or in [0, 1], "
                         "load >= 0")
    if arrivals not in ARRIVALS:
        raise InputError(f"asrpt generator: arrivals must be one of {', '.join(ARRIVALS)}, got {arrivals!r}")
    if not 0 <= spread <= MAX_SPREAD:
        raise InputError(f"asrpt generator: spread must be in [0, {MAX_SPREAD:g}], got {spread!r}")
    reference = Cluster(servers, PAPER_CLUSTER.gpus, PAPER_CLUSTER.inter_bw, PAPER_CLUSTER.intra_bw)
    cluster = Cluster(servers, PAPER_CLUSTER.gpus, nic_gbps * 125.0, PAPER_CLUSTER.intra_bw)
    jobs = workload(reference, layer, spread)
    predicted = _predictions(reference, predictor, layer, spread)
    cut = int(TRAIN_SHARE * len(jobs))
    if count > len(jobs):
        raise InputError(f"asrpt generator: the workload has {len(jobs)} jobs, {count} requested")
    held_out = len(jobs) - cut
    start = cut + int(rng.integers(0, held_out - count + 1)) if count <= held_out else len(jobs) - count
    window = range(start, start + count)
    multi = [j for j in jobs if j.job.gpus > 1]
    origin = jobs[start].submit
    stream = []
    for k in window:
        w, guess = jobs[k], predicted[k]
        job = w.job
        if single_gpu_share >= 0:
            wanted = 1 if rng.random() < single_gpu_share else multi[int(rng.integers(len(multi)))].job.gpus
            if wanted != job.gpus:
                name = job.model
                if wanted == 1 and name not in SINGLE_GPU_MODELS:
                    name = SINGLE_GPU_MODELS[int(rng.integers(len(SINGLE_GPU_MODELS)))]
                job = configure(name, wanted, reference)  # the job keeps its iteration count
        stream.append(StreamJob(job, w.submit - origin, w.iterations, guess, w.group, w.user))
    span = stream[-1].release

    def work(pairs) -> float:
        return sum(job.gpus * iterations * alpha_tilde(job, reference) for job, iterations in pairs)

    offered = work((sj.job, sj.iterations) for sj in stream) / reference.total_gpus
    recorded = work((jobs[k].job, jobs[k].iterations) for k in window) / reference.total_gpus
    basis = recorded if arrivals == "trace" else offered
    scale = basis / (span * load) if load > 0 and span > 0 else 1.0
    stream = [replace(sj, release=sj.release * scale) for sj in stream]
    provenance = {"trace": "philly_adaptdl.csv with synthetic groups, users and models (optsched.asrpt.workload)",
                  "synthetic_layer": layer,
                  "window": [start, start + count], "training": [0, cut], "predictor": predictor,
                  "overlaps_training": start < cut, "single_gpu_share": single_gpu_share,
                  "load": load, "arrivals": arrivals, "spread": spread,
                  "trace_load": offered / span if span > 0 else None,
                  "offered_load": offered / (span * scale) if span > 0 else None, "time_scale": scale}
    return Instance(cluster, tuple(stream), 1.0, provenance)


def generate_stream(preset: str = "tiny", seed: int = 0, jobs: int | None = None, prediction: str = "",
                    servers: int = 250, nic_gbps: float = 10.0, single_gpu_share: float = -1.0,
                    load: float = 1.0, arrivals: str = "fixed-load", spread: float = 0.0) -> Instance:
    """One job stream (family ``asrpt``); ``arrivals`` and ``load`` say how the trace's submission times
    are stretched (:data:`ARRIVALS`); ``spread`` varies the iteration count within a recurring group
    (:func:`workload.workload`)."""
    rng = np.random.default_rng(seed)
    if jobs is not None and jobs < 1:
        raise InputError(f"asrpt generator: jobs must be >= 1, got {jobs}")
    if preset == "tiny":
        return _integral_stream(rng, 2, jobs or 4, prediction)
    if preset == "small":
        return _integral_stream(rng, 3, jobs or 6, prediction)
    return _trace_stream(rng, seed, jobs or 2000, servers, nic_gbps, prediction, single_gpu_share, load, arrivals,
                         spread)
