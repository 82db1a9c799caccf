"""Hypothesis strategies for every family, for property-based tests of a theorem or of your own
algorithm (docs/own-algorithm.md): :func:`instances` draws a family's generated instances, by preset
and size, and :func:`schedules` the verified schedules its algorithms give on one. The families with
finer strategies (every field drawn, sizes bounded for brute force) have them in their own
``strategies`` module (``optsched.single.strategies``, ...). Needs hypothesis (``pip install -e
'.[test]'``); optsched's own tests draw from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

from .pipeline import as_family


def instances(family: Any, presets: Iterable[str] = ("tiny",), jobs: st.SearchStrategy[int] | None = None,
              **options: Any) -> st.SearchStrategy[Any]:
    """Instances of ``family`` from its generator: a preset drawn from ``presets``, a seed, and the
    number of jobs from ``jobs`` (None: the preset's); ``options`` are generator options, fixed."""
    fam = as_family(family)
    presets = tuple(presets)
    for preset in presets:
        fam.check_preset(preset)
    counts = st.none() if jobs is None else jobs
    return st.builds(lambda preset, seed, n: fam.generate(preset, seed=seed, jobs=n, **options),
                     st.sampled_from(presets), st.integers(0, 2**31 - 1), counts)


def schedules(family: Any, instance: Any, algorithms: Iterable[str] | None = None) -> st.SearchStrategy[Any]:
    """Schedules of ``instance`` that ``family``'s algorithms give (``algorithms``, default every
    registered one), each with a drawn seed; every one verified feasible (the families' algorithms
    are), so a property can assume a valid schedule."""
    fam = as_family(family)
    names = list(algorithms) if algorithms is not None else list(fam.algorithms)

    def run(name: str, seed: int) -> Any:
        ran = fam.run(instance, name, seed=seed)
        if not ran.feasible:
            raise AssertionError(f"{fam.name}'s {name} gave an infeasible schedule: {ran.verdict.violations[0]}")
        return ran.schedule

    return st.builds(run, st.sampled_from(names), st.integers(0, 3))
