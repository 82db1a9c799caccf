"""How many seeds a reproduction needs (issue 29): the power of the verdict rule of
``optsched.study.stats`` and the coverage of its intervals, by simulation.

* Power: paired gains ``d ~ Normal(mu, 1)`` with ``P(d > 0)`` = the win rate; the share of
  simulations in which the rule calls "held" when the comparison is the most demanding of a Holm
  family of ``m`` tests (its p-value must fall below ``0.05 / m``), and the share in which it calls
  anything when there is no effect (``mu = 0``, ``m = 1``: the false-verdict rate).
* Coverage: the share of 95% intervals (``stats.interval``) that hold the true mean, on normal
  and lognormal (sigma = 1) data, and on a reproduction's own heavy-tailed ratios (OASiS Fig. 5's
  OPT / OASiS on 400 instances of its paper preset, tests/study/data/oasis_fig5_ratios.json, taken
  as the population), with the shares that miss below and above.

    python benchmarks/power.py [--repeats 2000]

Prints Markdown for docs/study.md ("Statistics"). Seeded: the same command prints the same tables.
"""

from __future__ import annotations

import argparse
import json
import math
from functools import cache
from pathlib import Path

import numpy as np
from bench_single import machine
from scipy.stats import norm

from optsched.study import stats

SEEDS = (5, 10, 20, 30, 40, 50)
WIN_RATES = (0.7, 0.8, 0.9)
FAMILY_SIZES = (1, 10, 50)


def held_share(n: int, win_rate: float, tests: int, repeats: int, rng: np.random.Generator) -> float:
    """The share of simulated comparisons the rule calls "held" at level ``LEVEL / tests``."""
    mu = norm.ppf(win_rate) if win_rate != 0.5 else 0.0
    calls = 0
    for _ in range(repeats):
        gains = rng.normal(mu, 1.0, n)
        c = stats.paired(dict(enumerate(10.0 + gains)), dict(enumerate(np.full(n, 10.0))), "max")
        calls += stats.decide(min(1.0, c.p_value * tests), c.leans, n) == stats.HELD
    return calls / repeats


def false_verdicts(n: int, repeats: int, rng: np.random.Generator) -> float:
    """The share of simulations without an effect in which the rule calls held or did not hold."""
    calls = 0
    for _ in range(repeats):
        c = stats.paired(dict(enumerate(10.0 + rng.normal(0.0, 1.0, n))), dict(enumerate(np.full(n, 10.0))), "max")
        calls += c.verdict != stats.NOT_RESOLVED
    return calls / repeats


RATIOS = Path(__file__).resolve().parent.parent / "tests" / "study" / "data" / "oasis_fig5_ratios.json"


def misses(n: int, kind: str, repeats: int, rng: np.random.Generator) -> tuple[float, float]:
    """The shares of intervals whose low end is above the true mean and whose high end is below it:
    ``kind`` "normal", "lognormal", or the name of a population of ratios in :data:`RATIOS`."""
    population = np.asarray(_ratios()[kind]) if kind in _ratios() else None
    truth = 0.0 if kind == "normal" else (math.exp(0.5) if kind == "lognormal" else float(population.mean()))
    low_misses = high_misses = 0
    for _ in range(repeats):
        if population is not None:
            x = rng.choice(population, n)
        else:
            x = rng.normal(0.0, 1.0, n) if kind == "normal" else rng.lognormal(0.0, 1.0, n)
        low, high = stats.interval(x.tolist())
        low_misses += truth < low
        high_misses += truth > high
    return low_misses / repeats, high_misses / repeats


@cache
def _ratios() -> dict[str, list[float]]:
    """The populations of ratios in :data:`RATIOS`, by name (read once)."""
    return json.loads(RATIOS.read_text())["ratios"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(machine())
    print(f"\nPower: share of simulations called 'held' ({args.repeats} per cell; the comparison is the most "
          "demanding of a Holm family of m tests)\n")
    header = [f"win rate {w:.0%}, m = {m}" for w in WIN_RATES for m in FAMILY_SIZES]
    print("| seeds | " + " | ".join(header) + " | false verdicts, no effect |")
    print("|---|" + "---|" * (len(header) + 1))
    for n in SEEDS:
        cells = [f"{held_share(n, w, m, args.repeats, rng):.2f}" for w in WIN_RATES for m in FAMILY_SIZES]
        print(f"| {n} | " + " | ".join(cells) + f" | {false_verdicts(n, args.repeats, rng):.3f} |")
    print(f"\nCoverage of the nominal 95% interval ({stats.INTERVAL_METHOD}; {args.repeats} samples per cell; "
          "in brackets the shares that miss below / above)\n")
    kinds = ["normal", "lognormal", *_ratios()]
    ratios = " | ".join(f"OASiS Fig. 5 ratios, {k}" for k in kinds[2:])
    print(f"| seeds | normal | lognormal (sigma 1) | {ratios} |")
    print("|---|" + "---|" * len(kinds))
    for n in (*SEEDS, 200):
        cells = []
        for kind in kinds:
            below, above = misses(n, kind, args.repeats, rng)
            cells.append(f"{1 - below - above:.3f} ({below:.3f} / {above:.3f})")
        print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
