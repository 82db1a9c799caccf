"""The search loop: an elitist evolutionary strategy over a family's instance space, then shrinking.

``evolve`` keeps a population of the best instances found, and each generation breeds as many
children: a parent chosen by tournament, one to three random moves (:func:`space.mutate`), and now
and then a fresh random instance instead, so the search does not stall on one peak. ``random`` only
draws fresh instances: plain sampling, the baseline the search is measured against at an equal
number of exact solves. Every child is scored by :func:`evaluate.evaluate` as a unit of the study
engine (cached in the output folder, run on local processes or Dask), a generation at a time.

What the search does depends only on ``seed`` and the results, never on which worker finishes
first, so a run is reproducible and a rerun of the same command is answered from the cache.

Shrinking then takes the best instance and repeatedly moves to the first simpler neighbour
(:func:`space.shrinks`: drop a job or server, lower a number) on which the target still holds: a
violation stays a violation, a ratio stays above ``exceed`` when one is given, and otherwise the
ratio never falls: of the simpler neighbours in a batch, the one with the largest ratio is taken.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import Failure, InputError
from ..registry import Family
from ..study import engine
from ..study.cache import Cache
from ..study.units import make_task_unit
from . import space as moves
from .evaluate import evaluate

STRATEGIES = ("evolve", "random")
#: How many instances a generation (and a shrinking step) scores at once; fixed, so that the search
#: does the same on any number of workers.
BATCH = 8
#: The chance that a child is a fresh random instance rather than a mutation.
IMMIGRANTS = 0.1


@dataclass(frozen=True)
class Search:
    """A search: family, algorithm and its parameters, target, size limit, budgets, seed, strategy, bound to
    exceed, regime, where its units run and its output folder."""
    family: Family
    algorithm: str
    params: dict
    target: str
    size_max: int
    budget: int  #: exact solves for the search (shrinking has its own)
    seed: int = 0
    strategy: str = "evolve"
    shrink_budget: int = 200
    exceed: float | None = None  #: ratio targets: shrink while the ratio stays above this
    time_limit: float | None = None  #: seconds of wall clock, in addition to the budget
    execution: engine.Execution = engine.Execution()
    out_dir: Path = Path("search")
    regime: str = ""  #: keep the search within this regime of the family's space ("": the whole space)


@dataclass
class Scored:
    """One scored instance: its document, where it came from, and :func:`evaluate`'s result."""

    doc: dict
    origin: str
    result: dict
    number: int  #: its place in the order of scoring (1-based)
    phase: str = "search"

    @property
    def value(self) -> float | None:
        """The target's value (−slack, or the ratio) when the instance was valid, else None."""
        return self.result.get("value") if self.result.get("valid") else None


@dataclass
class SearchOutcome:
    """What a search found: every scored instance in order, the best, the best after shrinking, whether the clock
    stopped it, and the certificate ``output.write`` re-proves."""
    history: list[Scored] = field(default_factory=list)
    best: Scored | None = None  #: the best instance the search found
    shrunk: Scored | None = None  #: the best after shrinking (None if there was nothing to shrink)
    stopped_by_time: bool = False
    certificate: dict | None = None  #: filled in by output.write: the shrunk find, re-proved

    @property
    def search_evaluations(self) -> int:
        """How many instances the search phase scored."""
        return sum(s.phase == "search" for s in self.history)

    @property
    def shrink_evaluations(self) -> int:
        """How many instances the shrinking phase scored."""
        return sum(s.phase == "shrink" for s in self.history)


def space_of(chosen: Search) -> moves.Space:
    """The family's search space (its ``mutate.space()``), within the settings' regime."""
    return chosen.family.space().within(chosen.regime)


def text_of(doc: dict) -> str:
    """The canonical JSON of a document: equal instances are one cache entry."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


class Scorer:
    """Scores batches of documents on the study engine, with the cache in the output folder."""

    def __init__(self, chosen: Search, outcome: SearchOutcome):
        self.chosen, self.outcome = chosen, outcome
        self.params = tuple(sorted(chosen.params.items()))
        self.seen: set[str] = set()
        self.space = space_of(chosen)

    def readable(self, doc: dict) -> bool:
        """Whether ``doc`` is a valid instance the algorithms take (checked here, so that no
        exact solve is spent on it)."""
        family = self.chosen.family
        try:
            instance = family.instance_from_dict(doc, "instance")
        except InputError:
            return False
        return not self.space.refusal(instance)

    def score(self, batch: list[tuple[dict, str]], phase: str) -> list[Scored]:
        """Score a ``batch`` of (instance document, origin) pairs in ``phase``: exact solves and the algorithm's
        run, as cached units on the search's execution."""
        s = self.chosen
        budget = () if s.execution.algorithm_budget is None else (s.execution.algorithm_budget,)
        tasks = [(s.family.name, s.algorithm, self.params, s.target, text_of(doc), *budget) for doc, _ in batch]
        units = [make_task_unit(evaluate, task) for task in tasks]
        cache = Cache(s.out_dir / "cache.sqlite")
        try:
            done = engine.execute(units, cache, s.execution, label="search",
                                  keep=lambda unit, result: result["status"] != "error")
        finally:
            cache.close()
        scored = []
        for (doc, origin), unit in zip(batch, units):
            result = done.results[unit.key]
            if result["status"] == "error":
                raise Failure(f"scoring an instance failed: {result['message']}")
            self.seen.add(text_of(doc))
            item = Scored(doc, origin, result["value"], len(self.outcome.history) + 1, phase)
            self.outcome.history.append(item)
            scored.append(item)
        return scored


