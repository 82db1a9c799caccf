"""The statistics every conclusion rests on, shared by studies and reproductions (no per-family code).

Intervals
    :func:`interval` is the 95% interval of a mean (:data:`INTERVAL_METHOD`): the BCa bootstrap's
    from :data:`BOOTSTRAP_FROM` values (it stays inside the data's range and covers skewed data
    and the reproductions' heavy-tailed ratios better), Student t's below (it covers normal data at
    5-10 values, where a bootstrap covers 85-90%). ``tests/study/test_stats.py`` measures the
    coverage by simulation, on normal, skewed and a reproduction's own ratios.

Tests
    Every verdict comes from a p-value: "A beats B" from the Wilcoxon signed-rank test of the
    paired relative gains (:func:`paired`), "A is at least m better than B" from the same test of
    the paired relative gains minus ``m`` (one scale: the test, the ``effect`` and its interval are
    about the same per-seed quantity; where some B is 0 the gains over the mean ``|B|`` take a
    test and interval of a mean instead), "the mean stays at or below a bound" from the test that
    inverts the mean's interval (:func:`mean_sides`, :func:`mean_within`), "y grows with x" from
    the Wilcoxon test of each seed's least-squares slope (:func:`trend`). Each p-value is
    **two-sided and directional**: ``p = 2 min(p_for,
    p_against)`` of the two one-sided tests, so that under no effect a verdict (either way) fires
    with probability at most 5%, not 10%.

Multiplicity
    A paper's claim is a family of tests over its points (and baselines). :func:`adjust` corrects the
    p-values within each family (Holm's step-down method, :data:`CORRECTION`: it controls the
    chance of any false verdict in the family) and only then decides: "held" when the adjusted
    p-value is below :data:`LEVEL` and the data lean towards the claim, "did not hold" when it is
    below and they lean against, "not resolved" otherwise, and always "not resolved" with fewer
    than :data:`MIN_SEEDS` pairs. With 5 pairs the smallest two-sided Wilcoxon p-value is
    2/32 = 0.0625, so 5 seeds never decide: the quick presets are smoke tests. A point without a
    single value is no test: its verdict is "no data" (:data:`NO_DATA`), left out of the correction
    and counted apart; so is a claim evaluated outside the regime the paper states for it
    (:data:`OUTSIDE`, the row's ``outside`` says why).

Magnitudes
    A claim that gives a number ("about 0.76x", "14% worse", "31%-91%", "up to 35%", "close to 1")
    is asked a second question besides its direction: does the estimate land within a band around
    the paper's number (:class:`Band`)? The equivalence test (:func:`within`) is two one-sided
    tests (TOST) of the same quantity and the same kind as the direction's test (Wilcoxon for a
    paired gain or a slope, :func:`mean_sides` for a mean): "reproduced" when both reject (the centre is
    inside the band), "not reproduced" when the centre is significantly outside it, "not resolved"
    otherwise, corrected within the claim family like the directions (:func:`adjust`). "Up to X"
    is the largest estimate over a claim's points (per baseline), tested at that point.

Effect sizes
    A paired row's ``effect`` is the Hodges-Lehmann estimate of the per-seed relative gain (the
    median of its Walsh averages, :func:`hodges_lehmann`): the quantity the Wilcoxon test is about,
    so the estimate and its interval agree with the verdict (a margin claim's interval excludes the
    margin exactly when its uncorrected two-sided test rejects, where scipy's test is exact: up to 50
    pairs without ties). Its interval inverts that test
    (:data:`EFFECT_METHOD`; distribution-free). A mean of per-seed relative gains, used before, is
    driven by one seed whose baseline is near 0: OASiS against FIFO, whose utility on one seed is
    about 1e-84, came out as a gain of 3e84.

Each observation counted once
    :func:`summarize` merges methods whose values are identical on every seed of a point (the
    first keeps the test, the others point to it in ``identical_to``), and flags a paired mean that
    one seed decides (``one_seed_decides``: leaving some seed out flips the sign of the mean gain).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np

CONFIDENCE = 0.95
LEVEL = 0.05  #: the familywise significance level of a verdict (after the correction)
MIN_SEEDS = 5  #: fewer pairs than this never resolve a comparison
#: how every ``ci_low``..``ci_high`` is computed (:func:`interval`)
INTERVAL_METHOD = "BCa bootstrap, 95% (10,000 resamples) from 30 values; Student t, 95% below"
#: how a paired row's ``effect`` and ``effect_ci_low``..``effect_ci_high`` are computed (:func:`hodges_lehmann`)
EFFECT_METHOD = "Hodges-Lehmann, 95% (inverted Wilcoxon signed-rank)"
#: ... where some baseline value is 0 (:func:`paired`: the gains over the mean ``|B|``)
EFFECT_METHOD_MEAN = "mean gain over the mean |B|, 95% as for a mean"
CORRECTION = "holm"  #: how p-values are corrected within a claim's family of tests
TEST = {"paired": "Wilcoxon signed-rank, paired by seed",
        "paired_mean": "test of the mean gain over the mean |B| (some B is 0; as for a mean)",
        "mean": "one-sample test of the mean (BCa bootstrap from 30 values, Student t below)",
        "trend": "Wilcoxon signed-rank of per-seed least-squares slopes",
        "flat": "equivalence (two one-sided Wilcoxon tests) of per-seed relative changes over the sweep",
        "differ": "Friedman test across the settings, paired by seed",
        "counterexample": "a counterexample (certain)", "worst": "none: a sample cannot prove a worst case",
        "universal": "no counterexample among the instances: a sample cannot prove a claim about every instance"}
#: the ``test`` of a claim about every instance (:func:`worst_case_below`, :func:`no_counterexample`): its
#: estimate is the largest value
WORST_CASE_TESTS = (TEST["counterexample"], TEST["worst"], TEST["universal"])

HELD, NOT_HELD, NOT_RESOLVED = "held", "did not hold", "not resolved"
NO_DATA = "no data"  #: a point without a value: no test, counted apart
#: a claim evaluated where the paper does not make it (its row's ``outside`` says why): no test, counted apart
OUTSIDE = "outside the paper's regime"
REPRODUCED, NOT_REPRODUCED = "reproduced", "not reproduced"  #: a magnitude's verdicts (with NOT_RESOLVED)
#: "No clear trend": the fitted change over a sweep within this share of the level, either way (docs/study.md)
FLAT_SHARE = 0.10
#: The half-width of a band around a paper's point number, as a share of the effect it states (its
#: distance from "no effect"): the estimate must be within a quarter of the paper's effect (docs/study.md)
BAND_SHARE = 0.25
FOR, AGAINST = "for", "against"  #: which way the data lean (``leans``), before any test decides


#: From this many values on, a mean's interval and tests are the BCa bootstrap's (:func:`interval`)
BOOTSTRAP_FROM = 30
RESAMPLES = 10_000  #: bootstrap resamples, drawn from a fixed seed so that every summary is repeatable
BOOTSTRAP_SEED = 0


def interval(values: Sequence[float], confidence: float = CONFIDENCE, floor: float = -math.inf) -> tuple[float, float]:
    """The ``confidence`` interval of the mean of ``values`` (:data:`INTERVAL_METHOD`): from
    :data:`BOOTSTRAP_FROM` values the bias-corrected and accelerated (BCa) bootstrap interval,
    which stays within the data's range (a ratio's interval never drops below its least value, a
    time's never below 0) and covers skewed data better than Student t does; below that, the
    Student-t interval, which covers normal data where a bootstrap of a handful of values does not.
    ``floor``: a value the quantity can never be below (a ratio to an optimum: 1), where the interval
    is cut (the mean is at least the floor, so the cut interval covers whenever the whole one does).
    NaNs when fewer than two values or any is not finite; the value itself when all are equal."""
    from scipy.stats import norm
    from scipy.stats import t as student

    x = np.asarray(values, float)
    if len(x) < 2 or not np.all(np.isfinite(x)):
        return math.nan, math.nan
    mean, spread = float(x.mean()), float(x.std(ddof=1))
    if spread == 0.0:
        return mean, mean
    if len(x) >= BOOTSTRAP_FROM:
        means, z0, a = _bootstrap(x)
        ends = []
        for z in (float(norm.ppf((1 - confidence) / 2)), float(norm.ppf((1 + confidence) / 2))):
            ends.append(float(np.quantile(means, float(norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))))))
        return max(ends[0], floor), max(ends[1], floor)
    half = float(student.ppf(0.5 + confidence / 2, len(x) - 1)) * spread / math.sqrt(len(x))
    return max(mean - half, floor), max(mean + half, floor)


def _bootstrap(x: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The BCa bootstrap of the mean of ``x`` (Efron & Tibshirani, *An Introduction to the
    Bootstrap*, §14.3): the sorted means of :data:`RESAMPLES` resamples, the bias correction ``z0``
    and the jackknife acceleration ``a``."""

    n = len(x)
    means = np.sort(x[np.random.default_rng(BOOTSTRAP_SEED).integers(0, n, (RESAMPLES, n))].mean(axis=1))
    z0 = _normal_score(means, float(x.mean()))
    jack = (x.sum() - x) / (n - 1)
    d = jack.mean() - jack
    spread = float((d ** 2).sum())
    return means, z0, float((d ** 3).sum() / (6 * spread ** 1.5)) if spread > 0 else 0.0


