"""The statistics layer (optsched/study/stats.py): intervals, paired comparisons, computed verdicts."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.study.stats import (
    HELD,
    NOT_HELD,
    NOT_RESOLVED,
    describe,
    interval,
    mean_within,
    paired,
    summarize,
    worst_case_below,
)

values = st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=30)


@given(values)
@settings(max_examples=50)
def test_the_interval_holds_the_mean_and_lies_within_the_values(xs):
    low, high = interval(xs)
    mean = sum(xs) / len(xs)
    assert min(xs) - 1e-6 <= low <= mean + 1e-6 * max(1.0, abs(mean)) and mean - 1e-6 * max(1.0, abs(mean)) <= high
    assert high <= max(xs) + 1e-6
    assert interval(xs) == (low, high)  # seeded: the same values give the same interval


def test_the_interval_narrows_with_more_seeds_and_is_undefined_for_one():
    few, many = [1.0, 3.0, 2.0, 5.0, 4.0], [1.0, 3.0, 2.0, 5.0, 4.0] * 8
    assert interval(many)[1] - interval(many)[0] < interval(few)[1] - interval(few)[0]
    assert all(math.isnan(v) for v in interval([1.0]))
    assert describe([2.0, 2.0, 2.0]) == {"n": 3, "mean": 2.0, "median": 2.0, "ci_low": 2.0, "ci_high": 2.0}


def test_a_claim_holds_only_when_every_one_of_five_seeds_supports_it():
    base = {s: 10.0 + s for s in range(5)}
    better = {s: v - 1.0 for s, v in base.items()}
    assert paired(better, base, "min").verdict == HELD
    assert paired(base, better, "min").verdict == NOT_HELD
    assert paired(better, base, "max").verdict == NOT_HELD  # the sense decides what "better" is
    four = {**better, 4: base[4] + 1.0}
    assert paired(four, base, "min").verdict == NOT_RESOLVED  # 4 of 5 is not enough at the 5% level
    assert paired(base, dict(base), "min").verdict == NOT_RESOLVED  # all ties


def test_fewer_than_five_pairs_never_resolve_and_only_shared_seeds_pair():
    a = {s: 1.0 for s in range(4)}
    b = {s: 2.0 for s in range(10)}
    result = paired(a, b, "min")
    assert result.n == 4 and result.wins == 4 and result.verdict == NOT_RESOLVED
    many = paired({s: 1.0 for s in range(10)}, b, "min")
    assert many.verdict == HELD and many.win_rate == 1.0 and many.mean_diff == -1.0
    with pytest.raises(ValueError, match="sense"):
        paired(a, b, "least")


def test_summary_rows_pair_each_method_with_the_reference_on_the_same_point():
    records = [{"jobs": j, "seed": s, "algorithm": a, "jct": base + s + (0 if a == "ours" else 5)}
               for j, base in ((10, 100.0), (20, 200.0)) for s in range(6) for a in ("ours", "theirs")]
    records.append({"jobs": 10, "seed": 0, "algorithm": "theirs", "jct": None})  # a missing value is skipped
    rows = summarize(records, point=["jobs"], method="algorithm", value="jct", sense="min", reference="ours")
    theirs = {r["jobs"]: r for r in rows if r["method"] == "theirs"}
    assert theirs[10]["n_seeds"] == 6 and theirs[10]["verdict"] == HELD and theirs[10]["reference_win_rate"] == 1.0
    assert theirs[20]["mean"] == pytest.approx(200 + 2.5 + 5)
    assert theirs[20]["ci_low"] <= theirs[20]["mean"] <= theirs[20]["ci_high"]
    ours = [r for r in rows if r["method"] == "ours"]
    assert all("verdict" not in r for r in ours)


def test_a_bound_on_the_mean_is_decided_by_the_whole_interval():
    assert mean_within([1.0, 1.01, 1.02, 1.0, 1.01], 1.06) == HELD
    assert mean_within([1.5, 1.6, 1.55, 1.52, 1.58], 1.06) == NOT_HELD
    assert mean_within([1.0, 1.2, 1.0, 1.0, 1.0], 1.06) == NOT_RESOLVED  # the interval straddles the bound
    assert mean_within([1.0, 1.0, 1.0, 1.0], 1.06) == NOT_RESOLVED  # four values never resolve


def test_a_worst_case_claim_is_refuted_by_one_instance_and_never_proven_by_a_sample():
    assert worst_case_below([1.0, 1.2, 1.71], 1.7) == NOT_HELD
    assert worst_case_below([1.0] * 1000, 1.7) == NOT_RESOLVED
