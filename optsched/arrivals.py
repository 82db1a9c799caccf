"""The arrival stream through which every online algorithm receives its jobs (docs/design.md, principle 3).

An online algorithm holds an :class:`ArrivalStream` instead of the instance's job list: it learns of
a job only when its clock passes the job's arrival time, and its clock only moves forward. The
property tests check the consequence: changing jobs that arrive after ``t`` never changes a decision
made before ``t``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class ArrivalStream(Generic[T]):
    """Reveals ``items`` in order of ``arrival(item)`` (ties by position) as the clock advances."""

    def __init__(self, items: Sequence[T], arrival: Callable[[T], float], start: float = 0.0):
        order = sorted(range(len(items)), key=lambda i: (arrival(items[i]), i))
        self._future = deque((arrival(items[i]), i, items[i]) for i in order)
        self.now = start

    def advance_to(self, t: float) -> list[tuple[int, T]]:
        """Move the clock to ``t`` and return the ``(index, item)`` pairs that arrived by then."""
        if t < self.now:
            raise ValueError(f"an online clock cannot go back from {self.now} to {t}")
        self.now = t
        arrived = []
        while self._future and self._future[0][0] <= t:
            _, i, item = self._future.popleft()
            arrived.append((i, item))
        return arrived

    def wait(self) -> list[tuple[int, T]]:
        """Idle until the next arrival; return what arrived then ([] when nothing more will come)."""
        if not self._future:
            return []
        return self.advance_to(max(self.now, self._future[0][0]))

    @property
    def next_arrival(self) -> float:
        """When the next item arrives (``inf`` when none will): a simulation's event clock; it
        reveals nothing about the item."""
        return self._future[0][0] if self._future else float("inf")

    @property
    def exhausted(self) -> bool:
        """True once every item has arrived."""
        return not self._future