def _normal_score(means: np.ndarray, value: float) -> float:
    """``Φ⁻¹`` of the share of the sorted bootstrap ``means`` below ``value`` (ties count half),
    kept half a resample away from 0 and 1 so that it stays finite."""
    from scipy.stats import norm

    below = (np.searchsorted(means, value, "left") + np.searchsorted(means, value, "right")) / 2
    return float(norm.ppf(min(max(below / RESAMPLES, 0.5 / RESAMPLES), 1 - 0.5 / RESAMPLES)))


def mean_sides(values: Sequence[float] | np.ndarray, value: float = 0.0) -> tuple[float, float]:
    """One-sided p-values for "the mean of ``values`` exceeds ``value``" and "falls below it", by the
    test that inverts :func:`interval` (the BCa bootstrap's achieved significance from
    :data:`BOOTSTRAP_FROM` values, Student t below), so that the interval excludes ``value`` exactly
    when twice the smaller p-value is below 5%. A constant sample decides by the comparison itself;
    (1, 1) with fewer than two values."""
    from scipy.stats import norm
    from scipy.stats import t as student

    x = np.asarray(values, float)
    if len(x) < 2:
        return 1.0, 1.0
    mean, spread = float(x.mean()), float(x.std(ddof=1))
    if spread == 0.0:
        return (0.0, 1.0) if mean > value else ((1.0, 0.0) if mean < value else (1.0, 1.0))
    if len(x) >= BOOTSTRAP_FROM:
        means, z0, a = _bootstrap(x)
        w = _normal_score(means, value) - z0
        p_greater = float(norm.cdf(w / (1 + a * w) - z0))
        return p_greater, 1.0 - p_greater
    t = (mean - value) / (spread / math.sqrt(len(x)))
    return float(student.sf(t, len(x) - 1)), float(student.cdf(t, len(x) - 1))


