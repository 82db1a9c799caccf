"""The statistics every conclusion rests on, shared by studies and reproductions (no per-family code).

* :func:`describe`: per point, over seeds: n, mean, median and a 95% confidence interval of the mean
  (percentile bootstrap over seeds, seeded, so the same values always give the same interval).
* :func:`paired`: "A beats B" over the same instances (paired by seed): wins, losses, ties, the mean
  difference with its interval, one-sided Wilcoxon signed-rank p-values both ways, and the verdict.
* :func:`summarize`: tidy summary rows (point, method, n_seeds, mean, median, ci_low, ci_high, and the
  paired statistics against a reference method) from tidy records.
* :func:`mean_within`: "the mean stays at or below a bound" (a paper's "within 6% of the optimum"),
  decided by the mean's interval.
* :func:`worst_case_below`: "every instance stays below a bound" (a paper's worst-case claim), which
  sampling can refute but never prove.

The verdict is computed, never typed: "held" when the one-sided test says A is better at the 5%
level, "did not hold" when it says A is worse, "not resolved" otherwise, and always "not resolved"
with fewer than :data:`MIN_SEEDS` pairs. With 5 pairs the smallest one-sided exact p-value is
1/32 ≈ 0.031, so 5 seeds can decide only when A wins (or loses) on every one of them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

CONFIDENCE = 0.95
LEVEL = 0.05  #: the significance level of a verdict
MIN_SEEDS = 5  #: fewer pairs than this never resolve a comparison
RESAMPLES = 10_000
BOOTSTRAP_SEED = 0

HELD, NOT_HELD, NOT_RESOLVED = "held", "did not hold", "not resolved"


def interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The percentile-bootstrap ``confidence`` interval of the mean of ``values`` (NaNs when fewer
    than two values; the values themselves when they are all equal)."""
    x = np.asarray(values, float)
    if len(x) < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means = x[rng.integers(0, len(x), size=(RESAMPLES, len(x)))].mean(axis=1)
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


def describe(values: Iterable[float]) -> dict[str, float]:
    """``n``, ``mean``, ``median``, ``ci_low``, ``ci_high`` of ``values``."""
    x = [float(v) for v in values]
    low, high = interval(x)
    return {"n": len(x), "mean": float(np.mean(x)) if x else math.nan,
            "median": float(np.median(x)) if x else math.nan, "ci_low": low, "ci_high": high}


@dataclass(frozen=True)
class Paired:
    """A paired comparison of A with B over the same instances, in the objective's ``sense``."""

    n: int  #: pairs
    wins: int  #: pairs where A is strictly better
    losses: int  #: pairs where A is strictly worse
    mean_diff: float  #: mean of A − B
    diff_ci_low: float
    diff_ci_high: float
    p_better: float  #: one-sided Wilcoxon signed-rank p-value for "A is better"
    p_worse: float  #: ... for "A is worse"
    verdict: str  #: held / did not hold / not resolved ("A beats B")

    @property
    def win_rate(self) -> float:
        return self.wins / self.n if self.n else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "win_rate": self.win_rate}


def _wilcoxon(diffs: np.ndarray, alternative: str) -> float:
    """One-sided Wilcoxon signed-rank p-value; 1.0 when every difference is zero."""
    from scipy.stats import wilcoxon

    if not np.any(diffs != 0):
        return 1.0
    return float(wilcoxon(diffs, alternative=alternative).pvalue)


def paired(a: Mapping[Any, float], b: Mapping[Any, float], sense: str) -> Paired:
    """Compare A with B on the keys (seeds, instances) both have; ``sense`` is "min" or "max"."""
    if sense not in ("min", "max"):
        raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")
    keys = sorted(set(a) & set(b), key=repr)
    diffs = np.asarray([float(a[k]) - float(b[k]) for k in keys])
    better = -diffs if sense == "min" else diffs  # > 0 where A is better
    p_better = _wilcoxon(better, "greater") if len(keys) else 1.0
    p_worse = _wilcoxon(better, "less") if len(keys) else 1.0
    verdict = NOT_RESOLVED
    if len(keys) >= MIN_SEEDS:
        if p_better < LEVEL:
            verdict = HELD
        elif p_worse < LEVEL:
            verdict = NOT_HELD
    low, high = interval(diffs.tolist())
    return Paired(len(keys), int(np.sum(better > 0)), int(np.sum(better < 0)),
                  float(diffs.mean()) if len(keys) else math.nan, low, high, p_better, p_worse, verdict)


def mean_within(values: Sequence[float], bound: float) -> str:
    """Verdict of "the mean of ``values`` is at most ``bound``": held when the whole 95% interval of
    the mean lies at or below it, did not hold when the whole interval lies above it, not resolved
    otherwise or with fewer than :data:`MIN_SEEDS` values."""
    low, high = interval(values)
    if len(values) < MIN_SEEDS or math.isnan(low):
        return NOT_RESOLVED
    if high <= bound:
        return HELD
    return NOT_HELD if low > bound else NOT_RESOLVED


def worst_case_below(values: Sequence[float], bound: float) -> str:
    """Verdict of "every value is below ``bound``" from a sample: did not hold when one value reaches
    it (a counterexample, as certain as the value itself); otherwise not resolved, since no sample
    proves a claim about every instance."""
    return NOT_HELD if any(v >= bound for v in values) else NOT_RESOLVED


def summarize(records: Iterable[Mapping[str, Any]], *, point: Sequence[str], method: str, value: str,
              sense: str, reference: str | None = None, seed: str = "seed") -> list[dict[str, Any]]:
    """Tidy summary rows, one per (point, method): ``n_seeds``, ``mean``, ``median``, ``ci_low``,
    ``ci_high`` of ``value`` over seeds, and against ``reference`` (the paper's algorithm) on the
    same seeds of the same point: ``wins``, ``win_rate``, ``mean_diff`` with its interval,
    ``p_better``, ``p_worse`` and the ``verdict`` of "the reference beats this method"."""
    groups: dict[tuple, dict[str, dict[Any, float]]] = {}
    for r in records:
        if r.get(value) is None or (isinstance(r[value], float) and math.isnan(r[value])):
            continue
        key = tuple(r[p] for p in point)
        groups.setdefault(key, {}).setdefault(r[method], {})[r[seed]] = float(r[value])
    rows = []
    for key, by_method in groups.items():
        for name, by_seed in by_method.items():
            stats = describe(by_seed.values())
            row: dict[str, Any] = {**dict(zip(point, key)), "method": name, "n_seeds": stats["n"],
                                   "mean": stats["mean"], "median": stats["median"],
                                   "ci_low": stats["ci_low"], "ci_high": stats["ci_high"]}
            if reference is not None and name != reference and reference in by_method:
                comparison = paired(by_method[reference], by_seed, sense)
                row.update({"reference": reference, "reference_wins": comparison.wins,
                            "reference_win_rate": comparison.win_rate, "mean_diff": comparison.mean_diff,
                            "diff_ci_low": comparison.diff_ci_low, "diff_ci_high": comparison.diff_ci_high,
                            "p_better": comparison.p_better, "p_worse": comparison.p_worse,
                            "verdict": comparison.verdict})
            rows.append(row)
    return rows
