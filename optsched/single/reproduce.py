"""The template reproduction: online WSPT against FIFO over a job sweep (``optsched reproduce
single-wspt``), the worked example of the reproduction kit (:mod:`optsched.reproduce`).

``single`` is a textbook problem (1|r_j|Σ w_j C_j) with no paper evaluation, so the claims here are
the template's own, stated as a paper's would be: WSPT's total weighted completion time is at least
:data:`MARGIN` below FIFO's at every size (a paired claim with a magnitude), and its gain grows with
the number of jobs (a trend). A new family's reproduction copies this file's shape
(docs/design.md, "How a new family is added"):

1. the presets, as typed objects (:class:`Preset`), and the methods (:func:`optsched.reproduce.method`);
2. the task with named fields (:class:`Task`) and the module-level task function the study engine
   runs and caches (:func:`_task`), whose run is verified (:func:`optsched.reproduce.run_verified`);
3. the prose (what the claims say, what was assumed, the captions) as data, apart from the computation;
4. the reproduction: tasks to rows (:func:`optsched.reproduce.parallel_map`), rows to the report's
   summary, claims (tested over seeds, corrected within each claim family) and figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..registry import get
from ..reproduce import Method, Report, Setting, method, parallel_map, run_verified
from .generate import PRESETS as GENERATOR


@dataclass(frozen=True)
class Preset:
    """What one preset sweeps: the job counts, on the generator's ``instances`` preset."""

    jobs: tuple[int, ...]
    instances: str = "small"


PRESETS = {"quick": Preset((4, 8)), "default": Preset((5, 10, 20, 40)), "paper": Preset((10, 20, 40, 80))}
#: The methods compared: the rule first (the reference of every paired comparison), then its baseline.
METHODS: tuple[Method, ...] = (method("wspt", "WSPT"), method("fifo", "FIFO"))
#: The paired claim's magnitude: WSPT's Σ w·C at least this fraction below FIFO's.
MARGIN = 0.05


@dataclass(frozen=True)
class Task:
    """One unit of the reproduction: a method on the seeded instance of one size."""

    jobs: int
    seed: int
    method: str  #: a label of :data:`METHODS`
    instances: str


def _task(task: Task) -> dict:
    """The method's verified total weighted completion time on the task's instance (one row)."""
    instance = get("single").generate(task.instances, seed=task.seed, jobs=task.jobs)
    chosen = next(m for m in METHODS if m.label == task.method)
    ran = run_verified(get("single"), instance, chosen, task.seed)
    return {"jobs": task.jobs, "seed": task.seed, "method": task.method, "weighted_completion": ran.objective}


#: The prose of the report, kept apart from the computation.
TITLE = "single (template): online WSPT against FIFO over the number of jobs"
SAYS = ["(No paper: the template's own claims.) WSPT's total weighted completion time is at least "
        f"{MARGIN:.0%} below FIFO's at every size, and its advantage grows with the number of jobs."]
ASSUMED = ["Instances: the `{instances}` generator preset, processing times uniform on 1..{max_p}, weights on "
           "1..{max_w}, release dates on 0..{release_window:.0%} of the total processing time; seeds 0..{last} "
           "at every size, so that each seed pairs with itself across the sweep.",
           "Both rules are non-preemptive list scheduling on one machine, WSPT's ties by release, then index."]
PAIRED = "WSPT at least {margin:.0%} below FIFO (paired by seed)"
TREND = "WSPT's relative gain over FIFO grows with the number of jobs (slope per doubling)"
VALUE = "Σ w·C"
MEANS_CAPTION = "Σ w·C per method against the number of jobs: mean and 95% interval over the seeds"
GAINS_CAPTION = "WSPT's paired relative gain over FIFO against the number of jobs (Hodges-Lehmann, 95% interval)"


def reproduce(setting: Setting) -> Report:
    """Run the sweep of ``setting``'s preset on ``setting.seeds`` seeds and report it."""
    preset = PRESETS[setting.scale]
    tasks = [Task(jobs, seed, m.label, preset.instances)
             for jobs in preset.jobs for seed in range(setting.seeds) for m in METHODS]
    rows = parallel_map(_task, tasks, setting, "single template")
    generator = {"instances": preset.instances, "last": setting.seeds - 1, **GENERATOR[preset.instances]}
    report = Report(TITLE, records=rows, paper_says=list(SAYS),
                    assumptions=[text.format(**generator) for text in ASSUMED])
    reference, baseline = (m.label for m in METHODS)
    summary = report.summarize(rows, point=["jobs"], method="method", value="weighted_completion", sense="min",
                               reference=reference, label=VALUE)
    value = {(r["jobs"], r["method"], r["seed"]): r["weighted_completion"] for r in rows}
    gains: dict[int, dict[float, float]] = {}
    for jobs in preset.jobs:
        a = {s: value[jobs, reference, s] for s in range(setting.seeds)}
        b = {s: value[jobs, baseline, s] for s in range(setting.seeds)}
        report.paired_claim(PAIRED.format(margin=MARGIN), {"jobs": jobs, "baseline": baseline}, a, b, "min",
                            f"{PAIRED.format(margin=MARGIN)} at {jobs} jobs", margin=MARGIN)
        for s in range(setting.seeds):
            gains.setdefault(s, {})[math.log2(jobs)] = (b[s] - a[s]) / b[s]  # the sweep doubles: slope per doubling
    report.trend_claim(TREND, {"sweep": "jobs"}, gains, "up", TREND)
    report.interval_figure(setting, summary, "jobs", "means.png", MEANS_CAPTION, log=True, xlog=True)
    report.gain_figure(setting, summary, "jobs", "gains.png", GAINS_CAPTION, xlog=True)
    return report
