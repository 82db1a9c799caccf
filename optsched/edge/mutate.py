"""The edge paper's search space (``optsched search edge``): ``tiny`` instances
(``generate("tiny")``) and the moves the search may make on them, within bounds that keep the
time-indexed MILP provable: up to 3 edge servers of 1-3 workers, releases 0-12, ``D <= 4`` chunks,
edge and cloud processing times 1-10, edge delays 0-4 per server, cloud delay 0-16. Gangs and the
communication share stay as generated (one worker, none); jobs stay in release order."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate


def _start(seed: int, size: int) -> Document:
    return generate("tiny", seed, jobs=size).to_dict()


def _by_release(doc: Document) -> Document:
    doc["jobs"].sort(key=lambda job: job["release"])
    return doc


def space() -> Space:
    """The search space of ``edge`` instances for ``optsched search``: jobs, servers and their workers, releases, chunk
    counts, times and delays."""
    return Space(
        start=_start,
        items=(Items("jobs"), Items("servers", 1, 3, coupled=("jobs.*.delay_edge",)),
               Items("servers.*.workers", 1, 3)),
        numbers=(Numbers("jobs.*.release", 0, 12), Numbers("jobs.*.chunks", 1, 4),
                 Numbers("jobs.*.p_edge", 1, 10), Numbers("jobs.*.p_cloud", 1, 10),
                 Numbers("jobs.*.delay_edge.*", 0, 4), Numbers("jobs.*.delay_cloud", 0, 16)),
        normalize=_by_release)
