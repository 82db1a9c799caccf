"""Textbook truths about 1|r_j|Σ w_j C_j that check the machinery.

* Smith's rule (Smith 1956): with all release dates 0, sequencing by non-increasing ``w_j / p_j``
  without idle time is optimal (:func:`smith_schedule`; ``checks.smith_slack`` lets the search try
  to break it). The exact optimum by enumeration is :func:`optsched.single.formulations.brute_force_optimum`.
"""

from __future__ import annotations

from fractions import Fraction

from .instance import Instance
from .schedule import Schedule, left_shifted


def smith_order(instance: Instance) -> tuple[int, ...]:
    """The jobs by non-increasing ``w_j / p_j`` (exact ratios; ties by index)."""
    return tuple(sorted(range(instance.n), key=lambda j: (-Fraction(instance.jobs[j].w) / instance.jobs[j].p, j)))


def smith_schedule(instance: Instance) -> Schedule:
    """Smith's WSPT sequence without idle time; optimal when every release date is 0."""
    return left_shifted(instance, smith_order(instance))
