"""Seeded hetero instances.

* ``tiny`` (spec §6.1): 4 jobs, 2 servers, T = 12; M = P = 2 worker and PS types; resource 0 is
  GPU-like, resource 1 bandwidth (``b_m = e[m][1]``, ``B_p = z[p][1]``); ``e ∈ {1, 2}``, a PS takes
  no GPU and ``z[p][1] ∈ {1, 2}``; capacities in 3..6; ``E = 1``, ``K ∈ 1..3``, ``D ∈ 1..4``;
  ``v ∈ {0.5, 1, 1.5}``, ``U ∈ {0, 0.25}``, ``π ∈ {0, 0.5, 1}`` slots; ``a ∈ 1..⌈T/3⌉``; integer
  weights in 1..10. Every parameter is a multiple of 1/4, so durations are exact. Jobs that fit the
  empty cluster in no shape are redrawn.
* ``small``: the same recipe with 6 jobs, 3 servers and T = 16.

Option ``framework`` (``ps`` or ``allreduce``) picks the training framework; allreduce jobs have one
``U`` and no PS types.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError
from .columns import options
from .instance import Instance, Job

PRESETS = ("tiny", "small")
SIZES = {"tiny": (4, 2, 12), "small": (6, 3, 16)}


def _job(rng: np.random.Generator, framework: str, M: int, P: int, T: int) -> Job:
    updates = P if framework == "ps" else 1
    return Job(arrival=int(rng.integers(1, math.ceil(T / 3), endpoint=True)), weight=float(rng.integers(1, 10, endpoint=True)),
               epochs=1, chunks=int(rng.integers(1, 4, endpoint=True)), minibatches=int(rng.integers(1, 3, endpoint=True)),
               train=tuple(float(rng.choice([0.5, 1.0, 1.5])) for _ in range(M)),
               update=tuple(float(rng.choice([0.0, 0.25])) for _ in range(updates)),
               gradient=float(rng.choice([0.0, 0.5, 1.0])))


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None, framework: str = "ps") -> Instance:
    if preset not in SIZES:
        raise InputError(f"hetero has no preset '{preset}' (presets: {', '.join(PRESETS)})")
    if framework not in ("ps", "allreduce"):
        raise InputError(f"framework must be ps or allreduce, got {framework!r}")
    J, H, T = SIZES[preset]
    J = jobs or J
    rng = np.random.default_rng(seed)
    M = P = 2
    capacity = tuple(tuple(float(rng.integers(3, 6, endpoint=True)) for _ in range(2)) for _ in range(H))
    workers = tuple((float(rng.integers(1, 2, endpoint=True)), float(rng.integers(1, 2, endpoint=True))) for _ in range(M))
    pss = tuple((0.0, float(rng.integers(1, 2, endpoint=True))) for _ in range(P)) if framework == "ps" else ()
    kept: list[Job] = []
    while len(kept) < J:
        job = _job(rng, framework, M, P, T)
        trial = Instance(framework, T, capacity, workers, pss, 1, (job,))
        if options(trial)[0]:
            kept.append(job)
    return Instance(framework, T, capacity, workers, pss, 1, tuple(kept))
