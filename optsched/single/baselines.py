"""Baselines for 1|r_j|Σ w_j C_j."""

from __future__ import annotations

from .instance import Instance
from .online import list_schedule
from .schedule import Schedule


def fifo(instance: Instance, *, seed: int = 0) -> Schedule:
    """First in, first out: at each idle moment start the earliest-released waiting job (ties by index)."""
    return list_schedule(instance, lambda j, job: (job.r, j))
