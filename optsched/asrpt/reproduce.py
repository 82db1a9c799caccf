"""``optsched reproduce asrpt-table2`` and ``asrpt-sim``: Luo et al.'s Table II and the trends of
Figs. 6-9 (spec asrpt.md §5.4, §5.5).

* ``asrpt-table2``: per-iteration training time (PITT) and placement computation time (PCT) of
  Heavy-Edge and of the placement ILP F1, for VGG19 and GPT-175B over 20 availability cases. F1 runs
  on Heavy-Edge's own allotment (``exact``, the apples-to-apples comparison) and on every free GPU
  (``at_most``, the true optimum of the case).
* ``asrpt-sim``: total completion time of A-SRPT, A-SRPT-Perfect and the five baselines on the
  recurring-job Philly workload as the number of jobs, the share of single-GPU jobs, the NIC
  bandwidth, the predictor and the delay factor τ vary.

Built from the reproduction kit on the template's shape (``optsched/single/reproduce.py``): typed
presets (:class:`Preset`), a task with named fields (:class:`SimTask`) run by :func:`_sim_task`, the
prose as data, and :func:`reproduce_sim` from rows to the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..placement.templates import PAPER_CLUSTER
from ..registry import get
from ..reproduce import (
    Report,
    Setting,
    Statement,
    certified_ratio,
    mean,
    method,
    parallel_map,
    run_verified,
    theory_report,
)
from ..study.report import Table
from ..study.stats import Band, mean_within
from .generate import generate_stream
from .schedule import completions, durations

ALGORITHMS = ("asrpt", "asrpt-perfect", "spjf", "spwf", "wcs-duration", "wcs-workload", "wcs-subtime")
#: The single-GPU share sweep under both arrival set-ups [A21] (generate.ARRIVALS): every setting at the
#: same offered load, or the trace's time scale kept so that the load rises with multi-GPU jobs.
SHARE_SWEEPS = {"single-GPU share": "fixed-load", "single-GPU share, trace arrivals": "trace"}
SWEEPS = ("jobs", *SHARE_SWEEPS, "NIC (Gbps)", "offered load")
#: Fig. 6's "WCS-Duration and WCS-Workload enhance GPU utilization": each work-conserving rule and the
#: rule with the same order that is not (SPJF orders by predicted duration, SPWF by predicted workload).
WCS_PAIRS = (("wcs-duration", "spjf"), ("wcs-workload", "spwf"))


@dataclass(frozen=True)
class Preset:
    """What one preset sweeps: the job counts (Fig. 6), the fixed job count of the other sweeps, the
    single-GPU shares (Fig. 7), the NIC speeds in Gbps (Fig. 8), τ, and the offered loads [A21]."""

    jobs: tuple[int, ...]
    fixed: int
    shares: tuple[float, ...]
    nics: tuple[float, ...]
    taus: tuple[float, ...]
    loads: tuple[float, ...]


SIM = {
    "quick": Preset(jobs=(300, 600), fixed=600, shares=(0.8, 0.0), nics=(1.0, 50.0), taus=(0.0, 1.0), loads=(0.6, 1.2)),
    "default": Preset(jobs=(1000, 2000, 4000), fixed=2000, shares=(0.8, 0.6, 0.4, 0.2, 0.0),
                      nics=(1.0, 5.0, 10.0, 25.0, 50.0), taus=(0.0, 0.5, 1.0, 2.0), loads=(0.6, 0.8, 1.0, 1.2)),
    "paper": Preset(jobs=(4112, 8224, 12337, 16449), fixed=16449, shares=(0.8, 0.6, 0.4, 0.2, 0.0),
                    nics=(1.0, 5.0, 10.0, 25.0, 50.0), taus=(0.0, 0.5, 1.0, 2.0), loads=(0.6, 0.8, 1.0, 1.2)),
}
BASELINES = ALGORITHMS[2:]
#: The paper's numbers, tested as margins on the paired reduction against each seed's best baseline
#: (module docstring of :func:`_claims`): Fig. 6's least reduction, Fig. 7's reductions at 80% and 0%
#: single-GPU jobs, Fig. 8's at 50 Gbps, and Fig. 9's A-SRPT / A-SRPT-Perfect.
FIG6_MARGIN, FIG7_MARGINS, FIG8_MARGIN, FIG9_RATIO = 0.31, {0.8: 0.16, 0.0: 0.57}, 0.12, 1.14
#: Fig. 6: "31%-91%" less total completion time than the baselines, the paper's range over them and the job counts
FIG6_BAND = Band(0.31, 0.91, "range", "31%-91% less")
#: Fig. 8 and the abstract: "up to 92%" less total completion time at 1 Gbps
FIG8_SLOWEST = 0.92
#: Fig. 9's mean absolute errors of the predictors, in iterations (Sec. 6)
FIG9_ERRORS = {"rf": 369, "median": 563, "mean": 593}
#: Within-group spreads σ of the iteration counts (workload.py) for Fig. 9's set-up sweep: the synthetic
#: layer gives a group's members one count (σ = 0, the main runs), which decides "the forest predicts better".
SPREADS = (0.25, 1.0)


def _run(instance, name: str, tau: float, seed: int):
    """The verified run of registered algorithm ``name`` (A-SRPT's with threshold ``tau``)."""
    params = {"tau": tau} if name in ("asrpt", "asrpt-perfect") else {}
    return run_verified(get("asrpt"), instance, method(name, **params), seed)


@dataclass(frozen=True)
class SimTask:
    """One seed of one sweep point: the generator's options for the stream, A-SRPT's τ, and the
    algorithms run on it (each verified)."""

    sweep: str
    value: Any
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    tau: float = 1.0
    algorithms: tuple[str, ...] = ALGORITHMS


def _sim_task(task: SimTask) -> list[dict]:
    """The rows of one :class:`SimTask`: each algorithm's total completion, flow time, makespan and
    GPU utilisation (the GPU-time its jobs run, over the GPUs times the span from the first release to
    the makespan), with the prediction quality of the seed's stream."""
    sweep, value, seed, options, tau, names = (task.sweep, task.value, task.seed, task.options, task.tau,
                                               task.algorithms)
    instance = generate_stream("paper", seed, **options)
    errors = [abs(sj.iterations - sj.predicted) for sj in instance.jobs]
    quality = {"mae": sum(errors) / len(errors), "exact": sum(e == 0 for e in errors) / len(errors),
               "unseen": sum(sj.predicted == 0 for sj in instance.jobs) / len(errors)}
    out = []
    for name in names:
        ran = _run(instance, name, tau, seed)
        ends = completions(instance, ran.schedule)
        releases = [sj.release for sj in instance.jobs]
        busy = sum(sj.job.gpus * d for sj, d in zip(instance.jobs, durations(instance, ran.schedule)))
        out.append({"sweep": sweep, "value": value, "seed": seed, "algorithm": name, "jobs": len(instance.jobs),
                    "total_completion": ran.objective, "total_flow": ran.objective - sum(releases),
                    "makespan": max(ends),
                    "utilisation": busy / (instance.cluster.total_gpus * (max(ends) - min(releases))),
                    **quality})
    return out


#: The prose of the report, kept apart from the computation (``{...}``: the run's numbers).
TITLE = "A-SRPT (Luo et al.), Section V-B: total completion time vs jobs, single-GPU share, NIC bandwidth, predictor, τ"
PAPER_SAYS = [
    "Fig. 6 (37,500-150,000 jobs): A-SRPT is best everywhere, 31%-91% less total JCT than the baselines; "
    "SPJF worst.",
    "Fig. 7 (75,000 jobs, single-GPU share 80% -> 0%): the reduction grows from 16% to 57%.",
    "Fig. 8 (0% single-GPU jobs, NIC 1 -> 50 Gbps): at 50 Gbps A-SRPT beats the best baseline (WCS-Duration) "
    "by 12%; at 1 Gbps by up to 92%.",
    "Fig. 9: mean absolute error RF 369, median 563, mean 593 iterations; A-SRPT with RF 14% above A-SRPT-Perfect.",
]
ASSUMED = [
    "Trace [A16]: the paper's PAI trace is not available. Jobs come from philly_adaptdl.csv with synthetic "
    "recurring groups, users and Table I models (optsched/asrpt/workload.py); every number here is on that "
    "stand-in, so compare trends, not values.",
    "Cluster: {servers} servers x {gpus} GPUs, 300 GB/s NVLink, 10 Gbps NICs unless "
    "swept. Each seed draws its own synthetic layer (groups, users, models) over the trace and picks a "
    "window of consecutive jobs from the held-out last 20% (a window as long as the held-out part is the same "
    "for every seed, so there the layer is what varies); the predictors train on the seed's first 80%.",
    "Load [A21]: submission times are scaled so that the offered load Σ g n α̃ / (G x span) is 1.0 in every "
    "setting ('fixed-load'); the Philly window offers about 0.06 of this cluster as recorded. The single-GPU "
    "share sweep also runs with 'trace' arrivals: the window's time scale for load 1.0 as recorded is kept when "
    "the share changes the jobs, so the load rises as multi-GPU jobs replace single-GPU ones. That is the set-up "
    "the paper's Fig. 7 describes (its reason for the trend: a rising workload); 'fixed-load' removes it. "
    "The load itself is swept too ({loads}, at {fixed} jobs), since it decides how much queueing "
    "there is to save.",
    "τ [A12]: 1.0 unless swept (the τ sweep uses 0% single-GPU jobs at 1 Gbps, where waiting matters most); "
    "COMM_HEAVY = 1.5; the wait blocks the queue [A14]; the best placement seen is kept at the deadline [A15].",
    "Baselines [A10]: Heavy-Edge on the MOST allotment; SPJF/SPWF block at the head, WCS-* backfill; all use "
    "the random forest's predictions.",
    "Metric [A21]: total completion time with the window's first submission as time 0; flow time and makespan "
    "are in results.csv.",
]
#: Which of the paper's figures each sweep stands for (the job-share sweeps: Fig. 7).
FIGURE_OF = {"jobs": "Fig. 6 analogue", "NIC (Gbps)": "Fig. 8 analogue", "tau": "τ, A-SRPT's delay factor",
             "offered load": "not in the paper: its set-up choice [A21] swept"}
INTERVALS_CAPTION = "{figure}: total completion time vs {sweep}, mean and 95% interval over seeds"
GAINS_CAPTION = ("{figure}: A-SRPT's paired relative gain over each method vs {sweep} (above 0: A-SRPT better), "
                 "Hodges-Lehmann estimate and 95% interval")
SWEEP_TITLE = "Total completion time / A-SRPT's (mean over seeds) vs {sweep}"
SWEEP_NOTE = "A-SRPT's reduction against the best baseline: {reductions}"
PREDICTORS_TITLE = ("Predictors (Figs. 4/9): error in iterations and A-SRPT's total completion time / "
                    "A-SRPT-Perfect's")
SPREAD_TITLE = "Fig. 9's predictors with the iteration counts varying within a group (set-up sweep)"
SPREAD_NOTE = ("Spread σ: each member's count is the group's times a lognormal factor exp(σ z − σ²/2) "
               "(workload.py); the main runs have σ = 0, every member of a group the same count but 5% "
               "stopped early.")
TAU_TITLE = "A-SRPT vs τ (0% single-GPU jobs, 1 Gbps; mean total completion time)"
CERTIFIED_SIZE = "{jobs:,} trace jobs, 250 x 8 GPUs"


def reproduce_sim(setting: Setting) -> Report:
    """``optsched reproduce asrpt-sim``: Figs. 6-9 of Luo et al. (A-SRPT against the baselines as the job count, the
    single-GPU share, the NIC speed, the offered load, the predictor and τ vary), with every claim tested as
    stated."""
    p = SIM[setting.scale]
    seeds = range(setting.seeds)
    tasks = [SimTask("jobs", n, s, {"jobs": n}) for n in p.jobs for s in seeds]
    tasks += [SimTask(sweep, share, s, {"jobs": p.fixed, "single_gpu_share": share, "arrivals": arrivals})
              for sweep, arrivals in SHARE_SWEEPS.items() for share in p.shares for s in seeds]
    # The NIC sweep's 10 Gbps point is the share sweep's 0% point (fixed load): computed and tested once.
    tasks += [SimTask("NIC (Gbps)", nic, s, {"jobs": p.fixed, "single_gpu_share": 0.0, "nic_gbps": nic})
              for nic in p.nics if not _shared_nic(nic, p) for s in seeds]
    tasks += [SimTask("offered load", load, s, {"jobs": p.fixed, "load": load})
              for load in p.loads if load != 1.0 for s in seeds]
    tasks += [SimTask("predictor", name, s, {"jobs": p.fixed, "prediction": name}, algorithms=("asrpt",))
              for name in ("rf", "median", "mean") for s in seeds]
    tasks += [SimTask("tau", tau, s, {"jobs": p.fixed, "single_gpu_share": 0.0, "nic_gbps": 1.0}, tau, ("asrpt",))
              for tau in p.taus for s in seeds]
    tasks += [SimTask(f"predictor, spread {spread:g}", name, s, {"jobs": p.fixed, "prediction": name, "spread": spread},
                      algorithms=("asrpt", "asrpt-perfect") if name == "rf" else ("asrpt",))
              for spread in SPREADS for name in ("rf", "median", "mean") for s in seeds]
    # Seed by seed: a seed's stream trains its own predictors (generate.py), once per process while
    # its tasks run one after another.
    order = sorted(range(len(tasks)), key=lambda k: tasks[k].seed)
    chunks = dict(zip(order, parallel_map(_sim_task, [tasks[k] for k in order], setting, "asrpt simulations")))
    rows = [r for k in range(len(tasks)) for r in chunks[k]]
    rows += _shared_rows(rows, p)
    report = Report(TITLE)
    report.records = [r for r in rows if not r.get("shared_with")]  # each run once
    summary = _claims(report, rows, p)
    for sweep in dict.fromkeys(r["sweep"] for r in summary if not r["sweep"].startswith("predictor")):
        names = {"figure": FIGURE_OF.get(sweep, "Fig. 7 analogue"), "sweep": sweep}
        report.interval_figure(setting, [r for r in summary if r["sweep"] == sweep], "value",
                               f"completion_vs_{_slug(sweep)}_intervals.png", INTERVALS_CAPTION.format(**names),
                               xlabel=sweep, log=True)
        report.gain_figure(setting, _gain_rows(summary, sweep, p), "value", f"gain_vs_{_slug(sweep)}.png",
                           GAINS_CAPTION.format(**names), xlabel=sweep)
    report.paper_says = list(PAPER_SAYS)
    report.assumptions = [a.format(servers=PAPER_CLUSTER.servers, gpus=PAPER_CLUSTER.gpus, loads=list(p.loads),
                                   fixed=p.fixed) for a in ASSUMED]
    for sweep in SWEEPS:
        mine = [r for r in rows if r["sweep"] == sweep]
        values = sorted({r["value"] for r in mine}, reverse=sweep in SHARE_SWEEPS)
        table = Table(SWEEP_TITLE.format(sweep=sweep), [sweep, *ALGORITHMS], [])
        for v in values:
            table.rows.append([v, *[_relative(mine, v, a) for a in ALGORITHMS]])
        best = [min(_relative(mine, v, a) for a in ALGORITHMS[2:]) for v in values]
        table.note = SWEEP_NOTE.format(reductions=", ".join(f"{v:g}: {100 * (1 - 1 / b):.0f}%"
                                                            for v, b in zip(values, best)))
        report.tables.append(table)
    perfect = {r["seed"]: r["total_completion"] for r in rows
               if r["sweep"] == "jobs" and r["value"] == p.fixed and r["algorithm"] == "asrpt-perfect"}
    mine = [r for r in rows if r["sweep"] == "predictor"]
    report.tables.append(Table(
        PREDICTORS_TITLE, ["predictor", "mean abs. error", "exact share", "unseen share", "A-SRPT / Perfect"],
        [[name, *(mean(r[k] for r in mine if r["value"] == name) for k in ("mae", "exact", "unseen")),
          mean(r["total_completion"] / perfect[r["seed"]] for r in mine if r["value"] == name and r["seed"] in perfect)]
         for name in ("rf", "median", "mean")]))
    report.tables.append(_spread_table(rows))
    mine = [r for r in rows if r["sweep"] == "tau"]
    report.tables.append(Table(TAU_TITLE, ["τ", "total"], [[tau, mean(r["total_completion"] for r in mine
                                                                 if r["value"] == tau)] for tau in p.taus]))
    if setting.scale == "paper":
        certified = [method(name, **({"tau": 1.0} if name in ("asrpt", "asrpt-perfect") else {}))
                     for name in ALGORITHMS]  # as the sweeps run them (τ = 1)
        certified.append(method("sjf-packed"))  # the offline reference: the best schedule known at this size
        certified_ratio(report, setting, "asrpt", certified, {"jobs": p.fixed}, CERTIFIED_SIZE.format(jobs=p.fixed))
    return report


def _shared_nic(nic: float, p: Preset) -> bool:
    """True for the NIC sweep's point at the generator's 10 Gbps, the share sweep's 0% point."""
    return nic == 10.0 and 0.0 in p.shares


def _shared_points(p: Preset) -> list[tuple[tuple[str, Any], tuple[str, Any]]]:
    """The points two sweeps share, as ((sweep, value) that computes it, (sweep, value) that shows
    it): the NIC sweep at 10 Gbps is the 0% single-GPU point at fixed load, the load sweep at 1.0
    the job sweep's fixed point."""
    points: list[tuple[tuple[str, Any], tuple[str, Any]]] = []
    if any(_shared_nic(n, p) for n in p.nics):
        points.append((("single-GPU share", 0.0), ("NIC (Gbps)", 10.0)))
    if 1.0 in p.loads:
        points.append((("jobs", p.fixed), ("offered load", 1.0)))
    return points


def _shared_rows(rows: list[dict], p: Preset) -> list[dict]:
    """The rows of points that two sweeps share (:func:`_shared_points`), copied into the sweep that
    did not compute them (marked ``shared_with``)."""
    return [{**r, "sweep": shows[0], "value": shows[1], "shared_with": f"{computes[0]} = {computes[1]:g}"}
            for r in rows for computes, shows in _shared_points(p) if (r["sweep"], r["value"]) == computes]


def _gain_rows(summary: list[dict], sweep: str, p: Preset) -> list[dict]:
    """The summary rows of ``sweep`` with A-SRPT's paired gains, a point it shares with another sweep
    (:func:`_shared_points`) taken from the sweep that tested it."""
    rows = [r for r in summary if r["sweep"] == sweep and r.get("effect") is not None]
    return rows + [{**r, "sweep": sweep, "value": shows[1]} for r in summary if r.get("effect") is not None
                   for computes, shows in _shared_points(p)
                   if shows[0] == sweep and (r["sweep"], r["value"]) == computes]


def _claims(report: Report, rows: list[dict], p: Preset) -> list[dict]:
    """The paper's claims, each a family of tests over its points (a point shared by two sweeps is
    tested once, in the sweep that computed it):

    * Figs. 6-8 and the load sweep: A-SRPT beats every baseline at every point (paired);
    * Fig. 6: by at least 31% (the least reduction the paper reports), against every baseline;
    * Fig. 7: the reduction against each seed's best baseline is at least 16% at 80% single-GPU
      jobs and 57% at 0% (the paper's end points, read as "at least"), and grows as the share
      falls (per-seed slope against the share, under both arrival set-ups);
    * Fig. 8: at least 12% at 50 Gbps, and the reduction falls as the NIC speeds up (per-seed slope
      against log2 Gbps);
    * Fig. 9: A-SRPT with the random forest within 14% of A-SRPT-Perfect (mean ratio, t-test), and
      the forest's error below the median and mean predictors' (paired by seed);
    * Fig. 6: SPJF is the worst baseline (every other baseline beats it, paired);
    * Fig. 6: "WCS-Duration and WCS-Workload enhance GPU utilization": each against the rule with its
      order that is not work-conserving (:data:`WCS_PAIRS`), paired on the GPU utilisation.
    """
    import math

    tested = [r for r in rows if not r.get("shared_with")]
    summary = report.summarize(tested, point=["sweep", "value"], method="algorithm", value="total_completion",
                               sense="min", reference="asrpt", label="total completion time")
    for row in summary:
        row["family"] = ("A-SRPT-Perfect against A-SRPT (not a paper claim)" if row["method"] == "asrpt-perfect"
                         else "Figs. 6-8: A-SRPT beats every baseline")
    summary += report.summarize([r for r in rows if r.get("shared_with")], point=["sweep", "value"],
                                method="algorithm", value="total_completion", sense="min", reference=None,
                                label="total completion time (a shared point, tested in its other sweep)")
    value = {(r["sweep"], r["value"], r["algorithm"], r["seed"]): r["total_completion"] for r in rows}
    seeds = sorted({r["seed"] for r in rows})

    def at(sweep: str, v: Any, name: str) -> dict[int, float]:
        return {s: value[sweep, v, name, s] for s in seeds if (sweep, v, name, s) in value}

    def best(sweep: str, v: Any) -> dict[int, float]:
        return {s: min(value[sweep, v, b, s] for b in BASELINES) for s in seeds
                if all((sweep, v, b, s) in value for b in BASELINES)}

    for n in p.jobs:
        for b in BASELINES:
            report.paired_claim(f"Fig. 6: A-SRPT at least {FIG6_MARGIN:.0%} better than every baseline",
                                {"sweep": "jobs", "value": n, "baseline": b}, at("jobs", n, "asrpt"),
                                at("jobs", n, b), "min", f"Fig. 6 ({n} jobs): A-SRPT's total completion time at "
                                f"least {FIG6_MARGIN:.0%} below {b}'s", margin=FIG6_MARGIN, band=FIG6_BAND)
    for sweep in SHARE_SWEEPS:
        for share, margin in FIG7_MARGINS.items():
            if share in p.shares:
                report.paired_claim("Fig. 7: A-SRPT's reduction against the best baseline at the end points",
                                    {"sweep": sweep, "value": share}, at(sweep, share, "asrpt"), best(sweep, share),
                                    "min", f"Fig. 7 ({sweep} {share:.0%}): A-SRPT at least {margin:.0%} below the "
                                    "best baseline (per seed)", margin=margin,
                                    band=Band.about(margin, f"{margin:.0%} less"))
        report.trend_claim("Fig. 7: the reduction grows as the single-GPU share falls", {"sweep": sweep},
                           _reductions(at, best, sweep, p.shares, lambda v: v, seeds), "down",
                           f"Fig. 7 ({sweep}): the reduction against the best baseline grows as the share falls "
                           "(values: per-seed slopes against the share)")
    nic = "NIC (Gbps)"
    if 50.0 in p.nics:
        report.paired_claim("Fig. 8: A-SRPT at least 12% below the best baseline at 50 Gbps",
                            {"sweep": nic, "value": 50.0},
                            at(nic, 50.0, "asrpt"), best(nic, 50.0), "min",
                            f"Fig. 8 (50 Gbps): A-SRPT at least {FIG8_MARGIN:.0%} below the best baseline (per seed)",
                            margin=FIG8_MARGIN, band=Band.about(FIG8_MARGIN, "12% less than WCS-Duration"))
    report.trend_claim("Fig. 8: the reduction falls as the NIC speeds up", {"sweep": nic},
                       _reductions(at, best, nic, p.nics, math.log2, seeds), "down",
                       "Fig. 8: the reduction against the best baseline falls as the NIC speeds up (values: per-seed "
                       "slopes against log2 Gbps)")
    slowest = min(p.nics)
    report.paired_claim("Fig. 8 and the abstract: up to 92% below the best baseline at the slowest NIC",
                        {"sweep": nic, "value": slowest}, at(nic, slowest, "asrpt"), best(nic, slowest), "min",
                        f"Fig. 8 ({slowest:g} Gbps): A-SRPT below the best baseline (per seed), up to 92% less",
                        band=Band.about(FIG8_SLOWEST, "up to 92% less", reading="up to"))
    for b in BASELINES:
        totals = {x: at(nic, x, b) for x in p.nics}
        series = {s: {math.log2(x): by_seed[s] for x, by_seed in totals.items() if s in by_seed} for s in seeds}
        report.trend_claim("Fig. 8: the baselines degrade as the NIC slows", {"sweep": nic, "baseline": b}, series,
                           "down", f"Fig. 8: {b}'s total completion time falls as the NIC speeds up (values: "
                           "per-seed slopes against log2 Gbps)")
    predictor = {(r["value"], r["seed"]): r for r in rows if r["sweep"] == "predictor"}
    _fig9_claims(report, "predictor", {name: {s: predictor[name, s] for s in seeds if (name, s) in predictor}
                                       for name in ("rf", "median", "mean")},
                 at("jobs", p.fixed, "asrpt-perfect"), "Fig. 9: {claim}", "Fig. 9")
    for spread in SPREADS:
        sweep = f"predictor, spread {spread:g}"
        runs = {(r["value"], r["algorithm"], r["seed"]): r for r in rows if r["sweep"] == sweep}
        _fig9_claims(report, sweep, {name: {s: runs[name, "asrpt", s] for s in seeds if (name, "asrpt", s) in runs}
                                     for name in ("rf", "median", "mean")},
                     {s: runs["rf", "asrpt-perfect", s]["total_completion"] for s in seeds
                      if ("rf", "asrpt-perfect", s) in runs},
                     f"Set-up sweep, within-group spread {spread:g}: {{claim}} (Fig. 9)", sweep)
    report.paired_claim("Fig. 9: the mean predictor degrades A-SRPT", {"sweep": "predictor", "baseline": "mean"},
                        {s: predictor["rf", s]["total_completion"] for s in seeds if ("rf", s) in predictor},
                        {s: predictor["mean", s]["total_completion"] for s in seeds if ("mean", s) in predictor},
                        "min", "Fig. 9: A-SRPT's total completion time with the random forest below that with the "
                        "mean predictor")
    for n in p.jobs:
        for b in BASELINES[1:]:
            report.paired_claim("Fig. 6: SPJF is the worst baseline", {"sweep": "jobs", "value": n, "baseline": b},
                                at("jobs", n, "spjf"), at("jobs", n, b), "max",  # "max": SPJF's larger total
                                f"Fig. 6 ({n} jobs): SPJF's total completion time above {b}'s")
    utilisation = {(r["value"], r["algorithm"], r["seed"]): r["utilisation"] for r in rows if r["sweep"] == "jobs"}
    for n in p.jobs:
        for wcs, rigid in WCS_PAIRS:
            report.paired_claim("Fig. 6: the WCS variants improve GPU utilisation",
                                {"sweep": "jobs", "value": n, "method_compared": wcs, "baseline": rigid},
                                {s: utilisation[n, wcs, s] for s in seeds if (n, wcs, s) in utilisation},
                                {s: utilisation[n, rigid, s] for s in seeds if (n, rigid, s) in utilisation}, "max",
                                f"Fig. 6 ({n} jobs): {wcs}'s GPU utilisation above {rigid}'s (the same order, "
                                "not work-conserving)")
    return summary


def _spread_table(rows: list[dict]) -> Table:
    """Fig. 9's predictors at each within-group spread of :data:`SPREADS`: mean error, exact share,
    and A-SRPT's total over A-SRPT-Perfect's on the same streams."""
    table = Table(SPREAD_TITLE, ["within-group spread", "predictor", "mean abs. error", "exact share",
                                 "A-SRPT / Perfect"], [], note=SPREAD_NOTE)
    for spread in SPREADS:
        sweep = f"predictor, spread {spread:g}"
        runs = {(r["value"], r["algorithm"], r["seed"]): r for r in rows if r["sweep"] == sweep}
        for name in ("rf", "median", "mean"):
            mine = [r for (v, a, _), r in runs.items() if v == name and a == "asrpt"]
            ratios = [r["total_completion"] / runs["rf", "asrpt-perfect", r["seed"]]["total_completion"] for r in mine
                      if ("rf", "asrpt-perfect", r["seed"]) in runs]
            table.rows.append([spread, name, mean(r["mae"] for r in mine), mean(r["exact"] for r in mine),
                               mean(ratios)])
    return table


def _fig9_claims(report: Report, sweep: str, runs: dict[str, dict[int, dict]], perfect: dict[int, float],
                 family: str, lead: str) -> None:
    """Fig. 9's two claims on one sweep's predictor runs (``runs[predictor][seed]``: A-SRPT's row with
    that predictor), each in the family ``family.format(claim=...)``, each test described after ``lead``:
    A-SRPT with the random forest within 14% of A-SRPT-Perfect (``perfect``: its total per seed, on
    the same streams), and the forest's error below the median and mean predictors'."""
    forest = runs["rf"]
    ratios = [forest[s]["total_completion"] / perfect[s] for s in forest if s in perfect]
    report.claim(family.format(claim="A-SRPT with the random forest within 14% of A-SRPT-Perfect"), {"sweep": sweep},
                 ratios,
                 f"{lead}: A-SRPT (random forest) / A-SRPT-Perfect at most {FIG9_RATIO} (mean over seeds)",
                 mean_within(ratios, FIG9_RATIO), band=Band.about(FIG9_RATIO, "only 14% worse", null=1.0))
    for other in ("median", "mean"):
        report.paired_claim(family.format(claim="the random forest predicts better than the median and mean "
                                          "predictors"),
                            {"sweep": sweep, "baseline": other}, {s: r["mae"] for s, r in forest.items()},
                            {s: r["mae"] for s, r in runs[other].items()}, "min",
                            f"{lead}: the random forest's mean absolute error below the {other} predictor's",
                            band=Band.about(1 - FIG9_ERRORS["rf"] / FIG9_ERRORS[other],
                                            f"{FIG9_ERRORS['rf']} against {FIG9_ERRORS[other]} iterations"))


def _reductions(at, best, sweep: str, xs: Sequence[float], scale, seeds: list[int]) -> dict[int, dict[float, float]]:
    """Per seed, A-SRPT's reduction against the seed's best baseline at each ``x`` of ``sweep``
    (``1 − A-SRPT / best``), keyed by ``scale(x)``."""
    series: dict[int, dict[float, float]] = {s: {} for s in seeds}
    for x in xs:
        mine, top = at(sweep, x, "asrpt"), best(sweep, x)
        for s in seeds:
            if s in mine and s in top and top[s]:
                series[s][scale(x)] = 1 - mine[s] / top[s]
    return series


def _slug(sweep: str) -> str:
    """A file-name part for a sweep: 'single-GPU share, trace arrivals' -> 'single_gpu_share_trace_arrivals'."""
    return "_".join("".join(c if c.isalnum() else " " for c in sweep.lower()).split())


def _relative(rows, value, name):
    base = {r["seed"]: r["total_completion"] for r in rows if r["value"] == value and r["algorithm"] == "asrpt"}
    return mean(r["total_completion"] / base[r["seed"]] for r in rows
                if r["value"] == value and r["algorithm"] == name and base.get(r["seed"]))


#: The paper's lemmas and Theorem 1 that optsched holds as checks (asrpt/checks.py and the competitive
#: bound of theory.theorem1), for asrpt-theory.
STATEMENTS = (
    Statement("Lemma 1", "the virtual single-machine optimum is within ρ of OPT_A", "lemma1", "asrpt"),
    Statement("Lemma 2", "A-SRPT's total completion time is within Lemma 2's bound", "lemma2", "asrpt"),
    Statement("Lemma 3", "prediction errors move the virtual optimum by at most I g^max α^max ε / G", "lemma3",
              "asrpt"),
    Statement("Theorem 1", "A-SRPT's total completion time is within Theorem 1's bound of OPT_A", "bound", "asrpt"),
)
THEORY_TITLE = "Luo et al.'s lemmas and Theorem 1 on random instances"
THEORY_SAYS = ["Lemmas 1-3 bound the virtual single-machine schedule and A-SRPT against it; Theorem 1 bounds "
               "A-SRPT's total completion time by a factor of OPT_A. Each is a claim about every instance."]


def reproduce_theory(setting: Setting) -> Report:
    """The statements of :data:`STATEMENTS` on the search space's random instances (reproduce/theory.py)."""
    return theory_report(setting, "asrpt", STATEMENTS, THEORY_TITLE, THEORY_SAYS)
