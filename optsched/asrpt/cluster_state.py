"""The simulated cluster shared by A-SRPT and the baselines: free GPUs per server, running jobs and
their completions, and each job's estimates (spec asrpt.md §3.5).

The simulation is event-driven in continuous time [A6]. A started job holds its GPUs for
``n_i α_i(x)``; its true ``n_i`` is the environment's, read only here, when the job starts, to
schedule its completion event; the policies see predictions only.
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass

from ..placement.online import allot, alpha_tilde, place
from ..placement.timing import alpha, alpha_max
from .instance import Instance
from .schedule import JobRun, Schedule


@dataclass(frozen=True)
class Estimates:
    """What a policy knows about job ``i`` at its arrival (spec §3.5)."""

    alpha_max: float  #: α^max, closed form (§1.3)
    alpha_tilde: float  #: α̃^min, Heavy-Edge on the fewest empty servers
    predicted: float  #: ñ_i (or n_i for a perfect predictor)
    virtual_size: float  #: p̃_i = g_i ñ_i α̃_i / G

    @property
    def duration(self) -> float:
        """``T̂_i = ñ_i α̃_i``: the predicted running time the baselines sort by."""
        return self.predicted * self.alpha_tilde


def estimates(instance: Instance, perfect: bool = False) -> list[Estimates]:
    """Every job's estimates (``alpha_tilde`` is cached per configuration)."""
    cluster = instance.cluster
    out = []
    for sj in instance.jobs:
        atilde = alpha_tilde(sj.job, cluster)
        n = float(sj.iterations) if perfect else sj.predicted
        out.append(Estimates(alpha_max(sj.job, cluster), atilde, n, sj.job.gpus * n * atilde / cluster.total_gpus))
    return out


class ClusterState:
    """Free GPUs, running jobs, and the runs decided so far."""

    def __init__(self, instance: Instance, seed: int = 0):
        self.instance = instance
        self.free = [instance.cluster.gpus] * instance.cluster.servers
        self.total_free = instance.cluster.total_gpus
        self.runs: dict[int, JobRun] = {}
        self._running: list[tuple[float, int]] = []  # (completion, job)
        self.rng = random.Random(seed)

    @property
    def idle(self) -> bool:
        """Whether no job runs."""
        return not self._running

    def next_completion(self) -> float:
        """The earliest completion time among the running jobs (``inf`` when none runs)."""
        return self._running[0][0] if self._running else math.inf

    def finish_until(self, time: float) -> None:
        """Release the GPUs of every job complete by ``time``."""
        while self._running and self._running[0][0] <= time:
            _, i = heapq.heappop(self._running)
            for m, row in self.runs[i].counts.items():
                self.free[m] += sum(row)
                self.total_free += sum(row)

    def fits(self, i: int) -> bool:
        """Whether job ``i``'s GPUs fit the free GPUs of the whole cluster now (Algorithm 1's admission test)."""
        return self.instance.jobs[i].job.gpus <= self.total_free

    def placement(self, i: int, rule: str) -> tuple[dict[int, list[int]], float]:
        """Heavy-Edge on the ``rule`` allotment of the free GPUs now, and its ``α``."""
        job = self.instance.jobs[i].job
        return place(job, allot(self.free, job.gpus, rule), self.instance.cluster, self.rng)

    def start(self, i: int, counts: dict[int, list[int]], time: float) -> None:
        """Start job ``i`` at ``time`` with ``counts`` (server -> replicas per stage): take its GPUs and record its
        run; a placement that does not fit raises ``RuntimeError``."""
        sj = self.instance.jobs[i]
        for m, row in counts.items():
            if sum(row) > self.free[m]:
                raise RuntimeError(f"job {i}: server {m} has {self.free[m]} free GPUs, the placement needs {sum(row)}")
            self.free[m] -= sum(row)
            self.total_free -= sum(row)
        self.runs[i] = JobRun(time, {m: tuple(row) for m, row in counts.items() if sum(row)})
        length = sj.iterations * alpha(sj.job, list(counts.values()), self.instance.cluster)
        heapq.heappush(self._running, (time + length, i))

    def schedule(self) -> Schedule:
        """The ``Schedule`` of the runs started, one per job; ``RuntimeError`` if some job never started."""
        if len(self.runs) != len(self.instance.jobs):
            raise RuntimeError(f"{len(self.instance.jobs) - len(self.runs)} jobs never started")
        return Schedule(tuple(self.runs[i] for i in range(len(self.instance.jobs))))
