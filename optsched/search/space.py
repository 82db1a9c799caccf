"""A family's instance space for the search: what may change in an instance's JSON, within which
bounds, and the moves that change it (mutations to explore, shrinks to simplify).

Each family declares a :class:`Space` in its ``mutate.py``, next to its generator: a start (a
seeded random instance of at most ``size`` jobs), the lists whose items may be added or dropped
(:class:`Items`: jobs, servers, ...) and the numbers that may change (:class:`Numbers`: arrivals,
sizes, demands, capacities, weights, horizon). Moves work on the instance's JSON (``to_dict()``),
the family's own exchange format, and the family's reader (``instance_from_dict``) decides whether
a moved instance is valid: a move that breaks it is simply not taken.

Paths name places in the JSON: ``"jobs.*.arrival"`` is every job's arrival, ``"worker_servers.*.*"``
every capacity of every worker server, ``"ps_demand.*.0"`` the first resource of every PS type. A
bound is a number or a path to one (``"T"``: the horizon).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

Document = dict[str, Any]


@dataclass(frozen=True)
class Numbers:
    """Numbers at ``path`` that may take any value in ``[low, high]`` (integers when ``integer``;
    ``log``: multiplicative steps, for quantities spanning orders of magnitude)."""

    path: str
    low: float | str
    high: float | str
    integer: bool = True
    log: bool = False


@dataclass(frozen=True)
class Items:
    """A list at ``path`` whose items may be duplicated or dropped, keeping ``low <= len <= high``
    (``high=None``: the search's size limit, for the list of jobs). ``coupled`` lists are indexed
    like this one (a job's per-server delays when servers come and go) and change with it."""

    path: str
    low: int = 1
    high: int | None = None
    coupled: tuple[str, ...] = ()


def _same(doc: Document) -> Document:
    return doc


def _anything(instance: Any) -> str:
    return ""


@dataclass(frozen=True)
class Regime:
    """The assumptions a paper's proof states, as a part of the search space (``optsched search
    --regime NAME``): ``description`` in words, the ``numbers`` whose bounds change (by path),
    ``normalize`` that moves a document into the regime (applied after the space's own),
    ``refusal(instance)`` that names why an instance is outside it (empty when inside), and
    ``size_max``: the most jobs a search within it may take, where its optima stay quick to prove
    beyond the search's general limit (0: that limit), and ``start(space_start, seed, size)``: where a
    search within it starts, from the space's own start (None: that start)."""

    description: str
    numbers: tuple[Numbers, ...] = ()
    normalize: Callable[[Document], Document] = field(default=_same)
    refusal: Callable[[Any], str] = field(default=_anything)
    size_max: int = 0
    start: Callable[[Callable[[int, int], Document], int, int], Document] | None = None


@dataclass(frozen=True)
class Space:
    """A family's search space; ``start(seed, size)`` is a random instance document (JSON) with
    at most ``size`` jobs; ``normalize`` restores an invariant that moves may break (jobs in
    arrival order, say); ``refusal(instance)`` names why a valid instance is outside what the
    family's algorithms take (empty when it is inside); ``regimes``: the papers' stated
    assumptions the search may be kept within (:meth:`within`)."""

    start: Callable[[int, int], Document]
    items: tuple[Items, ...]
    numbers: tuple[Numbers, ...]
    normalize: Callable[[Document], Document] = field(default=_same)
    refusal: Callable[[Any], str] = field(default=_anything)
    regimes: dict[str, Regime] = field(default_factory=dict)

    def within(self, name: str) -> Space:
        """This space kept within regime ``name`` ("" : the whole space): the regime's bounds
        replace the space's for the same paths, its normalisation follows the space's, and an
        instance outside it is refused like one the algorithms do not take."""
        if not name:
            return self
        regime = self.regimes[name]
        changed = {n.path: n for n in regime.numbers}

        def normalize(doc: Document) -> Document:
            return regime.normalize(self.normalize(doc))

        def refusal(instance: Any) -> str:
            return self.refusal(instance) or regime.refusal(instance)

        start = self.start if regime.start is None else partial(regime.start, self.start)
        return replace(self, start=start, numbers=tuple(changed.get(n.path, n) for n in self.numbers),
                       normalize=normalize, refusal=refusal, regimes={})


def places(doc: Any, path: str) -> list[tuple[Any, Any]]:
    """Every ``(container, key)`` that the dotted ``path`` reaches in ``doc`` (``*``: every item of
    a list, a number: that item)."""
    found: list[tuple[Any, Any]] = [({"": doc}, "")]
    deeper: list[tuple[Any, Any]]
    for part in path.split("."):
        deeper = []
        for container, key in found:
            node = container[key]
            if part == "*" and isinstance(node, list):
                deeper += [(node, i) for i in range(len(node))]
            elif part.isdigit() and isinstance(node, list) and int(part) < len(node):
                deeper.append((node, int(part)))
            elif isinstance(node, dict) and part in node:
                deeper.append((node, part))
        found = deeper
    return found


def _bound(doc: Document, bound: float | str) -> float:
    if isinstance(bound, str):
        reached = places(doc, bound)
        return float(reached[0][0][reached[0][1]]) if reached else math.nan
    return float(bound)


def _limits(doc: Document, numbers: Numbers) -> tuple[float, float]:
    return _bound(doc, numbers.low), _bound(doc, numbers.high)


def _item_limit(items: Items, size: int) -> int:
    return size if items.high is None else items.high


def _coerce(value: float, numbers: Numbers, low: float, high: float) -> float | int:
    value = min(max(value, low), high)
    if numbers.integer:
        return int(round(value))
    return float(f"{value:.4g}")  # four significant digits keep instances readable


def _drop(doc: Document, items: Items, container: list, index: int) -> None:
    del container[index]
    for path in items.coupled:
        for owner, key in places(doc, path):
            if index < len(owner[key]):
                del owner[key][index]


def _duplicate(doc: Document, items: Items, container: list, index: int) -> None:
    container.append(copy.deepcopy(container[index]))
    for path in items.coupled:
        for owner, key in places(doc, path):
            if index < len(owner[key]):
                owner[key].append(copy.deepcopy(owner[key][index]))


def mutate(space: Space, doc: Document, rng: np.random.Generator, size: int) -> Document:
    """One random move: a number redrawn (half the time a local step, else anywhere in its range),
    or an item of a list duplicated or dropped. The document is copied, never changed."""
    out = copy.deepcopy(doc)
    kinds: list[Numbers | Items] = [n for n in space.numbers if places(out, n.path)]
    kinds += [i for i in space.items if places(out, i.path)]
    what = kinds[int(rng.integers(len(kinds)))]
    if isinstance(what, Numbers):
        container, key = _pick(places(out, what.path), rng)
        low, high = _limits(out, what)
        if not low <= high:
            return out
        old = float(container[key])
        if rng.random() < 0.5:  # a local step
            if what.log and old > 0:
                new = old * float(np.exp(rng.normal(0, 0.7)))
            elif what.integer:
                new = old + float(rng.choice([-2, -1, 1, 2]))
            else:
                new = old + float(rng.normal(0, 0.25 * (high - low)))
        elif what.log and low > 0:
            new = float(np.exp(rng.uniform(math.log(low), math.log(high))))
        else:
            new = float(rng.uniform(low, high + (1 if what.integer else 0)))
            new = math.floor(new) if what.integer else new
        container[key] = _coerce(new, what, low, high)
    else:
        owner, key = _pick(places(out, what.path), rng)
        items = owner[key]
        grow = len(items) < _item_limit(what, size) and (len(items) <= what.low or rng.random() < 0.5)
        if grow and items:
            _duplicate(out, what, items, int(rng.integers(len(items))))
        elif len(items) > what.low:
            _drop(out, what, items, int(rng.integers(len(items))))
    return space.normalize(out)


def _pick(options: list, rng: np.random.Generator):
    return options[int(rng.integers(len(options)))]


def shrinks(space: Space, doc: Document) -> Iterator[Document]:
    """Simpler neighbours of ``doc``, simplest change first: each item of each list dropped, then
    each number set to its lower bound, halved towards it, decreased by one, or rounded."""
    for items in space.items:
        for position, (owner, key) in enumerate(places(doc, items.path)):
            if len(owner[key]) > items.low:
                for index in range(len(owner[key])):
                    out = copy.deepcopy(doc)
                    mine, slot = places(out, items.path)[position]
                    _drop(out, items, mine[slot], index)
                    yield space.normalize(out)
    for numbers in space.numbers:
        spots = places(doc, numbers.path)
        for n, (container, key) in enumerate(spots):
            old = float(container[key])
            low, high = _limits(doc, numbers)
            if not low <= high:
                continue
            tried = set()
            for new in (low, (old + low) / 2, old - 1, float(round(old)), float(f"{old:.1g}")):
                value = _coerce(new, numbers, low, high)
                if value == container[key] or value in tried or not _simpler(value, container[key]):
                    continue
                tried.add(value)
                out = copy.deepcopy(doc)
                target, slot = places(out, numbers.path)[n]
                target[slot] = value
                out = space.normalize(out)
                if out != doc:  # normalizing may undo the change (a time back on its grid)
                    yield out


def _simpler(new: float, old: float) -> bool:
    """A smaller magnitude, or the same magnitude with fewer digits."""
    return abs(new) < abs(old) or (abs(new) == abs(old) and len(repr(new)) < len(repr(old)))


def size_of(space: Space, doc: Document) -> tuple[int, str]:
    """``(3, "jobs")``: the length and name of the list the search's size limit counts (the
    space's :class:`Items` with no upper bound of its own)."""
    items = next(i for i in space.items if i.high is None)
    return sum(len(owner[key]) for owner, key in places(doc, items.path)), items.path.rsplit(".", 1)[-1]


def measure(space: Space, doc: Document) -> tuple[int, int, float]:
    """How big an instance is, for preferring the smaller of equal finds: items in its lists,
    characters of its numbers, and the sum of their magnitudes."""
    count = sum(len(owner[key]) for items in space.items for owner, key in places(doc, items.path))
    values = [float(c[k]) for n in space.numbers for c, k in places(doc, n.path)]
    return count, sum(len(repr(v)) for v in values), sum(abs(v) for v in values)
