"""Instances of 1|r_j|Σ w_j C_j: one machine, jobs with release dates, integer processing times and weights.

Time is integral: processing times are positive integers and release dates non-negative integers,
so that the time-indexed formulation is exact. Weights are positive reals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from ..limits import MAX_SLOTS, refuse_above
from ..schema import Fields


@dataclass(frozen=True)
class Job:
    """A job: processing time p_j (a positive integer), weight w_j > 0 and release date r_j >= 0."""
    p: int  #: processing time, a positive integer
    w: float  #: weight, positive
    r: int = 0  #: release date, a non-negative integer


@dataclass(frozen=True)
class Instance:
    """A ``single`` instance: 1|r_j|Σ w_j C_j on its jobs (at least one)."""
    jobs: tuple[Job, ...]

    def __post_init__(self):
        if not self.jobs:
            raise InputError("an instance needs at least one job")
        for j, job in enumerate(self.jobs):
            if not (isinstance(job.p, int) and job.p >= 1 and isinstance(job.r, int) and job.r >= 0
                    and math.isfinite(job.w) and job.w > 0):
                raise InputError(f"job {j}: need integer p >= 1, integer r >= 0 and w > 0, got {job}")

    @property
    def n(self) -> int:
        """The number of jobs."""
        return len(self.jobs)

    @property
    def horizon(self) -> int:
        """``max_j r_j + Σ_j p_j``: every left-shifted schedule, hence some optimal one, ends by then.

        In a left-shifted schedule the last idle period ends at a release date, and after it the
        machine is busy for at most ``Σ p_j``.
        """
        return max(job.r for job in self.jobs) + sum(job.p for job in self.jobs)

    def to_dict(self) -> dict:
        """This ``Instance`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"jobs": [{"p": job.p, "w": job.w, "r": job.r} for job in self.jobs]}

    @classmethod
    def from_dict(cls, d: object, where: str = "instance") -> Instance:
        """Read a ``Instance`` from its JSON form ``d`` (what ``to_dict`` writes), checked against ``instance``; a
        malformed document raises ``InputError`` naming ``where`` and the field."""
        fields = Fields(d, where)
        raw_jobs = fields.array("jobs", nonempty=True)
        fields.done()
        jobs = []
        for j, raw in enumerate(raw_jobs):
            job = Fields(raw, fields.path(f"jobs[{j}]"))
            jobs.append(Job(p=job.integer("p", min=1), w=job.number("w", positive=True),
                            r=job.integer("r", min=0, default=0)))
            job.done()
        instance = cls(tuple(jobs))
        refuse_above(instance.horizon, MAX_SLOTS, f"{where}: the horizon max r + Σ p (time slots)")
        return instance

