"""Seeded generators of family ``placement`` (one job, free GPUs per server; spec asrpt.md §5), by preset:

- ``tiny``: a random job of 1-3 stages and 1-3 replicas each on 2-4 servers of 4 GPUs.
- ``small``: 2-5 stages of 1-4 replicas on 4-8 servers of 8 GPUs.
- ``paper``: a Table I model (option ``model``, default ``vgg19``) configured on ``gpus`` GPUs
  (default 16; ``stages`` fixes the pipeline depth) over 8-16 servers of 8 GPUs with free GPUs
  uniform in 0..8: Table II's availability cases, one per seed.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .instance import Instance, Job, Stage
from .online import allot
from .templates import PAPER_CLUSTER, configure

PRESETS = ("tiny", "small", "paper")


def _random_job(rng: np.random.Generator, stages: int, replicas: int, gpus_cap: int) -> Job:
    S = int(rng.integers(1, stages + 1))
    ks = [int(rng.integers(1, replicas + 1)) for _ in range(S)]
    while sum(ks) > gpus_cap:
        ks[int(np.argmax(ks))] -= 1
    built = []
    for s, k in enumerate(ks):
        built.append(Stage(float(rng.uniform(0.01, 0.05)), k, float(rng.choice([0.0, rng.uniform(1, 200)])),
                           float(rng.uniform(1, 100)) if s < S - 1 else 0.0, str(rng.choice(["ring", "tree"]))))
    return Job(tuple(built))


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None, model: str = "vgg19",
                       gpus: int = 16, stages: int = 0, fill: str = "at_most") -> Instance:
    """One placement instance (family ``placement``); ``jobs`` is ignored (one job per instance)."""
    rng = np.random.default_rng(seed)
    if preset == "paper":
        if gpus < 1 or stages < 0 or (stages and stages > gpus):
            raise InputError(f"placement generator: need gpus >= 1 and 0 <= stages <= gpus, got {gpus}, {stages}")
        job = configure(model, gpus, PAPER_CLUSTER, stages or None)
        g, inter, intra = PAPER_CLUSTER.gpus, PAPER_CLUSTER.inter_bw, PAPER_CLUSTER.intra_bw
        servers = int(rng.integers(8, 17))
        if gpus > servers * g:
            raise InputError(f"placement generator: {gpus} GPUs do not fit 8-16 servers of {g}")
    else:
        g, (low, high) = (4, (2, 4)) if preset == "tiny" else (8, (4, 8))
        servers = int(rng.integers(low, high + 1))
        job = _random_job(rng, 3 if preset == "tiny" else 5, 3 if preset == "tiny" else 4, servers * g)
        inter, intra = 1250.0, 50_000.0
    while True:
        available = tuple(int(a) for a in rng.integers(0, g + 1, size=servers))
        if sum(available) >= job.gpus:
            break
    if fill == "exact":  # the MOST allotment of those free GPUs, as Heavy-Edge would get it
        taken = dict(allot(available, job.gpus, "most"))
        available = tuple(taken.get(m, 0) for m in range(servers))
    return Instance(job, g, inter, intra, available, fill)
