"""Online non-preemptive list scheduling on one machine, and the online WSPT rule.

Jobs reach the algorithm through an :class:`~optsched.arrivals.ArrivalStream`. Whenever the machine
is idle, the algorithm starts the arrived, unstarted job that ranks first under its priority; when
no job is waiting it idles until the next arrival. (Online WSPT has no constant competitive ratio
for 1|r_j|Σ w_j C_j; delaying variants reach 2 (Anderson & Potts 2004). It is the toolkit's
smallest example of an online rule measured against an exact optimum.)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from fractions import Fraction

from ..arrivals import ArrivalStream
from .instance import Instance, Job
from .schedule import Schedule

Priority = Callable[[int, Job], tuple]


def list_schedule(instance: Instance, priority: Priority) -> Schedule:
    """Start, at each idle moment, the waiting job with the smallest ``priority(j, job)`` (a job's
    priority is fixed when it arrives, so the waiting jobs are kept in a heap: O(n log n))."""
    stream = ArrivalStream(instance.jobs, lambda job: job.r)
    start: list[float] = [0.0] * instance.n
    waiting: list[tuple[tuple, int]] = []

    def arrive(arrived: list[tuple[int, Job]]) -> None:
        for i, job in arrived:
            heapq.heappush(waiting, (priority(i, job), i))

    arrive(stream.advance_to(0))
    t: float = 0
    while waiting or not stream.exhausted:
        if not waiting:
            arrive(stream.wait())
            t = stream.now
            continue
        _, j = heapq.heappop(waiting)
        start[j] = float(t)
        t += instance.jobs[j].p
        arrive(stream.advance_to(t))
    return Schedule(tuple(start))


def wspt(instance: Instance, *, seed: int = 0) -> Schedule:
    """Online WSPT: at each idle moment start the arrived job with the largest ``w_j / p_j``
    (ties: earlier release, then lower index). Deterministic; ``seed`` is accepted for uniformity.

    References
    ----------
    .. [1] W. E. Smith, “Various Optimizers for Single-Stage Production,” Naval Research Logistics Quarterly, vol. 3,
       no. 1-2, pp. 59-66, 1956; the ratio rule (WSPT).
    """
    return list_schedule(instance, lambda j, job: (-Fraction(job.w) / job.p, job.r, j))
