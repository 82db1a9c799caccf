"""The family's search space (``optsched search single``): ``tiny`` instances (``generate("tiny")``)
and the moves the search may make on them: processing times 1-10, weights 1-10, release dates
0-20. The template every family's ``mutate.py`` follows."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate


def _start(seed: int, size: int) -> Document:
    return generate("tiny", seed, jobs=size).to_dict()


def space() -> Space:
    """The search space of ``single`` instances for ``optsched search``: jobs with their p, w and r."""
    return Space(
        start=_start,
        items=(Items("jobs"),),
        numbers=(Numbers("jobs.*.p", 1, 10), Numbers("jobs.*.w", 1, 10), Numbers("jobs.*.r", 0, 20)))
