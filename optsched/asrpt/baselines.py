"""The baselines of Luo et al.'s evaluation (paper §V-A 1-d; spec asrpt.md §3.9).

All are non-preemptive list schedulers over the waiting set (arrived, not started), re-run at every
arrival and completion, placing each job by Heavy-Edge on the MOST allotment [A10]. They sort by a
key (ties: release, then id) and use the instance's predictions for ``T̂_i = ñ_i α̃_i``:

| name | key | backfill |
|---|---|---|
| ``spjf`` (shortest predicted job first) | ``T̂_i`` | no: head-of-line blocking |
| ``spwf`` (shortest predicted workload first) | ``g_i T̂_i`` | no |
| ``wcs-duration`` | ``T̂_i`` | yes: every job that fits starts, in key order |
| ``wcs-workload`` | ``g_i T̂_i`` | yes |
| ``wcs-subtime`` | ``r_i`` | yes (FIFO with backfilling) |

``sjf-packed`` is not the paper's: an offline reference schedule (it reads the true ``n_i``, as
``asrpt-perfect`` does), the best known at the paper's scale (docs/asrpt.md, "Certified bounds").
"""

from __future__ import annotations

import heapq

from ..arrivals import ArrivalStream
from .cluster_state import ClusterState, estimates
from .instance import Instance
from .schedule import Schedule

KEYS = {
    "spjf": (lambda e, sj: e.duration, False),
    "spwf": (lambda e, sj: sj.job.gpus * e.duration, False),
    "wcs-duration": (lambda e, sj: e.duration, True),
    "wcs-workload": (lambda e, sj: sj.job.gpus * e.duration, True),
    "wcs-subtime": (lambda e, sj: sj.release, True),
}


def list_schedule(instance: Instance, name: str, seed: int = 0) -> Schedule:
    """Run the baseline ``name`` (a key of :data:`KEYS`)."""
    key, backfill = KEYS[name]
    est = estimates(instance)
    rank = [(key(e, sj), sj.release, i) for i, (e, sj) in enumerate(zip(est, instance.jobs))]
    state = ClusterState(instance, seed)
    stream = ArrivalStream(range(len(instance.jobs)), lambda i: instance.jobs[i].release)
    waiting: dict[int, list] = {}  # GPUs -> heap of (rank, job): each start looks at a few heads only
    while not stream.exhausted or any(waiting.values()):
        t = min(stream.next_arrival, state.next_completion())
        state.finish_until(t)
        for _, i in stream.advance_to(t):
            heapq.heappush(waiting.setdefault(instance.jobs[i].job.gpus, []), rank[i])
        while True:
            heads = [(heap[0], g) for g, heap in waiting.items() if heap and (not backfill or g <= state.total_free)]
            if not heads:
                break
            (_, _, i), g = min(heads)
            if g > state.total_free:  # the first job in key order does not fit: no backfilling
                break
            heapq.heappop(waiting[g])
            state.start(i, state.placement(i, "most")[0], t)
    return state.schedule()


def _entry(name: str):
    def run(instance: Instance, *, seed: int = 0) -> Schedule:
        return list_schedule(instance, name, seed)

    run.__name__ = name.replace("-", "_")
    run.__doc__ = f"Baseline {name} (spec §3.9)."
    return run


spjf, spwf, wcs_duration, wcs_workload, wcs_subtime = (_entry(name) for name in KEYS)


def sjf_packed(instance: Instance, *, seed: int = 0, slack: float = 0.2) -> Schedule:
    """Shortest job first by the true running time ``n_i α̃_i``, with backfilling, where a job starts only
    when Heavy-Edge on the MOST allotment places it with ``α <= (1 + slack) α̃_i`` (``α̃_i``: Heavy-Edge
    on the fewest empty servers), or when no job runs. The baselines spread a job over whatever GPUs are
    free and pay for it in ``α`` for the whole run; this one waits for a packed placement. A job type
    (the same ``Job``) refused at an event is not placed again in that event: the free GPUs only
    shrink until the next event."""
    est = estimates(instance, perfect=True)
    jobs = instance.jobs
    state = ClusterState(instance, seed)
    stream = ArrivalStream(range(len(jobs)), lambda i: jobs[i].release)
    waiting: list[tuple[float, float, int]] = []
    while not stream.exhausted or waiting:
        t = min(stream.next_arrival, state.next_completion())
        state.finish_until(t)
        for _, i in stream.advance_to(t):
            heapq.heappush(waiting, (est[i].duration, jobs[i].release, i))
        kept, refused = [], set()
        while waiting:
            entry = heapq.heappop(waiting)
            i = entry[2]
            if jobs[i].job.gpus <= state.total_free and jobs[i].job not in refused:
                counts, a = state.placement(i, "most")
                if a <= (1 + slack) * est[i].alpha_tilde or state.idle:
                    state.start(i, counts, t)
                    continue
                refused.add(jobs[i].job)
            kept.append(entry)
        waiting = kept  # popped in order: still a heap
    return state.schedule()
