"""The exact experiments reproductions share: an optimum re-solved and confirmed by a second solver
(:func:`confirmed_optimum`), and the certified ratio at the paper's scale against a family's bound
route (:func:`certified_ratio`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Failure
from ..registry import get
from ..study.report import Table
from ..study.table import ratio as ratio_to
from .report import Report
from .setting import CERTIFIED_SEEDS, EXACT_BUDGET, ROUTE_ROUNDS, Setting
from .sweeps import mean
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
    """One seed of :func:`certified_ratio`: the family, its generator preset and options, the seed
    and the algorithm."""

    family: str
    preset: str
    seed: int
    generator: tuple[tuple[str, Any], ...]  #: generator options, sorted by name
    algorithm: str


def _certified_task(task: CertifiedTask) -> dict:
    """The algorithm's objective and the bound route's bound on one seed's instance."""
    family = get(task.family)
    seed = task.seed
    instance = family.generate(task.preset, seed=seed, **dict(task.generator))
    ran = family.run(instance, task.algorithm, seed=seed)
    route = family.solve(instance, _route(family), relax=family.bound_relax, threads=1, node_limit=ROUTE_ROUNDS)
    return {"seed": seed, "objective": ran.objective, "feasible": ran.feasible, "bound": route.result.bound,
            "bound_status": route.result.status}


def _route(family) -> str:
    if family.bound_route is None:
        raise Failure(f"family {family.name} has no bound route (Family.bound_route)")
    return family.bound_route


def certified_ratio(report: Report, setting: Setting, family_name: str, algorithm: str,
                    generator: dict[str, Any], what: str) -> None:
    """Add to ``report`` the paper algorithm's certified ratio at the paper's scale, where no
    optimum is in reach: per seed (the first :data:`CERTIFIED_SEEDS`), the algorithm's objective on
    ``family.generate("paper", seed,
    **generator)`` against the family's bound route (``Family.bound_route``; column generation
    stopped after :data:`ROUTE_ROUNDS` pricing rounds, a deterministic budget), as ``ALG/OPT <=
    ALG/LB`` (min) or ``OPT/ALG <= UB/ALG`` (max). A table, records labelled
    ``certified_ratio_bound`` and an assumption line say that it is a bound, not the ratio."""
    family = get(family_name)
    tasks = [CertifiedTask(family_name, "paper", seed, tuple(sorted(generator.items())), algorithm)
             for seed in range(min(setting.seeds, CERTIFIED_SEEDS))]
    rows = parallel_map(_certified_task, tasks, setting, f"{family_name} certified ratio ({what})")
    route = _route(family) + (" --relax" if family.bound_relax else "")
    label = "ALG/OPT <=" if family.sense == "min" else "OPT/ALG <="
    table = Table(f"Certified ratio of {algorithm} at the paper's scale ({what}): a bound, not the ratio",
                  ["seed", f"{algorithm} objective", f"bound ({route})", "bound status", label], [])
    ratios = []
    for row in rows:
        if not row["feasible"]:
            raise Failure(f"{algorithm} gave an infeasible schedule on seed {row['seed']} ({what})")
        ratio = ratio_to(family.sense, row["objective"], row["bound"])  # ALG/LB (min) or UB/ALG (max)
        ratios.append(ratio)
        table.rows.append([row["seed"], row["objective"], row["bound"], row["bound_status"], ratio])
        report.records.append({"measurement": "certified_ratio_bound", "instance": what, "seed": row["seed"],
                               "method": algorithm, "objective": row["objective"], "bound": row["bound"],
                               "bound_route": route, "bound_status": row["bound_status"], "ratio_bound": ratio})
    table.note = (f"Worst over {len(ratios)} seeds: {label} {max(ratios):.4g}; mean {mean(ratios):.4g}. The bound is "
                  f"certified whatever stopped its route ('feasible': stopped, e.g. after {ROUTE_ROUNDS} pricing "
                  "rounds); the true ratio lies between 1 and this number.")
    report.tables.append(table)
    report.assumptions.append(
        f"Certified ratio at the paper's scale ({what}), on the first {len(rows)} seeds (a bound per instance, "
        f"deciding no verdict): {algorithm}'s objective against {family_name}'s bound route `{route}` "
        "(docs/benchmarks.md, 'Certified bounds at the papers' scale'), not against an optimum.")
