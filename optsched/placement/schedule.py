"""Placements and their independent verifier (spec asrpt.md §1, §2.1).

A placement, :class:`Schedule`, is the count matrix ``x[m][s]`` of one job on a placement instance. Valid when
every replica is placed (2) and no server holds more than its free GPUs (exactly that many with
``fill = "exact"``). Objective: ``α(x)`` of eq. (7) in **milliseconds** (Table II's PITT).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..schema import Fields, integer
from .instance import Instance, Job
from .timing import alpha


def count_errors(job: Job, rows: dict[int, list[int]], where: str) -> list[str]:
    """What is wrong with ``rows`` (server -> replicas per stage) as a placement of ``job``: wrong lengths,
    negative counts, stages not placed exactly; each message starts with ``where``."""
    problems = []
    S = len(job.stages)
    for m, row in rows.items():
        if len(row) != S or any(x < 0 for x in row):
            problems.append(f"{where}: server {m} needs {S} non-negative stage counts, got {row}")
    if problems:
        return problems
    for s, stage in enumerate(job.stages):
        placed = sum(row[s] for row in rows.values())
        if placed != stage.replicas:
            problems.append(f"{where}: stage {s} has {placed} replicas placed, needs {stage.replicas} (2)")
    return problems


@dataclass(frozen=True)
class Schedule:
    """A placement: ``x[m][s]``, the replicas of stage s on server m, one row per server of the instance."""
    counts: tuple[tuple[int, ...], ...]  #: x[m][s], one row per server of the instance

    def to_dict(self) -> dict:
        """This ``Schedule`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"counts": [list(row) for row in self.counts]}

    @classmethod
    def from_dict(cls, d: object, instance: Instance, where: str = "schedule") -> Schedule:
        """Read a ``Schedule`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        f = Fields(d, where)
        raw = f.array("counts")
        f.done()
        if len(raw) != len(instance.available):
            raise InputError(f"{f.path('counts')}: has {len(raw)} rows, the instance has "
                             f"{len(instance.available)} servers")
        rows = []
        for m, row in enumerate(raw):
            if not isinstance(row, list):
                raise InputError(f"{f.path(f'counts[{m}]')}: must be a list of stage counts")
            rows.append(tuple(integer(x, f.path(f"counts[{m}][{s}]"), min=0) for s, x in enumerate(row)))
        return cls(tuple(rows))

    @classmethod
    def from_rows(cls, rows: dict[int, list[int]], instance: Instance) -> Schedule:
        """The placement with ``rows`` (server -> replicas per stage) and zeros on every other server of
        ``instance``."""
        zero = [0] * len(instance.job.stages)
        return cls(tuple(tuple(rows.get(m, zero)) for m in range(len(instance.available))))


def verify(instance: Instance, placement: Schedule) -> list[str]:
    """Every violated constraint of the placement problem, readably (empty when feasible)."""
    if len(placement.counts) != len(instance.available):
        return [f"placement has {len(placement.counts)} rows, the instance has {len(instance.available)} servers"]
    problems = count_errors(instance.job, {m: list(r) for m, r in enumerate(placement.counts)}, "placement")
    if problems:
        return problems
    for m, (row, free) in enumerate(zip(placement.counts, instance.available)):
        used = sum(row)
        if used > free or (instance.fill == "exact" and used != free):
            relation = "exactly" if instance.fill == "exact" else "at most"
            problems.append(f"server {m} holds {used} replicas, may hold {relation} {free}")
    return problems


def objective(instance: Instance, placement: Schedule) -> float:
    """Per-iteration training time (ms), eq. (7)."""
    return 1000.0 * alpha(instance.job, placement.counts, instance.cluster)
