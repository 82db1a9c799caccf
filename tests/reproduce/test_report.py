"""What a reproduction reports (optsched/reproduce/report.py): claims, their tests and verdicts."""

import pytest

from optsched.reproduce import Report


def test_a_trend_reports_the_estimate_its_wilcoxon_test_is_about():
    """A trend's effect is the Hodges-Lehmann estimate of the per-seed slopes: one seed with a huge
    slope moves the mean slope, not the estimate, and the verdict follows the slopes' signs."""
    from optsched.study.stats import hodges_lehmann

    series = {s: {1.0: 0.0, 2.0: 0.1 + 0.01 * s} for s in range(14)} | {14: {1.0: 0.0, 2.0: -50.0}}
    report = Report("toy")
    report.trend_claim("family T", {"sweep": "x"}, series, "up", "y grows with x")
    (row,) = report.decided()
    slopes = [0.1 + 0.01 * s for s in range(14)] + [-50.0]
    assert row["effect"] == pytest.approx(hodges_lehmann(slopes)[0]) and 0.1 < row["effect"] < 0.2
    assert row["mean"] < 0 and row["effect_ci_low"] <= row["effect"] <= row["effect_ci_high"]
    assert row["verdict"] == "held"  # 14 of 15 slopes up: the test and the estimate agree, the mean does not
    few = Report("toy")
    few.trend_claim("family T", {"sweep": "x"}, {s: series[s] for s in range(5)}, "up", "y grows with x")
    assert few.claims().rows[0][3] == "none (< 6 pairs)"  # no 95% interval exists, rather than "-inf .. inf"
