"""A-SRPT, Algorithm 1 of Luo et al. (spec asrpt.md §3.5-§3.8), event-driven in continuous time.

1. Each arriving job gets its estimates (§3.5) and enters the virtual single machine ``Ã_1`` with
   size ``p̃_i = g_i ñ_i α̃_i / G``; preemptive SRPT runs there (Line 2's ``C̃_i``).
2. A job completed in ``Ã_1`` joins the pending queue, ordered by ``C̃_i`` then id. Only the head
   may start, and only when the cluster has ``g_i`` free GPUs in total (Line 5); otherwise everyone
   waits (head-of-line blocking, Line 25). A-SRPT is not work-conserving: a job never starts before
   ``C̃_i``.
3. A communication-heavy job (``α^max / α̃ >= COMM_HEAVY``, Line 8 [A11]) is placed by Heavy-Edge
   on the MOST allotment. If that placement's ``α / α̃`` exceeds ``COMM_HEAVY`` it may wait up to
   ``τ p̃_i`` for a strictly better placement (Lines 14-20), re-assessed at every event; at the
   deadline it takes the best placement seen [A15]. Waiting blocks the queue (the literal reading
   the Lemma 2 proof needs, [A14]); ``blocking=False`` parks it and lets the queue go on, outside the
   guarantee. Other jobs start at once on the LEAST allotment (Lines 21-23).

Events at one time are handled completions first, then arrivals, then virtual completions, then
dispatch. The algorithm reads a job's true iteration count never; the simulated cluster does, when
the job starts, to schedule its completion.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from ..arrivals import ArrivalStream
from .cluster_state import ClusterState, estimates
from .instance import Instance
from .schedule import Schedule
from .srpt import VirtualMachine

COMM_HEAVY = 1.5  #: the paper's classification threshold


@dataclass
class AsrptRun:
    """A-SRPT's schedule with what the theory checks need."""

    schedule: Schedule
    virtual_completion: list[float]  #: C̃_i in Ã_1
    comm_heavy: list[bool]
    waited: dict[int, float] = field(default_factory=dict)  #: communication-heavy job -> time held


@dataclass(frozen=True)
class _Held:
    job: int
    kappa: float  #: α of the first placement tried
    first: dict  #: that placement: the best seen, since a better one starts the job at once
    deadline: float
    since: float


def run_asrpt(instance: Instance, *, tau: float = 1.0, comm_heavy: float = COMM_HEAVY, perfect: bool = False,
              blocking: bool = True, seed: int = 0) -> AsrptRun:
    """Simulate A-SRPT on ``instance`` (``perfect``: predictions equal the true counts).

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; Algorithm 1 (A-SRPT).
    """
    if tau < 0 or not comm_heavy > 0:
        raise ValueError("tau must be >= 0 and comm_heavy > 0")
    est = estimates(instance, perfect)
    heavy = [e.alpha_max / e.alpha_tilde >= comm_heavy for e in est]
    state = ClusterState(instance, seed)
    machine = VirtualMachine()
    stream = ArrivalStream(range(len(instance.jobs)), lambda i: instance.jobs[i].release)
    virtual = [math.nan] * len(instance.jobs)
    pending: list[tuple[float, int]] = []
    held: list[_Held] = []
    waited: dict[int, float] = {}

    def enqueue(done):
        for i, time in done:
            virtual[i] = time
            heapq.heappush(pending, (time, i))

    def settle(h: _Held, t: float) -> bool:
        """Re-assess a held job; True if it started."""
        if not state.fits(h.job):
            return False
        counts, value = state.placement(h.job, "most")
        if value < h.kappa:
            state.start(h.job, counts, t)
        elif t >= h.deadline:
            # Blocking: nothing started meanwhile, so the first placement is still free [A15].
            state.start(h.job, h.first if blocking else counts, t)
        else:
            return False
        waited[h.job] = t - h.since
        return True

    while not stream.exhausted or pending or held or machine.next_completion() < math.inf:
        t = min(stream.next_arrival, machine.next_completion(), state.next_completion(),
                min((h.deadline for h in held), default=math.inf))
        if t == math.inf:  # only blocked jobs left and nothing will change: cannot happen on valid input
            raise RuntimeError("A-SRPT stalled with jobs waiting")
        state.finish_until(t)
        enqueue(machine.advance(t))
        for _, i in stream.advance_to(t):
            machine.release(i, est[i].virtual_size, t)
        enqueue(machine.advance(t))
        held = [h for h in held if not settle(h, t)]
        while pending and (not held or not blocking) and state.fits(pending[0][1]):
            _, i = heapq.heappop(pending)
            if heavy[i]:
                counts, value = state.placement(i, "most")
                budget = tau * est[i].virtual_size
                if value / est[i].alpha_tilde <= comm_heavy or budget == 0:
                    state.start(i, counts, t)
                else:
                    held.append(_Held(i, value, counts, t + budget, t))
            else:
                state.start(i, state.placement(i, "least")[0], t)
    return AsrptRun(state.schedule(), virtual, heavy, waited)


def asrpt(instance: Instance, *, seed: int = 0, tau: float = 1.0, comm_heavy: float = COMM_HEAVY,
          blocking: bool = True) -> Schedule:
    """A-SRPT with the instance's predictions (registry entry).

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; Algorithm 1 (A-SRPT).
    """
    return run_asrpt(instance, tau=tau, comm_heavy=comm_heavy, blocking=blocking, seed=seed).schedule


def asrpt_perfect(instance: Instance, *, seed: int = 0, tau: float = 1.0, comm_heavy: float = COMM_HEAVY,
                  blocking: bool = True) -> Schedule:
    """A-SRPT-Perfect: predictions equal to the true iteration counts."""
    return run_asrpt(instance, tau=tau, comm_heavy=comm_heavy, perfect=True, blocking=blocking, seed=seed).schedule
