"""What "online" means for each family: the views :func:`optsched.testing.check_online` and the shared
online-property test (tests/test_online_property.py) compare schedules through.

Per family, a :class:`View`: when each job arrives, how to change a job (its size and weight, not its
arrival), and the decisions a schedule makes before time ``t`` (per job, what runs before ``t``).
An online algorithm decides what happens before ``t`` knowing only the jobs arrived by then, so
changing, or adding, jobs that arrive after ``t`` must leave those decisions unchanged.

A family without arrivals (``placement``: one job) maps to None. A newly registered family must
appear here: tests/test_online_property.py fails until it does.

:data:`KNOWN_IN_ADVANCE` lists what a paper lets its online algorithm know before any job arrives,
and how to run the algorithm with that knowledge taken from the original instance, so that the
test varies only what the algorithm may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class View:
    """How a family's instances arrive, how one of their jobs is changed, and what a schedule decides
    before a time."""

    arrivals: Callable[[Any], list[float]]  #: each job's arrival (release) time
    changed: Callable[[Any, int], Any]  #: (instance, j): job j longer and heavier, arriving when it did
    before: Callable[[Any, float], dict[int, Any]]  #: schedule -> {job: what it does before t}


def _jobs(instance: Any, j: int, job: Any) -> Any:
    return replace(instance, jobs=instance.jobs[:j] + (job,) + instance.jobs[j + 1:])


def changing(fields: Callable[[Any], dict[str, Any]]) -> Callable[[Any, int], Any]:
    """``(instance, j) -> instance`` with job ``j``'s ``fields`` changed."""
    return lambda instance, j: _jobs(instance, j, replace(instance.jobs[j], **fields(instance.jobs[j])))


def with_a_copy_of(instance: Any, j: int) -> Any:
    """The instance with one more job, a copy of job ``j`` (arriving when it does), at the end."""
    return replace(instance, jobs=(*instance.jobs, instance.jobs[j]))


def _slots_before(entries: tuple, t: float) -> tuple:
    return tuple(e for e in entries if e[0] < t)


def _hetero_before(schedule: Any, t: float) -> dict[int, Any]:
    """Per job, the runs started before ``t`` (killed ones included: a preemptive baseline's final
    schedule keeps only the last run) and the kills before ``t``."""
    out: dict[int, list] = {}
    for j, run in enumerate(schedule.jobs):
        if run.start < t:
            out.setdefault(j, []).append(("run", run.start, run))
    for j, run, killed_at in schedule.killed:
        if run.start < t:
            out.setdefault(j, []).append(("run", run.start, run))
        if killed_at < t:
            out.setdefault(j, []).append(("killed", killed_at, None))
    return {j: sorted(events, key=lambda e: (e[1], e[0])) for j, events in out.items()}


def violation(view: View, run, instance, t: float, j: int) -> str | None:
    """How ``run`` (instance -> schedule) lets a job arriving after ``t`` change a decision made
    before ``t``: job ``j`` made longer and heavier, or a copy of the last-arriving job added (None
    when neither does)."""
    arrivals = view.arrivals(instance)
    last = max(range(len(arrivals)), key=lambda k: (arrivals[k], k))  # a copy of it keeps arrival order
    before = view.before(run(instance), t)
    for how, k, other in (("changing", j, view.changed(instance, j)),
                          ("adding a copy of", last, with_a_copy_of(instance, last))):
        after = view.before(run(other), t)
        for i, decided in before.items():
            if after.get(i) != decided:
                return f"{how} job {k} (arrives {arrivals[k]}) changed job {i} before t = {t}"
        extra = [i for i in after if i < len(instance.jobs) and i not in before]
        if extra:
            return f"{how} job {k} made job {extra[0]} start before t = {t}"
    return None


VIEWS: dict[str, View | None] = {
    "single": View(lambda inst: [job.r for job in inst.jobs],
                   changing(lambda job: {"p": 2 * job.p, "w": 3 * job.w}),
                   lambda s, t: {j: start for j, start in enumerate(s.start) if start < t}),
    "oasis": View(lambda inst: [job.arrival for job in inst.jobs],
                  changing(lambda job: {"epochs": 2 * job.epochs}),
                  lambda s, t: {j: (_slots_before(plan.workers, t), _slots_before(plan.ps, t))
                                for j, plan in (*enumerate(s.plans), *s.unfinished)
                                if _slots_before(plan.workers, t) or _slots_before(plan.ps, t)}),
    "edge": View(lambda inst: [job.release for job in inst.jobs],
                 changing(lambda job: {"p_edge": 2 * job.p_edge, "p_cloud": 2 * job.p_cloud}),
                 lambda s, t: {j: (_slots_before(run.edge, t), _slots_before(run.cloud, t),
                                   _slots_before(run.edge_ps, t), tuple(x for x in run.cloud_ps if x < t))
                               for j, run in enumerate(s.jobs)}),
    "hetero": View(lambda inst: [job.arrival for job in inst.jobs],
                   changing(lambda job: {"weight": 3 * job.weight, "epochs": 2 * job.epochs}),
                   lambda s, t: _hetero_before(s, t)),
    "asrpt": View(lambda inst: [sj.release for sj in inst.jobs],
                  changing(lambda sj: {"iterations": sj.iterations + 2, "predicted": sj.predicted + 3}),
                  lambda s, t: {i: run for i, run in enumerate(s.jobs) if run.start < t}),
    "placement": None,
}


def view_of(family: Any) -> View | None:
    """The online view of ``family``: optsched's own (:data:`VIEWS`), or the ``online_view`` a family
    outside optsched registers (None: one job at a time, nothing arrives later)."""
    if family.name in VIEWS:
        return VIEWS[family.name]
    return family.online_view


def _oasis_with_known_constants(instance: Any, original: Any, seed: int) -> Any:
    """OASiS assumes U and L (eqs. (23)-(26)) known in advance (§IV-B); the registered entry
    computes them from the instance it is given, so here they come from the original instance."""
    from optsched.oasis.online import run_oasis
    from optsched.oasis.theory import constants

    return run_oasis(instance, constants=constants(instance, from_instance=original)).schedule


KNOWN_IN_ADVANCE: dict[tuple[str, str], Callable[[Any, Any, int], Any]] = {
    ("oasis", "oasis"): _oasis_with_known_constants,
}
