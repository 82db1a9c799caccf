"""Preemptive SRPT on one machine: the virtual instances ``A_1`` and ``Ã_1`` (spec asrpt.md §1.5, §3.7).

SRPT is optimal for ``1|r_j, pmtn|ΣC_j``. Between events the machine runs the released job with the
least remaining work; ties go to the job already running, then the earlier release, then the smaller
id. A job of size 0 completes at its release. :class:`VirtualMachine` is online: jobs are released
one at a time and the machine is advanced to a time; it never looks at a job before its release.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence


class VirtualMachine:
    """An SRPT machine advanced event by event."""

    def __init__(self) -> None:
        self.clock = 0.0
        self._queue: list[tuple[float, float, int]] = []  # (remaining, release, id)

    def release(self, job: int, size: float, time: float) -> None:
        """Job ``job`` of ``size`` arrives at ``time``; advance the machine to ``time`` first."""
        if time < self.clock or (self._queue and time > self.clock):
            raise ValueError(f"job {job} released at {time} with the machine at {self.clock}: advance first")
        self.clock = time
        heapq.heappush(self._queue, (size, time, job))

    def next_completion(self) -> float:
        """When the job now first in line completes if nothing else arrives (inf if idle)."""
        return self.clock + self._queue[0][0] if self._queue else math.inf

    def advance(self, time: float) -> list[tuple[int, float]]:
        """Run until ``time``; the ``(job, completion)`` pairs completed meanwhile, in order."""
        done = []
        while self._queue and self.clock + self._queue[0][0] <= time:
            remaining, _, job = heapq.heappop(self._queue)
            self.clock += remaining
            done.append((job, self.clock))
        if self._queue and time > self.clock:
            remaining, released, job = heapq.heappop(self._queue)
            heapq.heappush(self._queue, (remaining - (time - self.clock), released, job))
        self.clock = max(self.clock, time)
        return done


def srpt(releases: Sequence[float], sizes: Sequence[float]) -> list[float]:
    """SRPT completion times of every job (the optimum of ``1|r_j, pmtn|ΣC_j`` in total)."""
    machine = VirtualMachine()
    completion = [math.nan] * len(sizes)
    for j in sorted(range(len(sizes)), key=lambda j: (releases[j], j)):
        for job, time in machine.advance(releases[j]):
            completion[job] = time
        machine.release(j, sizes[j], releases[j])
    for job, time in machine.advance(math.inf):
        completion[job] = time
    return completion
