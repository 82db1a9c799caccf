"""Seeded generators of 1|r_j|Σ w_j C_j instances."""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .instance import Instance, Job

#: Generator presets: number of jobs, largest processing time and weight, and the release window
#: as a fraction of the total processing time (0 puts every release date at 0).
PRESETS = {
    "tiny": {"jobs": 5, "max_p": 5, "max_w": 10, "release_window": 0.6},
    "small": {"jobs": 12, "max_p": 10, "max_w": 10, "release_window": 0.6},
}


def generate(preset: str = "tiny", seed: int = 0, jobs: int | None = None) -> Instance:
    """A random instance: ``p`` uniform on 1..max_p, integer ``w`` on 1..max_w, ``r`` uniform on
    0..⌊release_window · Σp⌋ (seeded, reproducible)."""
    spec = PRESETS[preset]
    n = int(spec["jobs"]) if jobs is None else jobs
    if n < 1:
        raise InputError(f"--jobs must be at least 1, got {n}")
    rng = np.random.default_rng(seed)
    p = rng.integers(1, int(spec["max_p"]), size=n, endpoint=True)
    w = rng.integers(1, int(spec["max_w"]), size=n, endpoint=True)
    window = int(spec["release_window"] * p.sum())
    r = rng.integers(0, window, size=n, endpoint=True)
    return Instance(tuple(Job(int(p[j]), float(w[j]), int(r[j])) for j in range(n)))
