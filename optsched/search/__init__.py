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
from ..limits import MAX_SEED, MAX_UNITS, MAX_WORKERS
from ..outputs import claim_folder
from ..registry import get
from ..study.engine import Execution
from .evaluate import check_of
from .strategy import STRATEGIES, Search, SearchOutcome, search

#: The largest ``size_max``: beyond it the exact optima of the search spaces stop being provable
#: within the node budget at a useful rate (a regime may allow more: ``Regime.size_max``).
MAX_SIZE = 8


def settings(family: str, algorithm: str, target: str, *, params: dict | None = None, size_max: int = 4,
             budget: int = 100, time_limit: float | None = None, seed: int = 0, strategy: str = "evolve",
             shrink_budget: int = 200, exceed: float | None = None, workers: int = 1, executor: str = "local",
             scheduler: str | None = None, out_dir: str | Path = "search", regime: str = "",
             algorithm_budget: float | None = None) -> Search:
    """A checked :class:`Search` (bad input raises :class:`InputError`, before anything is written).
    ``regime``: keep the search within the assumptions a paper's proof states (the family's
    ``Space.regimes``); ``algorithm_budget``: each run of a researcher's function within so many
    seconds of wall clock (:func:`optsched.plugins.within`), else the search stops naming it."""
    fam = get(family)
    regimes = fam.space().regimes
    if regime and regime not in regimes:
        raise InputError(f"--regime: {family} has no regime {regime!r} (regimes: {', '.join(regimes) or 'none'})")
    chosen = fam.algorithm(algorithm)
    if target != "ratio":
        if not target.startswith("theorem:"):
            raise InputError(f"--target must be ratio or theorem:NAME, got {target!r}")
        check = check_of(fam, target.removeprefix("theorem:"))
        if check.algorithms and algorithm not in check.algorithms:
            raise InputError(f"theorem:{check.name} is about {', '.join(check.algorithms)}, not {algorithm}")
        if check.name == "bound" and chosen.theorem is None:
            bounded = [name for name, a in fam.algorithms.items() if a.theorem is not None]
            raise InputError(f"theorem:bound needs a competitive bound, and {family}'s {algorithm} has none "
                             f"(algorithms with one: {', '.join(bounded) or 'none'})")
    if strategy not in STRATEGIES:
        raise InputError(f"--strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    largest = (regimes[regime].size_max if regime else 0) or MAX_SIZE
    for name, value, low, high in (("--size-max", size_max, 1, largest), ("--budget", budget, 1, MAX_UNITS),
                                   ("--shrink-budget", shrink_budget, 0, MAX_UNITS),
                                   ("--workers", workers, 1, MAX_WORKERS), ("--seed", seed, 0, MAX_SEED)):
        if not low <= value <= high:
            raise InputError(f"{name} must be in {low}..{high:,}, got {value}")
    if exceed is not None and target != "ratio":
        raise InputError("--exceed applies to --target ratio only")
    out = Path(out_dir)
    bound = chosen.bind({})
    bound.update(params or {})
    if target == "theorem:bound" and chosen.theorem is not None:
        space = fam.space().within(regime)
        start = fam.instance_from_dict(space.normalize(space.start(0, size_max)), "the search space's start")
        if chosen.theorem(start, **bound) is None:
            raise InputError(f"{family}'s {algorithm} has no competitive bound with these parameters")
    return Search(fam, algorithm, bound, target, size_max, budget, seed, strategy, shrink_budget, exceed,
                  time_limit, Execution(executor, workers, scheduler, algorithm_budget), out, regime)


def owner(chosen: Search) -> dict:
    """What makes a search the owner of its output folder (optsched/outputs.py): the question and the
    seed. The budgets are not part of it: the same search run again with a larger budget resumes
    from its cache and rewrites every output."""
    return {"verb": "search", "family": chosen.family.name, "algorithm": chosen.algorithm,
            "params": chosen.params, "target": chosen.target, "size_max": chosen.size_max, "seed": chosen.seed,
            "strategy": chosen.strategy, "exceed": chosen.exceed,
            **({"regime": chosen.regime} if chosen.regime else {})}


def run(family: str, algorithm: str, target: str, report: Callable[[SearchOutcome], None] | None = None, *,
        fresh: bool = False, **options):
    """Search, shrink, certify and write (see the module docstring); returns the :class:`SearchOutcome`
    with ``certificate`` filled in by :func:`output.write`. ``fresh`` discards the folder's cache and
    an earlier run's outputs."""
    from . import output

    chosen = settings(family, algorithm, target, **options)
    with claim_folder(chosen.out_dir, owner(chosen), fresh=fresh) as folder:
        try:
            outcome = search(chosen, report)
        except InputError:  # found late (an unreachable Dask scheduler): leave no folder made for nothing
            folder.abandon()
            raise
        output.write(chosen, outcome)
        folder.finish()
    return outcome
