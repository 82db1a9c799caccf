"""Per-job metrics of a schedule, as a table: when each job was released, first ran and ended, its
completion time (JCT, end − release), its span (end − first start) and its slowdown (JCT / span, 1
when it ran as soon as it arrived and never waited).

Times are on the axis of the family's Gantt chart (``Family.bars``, drawn by
:func:`optsched.plot.gantt`): seconds or time units for ``single`` and ``asrpt``, slots for the
slotted families (a slot of ``oasis`` and ``hetero`` numbered t is the interval [t − 1, t], one of
``edge`` [t, t + 1]), so that a job released at the start of a slot and served in it has a JCT of
one slot. A job that never ran (rejected, never admitted) has no start, end, JCT or slowdown.
``placement`` places one job and has no timeline.

Examples
--------
>>> import optsched
>>> family = optsched.get("single")
>>> instance = family.generate("tiny", seed=1)
>>> table = family.run(instance, "wspt").jobs()
>>> list(table.columns)
['job', 'release', 'start', 'end', 'jct', 'span', 'slowdown']
>>> bool((table["jct"] >= table["span"]).all())
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .errors import InputError

if TYPE_CHECKING:
    import pandas as pd

#: The columns of :func:`job_metrics`, in order.
COLUMNS = ("job", "release", "start", "end", "jct", "span", "slowdown")


def job_metrics(family: Any, instance: Any, schedule: Any) -> pd.DataFrame:
    """One row per job of ``instance`` under ``schedule`` (module docstring), for pandas."""
    import pandas as pd

    if not all(hasattr(family, name) for name in ("bars", "releases", "check_schedule")):
        raise InputError(f"family: expected a Family (optsched.get(name)), got {family!r:.40}")
    fam = family
    if fam.bars is None or fam.releases is None:
        raise InputError(f"family {fam.name} has no timeline: no per-job metrics (its schedules place, they do not "
                         "schedule over time)")
    fam.check_instance(instance)
    fam.check_schedule(schedule)
    releases = fam.releases(instance)
    ran: dict[int, list[float]] = {}
    for bar in fam.bars(instance, schedule):
        start, end, job = float(bar[1]), float(bar[2]), bar[3]
        first_last = ran.setdefault(job, [start, end])
        first_last[0], first_last[1] = min(first_last[0], start), max(first_last[1], end)
    rows = []
    for j, release in enumerate(releases):
        start, end = ran.get(j, (math.nan, math.nan))
        jct, span = end - release, end - start
        rows.append((j, release, start, end, jct, span, jct / span if span > 0 else math.nan))
    return pd.DataFrame(rows, columns=list(COLUMNS))
