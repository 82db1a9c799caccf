"""Hypothesis strategies for every family, for property-based tests of a theorem or of your own
algorithm (docs/own-algorithm.md): :func:`instances` draws a family's generated instances, by preset
and size, :func:`schedules` the verified schedules its algorithms give on one, and :func:`mutations`
schedules one small edit away from a given one (feasible or not: what a verifier, or a property about
near-optimal schedules, is tested on). The families with
finer strategies (every field drawn, sizes bounded for brute force) have them in their own
``strategies`` module (``optsched.single.strategies``, ...). Needs hypothesis (``pip install -e
'.[test]'``); optsched's own tests draw from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

from .errors import InputError
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


def mutations(family: Any, instance: Any, schedule: Any, *, steps: Iterable[float] = (-2, -1, 1, 2)
              ) -> st.SearchStrategy[Any]:
    """Schedules of ``instance`` that differ from ``schedule`` in one number of its JSON form (a start,
    a slot, a count, a server: whatever the family's schedule holds), moved by one of ``steps``; a
    document the family's reader refuses is drawn again. A mutation may be feasible or not: judge it
    (``family.judge``) before assuming either."""
    fam = as_family(family)
    document = schedule.to_dict()
    paths = list(_numbers(document, ()))
    if not paths:
        raise ValueError(f"the schedule holds no number to change: {document!r:.80}")
    steps = tuple(steps)

    def mutate(path: tuple, step: float) -> Any:
        changed = _set(document, path, _get(document, path) + step)
        try:
            return fam.schedule_from_dict(changed, instance, "mutated schedule")
        except InputError:
            return None

    drawn = st.builds(mutate, st.sampled_from(paths), st.sampled_from(steps))
    return drawn.filter(lambda s: s is not None)


def _numbers(value: Any, path: tuple) -> Iterable[tuple]:
    """The paths to every number (not a bool) in a JSON-ready value."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            yield from _numbers(item, (*path, k))


def _get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: tuple, new: Any) -> Any:
    """A copy of ``value`` with the number at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    items = list(value)
    items[head] = _set(items[head], rest, new)
    return items
