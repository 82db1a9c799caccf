"""The one engine that runs many units of work, for studies (runner.py) and reproductions
(optsched/reproduce.py) alike.

:func:`execute` looks every unit up in the cache, runs the missing ones on an executor (this
process, local worker processes, or a Dask cluster; see executors.py), refuses results computed by
other code, stores each result as it arrives (so a killed run resumes where it stopped) and shows
a progress bar, or, without a terminal (a batch job, ``nohup``), a progress line every
:data:`LOG_EVERY_S` seconds. What a unit does is :func:`units.run_unit`'s business.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from ..errors import InputError
from . import executors
from .cache import Cache
from .units import Unit

EXECUTORS = ("local", "dask")
#: Without a terminal, a progress line on stderr at most this often, the first after as long: a run
#: shorter than this prints none. A paper preset runs for hours, often in a batch job.
LOG_EVERY_S = 300.0


@dataclass(frozen=True)
class Execution:
    """Where a batch of units runs, the same for a study, a search and a reproduction: ``local`` worker
    processes or a ``dask`` cluster, how many workers, the Dask scheduler's address (None: a local
    cluster), and the per-run budget of researchers' functions in seconds (None: none;
    :func:`optsched.plugins.within`)."""

    executor: str = "local"
    workers: int = 1
    scheduler: str | None = None
    algorithm_budget: float | None = None

    def describe(self) -> str:
        """``local, 2 worker(s)``: how a run's log names it."""
        return f"{self.executor}, {self.workers} worker(s)"


class ProgressLines:
    """The progress bar's stand-in when stderr is not a terminal: a plain line now and then (the
    study engine's, and ``optsched search``'s)."""

    def __init__(self, label: str, total: int, done: int, enabled: bool):
        self.label, self.total, self.done = label, total, done
        self.enabled = enabled and not getattr(sys.stderr, "isatty", lambda: False)()
        self.started = time.monotonic()
        self.due = self.started + LOG_EVERY_S

    def update(self) -> None:
        """Count one more unit done; write a line if one is due."""
        self.advance_to(self.done + 1)

    def advance_to(self, done: int, total: int | None = None) -> None:
        """Set the units done (and, where it changed, the total); write a line if one is due."""
        self.done, self.total = done, self.total if total is None else total
        now = time.monotonic()
        if self.enabled and now >= self.due:
            self.due = now + LOG_EVERY_S
            minutes = (now - self.started) / 60
            spent = f"{minutes / 60:.1f} h" if minutes >= 90 else f"{minutes:.0f} min"
            print(f"optsched: {self.label}: {self.done:,} of {self.total:,} units done "
                  f"({100 * self.done / max(self.total, 1):.0f}%), {spent} into this run", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Batch:
    """What :func:`execute` did: every unit's result by key, and where the results came from."""

    results: dict[str, dict]
    units: int  #: distinct units (equal keys run once)
    cached: int  #: taken from the cache
    damaged: int  #: cached results that failed their checksum and ran again
    compute_s: float  #: running the units that were not cached


def execute(units: Sequence[Unit], cache: Cache, execution: Execution = Execution(), *, label: str = "units",
            progress: bool = False,
            announce: Callable[[int, int, int, int], None] | None = None,
            keep: Callable[[Unit, dict], bool] | None = None) -> Batch:
    """Run ``units`` (those not in ``cache``) and return every result.

    ``announce(units, cached, pending, damaged)`` is called once the executor is ready (a Dask
    scheduler reached) and before any unit runs; ``keep(unit, result)`` says whether to store a
    result (all by default; never a run stopped by its wall-clock budget, which a rerun tries again).
    ``progress`` shows a bar on stderr when it is a terminal, else a line
    every :data:`LOG_EVERY_S` seconds.
    """
    unique = {unit.key: unit for unit in units}
    done, damaged = cache.lookup(list(unique))
    pending = [unit for key, unit in unique.items() if key not in done]
    if execution.executor == "dask":
        results = executors.dask(pending, execution.workers, execution.scheduler)
    else:
        results = executors.local(pending, execution.workers)
    if announce is not None:
        announce(len(unique), len(done), len(pending), len(damaged))
    started = time.perf_counter()
    lines = ProgressLines(label, len(unique), len(done), progress)
    with tqdm(total=len(unique), initial=len(done), desc=label, unit="unit", file=sys.stderr,
              disable=None if progress else True, smoothing=0.05) as bar:
        for unit, result in results:
            if result.get("code") != unit.code:
                raise InputError(f"a worker runs {unit.kind} code {result.get('code')}, this process {unit.code}: "
                                 "install the same optsched on every worker")
            if not result.get("over_budget") and (keep is None or keep(unit, result)):
                cache.store(unit.key, unit.kind, result)
            done[unit.key] = result
            bar.update(1)
            lines.update()
    return Batch(done, len(unique), len(unique) - len(pending), len(damaged), time.perf_counter() - started)
