"""The statistics layer (optsched/study/stats.py): intervals that cover, paired tests, margins, trends,
the correction within a claim's family, and each observation counted once."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.reproduce import DEFAULT_SEEDS
from optsched.study.stats import (
    BOOTSTRAP_FROM,
    HELD,
    NO_DATA,
    NOT_HELD,
    NOT_REPRODUCED,
    NOT_RESOLVED,
    OUTSIDE,
    REPRODUCED,
    TEST,
    Band,
    adjust,
    describe,
    hodges_lehmann,
    holm,
    interval,
    mean_sides,
    mean_within,
    paired,
    signed_rank_cdf,
    summarize,
    trend,
    within,
    worst_case_below,
)

values = st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=BOOTSTRAP_FROM - 1)


@given(values)
@settings(max_examples=50)
def test_the_interval_is_centred_on_the_mean_and_repeatable(xs):
    low, high = interval(xs)
    mean = sum(xs) / len(xs)
    tol = 1e-6 * max(1.0, abs(mean), max(abs(x) for x in xs))
    assert low - tol <= mean <= high + tol
    assert abs((mean - low) - (high - mean)) <= tol
    assert interval(xs) == (low, high)


def test_the_interval_narrows_with_more_seeds_and_is_undefined_for_one():
    few, many = [1.0, 3.0, 2.0, 5.0, 4.0], [1.0, 3.0, 2.0, 5.0, 4.0] * 8
    assert interval(many)[1] - interval(many)[0] < interval(few)[1] - interval(few)[0]
    assert all(math.isnan(v) for v in interval([1.0]))
    assert describe([2.0, 2.0, 2.0]) == {"n": 3, "mean": 2.0, "median": 2.0, "ci_low": 2.0, "ci_high": 2.0}
    # the Student-t interval by hand: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776445
    low, high = interval(few)
    assert high - 3.0 == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), rel=1e-6)


def _coverage(n: int, draw, truth: float, repeats: int = 2000) -> float:
    rng = np.random.default_rng(n)
    hits = 0
    for _ in range(repeats):
        low, high = interval(draw(rng, n).tolist())
        hits += low <= truth <= high
    return hits / repeats


@pytest.mark.parametrize("n", sorted({5, 10, *DEFAULT_SEEDS.values()}))
def test_the_interval_covers_the_mean_of_normal_data_at_the_presets_seed_counts(n):
    """Issue 29: a normal-data interval that covers less than 93% fails (the percentile bootstrap
    it replaced covered 83% at n = 5). Skewed data cover less; the share is measured and must stay
    within reach of the nominal level at the default presets' n (docs/study.md gives the table)."""
    normal = _coverage(n, lambda rng, k: rng.normal(10.0, 3.0, k), 10.0)
    assert normal >= 0.93
    skewed = _coverage(n, lambda rng, k: rng.lognormal(0.0, 1.0, k), math.exp(0.5))
    assert skewed >= (0.80 if n < 30 else 0.85)


def test_five_pairs_never_resolve_and_six_wins_of_six_do():
    base = {s: 10.0 + s for s in range(6)}
    better = {s: v - 1.0 for s, v in base.items()}
    five = paired({s: better[s] for s in range(5)}, base, "min")
    assert five.wins == 5 and five.p_value == pytest.approx(2 / 32) and five.verdict == NOT_RESOLVED
    assert paired(better, base, "min").verdict == HELD
    assert paired(base, better, "min").verdict == NOT_HELD
    assert paired(better, base, "max").verdict == NOT_HELD  # the sense decides what "better" is
    assert paired(base, dict(base), "min").verdict == NOT_RESOLVED  # all ties
    with pytest.raises(ValueError, match="sense"):
        paired(base, better, "least")


@given(st.lists(st.floats(1.0, 1e4), min_size=BOOTSTRAP_FROM, max_size=80))
@settings(max_examples=40, deadline=None)
def test_from_thirty_values_the_interval_stays_inside_the_data_and_contains_the_mean(xs):
    """The BCa bootstrap interval: a ratio's interval never drops below its least value (the
    study's ratio plot drew one down to 0 for ratios >= 1), and it contains the mean."""
    low, high = interval(xs)
    mean = sum(xs) / len(xs)
    tol = 1e-9 * max(xs)
    assert min(xs) - tol <= low <= mean + tol and mean - tol <= high <= max(xs) + tol
    assert interval(xs) == (low, high)  # a fixed seed: repeatable


