"""Sweeps over a paper's axes: the points of a job sweep and a server sweep that share one, and the
rows of each; the mean of a list."""

from __future__ import annotations

from collections.abc import Iterable


def sweep_points(p: dict) -> list[tuple[int, int]]:
    """The (jobs, servers) points of a job sweep at ``p["servers_fixed"]`` and a server sweep at
    ``p["jobs_fixed"]``, each once: the two share a point when the fixed values meet, and it is
    computed and tested once."""
    points = [(j, p["servers_fixed"]) for j in p["jobs"]] + [(p["jobs_fixed"], n) for n in p["servers"]]
    return list(dict.fromkeys(points))


def sweep_rows(rows: list[dict], sweep: str, p: dict) -> list[dict]:
    """The rows of one sweep, ``"jobs"`` or ``"servers"`` (a shared point belongs to both), for its
    tables and figures."""
    if sweep == "jobs":
        return [r for r in rows if r["servers"] == p["servers_fixed"] and r["jobs"] in p["jobs"]]
    return [r for r in rows if r["jobs"] == p["jobs_fixed"] and r["servers"] in p["servers"]]


def mean(values: Iterable[float]) -> float:
    """The mean of ``values`` (NaN when there are none)."""
    values = list(values)
    return sum(values) / len(values) if values else float("nan")
