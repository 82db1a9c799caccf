"""A reproduction's tasks on the study engine: :func:`parallel_map` runs each as a cached unit in
the report folder, on local processes or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import Failure
from .setting import Setting


def parallel_map(fn: Callable[[Any], Any], tasks: Sequence[Any], setting: Setting, label: str) -> list[Any]:
    """``[fn(t) for t in tasks]`` on the study engine (optsched/study/engine.py): each task a unit,
    cached in the report folder (a rerun of the same code computes only what is missing), run on
    ``setting.execution`` (local processes or a Dask cluster), with a progress bar. ``fn`` is a
    module-level function; its values come back as plain JSON data. A task that raises stops the
    reproduction (:class:`~optsched.errors.Failure`), and is not cached."""
    from ..study import engine
    from ..study.cache import Cache
    from ..study.units import make_task_unit

    units = [make_task_unit(fn, task) for task in tasks]
    cache = Cache(setting.out_dir / "cache.sqlite")
    try:
        batch = engine.execute(units, cache, setting.execution, label=label, progress=setting.progress,
                               keep=lambda unit, result: result["status"] != "error")
    finally:
        cache.close()
    units_before, cached_before, seconds_before = setting.ledger.get(label, (0, 0, 0.0))
    setting.ledger[label] = (units_before + batch.units, cached_before + batch.cached,
                             seconds_before + sum(r.get("wall_s", 0.0) for r in batch.results.values()))
    values = []
    for unit in units:
        result = batch.results[unit.key]
        if result["status"] == "error":
            raise Failure(f"{label}: a task failed: {result['message']}")
        values.append(result["value"])
    return values