def fitness(item: Scored) -> tuple:
    """Better first, for breeding: a larger value, then a larger guide, then found later (so that
    children as good as their parents replace them and the population drifts across a plateau)."""
    return (-(item.value if item.value is not None else -np.inf), -item.result.get("guide", 0.0), -item.number)


def rank(item: Scored, space: moves.Space) -> tuple:
    """Better first: a larger value, then a larger guide (a check's nearness to a violation), then
    a smaller instance, then found earlier."""
    return (-(item.value if item.value is not None else -np.inf), -item.result.get("guide", 0.0),
            *moves.measure(space, item.doc), item.number)


def search(chosen: Search, report: Callable[[SearchOutcome], None] | None = None) -> SearchOutcome:
    """Run the search and the shrinking (see the module docstring); ``report(outcome)`` is called
    after every batch (for a progress line)."""
    if chosen.strategy not in STRATEGIES:
        raise InputError(f"strategy must be one of {', '.join(STRATEGIES)}")
    space = space_of(chosen)
    outcome = SearchOutcome()
    scorer = Scorer(chosen, outcome)
    rng = np.random.default_rng(chosen.seed)
    started = time.perf_counter()
    population: list[Scored] = []
    fresh = iter(range(chosen.seed * 1_000_003, 2**62))

    def immigrant() -> tuple[dict, str]:
        while True:
            seed = next(fresh)
            doc = space.normalize(space.start(seed, chosen.size_max))
            if text_of(doc) not in scorer.seen and scorer.readable(doc):
                return doc, f"random instance (seed {seed})"

    def child() -> tuple[dict, str]:
        if chosen.strategy == "random" or not population or rng.random() < IMMIGRANTS:
            return immigrant()
        for _ in range(50):
            a, b = (population[int(i)] for i in rng.integers(len(population), size=2))
            parent = min(a, b, key=fitness)
            doc = parent.doc
            for _ in range(min(3, int(rng.geometric(0.5)))):
                doc = moves.mutate(space, doc, rng, chosen.size_max)
            if text_of(doc) not in scorer.seen and scorer.readable(doc):
                return doc, f"mutation of #{parent.number}"
        return immigrant()

    while outcome.search_evaluations < chosen.budget:
        if chosen.time_limit is not None and time.perf_counter() - started > chosen.time_limit:
            outcome.stopped_by_time = True
            break
        size = min(BATCH, chosen.budget - outcome.search_evaluations)
        batch: list[tuple[dict, str]] = []
        for _ in range(size):
            doc, origin = child()
            scorer.seen.add(text_of(doc))
            batch.append((doc, origin))
        scored = scorer.score(batch, "search")
        population = sorted([p for p in population + scored if p.value is not None], key=fitness)[:BATCH]
        if report is not None:
            report(outcome)
    valid = [s for s in outcome.history if s.value is not None]
    if not valid:
        return outcome
    outcome.best = min(valid, key=lambda p: rank(p, space))
    outcome.shrunk = shrink(chosen, outcome, scorer, space, report)
    return outcome


def holds(chosen: Search, best: Scored) -> tuple[Callable[[Scored], bool], bool]:
    """What shrinking keeps, and whether it climbs: a violation (a theorem target whose best is
    one) or a ratio above ``exceed``, taking the simplest neighbour that keeps it; otherwise a
    value at least the current one's, taking the neighbour with the largest (the floor rises with
    it, so shrinking never reports less than a value it has seen on its path)."""
    if chosen.target != "ratio" and best.value is not None and best.value > 0:
        return (lambda s: s.value is not None and s.value > 0), False
    exceed = chosen.exceed
    if chosen.target == "ratio" and exceed is not None and best.value is not None and best.value > exceed:
        return (lambda s: s.value is not None and s.value > exceed), False
    assert best.value is not None
    floor = best.value - 1e-9 * max(1.0, abs(best.value))
    return (lambda s: s.value is not None and s.value >= floor), True


def shrink(chosen: Search, outcome: SearchOutcome, scorer: Scorer, space: moves.Space,
           report: Callable[[SearchOutcome], None] | None) -> Scored:
    """Greedy shrinking of ``outcome.best`` within ``chosen.shrink_budget`` scorings."""
    current = outcome.best
    assert current is not None
    keep, climbs = holds(chosen, current)
    spent = 0
    while spent < chosen.shrink_budget:
        options: list[tuple[dict, str]] = []
        for doc in moves.shrinks(space, current.doc):
            text = text_of(doc)
            if text not in scorer.seen and scorer.readable(doc) and text not in {text_of(d) for d, _ in options}:
                options.append((doc, f"shrink of #{current.number}"))
        moved = False
        for start in range(0, len(options), BATCH):
            batch = options[start:start + min(BATCH, chosen.shrink_budget - spent)]
            if not batch:
                break
            scored = scorer.score(batch, "shrink")
            spent += len(batch)
            if report is not None:
                report(outcome)
            kept = [s for s in scored if keep(s)]
            if kept:
                current, moved = (min(kept, key=lambda s: rank(s, space)) if climbs else kept[0]), True
                if climbs:
                    keep, _ = holds(chosen, current)
                break
            if spent >= chosen.shrink_budget:
                break
        if not moved:
            break
    return current


def describe(doc: dict, space: moves.Space) -> str:
    """``3 items, 41 digits``: the size :func:`space.measure` compares."""
    items, digits, _ = moves.measure(space, doc)
    return f"{items} list items, {digits} characters of numbers"


def as_plain(item: Scored | None) -> dict[str, Any] | None:
    """A scored instance as plain data for ``result.json`` (None stays None)."""
    if item is None:
        return None
    return {"number": item.number, "origin": item.origin, "phase": item.phase, **item.result}