def signed_rank_cdf(n: int) -> np.ndarray:
    """``P(T <= t)`` for ``t = 0 .. n(n+1)/2`` of the Wilcoxon signed-rank statistic ``T`` of ``n``
    pairs under the null (each rank's sign a fair coin), exactly."""
    probabilities = np.ones(1)
    for rank in range(1, n + 1):
        grown = np.zeros(len(probabilities) + rank)
        grown[:len(probabilities)] += probabilities / 2
        grown[rank:] += probabilities / 2
        probabilities = grown
    return np.cumsum(probabilities)


def hodges_lehmann(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """The Hodges-Lehmann estimate of the centre of ``values`` (the median of the ``n(n+1)/2``
    Walsh averages ``(x_i + x_j)/2``, ``i <= j``) and the ``confidence`` interval that inverts the
    two-sided Wilcoxon signed-rank test: from the ``k``-th smallest to the ``k``-th largest Walsh
    average, ``k - 1`` the largest ``t`` with ``P(T <= t) <= (1 - confidence)/2`` (Hollander & Wolfe,
    *Nonparametric Statistical Methods*, §3.3). NaNs when there is no value or one is not finite;
    an infinite interval when ``n`` is too small for any interval to reach ``confidence`` (at 95%,
    ``n < 6``)."""
    x = np.asarray(values, float)
    if len(x) == 0 or not np.all(np.isfinite(x)):
        return math.nan, math.nan, math.nan
    upper = np.triu_indices(len(x))
    walsh = np.sort((x[upper[0]] + x[upper[1]]) / 2)
    estimate = float(np.median(walsh))
    k = signed_rank_depth(len(x), confidence)
    if k == 0:
        return estimate, -math.inf, math.inf
    return estimate, float(walsh[k - 1]), float(walsh[len(walsh) - k])


#: Up to this many pairs the signed-rank distribution is computed exactly (``n^3/2`` steps); beyond,
#: its normal approximation, which scipy's test also uses beyond 50 pairs.
EXACT_PAIRS = 300


@cache
def signed_rank_depth(n: int, confidence: float = CONFIDENCE) -> int:
    """``k`` of :func:`hodges_lehmann`'s interval for ``n`` pairs: one more than the largest ``t`` with
    ``P(T <= t) <= (1 - confidence)/2`` (0 when there is none), exactly up to :data:`EXACT_PAIRS`
    pairs and by the normal approximation with continuity correction beyond (kept per ``n``: a
    summary asks for the same ``n`` at every row)."""
    from scipy.stats import norm

    alpha = (1 - confidence) / 2
    if n <= EXACT_PAIRS:
        below = np.nonzero(signed_rank_cdf(n) <= alpha)[0]
        return int(below[-1]) + 1 if len(below) else 0
    mean, spread = n * (n + 1) / 4, math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    return max(0, math.floor(mean + float(norm.ppf(alpha)) * spread - 0.5) + 1)


def describe(values: Iterable[float], floor: float = -math.inf) -> dict[str, float]:
    """``n``, ``mean``, ``median``, ``ci_low``, ``ci_high`` of ``values`` (``floor``: :func:`interval`)."""
    x = [float(v) for v in values]
    low, high = interval(x, floor=floor)
    return {"n": len(x), "mean": float(np.mean(x)) if x else math.nan,
            "median": float(np.median(x)) if x else math.nan, "ci_low": low, "ci_high": high}


def _directional(p_for: float, p_against: float) -> tuple[float, str]:
    """The two-sided p-value of two one-sided tests, and which way the data lean."""
    return min(1.0, 2.0 * min(p_for, p_against)), (FOR if p_for < p_against else AGAINST)


def decide(p_value: float, leans: str, n: int) -> str:
    """The verdict of one (already corrected) p-value: module docstring."""
    if n == 0:
        return NO_DATA
    if n < MIN_SEEDS or math.isnan(p_value) or p_value >= LEVEL:
        return NOT_RESOLVED
    return HELD if leans == FOR else NOT_HELD


def _wilcoxon(diffs: np.ndarray) -> tuple[float, float]:
    """One-sided Wilcoxon signed-rank p-values for "the differences are positive" and "negative"
    (zeros dropped); (1, 1) when every difference is zero or there are none."""
    from scipy.stats import wilcoxon

    if not np.any(diffs != 0):
        return 1.0, 1.0
    return (float(wilcoxon(diffs, alternative="greater").pvalue),
            float(wilcoxon(diffs, alternative="less").pvalue))


def _one_sided(x: np.ndarray, kind: str) -> tuple[float, float]:
    """``(p_positive, p_negative)`` of the centre of ``x``: Wilcoxon (``kind="median"``, the
    Hodges-Lehmann centre) or the mean's test (``"mean"``, :func:`mean_sides`)."""
    if kind not in ("median", "mean"):
        raise ValueError(f"kind must be 'median' or 'mean', got {kind!r}")
    return _wilcoxon(x) if kind == "median" else mean_sides(x)


def _one_seed_decides(gains: np.ndarray) -> bool:
    """True when leaving out some single value flips the sign of the mean (or zeroes it)."""
    if len(gains) < 3:
        return False
    total, sign = float(gains.sum()), np.sign(gains.mean())
    rest = (total - gains) / (len(gains) - 1)
    return bool(sign != 0 and np.any(np.sign(rest) != sign))


@dataclass(frozen=True)
class Paired:
    """A paired comparison of A with B over the same instances, in the objective's ``sense``."""

    n: int  #: pairs
    wins: int  #: pairs where A is strictly better
    losses: int  #: pairs where A is strictly worse
    mean_diff: float  #: mean of A − B
    diff_ci_low: float
    diff_ci_high: float
    effect: float  #: relative gain of A over B, ``(B − A)/|B|`` for min, ``(A − B)/|B|`` for max: the
    #: Hodges-Lehmann estimate over the pairs (:func:`hodges_lehmann`); where some B is 0, the mean gain
    #: over the mean ``|B|`` with the mean's interval (:func:`interval`)
    effect_ci_low: float
    effect_ci_high: float
    margin: float  #: the relative gain the claim demands (0: "A beats B")
    p_better: float  #: one-sided p-value for "A's relative gain exceeds the margin"
    p_worse: float  #: ... for "A's relative gain falls short of it"
    p_value: float  #: two-sided, directional: ``2 min(p_better, p_worse)``
    leans: str  #: "for" (A's gain exceeds the margin) or "against"
    one_seed_decides: bool  #: leaving one seed out flips the sign of the mean gain
    verdict: str  #: of this comparison alone, uncorrected (a family's verdicts come from :func:`adjust`)
    test: str = TEST["paired"]  #: which test gave ``p_value`` (:data:`TEST`)
    effect_method: str = EFFECT_METHOD  #: how ``effect`` and its interval were computed
    gains: tuple[float, ...] = ()  #: the per-pair quantity tested and estimated (relative gains, or gains
    #: over the mean ``|B|``), for a magnitude test of the same quantity (:func:`within`)

    @property
    def win_rate(self) -> float:
        """The share of pairs A won."""
        return self.wins / self.n if self.n else math.nan

    def to_dict(self) -> dict[str, Any]:
        """This ``Paired`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        data = asdict(self)
        del data["gains"]
        return {**data, "win_rate": self.win_rate}


def paired(a: Mapping[Any, float], b: Mapping[Any, float], sense: str, margin: float = 0.0) -> Paired:
    """Compare A with B on the keys (seeds, instances) both have; ``sense`` is "min" or "max".

    The claim is "A is better than B by at least ``m``" (a fraction of B; ``margin = 0``: "A beats
    B"), and the test is on the paired relative gains minus ``m``: the quantity ``effect`` estimates
    (one scale, module docstring). Where some B is 0, relative gains do not exist: the gains over
    the mean ``|B|`` stand for them, with the mean's test and interval (:func:`mean_sides`)."""
    if sense not in ("min", "max"):
        raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")
    keys = sorted(set(a) & set(b), key=repr)
    av, bv = np.asarray([float(a[k]) for k in keys]), np.asarray([float(b[k]) for k in keys])
    diffs = av - bv
    gains = -diffs if sense == "min" else diffs  # > 0 where A is better
    low, high = interval(diffs.tolist())
    test = TEST["paired"]
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 is no gain; x/0 is infinite
        relative = np.where(bv != 0, gains / np.abs(bv), np.where(gains == 0, 0.0, np.sign(gains) * np.inf))
    if len(keys) and np.all(np.isfinite(relative)):
        scaled = relative
        effect, effect_low, effect_high = hodges_lehmann(scaled.tolist())
        p_better, p_worse = _wilcoxon(scaled - margin)
    elif len(keys) and np.abs(bv).mean() > 0:  # some B is 0: the gains over the mean |B|
        scaled = gains / float(np.abs(bv).mean())
        effect, (effect_low, effect_high) = float(scaled.mean()), interval(scaled.tolist())
        p_better, p_worse = mean_sides(scaled, margin)
        test = TEST["paired_mean"]
    else:
        scaled = np.zeros(0)
        effect, effect_low, effect_high = math.nan, math.nan, math.nan
        p_better, p_worse = 1.0, 1.0
    p_value, leans = _directional(p_better, p_worse)
    return Paired(len(keys), int(np.sum(gains > 0)), int(np.sum(gains < 0)),
                  float(diffs.mean()) if len(keys) else math.nan, low, high, effect, effect_low, effect_high, margin,
                  p_better, p_worse, p_value, leans, _one_seed_decides(gains), decide(p_value, leans, len(keys)),
                  test, EFFECT_METHOD if test == TEST["paired"] else EFFECT_METHOD_MEAN, tuple(scaled.tolist()))


@dataclass(frozen=True)
class Band:
    """Where a paper's number puts a quantity: ``low <= centre <= high``, and how the paper's words
    were read (``reading``: "about", "range", "up to", "close to"; module docstring)."""

    low: float
    high: float
    reading: str
    paper: str  #: the paper's words, as the docs quote them (for example "about 0.76x")

    def __post_init__(self) -> None:
        if not self.low <= self.high:
            raise ValueError(f"a band needs low <= high, got {self.low} and {self.high}")
        if self.reading not in READINGS:
            raise ValueError(f"reading must be one of {', '.join(READINGS)}, got {self.reading!r}")

    @classmethod
    def about(cls, target: float, paper: str, null: float = 0.0, reading: str = "about",
              precision: float = 0.0) -> Band:
        """The band around a point number ``target``: within :data:`BAND_SHARE` of the effect the
        paper states (``|target − null|``, ``null``: the value of no effect) on either side, and never
        narrower than the ``precision`` the paper prints the number to (an equality, "A's time equals
        B's", has no effect to take a share of)."""
        half = max(BAND_SHARE * abs(target - null), precision)
        return cls(target - half, target + half, reading, paper)

    def fields(self) -> dict[str, Any]:
        """The band as ``summary.csv`` columns."""
        return {"band_low": self.low, "band_high": self.high, "reading": self.reading, "paper_number": self.paper}


READINGS = ("about", "range", "up to", "close to", "no trend")  #: how a paper's number is read (:class:`Band`)


def within(values: Sequence[float], band: Band, kind: str = "median") -> tuple[float, float]:
    """The equivalence test of "the centre of ``values`` lies in ``band``" (TOST; ``kind``: the
    Wilcoxon / Hodges-Lehmann centre, "median", or the mean, "mean", as the direction's test of the
    same values): ``(p_inside, p_outside)``, ``p_inside`` the larger of the one-sided p-values for
    "above ``low``" and "below ``high``", ``p_outside`` two-sided and directional for "below
    ``low``" or "above ``high``". (1, 1) without values."""
    x = np.asarray(values, float)
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return 1.0, 1.0
    above_low, below_low = _one_sided(x - band.low, kind)
    above_high, below_high = _one_sided(x - band.high, kind)
    return max(above_low, below_high), min(1.0, 2.0 * min(below_low, above_high))


def magnitude(p_inside: float, p_outside: float, n: int) -> str:
    """The magnitude verdict of one (already corrected) pair of p-values: module docstring."""
    if n == 0:
        return NO_DATA
    if n < MIN_SEEDS:
        return NOT_RESOLVED
    if p_inside < LEVEL:
        return REPRODUCED
    return NOT_REPRODUCED if p_outside < LEVEL else NOT_RESOLVED


@dataclass(frozen=True)
class Tested:
    """A claim about one quantity, tested: the statistics a summary row needs beside the values."""

    p_value: float  #: two-sided, directional (NaN: no test, the verdict is certain, e.g. a counterexample)
    leans: str  #: "for" or "against" the claim
    verdict: str  #: uncorrected
    test: str  #: which test gave ``p_value``

    def fields(self) -> dict[str, Any]:
        """The test as ``summary.csv`` columns: ``p_value``, ``leans``, ``verdict``, ``test``."""
        return {"p_value": self.p_value, "leans": self.leans, "verdict": self.verdict, "test": self.test}


def mean_within(values: Sequence[float], bound: float) -> Tested:
    """"The mean of ``values`` is at most ``bound``": the test of the mean against the bound that
    inverts its interval (:func:`mean_sides`; two-sided, directional); "held" when the mean is
    significantly below it."""
    x = np.asarray(values, float)
    if len(x) < 2:
        return Tested(math.nan, FOR, NOT_RESOLVED, TEST["mean"])
    p_above, p_below = mean_sides(x, bound)
    p_value, leans = _directional(p_below, p_above)
    return Tested(p_value, leans, decide(p_value, leans, len(x)), TEST["mean"])


def differ(groups: Mapping[Any, Mapping[Any, float]]) -> Tested:
    """"The settings give different values" (a paper's "the choice matters"), paired by seed: the
    Friedman test over the seeds every setting has (at least three settings). It can show that
    they differ, never that they do not: "held" or "not resolved", never "did not hold"."""
    from scipy.stats import friedmanchisquare

    seeds = sorted(set.intersection(*(set(g) for g in groups.values())), key=repr) if groups else []
    if len(groups) < 3 or len(seeds) < 2:
        return Tested(math.nan, FOR, NOT_RESOLVED, TEST["differ"])
    data = np.asarray([[float(g[s]) for s in seeds] for g in groups.values()])
    p_value = 1.0 if np.all(data == data[0]) else float(friedmanchisquare(*data).pvalue)
    return Tested(p_value, FOR, decide(p_value, FOR, len(seeds)), TEST["differ"])


def worst_case_below(values: Sequence[float], bound: float) -> Tested:
    """"Every value is below ``bound``", from a sample: did not hold when one value reaches it (a
    counterexample, as certain as the value itself: no p-value, no correction); otherwise not
    resolved, since no sample proves a claim about every instance."""
    refuted = any(v >= bound for v in values)
    return Tested(math.nan, AGAINST if refuted else FOR, NOT_HELD if refuted else NOT_RESOLVED,
                  TEST["counterexample"] if refuted else TEST["worst"])


def no_counterexample(violations: Sequence[float]) -> Tested:
    """A theorem or lemma ("for every instance, slack >= 0") on a sample of instances, each given by
    its violation (minus its slack; positive: the instance is a counterexample): did not hold when
    one is positive (certain, no p-value, no correction); otherwise not resolved, since no sample
    proves it (:func:`violation_rate_high` says how rare a violation can still be)."""
    refuted = any(v > 0 for v in violations)
    return Tested(math.nan, AGAINST if refuted else FOR, NOT_HELD if refuted else NOT_RESOLVED,
                  TEST["counterexample"] if refuted else TEST["universal"])


def violation_rate_high(n: int, confidence: float = CONFIDENCE) -> float:
    """The largest share of such instances that can violate a claim, at ``confidence``, when none of
    ``n`` independent draws did: the exact binomial bound ``1 − (1 − confidence)^(1/n)`` (about 3/n,
    the rule of three); 1 with no draws."""
    return 1.0 - (1.0 - confidence) ** (1.0 / n) if n > 0 else 1.0


def slopes(series: Mapping[Any, Mapping[float, float]]) -> dict[Any, float]:
    """Per seed, the least-squares slope of ``value`` against ``x`` (``series[seed][x] = value``);
    seeds with fewer than two points are left out."""
    out = {}
    for seed, points in series.items():
        if len(points) >= 2:
            xs = np.asarray(list(points), float)
            ys = np.asarray(list(points.values()), float)
            dx = xs - xs.mean()
            out[seed] = float(dx @ (ys - ys.mean()) / (dx @ dx)) if np.ptp(xs) > 0 else math.nan
    return {s: v for s, v in out.items() if not math.isnan(v)}


def trend(series: Mapping[Any, Mapping[float, float]], direction: str) -> tuple[Tested, dict[str, float]]:
    """"The value grows (``direction="up"``) or falls (``"down"``) with x", paired by seed: each
    seed's least-squares slope over the sweep, the Wilcoxon test of the slopes against 0. Returns
    the test and ``describe`` of the slopes (the effect size, per unit of x)."""
    if direction not in ("up", "down"):
        raise ValueError(f"direction must be 'up' or 'down', got {direction!r}")
    per_seed = slopes(series)
    s = np.asarray(list(per_seed.values()), float)
    p_up, p_down = _wilcoxon(s) if len(s) else (1.0, 1.0)
    p_for, p_against = (p_up, p_down) if direction == "up" else (p_down, p_up)
    p_value, leans = _directional(p_for, p_against)
    return Tested(p_value, leans, decide(p_value, leans, len(s)), TEST["trend"]), describe(s)


def changes(series: Mapping[Any, Mapping[float, float]]) -> dict[Any, float]:
    """Per seed, the least-squares change over the whole sweep relative to the seed's level: the
    slope times the span of x, over the mean of the seed's values (seeds whose mean is 0 or that
    have fewer than two points are left out)."""
    out = {}
    for seed, slope in slopes(series).items():
        xs, ys = np.asarray(list(series[seed]), float), np.asarray(list(series[seed].values()), float)
        level = float(np.abs(ys).mean())
        if level > 0:
            out[seed] = slope * float(np.ptp(xs)) / level
    return out


def flat(series: Mapping[Any, Mapping[float, float]], share: float = FLAT_SHARE) -> tuple[Tested, Band, list[float]]:
    """"No clear trend" (a paper's "little influence"), paired by seed: each seed's fitted change
    over the sweep relative to its level (:func:`changes`), tested for equivalence to 0 within
    ``±share`` (:func:`within`, Wilcoxon). The row's ``p_value`` is the smaller of ``p_inside``
    (leaning for the claim) and ``p_outside`` (against), so that :func:`adjust` says "held" when the
    changes are significantly within the band and "did not hold" when significantly outside it.
    Returns the test, the band and the per-seed changes."""
    per_seed = list(changes(series).values())
    band = Band(-share, share, "no trend", f"no clear trend (within {share:.0%})")
    p_inside, p_outside = within(per_seed, band)
    p_value, leans = (p_inside, FOR) if p_inside <= p_outside else (p_outside, AGAINST)
    return Tested(p_value, leans, decide(p_value, leans, len(per_seed)), TEST["flat"]), band, per_seed


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (NaNs pass through and do not count as tests)."""
    p = np.asarray(p_values, float)
    tested = np.flatnonzero(~np.isnan(p))
    out = p.copy()
    m = len(tested)
    order = tested[np.argsort(p[tested], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out.tolist()


def adjust(rows: list[dict[str, Any]], family: str = "family") -> list[dict[str, Any]]:
    """Correct the p-values of ``rows`` within each family (rows with the same ``row[family]``;
    rows without a ``p_value`` are left alone) by Holm's method, and decide each row's verdict from
    its adjusted p-value. Sets ``p_adjusted``, ``tests_in_family``, ``correction`` and ``verdict``
    in place; a row merged into another (``identical_to``: the method, or for a claim row the
    ``baseline``, whose values it repeats at the same point) is not a test of its own and takes
    that row's adjusted p-value: its raw p-value is the twin's, and Holm gives equal raw p-values
    equal adjusted ones. A row without data (``n_seeds`` 0) is no test: its verdict is "no data";
    nor is a row evaluated outside the paper's regime (``outside``: why), whose verdict says so.
    Rows with a band (``band_low``) get their magnitude the same way (:func:`adjust_magnitudes`).
    Returns ``rows``."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        if "p_value" in row:
            groups.setdefault(row[family], []).append(row)
    for members in groups.values():
        tests = [r for r in members if not r.get("identical_to") and not _nan(r["p_value"])
                 and int(r.get("n_seeds", 0)) and not r.get("outside")]
        for row, adjusted in zip(tests, holm([r["p_value"] for r in tests])):
            row["p_adjusted"] = adjusted
        by_p = {r["p_value"]: r["p_adjusted"] for r in tests}
        for row in members:
            if row.get("identical_to"):
                row["p_adjusted"] = by_p.get(row["p_value"], math.nan)
            row.setdefault("p_adjusted", math.nan)
            row["tests_in_family"] = len(tests)
            row["correction"] = CORRECTION if tests else "none"
            if row.get("outside"):
                row["verdict"] = OUTSIDE
            elif not int(row.get("n_seeds", 0)):
                row["verdict"] = NO_DATA
            elif not _nan(row["p_value"]):
                row["verdict"] = decide(row["p_adjusted"], row["leans"], int(row.get("n_seeds", 0)))
        adjust_magnitudes(members)
    return rows


def adjust_magnitudes(members: list[dict[str, Any]]) -> None:
    """The magnitude verdicts of one claim family's rows (module docstring): the rows with a band
    and data are its tests, except that of an "up to" claim only the row with the largest estimate
    per baseline is tested (the others' ``magnitude`` is "" : not a test). ``p_inside`` and
    ``p_outside`` are Holm-corrected within the family (``p_inside_adjusted``,
    ``p_outside_adjusted``, ``magnitude_tests``), then :func:`magnitude` decides."""
    banded = [r for r in members if not _nan(r.get("band_low")) and not r.get("identical_to")]
    for row in [r for r in banded if r.get("outside")]:
        row["magnitude"], row["magnitude_tests"] = OUTSIDE, 0
        row["p_inside_adjusted"] = row["p_outside_adjusted"] = math.nan
    banded = [r for r in banded if not r.get("outside")]
    best: dict[Any, dict[str, Any]] = {}
    for row in banded:
        if row["reading"] == "up to" and int(row.get("n_seeds", 0)):
            key = row.get("baseline", "")
            if key not in best or _centre(row) > _centre(best[key]):
                best[key] = row
    tests = [r for r in banded if int(r.get("n_seeds", 0))
             and (r["reading"] != "up to" or best.get(r.get("baseline", "")) is r)]
    for name in ("p_inside", "p_outside"):
        for row, adjusted in zip(tests, holm([r[name] for r in tests])):
            row[f"{name}_adjusted"] = adjusted
    tested = {id(r) for r in tests}
    for row in banded:
        row["magnitude_tests"] = len(tests)
        if id(row) in tested:
            row["magnitude"] = magnitude(row["p_inside_adjusted"], row["p_outside_adjusted"], int(row["n_seeds"]))
        else:
            row["magnitude"] = NO_DATA if not int(row.get("n_seeds", 0)) else ""
            row["p_inside_adjusted"] = row["p_outside_adjusted"] = math.nan


def _centre(row: Mapping[str, Any]) -> float:
    """The estimate a band is about: the row's ``effect`` where it has one, else its mean."""
    effect = row.get("effect")
    return float(row["mean"] if effect is None or _nan(effect) else effect)


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def summarize(records: Iterable[Mapping[str, Any]], *, point: Sequence[str], method: str, value: str,
              sense: str, reference: str | None = None, seed: str = "seed",
              margin: float = 0.0) -> list[dict[str, Any]]:
    """Tidy summary rows, one per (point, method): ``n_seeds``, ``mean``, ``median``, ``ci_low``,
    ``ci_high`` of ``value`` over seeds, and against ``reference`` (the paper's algorithm) on the
    same seeds of the same point (:func:`paired`, with ``margin``): ``reference_wins``,
    ``reference_win_rate``, ``mean_diff`` with its interval, the relative ``effect`` with its
    interval, ``p_better``, ``p_worse``, the two-sided ``p_value``, ``leans``, ``one_seed_decides``
    and the uncorrected ``verdict`` of "the reference beats this method" (:func:`adjust` corrects it
    within a family). A method with the same value as an earlier one on every seed of the point is
    marked ``identical_to`` it."""
    groups: dict[tuple, dict[str, dict[Any, float]]] = {}
    for r in records:
        if _nan(r.get(value)):
            continue
        key = tuple(r[p] for p in point)
        groups.setdefault(key, {}).setdefault(r[method], {})[r[seed]] = float(r[value])
    rows = []
    for key, by_method in groups.items():
        for name, by_seed in by_method.items():
            stats = describe(by_seed.values())
            row: dict[str, Any] = {**dict(zip(point, key)), "method": name, "n_seeds": stats["n"],
                                   "mean": stats["mean"], "median": stats["median"],
                                   "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                                   "interval_method": INTERVAL_METHOD}
            if reference is not None and name != reference and reference in by_method:
                twin = next((other for other, values in by_method.items()
                             if other not in (name, reference) and values == by_seed
                             and list(by_method).index(other) < list(by_method).index(name)), None)
                c = paired(by_method[reference], by_seed, sense, margin)
                row.update({"reference": reference, "reference_wins": c.wins, "reference_win_rate": c.win_rate,
                            "mean_diff": c.mean_diff, "diff_ci_low": c.diff_ci_low, "diff_ci_high": c.diff_ci_high,
                            "effect": c.effect, "effect_ci_low": c.effect_ci_low, "effect_ci_high": c.effect_ci_high,
                            "effect_method": c.effect_method, "margin": margin, "p_better": c.p_better,
                            "p_worse": c.p_worse, "p_value": c.p_value,
                            "leans": c.leans, "one_seed_decides": c.one_seed_decides, "test": c.test,
                            "identical_to": twin or "", "verdict": c.verdict})
            rows.append(row)
    return rows
