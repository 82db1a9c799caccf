"""The main job until ``optsched study`` lands: a small ratio study over every family's tiny instances.

For each registered family and seed: generate a ``tiny`` instance; solve its first formulation
exactly with HiGHS, cross-checked with CBC, and its LP relaxation; run every algorithm; verify every
schedule; report empirical ratios (ALG/OPT for min, OPT/ALG for max, so 1 is best) only against
proven optima.
"""

from __future__ import annotations

import statistics
from typing import TextIO

from .numeric import better_or_equal, close
from .registry import families
from .solve import solve


def _ratio(sense: str, alg: float, opt: float) -> float:
    if close(alg, opt):
        return 1.0
    return alg / opt if sense == "min" else opt / alg


def run_tour(seeds: int = 10, progress: TextIO | None = None, out: TextIO | None = None) -> dict:
    """Run the tour, print its two tables to ``out`` (if given), and return them as a dict.

    ``progress`` (a terminal, typically stderr) gets a one-line counter; it is ignored if not a tty.
    """
    if progress is not None and not progress.isatty():
        progress = None
    references, algorithms = [], []
    for family in families().values():
        formulation = next(iter(family.formulations.values()))
        optimal = agree = 0
        lp_ratios: list[float] = []
        per_alg = {name: {"ratios": [], "feasible": 0, "beat_opt": 0} for name in family.algorithms}
        for seed in range(seeds):
            if progress:
                print(f"\r{family.name}: instance {seed + 1}/{seeds}", end="", file=progress, flush=True)
            instance = family.generate("tiny", seed=seed)
            model = formulation.build(instance)
            result = solve(model, cross_check=True)
            lp = solve(formulation.build(instance, relax=True))
            agree += result.cross_check.verdict == "agree"
            if not result.optimal:
                continue
            optimal += 1
            violations = family.verify(instance, model.decode(result))
            if violations:
                raise RuntimeError(f"{family.name} seed {seed}: the optimal schedule fails the verifier: {violations[0]}")
            if lp.optimal and result.objective:
                lp_ratios.append(lp.objective / result.objective)
            for name, algorithm in family.algorithms.items():
                schedule = algorithm.run(instance, seed=seed, **algorithm.bind({}))
                stats = per_alg[name]
                if family.verify(instance, schedule):
                    continue
                stats["feasible"] += 1
                value = family.objective(instance, schedule)
                stats["ratios"].append(_ratio(family.sense, value, result.objective))
                if not better_or_equal(result.objective, value, family.sense):
                    stats["beat_opt"] += 1
        if progress:
            print(file=progress)
        references.append({"family": family.name, "formulation": formulation.name, "instances": seeds,
                           "optimal": optimal, "cross_check_agree": agree,
                           "lp_over_opt_mean": statistics.fmean(lp_ratios) if lp_ratios else None})
        for name, stats in per_alg.items():
            ratios = stats["ratios"]
            algorithms.append({"family": family.name, "algorithm": name, "instances": optimal,
                               "feasible": stats["feasible"], "all_feasible": stats["feasible"] == optimal,
                               "ratio_mean": statistics.fmean(ratios) if ratios else None,
                               "ratio_max": max(ratios) if ratios else None, "beat_opt": stats["beat_opt"]})
    if out is not None:
        _print_tables(references, algorithms, seeds, out)
    return {"seeds": seeds, "references": references, "algorithms": algorithms}


def _cell(x, fmt: str = "{:.3f}") -> str:
    return "-" if x is None else fmt.format(x)


def _print_tables(references: list[dict], algorithms: list[dict], seeds: int, out: TextIO) -> None:
    print(f"optsched tour: {seeds} tiny instances per family; optima by HiGHS, cross-checked with CBC\n", file=out)
    print(f"{'family':<10} {'reference':<16} {'optimal':>8} {'CBC agrees':>11} {'LP/OPT':>8}", file=out)
    for r in references:
        print(f"{r['family']:<10} {r['formulation']:<16} {r['optimal']:>5}/{r['instances']:<2} "
              f"{r['cross_check_agree']:>8}/{r['instances']:<2} {_cell(r['lp_over_opt_mean']):>8}", file=out)
    print(f"\n{'family':<10} {'algorithm':<14} {'feasible':>9} {'ratio mean':>11} {'ratio max':>10} {'beat OPT':>9}", file=out)
    for a in algorithms:
        print(f"{a['family']:<10} {a['algorithm']:<14} {a['feasible']:>6}/{a['instances']:<2} "
              f"{_cell(a['ratio_mean']):>11} {_cell(a['ratio_max']):>10} {a['beat_opt']:>9}", file=out)
    print("\nratio = ALG/OPT (min) or OPT/ALG (max), against proven optima only; 1 is best.", file=out)
