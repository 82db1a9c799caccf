"""The exact experiments reproductions share: an optimum re-solved and confirmed by a second solver
(:func:`confirmed_optimum`), and the certified ratio at the paper's scale, both ends: against the
best schedule known and against a family's bound route (:func:`certified_ratio`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import Failure
from ..numeric import ratio as ratio_to
from ..plot import figure
from ..registry import get
from ..study.report import Table
from ..study.spec import Method
from .methods import run_verified
from .report import Report
from .setting import CERTIFIED_SEEDS, EXACT_BUDGET, Setting
from .tasks import parallel_map


def confirmed_optimum(family_name: str, instance: Any, formulation: str, what: str):
    """Solve ``instance`` exactly within :data:`EXACT_BUDGET`, cross-checked by the second solver (CBC
    on the same MILP, within the same node budget), and return the pipeline's ``Solved``;
    :class:`~optsched.errors.Failure` unless the optimum is proven, both solvers agree on it, and,
    where the formulation gives a schedule (``Formulation.gives_schedule``; not, for example, the
    edge family's fractional-flow ILP), that schedule is verified (``what`` names the instance in
    the message). The solver cross-check, not the CP-SAT model's: the node budget bounds both
    solves, where a CP-SAT partner would run without one."""
    family = get(family_name)
    solved = family.solve(instance, formulation, cross_check="solver", **EXACT_BUDGET)
    check = solved.result.cross_check
    scheduled = solved.verdict is not None and solved.verdict.feasible
    if not (solved.result.optimal and check is not None and check.verdict == "agree"
            and (scheduled or not family.formulations[formulation].gives_schedule)):
        raise Failure(f"{what} did not re-solve to a confirmed optimum: {solved.result.status} "
                      f"{solved.result.message}" + (f" ({check.detail})" if check is not None else ""))
    return solved


@dataclass(frozen=True)
class CertifiedTask:
    """One method on one seed of :func:`certified_ratio`: the family, its generator preset and
    options (sorted by name), the seed and the method."""

    family: str
    preset: str
    seed: int
    generator: tuple[tuple[str, Any], ...]
    method: Method


@dataclass(frozen=True)
class BoundTask:
    """The family's bound route on one seed of :func:`certified_ratio`."""

    family: str
    preset: str
    seed: int
    generator: tuple[tuple[str, Any], ...]


def _method_task(task: CertifiedTask) -> dict:
    """The method's verified objective on the seed's instance."""
    family = get(task.family)
    instance = family.generate(task.preset, seed=task.seed, **dict(task.generator))
    ran = run_verified(family, instance, task.method, task.seed)
    return {"seed": task.seed, "method": task.method.label, "objective": ran.objective}


def _bound_task(task: BoundTask) -> dict:
    """The bound route on the seed's instance, within the family's deterministic budget
    (``Family.bound_budget``): its bound, status, whether it left its start, its trajectory (the
    bound before the first round and after each; empty for a route without rounds) and the
    objective of the schedule it found, verified."""
    family = get(task.family)
    instance = family.generate(task.preset, seed=task.seed, **dict(task.generator))
    route = family.solve(instance, _route(family), relax=family.bound_relax, threads=1, **family.bound_budget)
    if route.problem:
        raise Failure(f"{family.name}'s bound route on seed {task.seed}: {route.problem}")
    found = route.found_verdict
    return {"seed": task.seed, "bound": route.result.bound, "bound_status": route.result.status,
            "moved": route.result.bound_moved is not False, "trajectory": list(route.result.trajectory),
            "found": found.objective if found is not None else None}


def _route(family) -> str:
    if family.bound_route is None:
        raise Failure(f"family {family.name} has no bound route (Family.bound_route)")
    return family.bound_route


def interval(sense: str, objective: float, best: float, bound: float) -> tuple[float, float]:
    """Both ends of a certified ratio: ``[ALG / best, ALG / bound]`` (min) or ``[best / ALG,
    bound / ALG]`` (max), where ``best`` is the best schedule known and ``bound`` a certified
    bound on the optimum; the true ratio ALG/OPT (OPT/ALG) lies between them."""
    return ratio_to(sense, objective, best), ratio_to(sense, objective, bound)


