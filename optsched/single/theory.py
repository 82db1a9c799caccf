"""Textbook truths about 1|r_j|Σ w_j C_j that check the machinery.

* Smith's rule (Smith 1956): with all release dates 0, sequencing by non-increasing ``w_j / p_j``
  without idle time is optimal.
* For a fixed job order the best schedule starts each job as early as possible; so the optimum is
  the minimum, over all orders, of the left-shifted schedule's objective (brute force, tiny ``n``).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from ..errors import InputError
from .instance import Instance
from .schedule import Schedule, objective

#: Brute force enumerates n! orders; beyond this it refuses.
BRUTE_FORCE_MAX_JOBS = 8


def left_shifted(instance: Instance, order: tuple[int, ...]) -> Schedule:
    """Run the jobs in ``order``, each at ``max(r_j, completion of the previous job)``."""
    start = [0.0] * instance.n
    t = 0
    for j in order:
        t = max(t, instance.jobs[j].r)
        start[j] = float(t)
        t += instance.jobs[j].p
    return Schedule(tuple(start))


def smith_schedule(instance: Instance) -> Schedule:
    """Smith's WSPT sequence without idle time; optimal when every release date is 0."""
    order = sorted(range(instance.n), key=lambda j: (-Fraction(instance.jobs[j].w) / instance.jobs[j].p, j))
    return left_shifted(instance, tuple(order))


def brute_force_optimum(instance: Instance) -> tuple[float, Schedule]:
    """The exact optimum by enumerating every job order (left-shifted); at most 8 jobs."""
    if instance.n > BRUTE_FORCE_MAX_JOBS:
        raise InputError(f"brute force enumerates {instance.n}! orders; it is limited to {BRUTE_FORCE_MAX_JOBS} jobs")
    best: tuple[float, Schedule] | None = None
    for order in permutations(range(instance.n)):
        schedule = left_shifted(instance, order)
        value = objective(instance, schedule)
        if best is None or value < best[0]:
            best = (value, schedule)
    assert best is not None, "an instance has at least one job order"
    return best