@pytest.mark.parametrize("n", [30, 200])
def test_on_the_reproductions_own_heavy_tailed_ratios_the_intervals_lower_end_holds(n):
    """Coverage on the ratios a reproduction produces: OASiS Fig. 5's OPT / OASiS on 400 instances
    of its paper preset (tests/study/data, maxima 13 and 113 against means 1.4 and 3.3), taken as the
    population and resampled at the presets' sizes. A rare large ratio missing from a sample makes
    every interval of the mean miss above (measured in docs/study.md); the lower end is what decides
    "the mean exceeds b", and it misses at most about its nominal 2.5%, while staying inside the data
    (Student t's reached below the least ratio)."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "oasis_fig5_ratios.json").read_text())["ratios"]
    rng = np.random.default_rng(n)
    for population in map(np.asarray, data.values()):
        truth, below = float(population.mean()), 0
        for _ in range(150):
            x = rng.choice(population, n)
            low, _high = interval(x.tolist())
            below += truth < low
            assert low >= x.min()
        assert below / 150 <= 0.05


def test_a_ratio_to_an_optimum_has_no_interval_below_one():
    """The study's ratio figure drew Dorm's mean ALG/OPT with an interval down to about 0 (20 seeds,
    Student t, one huge ratio): a quantity with a floor has its interval cut there."""
    ratios = [1.0] * 19 + [40.0]
    assert interval(ratios)[0] < 0 and interval(ratios, floor=1.0)[0] == 1.0
    assert interval(ratios, floor=1.0)[1] == interval(ratios)[1]
    assert describe(ratios, floor=1.0)["ci_low"] == 1.0


def test_the_mean_test_inverts_the_interval():
    """A bound on a mean is tested by the test whose acceptance region is the interval: the 95%
    interval excludes a value exactly when twice the smaller one-sided p-value is below 5%, on
    either side of the bootstrap threshold."""
    rng = np.random.default_rng(2)
    for n in (8, 30, 60):
        for _ in range(60):
            x = rng.lognormal(0, 1, n)
            low, high = interval(x.tolist())
            value = float(rng.uniform(low - 0.3, high + 0.3))
            p = 2 * min(mean_sides(x.tolist(), value))
            if min(abs(value - low), abs(value - high)) > 1e-3 * (high - low):  # not on an end (quantile steps)
                assert (p < 0.05) == (value < low or value > high)


def test_the_p_value_is_two_sided_so_no_effect_gives_a_verdict_at_most_five_percent_of_the_time():
    rng = np.random.default_rng(1)
    calls = sum(paired(dict(enumerate(10 + rng.normal(0, 1, 30))), dict(enumerate([10.0] * 30)), "min").verdict
                != NOT_RESOLVED for _ in range(1000))
    assert calls / 1000 <= 0.065  # 5% nominal, and the old pair of one-sided tests gave 10%


def test_a_margin_is_tested_on_the_relative_gain():
    """"A is at least 30% better than B": 35% better on every seed holds, 20% does not hold, and the
    relative gain is the row's effect with its interval."""
    b = {s: 100.0 + s for s in range(12)}
    a35 = {s: v * 0.65 for s, v in b.items()}
    a20 = {s: v * 0.80 for s, v in b.items()}
    strong = paired(a35, b, "min", margin=0.30)
    assert strong.verdict == HELD and strong.effect == pytest.approx(0.35)
    assert strong.effect_ci_low == pytest.approx(0.35) == strong.effect_ci_high
    weak = paired(a20, b, "min", margin=0.30)
    assert weak.verdict == NOT_HELD and weak.effect == pytest.approx(0.20)
    assert paired(a20, b, "min").verdict == HELD  # it still beats B


