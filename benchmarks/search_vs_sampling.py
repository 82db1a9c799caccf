"""``optsched search`` against plain sampling at an equal number of exact solves (issue 18, item 5).

For every online algorithm with a competitive theorem, and for Heavy-Edge against the placement ILP,
run the evolutionary search (``--strategy evolve``) and plain random sampling (``--strategy random``)
with the same budget of scored instances, each on the same seeds, no shrinking (shrinking would add
solves to one side), and compare the worst certified ratio each finds. Per seed, the search's gain is
``(S − R) / (R − 1)``: the share of sampling's excess over 1 by which the search's worst ``S``
exceeds sampling's worst ``R``. Two paired verdicts over the seeds (``optsched.study.stats.paired``,
one-sided Wilcoxon at the 5% level): "search beats sampling" (``S > R``) and "by at least 25% of the
excess" (``S > R + 0.25 (R − 1)``, the issue's target).

Every run keeps its cache under ``search-vs-sampling/``, so a rerun is quick. Ratios are
deterministic: the budgets count node-limited exact solves, never seconds.

    python benchmarks/search_vs_sampling.py [--budgets 200] [--seeds 5] [--workers 2] [--only FAMILY/ALGORITHM]

``--budgets 200,1000`` sweeps the budget: where it decides the comparison, the table says so.
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
import time
from pathlib import Path

import numpy as np

from optsched.search import run
from optsched.study.stats import describe, paired

#: (family, algorithm): every online algorithm whose paper proves a ratio, and Heavy-Edge
PAIRS = [("oasis", "oasis"), ("edge", "aonline"), ("hetero", "aonline"), ("asrpt", "asrpt"),
         ("asrpt", "asrpt-perfect"), ("placement", "heavy-edge")]
TARGET_SHARE = 0.25


def worst(family: str, algorithm: str, strategy: str, seed: int, budget: int, workers: int) -> tuple[float, float]:
    """The worst ratio one run finds (NaN when it scored nothing) and the run's seconds."""
    started = time.perf_counter()
    outcome = run(family, algorithm, "ratio", budget=budget, shrink_budget=0, seed=seed, strategy=strategy,
                  workers=workers, out_dir=Path("search-vs-sampling") / f"{family}-{algorithm}-{strategy}-{seed}")
    value = outcome.best.value if outcome.best is not None and outcome.best.value is not None else float("nan")
    return value, time.perf_counter() - started


def compare(family: str, algorithm: str, budget: int, seeds: int, workers: int) -> dict:
    """One row of the table: both strategies on ``seeds`` seeds at ``budget`` solves each."""
    found: dict[str, dict[int, float]] = {"evolve": {}, "random": {}}
    seconds = {"evolve": 0.0, "random": 0.0}
    for seed in range(seeds):
        for strategy in found:
            found[strategy][seed], spent = worst(family, algorithm, strategy, seed, budget, workers)
            seconds[strategy] += spent
    search, sampled = found["evolve"], found["random"]
    gains = {s: (search[s] - sampled[s]) / (sampled[s] - 1) for s in sampled if sampled[s] > 1}
    beats = paired(search, sampled, "max")
    target = paired(search, {s: r + TARGET_SHARE * (r - 1) for s, r in sampled.items()}, "max")
    gain = describe(gains.values())
    return {"family": family, "algorithm": algorithm, "budget": budget, "seeds": seeds,
            "sampled_worst": max(sampled.values()), "sampled_median": float(np.median(list(sampled.values()))),
            "search_worst": max(search.values()), "search_median": float(np.median(list(search.values()))),
            "gain_median": gain["median"], "gain_ci_low": gain["ci_low"], "gain_ci_high": gain["ci_high"],
            "search_wins": beats.wins, "beats_sampling": beats.verdict, "p_beats": beats.p_better,
            "by_25pct_of_excess": target.verdict, "seeds_meeting_25pct": target.wins,
            "search_seconds": round(seconds["evolve"], 1), "sampling_seconds": round(seconds["random"], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="200", help="budgets to compare at, e.g. 200,1000")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="one pair, e.g. edge/aonline (or a family)")
    args = parser.parse_args()
    Path("search-vs-sampling").mkdir(exist_ok=True)
    rows = []
    for budget in (int(b) for b in args.budgets.split(",")):
        for family, algorithm in PAIRS:
            if args.only and args.only not in (family, f"{family}/{algorithm}"):
                continue
            rows.append(compare(family, algorithm, budget, args.seeds, args.workers))
            print(" | ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in rows[-1].items()),
                  flush=True)
    only = "-" + args.only.replace("/", "-") if args.only else ""
    name = f"search-vs-sampling-{args.budgets.replace(',', '-')}{only}.csv"
    with open(name, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"\nwrote {name} ({platform.processor() or platform.machine()}, "
          f"{args.workers} workers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
