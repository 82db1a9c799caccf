"""Heavy-Edge placement (spec asrpt.md §3.3), the placement family's algorithm: the job graph's
heaviest edges kept on one server, on the MOST allotment of the free GPUs."""

from __future__ import annotations

import random

from .heavy_edge import allot, place
from .instance import PlacementInstance
from .schedule import Placement


def heavy_edge(instance: PlacementInstance, *, seed: int = 0, criterion: str = "heaviest") -> Placement:
    """Heavy-Edge on the MOST allotment of the free GPUs (with ``fill = "exact"``, on all of them),
    the placement family's algorithm (spec §3.3)."""
    counts, _ = place(instance.job, allot(instance.available, instance.job.gpus, "most"), instance.cluster,
                      random.Random(seed), criterion)
    return Placement.from_rows(counts, instance)
