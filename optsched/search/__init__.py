"""``optsched search``: adversarial instances for an online algorithm, certified by exact optima.

:func:`run` checks the request, searches (:mod:`.strategy`), shrinks the best find, certifies it
(the optimum re-solved and confirmed by the second solver, both schedules verified) and writes the
output folder (:mod:`.output`). From Python::

    from optsched.search import run
    found = run("edge", "aonline", "theorem:lemma2b", budget=40, out_dir="search-edge")
    found.shrunk.result["slack"]      # negative: a counterexample to Lemma 2(b)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..jsonio import check_folder_writable, check_writable
from ..limits import MAX_UNITS, MAX_WORKERS
from ..registry import families, get
from .evaluate import check_of
from .strategy import STRATEGIES, Outcome, Settings, search

#: The largest ``size_max``: beyond it the exact optima of the search spaces stop being provable
#: within the node budget at a useful rate.
MAX_SIZE = 8


def settings(family: str, algorithm: str, target: str, *, params: dict | None = None, size_max: int = 4,
             budget: int = 100, time_limit: float | None = None, seed: int = 0, strategy: str = "evolve",
             shrink_budget: int = 200, exceed: float | None = None, workers: int = 1, executor: str = "local",
             scheduler: str | None = None, out_dir: str | Path = "search", progress: bool = False) -> Settings:
    """A checked :class:`Settings` (bad input raises :class:`InputError`, before anything is written)."""
    fam = get(family)
    if fam.space is None:
        raise InputError(f"family {family} has no search space (families with one: "
                         f"{', '.join(n for n, f in families().items() if f.space is not None)})")
    chosen = fam.algorithm(algorithm)
    if target != "ratio":
        if not target.startswith("theorem:"):
            raise InputError(f"--target must be ratio or theorem:NAME, got {target!r}")
        check = check_of(fam, target.removeprefix("theorem:"))
        if check.algorithms and algorithm not in check.algorithms:
            raise InputError(f"theorem:{check.name} is about {', '.join(check.algorithms)}, not {algorithm}")
    if strategy not in STRATEGIES:
        raise InputError(f"--strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    for name, value, low, high in (("--size-max", size_max, 1, MAX_SIZE), ("--budget", budget, 1, MAX_UNITS),
                                   ("--shrink-budget", shrink_budget, 0, MAX_UNITS),
                                   ("--workers", workers, 1, MAX_WORKERS)):
        if not low <= value <= high:
            raise InputError(f"{name} must be in {low}..{high:,}, got {value}")
    if exceed is not None and target != "ratio":
        raise InputError("--exceed applies to --target ratio only")
    out = Path(out_dir)
    if out.is_dir():
        check_folder_writable(str(out), str(out))
    else:
        check_writable(str(out))  # its parent must exist and take a new folder
    bound = chosen.bind({})
    bound.update(params or {})
    return Settings(fam, algorithm, bound, target, size_max, budget, seed, strategy, shrink_budget, exceed,
                    time_limit, workers, executor, scheduler, out, progress)


def run(family: str, algorithm: str, target: str, report: Callable[[Outcome], None] | None = None, **options):
    """Search, shrink, certify and write (see the module docstring); returns the :class:`Outcome`
    with ``certificate`` filled in by :func:`output.write`."""
    from . import output

    chosen = settings(family, algorithm, target, **options)
    chosen.out_dir.mkdir(parents=True, exist_ok=True)
    outcome = search(chosen, report)
    output.write(chosen, outcome)
    return outcome
