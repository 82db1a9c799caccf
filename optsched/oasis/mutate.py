"""OASiS's search space (``optsched search oasis``): Family T instances (``generate("tiny")``,
spec §6.1) and the moves the search may make on them, within bounds that keep the time-indexed
MILP small enough to prove optimal in the node budget: up to 6 slots, 3 worker and 3 PS servers,
capacities 1-8, demands 1-3, ``E <= 3``, ``N <= 4``, utilities with ``γ1`` in [1, 500] (log steps)
and ``γ2, γ3`` in [0, 6]. Jobs stay in arrival order (the order OASiS takes them in)."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate


def _start(seed: int, size: int) -> Document:
    return generate("tiny", seed, jobs=size).to_dict()


def _by_arrival(doc: Document) -> Document:
    doc["jobs"].sort(key=lambda job: job["arrival"])
    return doc


def space() -> Space:
    return Space(
        start=_start,
        items=(Items("jobs"), Items("worker_servers", 1, 3), Items("ps_servers", 1, 3)),
        numbers=(Numbers("T", 1, 6),
                 Numbers("worker_servers.*.*", 1, 8), Numbers("ps_servers.*.*", 1, 8),
                 Numbers("jobs.*.arrival", 1, "T"), Numbers("jobs.*.epochs", 1, 3),
                 Numbers("jobs.*.chunks", 1, 4), Numbers("jobs.*.tau", 0.25, 1.0, integer=False),
                 Numbers("jobs.*.worker_demand.*", 1, 3), Numbers("jobs.*.ps_demand.*", 1, 3),
                 Numbers("jobs.*.utility.gamma1", 1, 500, integer=False, log=True),
                 Numbers("jobs.*.utility.gamma2", 0, 6, integer=False),
                 Numbers("jobs.*.utility.gamma3", 0, 6, integer=False)),
        normalize=_by_arrival)
