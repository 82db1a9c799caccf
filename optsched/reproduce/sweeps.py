"""Sweeps over a paper's axes: a job sweep and a server sweep (:class:`JobServerSweeps`) that may share
a point, the points of both and the rows of each; the mean of a list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class JobServerSweeps:
    """A job sweep at ``servers_fixed`` servers and a server sweep at ``jobs_fixed`` jobs: the part of
    a preset they make up (a family's preset extends it with its own fields)."""

    jobs: list[int]
    servers_fixed: int
    servers: list[int]
    jobs_fixed: int


def sweep_points(p: JobServerSweeps) -> list[tuple[int, int]]:
    """The (jobs, servers) points of the job sweep at ``p.servers_fixed`` and the server sweep at
    ``p.jobs_fixed``, each once: the two share a point when the fixed values meet, and it is
    computed and tested once."""
    points = [(j, p.servers_fixed) for j in p.jobs] + [(p.jobs_fixed, n) for n in p.servers]
    return list(dict.fromkeys(points))


def sweep_rows(rows: list[dict], sweep: str, p: JobServerSweeps) -> list[dict]:
    """The rows of one sweep, ``"jobs"`` or ``"servers"`` (a shared point belongs to both), for its
    tables and figures."""
    if sweep == "jobs":
        return [r for r in rows if r["servers"] == p.servers_fixed and r["jobs"] in p.jobs]
    return [r for r in rows if r["jobs"] == p.jobs_fixed and r["servers"] in p.servers]


def mean(values: Iterable[float]) -> float:
    """The mean of ``values`` (NaN when there are none)."""
    values = list(values)
    return sum(values) / len(values) if values else float("nan")