def test_the_signed_rank_distribution_is_the_one_scipy_tests_with():
    """The exact null distribution behind the effect's interval, against brute force over every sign
    pattern at small n and against scipy's exact one-sided p-values at n = 30."""
    from itertools import product

    from scipy.stats import wilcoxon

    for n in range(1, 9):
        sums = [sum(r for r, sign in zip(range(1, n + 1), signs) if sign) for signs in product((0, 1), repeat=n)]
        brute = np.cumsum(np.bincount(sums, minlength=n * (n + 1) // 2 + 1)) / 2 ** n
        assert np.allclose(signed_rank_cdf(n), brute)
    x = np.random.default_rng(3).normal(0.3, 1, 30)
    t_plus = float(wilcoxon(x, alternative="greater", method="exact").statistic)
    assert wilcoxon(x, alternative="greater", method="exact").pvalue == pytest.approx(
        1 - signed_rank_cdf(30)[int(t_plus) - 1])


def test_beyond_the_exact_range_the_interval_depth_is_the_normal_approximations():
    import optsched.study.stats as stats

    exact = [stats.signed_rank_depth(n) for n in (60, 150, 300)]
    stats_exact, stats.EXACT_PAIRS = stats.EXACT_PAIRS, 0
    stats.signed_rank_depth.cache_clear()  # the depths are kept per n: compute them again, approximately
    try:
        approximate = [stats.signed_rank_depth(n) for n in (60, 150, 300)]
    finally:
        stats.EXACT_PAIRS = stats_exact
        stats.signed_rank_depth.cache_clear()
    assert all(abs(a - e) <= 0.01 * e for a, e in zip(approximate, exact))
    assert stats.signed_rank_depth(2000) > 0 and hodges_lehmann(list(range(2000)))[0] == pytest.approx(999.5)


@pytest.mark.parametrize("margin", [0.0, 0.30])
def test_the_effect_interval_excludes_the_margin_exactly_when_the_test_rejects(margin):
    """One scale: the Hodges-Lehmann interval inverts the Wilcoxon test of the same per-seed relative
    gains, with a margin and without ("A beats B"), so on continuous data (no ties) and up to 50
    pairs (where scipy's test is exact) the interval lies beyond the margin exactly when the
    uncorrected two-sided p-value is below 5%, and always contains the estimate; the baselines
    spread over two orders of magnitude, as the seeds of a point do."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(6, 31))
        b = dict(enumerate(rng.lognormal(4, 1.5, n)))
        a = {k: v * (1 - rng.normal(margin + 0.05, 0.2)) for k, v in b.items()}
        c = paired(a, b, "min", margin=margin)
        assert c.effect_ci_low <= c.effect <= c.effect_ci_high
        assert (c.p_value < 0.05) == (c.effect_ci_low > margin or c.effect_ci_high < margin)


def test_seeds_with_large_objectives_do_not_decide_a_comparison():
    """A wins 24 of 30 seeds by 10% and loses the 6 seeds whose B is 100 times larger by 5%: on
    absolute differences those 6 decide against A; on relative gains (the test's scale) A holds."""
    b = {s: 10.0 * (100 if s < 6 else 1) for s in range(30)}
    a = {s: v * (1.05 if s < 6 else 0.9) for s, v in b.items()}
    c = paired(a, b, "min")
    assert c.mean_diff > 0  # the absolute differences lean against A
    assert c.leans == "for" and c.verdict == HELD and c.effect_ci_low > 0 and c.test == TEST["paired"]


def test_where_some_baseline_is_zero_the_gains_over_the_mean_baseline_take_a_t_test():
    b = {s: (0.0 if s == 0 else 10.0) for s in range(10)}
    a = {s: (1.0 if s == 0 else 8.0 + 0.1 * s) for s, v in b.items()}
    c = paired(a, b, "min")
    assert c.test == TEST["paired_mean"] and c.effect_ci_low <= c.effect <= c.effect_ci_high
    assert (c.p_value < 0.05) == (c.effect_ci_low > 0 or c.effect_ci_high < 0)


@pytest.mark.parametrize("n", sorted({10, *DEFAULT_SEEDS.values()}))
def test_the_paired_effect_interval_covers_on_the_gains_the_reproductions_produce(n):
    """Coverage of the paired effect's interval (Hodges-Lehmann, inverted Wilcoxon) at the presets'
    seed counts, on relative gains shaped like the reproductions' (a per-seed gain with heavy
    Student-t(3) noise, baselines lognormal over two orders of magnitude): it covers the gains'
    centre at least 93% of the time (nominal 95%)."""
    rng = np.random.default_rng(n)
    hits, repeats = 0, 400
    for _ in range(repeats):
        b = rng.lognormal(3, 1.2, n)
        gain = 0.2 + 0.05 * rng.standard_t(3, n)
        c = paired(dict(enumerate(b * (1 - gain))), dict(enumerate(b)), "min")
        hits += c.effect_ci_low <= 0.2 <= c.effect_ci_high
    assert hits / repeats >= 0.93


def test_a_band_around_a_paper_number_is_a_quarter_of_its_effect_and_checks_itself():
    assert (Band.about(0.24, "about 0.76x").low, Band.about(0.24, "about 0.76x").high) == pytest.approx((0.18, 0.30))
    ratio = Band.about(1.14, "14% worse", null=1.0)
    assert (ratio.low, ratio.high) == pytest.approx((1.105, 1.175))
    equal = Band.about(1.0, "10.14 against 10.14 ms", null=1.0, precision=0.001)
    assert (equal.low, equal.high) == pytest.approx((0.999, 1.001))
    with pytest.raises(ValueError, match="low <= high"):
        Band(2.0, 1.0, "range", "x")
    with pytest.raises(ValueError, match="reading"):
        Band(1.0, 2.0, "roughly", "x")


def test_the_magnitude_is_reproduced_inside_the_band_and_not_outside():
    rng = np.random.default_rng(5)
    band = Band(0.2, 0.4, "range", "20%-40%")
    inside = within(0.3 + 0.02 * rng.standard_normal(30), band)
    assert inside[0] < 0.05 and inside[1] == 1.0
    outside = within(0.6 + 0.02 * rng.standard_normal(30), band)
    assert outside[0] > 0.5 and outside[1] < 0.05
    straddles = within(0.4 + 0.1 * rng.standard_normal(30), band)
    assert straddles[0] > 0.05 and straddles[1] > 0.05
    assert within([], band) == (1.0, 1.0)
    assert within(0.3 + 0.02 * rng.standard_normal(30), band, "mean")[0] < 0.05
    with pytest.raises(ValueError, match="kind"):
        within([0.3] * 10, band, "mode")


@pytest.mark.parametrize("kind", ["median", "mean"])
def test_a_centre_on_the_bands_edge_is_called_reproduced_at_most_five_percent_of_the_time(kind):
    """The equivalence test's error rate: a centre exactly on the band's edge is "reproduced" by
    chance in at most 5% of samples (nominal; TOST is conservative), at the default presets' 30 seeds."""
    rng = np.random.default_rng(3)
    band = Band(0.2, 0.4, "range", "20%-40%")
    calls = sum(within(0.4 + 0.1 * rng.standard_normal(30), band, kind)[0] < 0.05 for _ in range(600))
    assert calls / 600 <= 0.065


def test_the_magnitude_is_corrected_within_the_family_and_up_to_is_tested_at_the_largest_estimate():
    def row(point, effect, p_inside, p_outside, reading="about", n=30):
        return {"family": "f", "point": point, "method": "claim", "p_value": 0.001, "leans": "for",
                "n_seeds": n, "effect": effect, "band_low": 0.2, "band_high": 0.4, "reading": reading,
                "paper": "x", "p_inside": p_inside, "p_outside": p_outside}
    rows = adjust([row(0, 0.3, 0.01, 1.0), row(1, 0.35, 0.03, 1.0), row(2, 0.9, 1.0, 0.001)])
    assert [r["magnitude"] for r in rows] == [REPRODUCED, NOT_RESOLVED, NOT_REPRODUCED]  # 0.03 x 2 >= 5%
    assert rows[0]["magnitude_tests"] == 3 and rows[1]["p_inside_adjusted"] == pytest.approx(0.06)
    up_to = adjust([row(0, 0.1, 1.0, 0.001, "up to"), row(1, 0.33, 0.01, 1.0, "up to"), row(2, 0.2, 0.2, 1.0, "up to")])
    assert [r["magnitude"] for r in up_to] == ["", REPRODUCED, ""] and up_to[1]["magnitude_tests"] == 1
    few = adjust([row(0, 0.3, 0.01, 1.0, n=4)])
    assert few[0]["magnitude"] == NOT_RESOLVED


def test_a_claim_outside_the_papers_regime_is_no_test_and_says_so():
    rows = [{"family": "f", "method": "claim", "p_value": math.nan, "leans": "against", "n_seeds": 200,
             "verdict": NOT_HELD, "outside": "2 servers; the paper: 5-45", "band_low": 1.0, "band_high": 1.1,
             "reading": "close to", "p_inside": 0.5, "p_outside": 0.5},
            {"family": "f", "method": "claim", "p_value": 0.01, "leans": "for", "n_seeds": 30}]
    adjust(rows)
    assert rows[0]["verdict"] == OUTSIDE and rows[0]["magnitude"] == OUTSIDE
    assert rows[1]["verdict"] == HELD and rows[1]["tests_in_family"] == 1


def test_settings_that_differ_are_found_and_equal_ones_are_never_called_equal():
    """``differ`` (Friedman, paired by seed): three settings 10% apart on every seed differ; equal
    settings are not resolved (the test cannot show equality); two settings are too few."""
    from optsched.study.stats import differ

    rng = np.random.default_rng(4)
    base = {s: float(v) for s, v in enumerate(rng.lognormal(3, 1, 30))}
    apart = {k: {s: v * f for s, v in base.items()} for k, f in (("a", 1.0), ("b", 1.1), ("c", 1.2))}
    assert differ(apart).verdict == HELD and differ(apart).p_value < 1e-6
    same = {k: dict(base) for k in "abc"}
    assert differ(same).verdict == NOT_RESOLVED and differ(same).p_value == 1.0
    assert differ({k: apart[k] for k in "ab"}).verdict == NOT_RESOLVED


def test_a_point_without_data_is_no_test():
    """The quick oasis-sec5 preset had points with no seed at all scored "not resolved": such a
    point has verdict "no data" and does not count as a test of its family."""
    rows = [{"family": "f", "method": "claim", "p_value": 1.0, "leans": "for", "n_seeds": 0},
            {"family": "f", "method": "claim", "p_value": 0.01, "leans": "for", "n_seeds": 30}]
    adjust(rows)
    assert rows[0]["verdict"] == NO_DATA and rows[1]["verdict"] == HELD and rows[1]["tests_in_family"] == 1


def test_a_baseline_near_zero_on_one_seed_does_not_make_the_effect_explode():
    """OASiS against FIFO: FIFO's utility is about 1e-84 on one seed, so that seed's relative gain is
    about 1e84. A mean made the effect 3e84; the Hodges-Lehmann estimate stays near the other seeds'."""
    b = {s: 100.0 for s in range(29)} | {29: 1e-84}
    a = {s: 150.0 + s for s in range(29)} | {29: 0.5}
    c = paired(a, b, "max")
    assert 0.5 <= c.effect <= 0.8 and c.effect_ci_high < 1.0
    assert c.verdict == HELD


def test_an_effect_interval_needs_six_pairs_at_95_percent():
    assert hodges_lehmann([0.1, 0.2, 0.3, 0.4, 0.5])[1:] == (-math.inf, math.inf)  # least p at n = 5: 2/32
    estimate, low, high = hodges_lehmann([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert (estimate, low, high) == (pytest.approx(0.35), 0.1, 0.6)  # P(T <= 0) = 1/64 <= 0.025
    assert all(math.isnan(v) for v in hodges_lehmann([0.1, math.inf]))


def test_one_seed_that_decides_the_sign_of_the_mean_is_flagged():
    b = {s: 10.0 for s in range(6)}
    assert paired({**{s: 9.5 for s in range(5)}, 5: 5.0}, b, "min").one_seed_decides is False
    driven = paired({**{s: 10.5 for s in range(5)}, 5: 1.0}, b, "min")  # loses 5 of 6, one huge win
    assert driven.mean_diff < 0 and driven.one_seed_decides is True


def test_holm_by_hand():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    adjusted = holm([0.2, math.nan, 0.01])
    assert math.isnan(adjusted[1]) and adjusted[0] == pytest.approx(0.2) and adjusted[2] == pytest.approx(0.02)


def test_the_correction_is_within_a_family_and_decides_the_verdicts():
    rows = [{"family": "f", "method": m, "point": k, "p_value": p, "leans": "for", "n_seeds": 30, "verdict": HELD}
            for k, (m, p) in enumerate([("x", 0.001), ("y", 0.03), ("z", 0.04)])]
    rows.append({"family": "g", "method": "x", "point": 0, "p_value": 0.03, "leans": "against", "n_seeds": 30})
    rows.append({"family": "g", "method": "c", "point": 0, "p_value": math.nan, "leans": "against", "n_seeds": 1,
                 "verdict": NOT_HELD})  # a counterexample: certain, no test
    adjust(rows)
    assert [r["verdict"] for r in rows[:3]] == [HELD, NOT_RESOLVED, NOT_RESOLVED]  # raw, all three would hold
    assert [r["p_adjusted"] for r in rows[:3]] == pytest.approx([0.003, 0.06, 0.06])
    assert rows[1]["tests_in_family"] == 3
    assert rows[3]["verdict"] == NOT_HELD and rows[3]["tests_in_family"] == 1 and rows[3]["correction"] == "holm"
    assert rows[4]["verdict"] == NOT_HELD  # the counterexample keeps its verdict
    assert adjust(rows) == rows  # idempotent


def test_summary_rows_pair_each_method_with_the_reference_and_merge_identical_methods():
    records = [{"jobs": j, "seed": s, "algorithm": a, "jct": base + s + (0 if a == "ours" else 5)}
               for j, base in ((10, 100.0), (20, 200.0)) for s in range(8) for a in ("ours", "theirs", "twin")]
    records.append({"jobs": 10, "seed": 0, "algorithm": "theirs", "jct": None})  # a missing value is skipped
    rows = summarize(records, point=["jobs"], method="algorithm", value="jct", sense="min", reference="ours")
    theirs = {r["jobs"]: r for r in rows if r["method"] == "theirs"}
    assert theirs[10]["n_seeds"] == 8 and theirs[10]["verdict"] == HELD and theirs[10]["reference_win_rate"] == 1.0
    assert theirs[20]["mean"] == pytest.approx(200 + 3.5 + 5)
    assert theirs[20]["ci_low"] <= theirs[20]["mean"] <= theirs[20]["ci_high"]
    assert theirs[20]["effect"] == pytest.approx(hodges_lehmann([5 / (205 + s) for s in range(8)])[0])
    twins = [r for r in rows if r["method"] == "twin"]
    assert all(r["identical_to"] == "theirs" for r in twins) and theirs[10]["identical_to"] == ""
    decided = adjust([{**r, "family": "jct"} for r in rows])
    assert {r["tests_in_family"] for r in decided if "p_value" in r} == {2}  # the twin is not a test of its own
    assert all(r["verdict"] == HELD for r in decided if r["method"] == "twin")
    assert all("verdict" not in r for r in rows if r["method"] == "ours")


def test_a_bound_on_the_mean_is_a_t_test_against_the_bound():
    assert mean_within([1.0, 1.01, 1.02, 1.0, 1.01], 1.06).verdict == HELD
    assert mean_within([1.5, 1.6, 1.55, 1.52, 1.58], 1.06).verdict == NOT_HELD
    assert mean_within([1.0, 1.2, 1.0, 1.0, 1.0], 1.06).verdict == NOT_RESOLVED  # the interval straddles the bound
    assert mean_within([1.0, 1.0, 1.0, 1.0], 1.06).verdict == NOT_RESOLVED  # four values never resolve
    tested = mean_within([1.0, 1.01, 1.02, 1.0, 1.01], 1.06)
    assert 0 < tested.p_value < 0.05 and tested.leans == "for"


def test_a_worst_case_claim_is_refuted_by_one_instance_and_never_proven_by_a_sample():
    refuted = worst_case_below([1.0, 1.2, 1.71], 1.7)
    assert refuted.verdict == NOT_HELD and math.isnan(refuted.p_value)
    assert worst_case_below([1.0] * 1000, 1.7).verdict == NOT_RESOLVED


def test_a_trend_is_the_test_of_each_seeds_slope():
    grows = {s: {x: 2.0 * x + s + 0.1 * ((x * s) % 3) for x in (1.0, 2.0, 4.0)} for s in range(8)}
    tested, slopes = trend(grows, "up")
    assert tested.verdict == HELD and slopes["n"] == 8 and slopes["mean"] == pytest.approx(2.0, abs=0.2)
    assert trend(grows, "down")[0].verdict == NOT_HELD
    flat = {s: {1.0: 5.0, 2.0: 5.0} for s in range(8)}
    assert trend(flat, "up")[0].verdict == NOT_RESOLVED
    with pytest.raises(ValueError, match="direction"):
        trend(flat, "sideways")