def certified_ratio(report: Report, setting: Setting, family_name: str, methods: Sequence[Method],
                    generator: dict[str, Any], what: str) -> None:
    """Add to ``report`` the certified ratio of ``methods[0]`` (run as the verdicts run it) at the
    paper's scale, where no optimum is in reach: per seed (the first :data:`CERTIFIED_SEEDS`) of
    ``family.generate("paper", seed, **generator)``, both ends of its ratio (:func:`interval`):
    against the best schedule known (the best verified schedule of every method in ``methods``
    and of the bound route itself) and against the family's bound route (``Family.bound_route``,
    within ``Family.bound_budget``). A table, records ``certified_ratio`` and an assumption line
    say what each end is; a route whose bound never left its start is named."""
    family = get(family_name)
    seeds = range(min(setting.seeds, CERTIFIED_SEEDS))
    options = tuple(sorted(generator.items()))
    runs = parallel_map(_method_task, [CertifiedTask(family_name, "paper", seed, options, m)
                                       for seed in seeds for m in methods], setting,
                        f"{family_name} certified ratio, the methods ({what})")
    bounds = parallel_map(_bound_task, [BoundTask(family_name, "paper", seed, options) for seed in seeds],
                          setting, f"{family_name} certified ratio, the bound route ({what})")
    route = _route(family) + (" --relax" if family.bound_relax else "")
    algorithm = methods[0].label
    label = "ALG/OPT" if family.sense == "min" else "OPT/ALG"
    pick = min if family.sense == "min" else max
    table = Table(CERTIFIED_TITLE.format(algorithm=algorithm, what=what),
                  ["seed", f"{algorithm} objective", "best schedule known", "by", f"bound ({route})", "bound start",
                   f"{label} at least", f"{label} at most", "certified gap"], [])
    lows, highs, stuck, paths = [], [], [], {}
    for row in bounds:
        seed = row["seed"]
        mine = {r["method"]: r["objective"] for r in runs if r["seed"] == seed}
        known = dict(mine, **({f"{family.bound_route} (its schedule)": row["found"]} if row["found"] is not None
                              else {}))
        by = pick(known, key=known.__getitem__)
        low, high = interval(family.sense, mine[algorithm], known[by], row["bound"])
        gap = abs(known[by] - row["bound"]) / abs(known[by])
        moved = row["moved"]
        if not moved:
            stuck.append(seed)
        lows.append(low)
        highs.append(high)
        trajectory = row["trajectory"]
        start = trajectory[0] if trajectory else None
        paths[seed] = [b / known[by] for b in trajectory]
        table.rows.append([seed, mine[algorithm], known[by], by, row["bound"],
                           "-" if start is None else start, low, high, gap])
        report.records.append({"measurement": "certified_ratio", "instance": what, "seed": seed, "method": algorithm,
                               "objective": mine[algorithm], "best_known": known[by], "best_known_by": by,
                               "bound": row["bound"], "bound_route": route, "bound_status": row["bound_status"],
                               "bound_start": start, "bound_rounds": max(0, len(trajectory) - 1), "bound_moved": moved,
                               "ratio_low": low, "ratio_high": high, "certified_gap": gap})
    table.note = CERTIFIED_NOTE.format(label=label, seeds=len(lows), low_min=min(lows), low_max=max(lows),
                                       high_min=min(highs), high_max=max(highs), route=route) + (
        CERTIFIED_STUCK.format(seeds=", ".join(map(str, stuck))) if stuck else "")
    report.tables.append(table)
    if any(len(path) > 2 for path in paths.values()):
        _trajectory_figure(report, setting, family_name, route, paths)
    report.assumptions.append(CERTIFIED_ASSUMED.format(what=what, seeds=len(lows), algorithm=algorithm,
                                                       family=family_name, route=route,
                                                       methods=", ".join(m.label for m in methods[1:]) or "none"))


def _trajectory_figure(report: Report, setting: Setting, family_name: str, route: str,
                       paths: dict[int, list[float]]) -> None:
    """The route's certified bound round by round, per seed, as a share of the best schedule known."""
    name = f"certified_bound_{family_name}.png"
    with figure(setting.out_dir / name) as (_, ax):
        for seed, path in sorted(paths.items()):
            ax.plot(range(len(path)), path, marker=".", markersize=3, linewidth=0.8, label=f"seed {seed}")
        ax.axhline(1.0, color="0.5", linewidth=0.6, linestyle="--")
        ax.set_xlabel("pricing round (0: the start)")
        ax.set_ylabel("bound / best schedule known")
        if len(paths) <= 10:
            ax.legend(fontsize="x-small", ncol=2)
    report.figures.append((name, TRAJECTORY_CAPTION.format(route=route)))


#: The certified ratio's prose (``{...}``: the run's values).
CERTIFIED_TITLE = "Certified ratio of {algorithm} at the paper's scale ({what}): both ends, no optimum"
CERTIFIED_NOTE = ("Over {seeds} seeds the true {label} lies between the two ends: at least {low_min:.4g}-{low_max:.4g} "
                  "(against the best schedule known, verified) and at most {high_min:.4g}-{high_max:.4g} (against "
                  "the bound of `{route}`, certified whatever stopped it). The certified gap is how far the best "
                  "schedule known can be from optimal.")
TRAJECTORY_CAPTION = ("The certified bound of `{route}` after each pricing round, per seed, as a share of the best "
                      "schedule known (dashed: 1, where the bound would meet it). A flat line from round 0 never left "
                      "its start; the distance to 1 at the end is the certified gap.")
CERTIFIED_STUCK = " The bound never left its start on seed(s) {seeds}: there it is the trivial bound."
CERTIFIED_ASSUMED = ("Certified ratio at the paper's scale ({what}), on the first {seeds} seeds (an interval per "
                     "instance, deciding no verdict): {algorithm} as the verdicts run it, against the best schedule "
                     "of itself, {methods} and {family}'s bound route `{route}`, and against that route's bound "
                     "(docs/benchmarks.md, 'Certified bounds at the papers' scale').")
