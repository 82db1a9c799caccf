"""The docs' claims tables are generated from committed summaries (optsched/study/claims.py, written by
tools/refresh_claims.py): a table
that disagrees with its summary.csv fails here, and so does a summary whose verdicts are not the ones
its own p-values give."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from optsched.study import claims
from optsched.study.stats import (
    HELD,
    NO_DATA,
    NOT_HELD,
    NOT_REPRODUCED,
    NOT_RESOLVED,
    OUTSIDE,
    REPRODUCED,
    TEST,
    adjust,
    decide,
    magnitude,
)

ROOT = Path(__file__).resolve().parents[2]
RESULTS = sorted((ROOT / "docs" / "results").glob("*.summary.csv"))


def _tool(name: str):
    """A script of tools/ (maintenance, not installed with the package), imported from its file."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


refresh_claims = _tool("refresh_claims")


def test_the_tally_counts_each_family_once_per_comparison_and_skips_merged_methods():
    rows = [{"family": "f", "method": "b", "reference": "a", "verdict": HELD, "effect": "0.3", "identical_to": ""},
            {"family": "f", "method": "b", "reference": "a", "verdict": NOT_RESOLVED, "effect": "0.1"},
            {"family": "f", "method": "c", "reference": "a", "verdict": HELD, "identical_to": "b"},
            {"family": "g", "method": "claim", "verdict": NOT_HELD, "mean": "2.5"},
            {"family": "g", "method": "x"}]  # a descriptive row: no verdict
    assert claims.tally(rows) == [["f", "a beats b", 2, 1, 0, 1, 0, 0, (0.1, 0.3), None, None],
                                  ["g", "", 1, 0, 1, 0, 0, 0, (2.5, 2.5), None, None]]
    table = claims.markdown(rows)
    assert table.splitlines()[2] == "| f | a beats b | 2 | 1 | 0 | 1 | 0 | 0 | 0.1 .. 0.3 | — | — |"
    assert table.splitlines()[3] == "| g | — | 1 | 0 | 1 | 0 | 0 | 0 | 2.5 | — | — |"


def test_points_without_data_or_outside_the_regime_are_counted_apart_and_a_band_shows_its_magnitudes():
    rows = [{"family": "f", "method": "claim", "verdict": NO_DATA, "mean": "nan"},
            {"family": "f", "method": "claim", "verdict": OUTSIDE, "mean": "1.79"},
            {"family": "f", "method": "claim", "verdict": HELD, "effect": "0.3", "band_low": "0.2",
             "band_high": "0.4", "paper_number": "about 30%", "magnitude": REPRODUCED},
            {"family": "f", "method": "claim", "verdict": HELD, "effect": "0.9", "band_low": "0.2",
             "band_high": "0.4", "paper_number": "about 30%", "magnitude": NOT_REPRODUCED}]
    assert claims.tally(rows) == [["f", "", 2, 2, 0, 0, 1, 1, (0.3, 1.79), [("about 30%", 0.2, 0.4)], (1, 1, 0)]]
    assert claims.markdown(rows).splitlines()[2] == "| f | — | 2 | 2 | 0 | 0 | 1 | 1 | 0.3 .. 1.79 | about 30%: 0.2 .. 0.4 | 1 / 1 / 0 |"


def test_a_claim_about_every_instance_is_estimated_by_its_largest_value():
    worst = {"family": "w", "method": "claim", "verdict": NOT_RESOLVED, "mean": "1.1", "max": "1.53",
             "ci_low": "1.09", "ci_high": "1.11", "test": TEST["worst"]}
    refuted = {**worst, "verdict": NOT_HELD, "max": "3.5", "test": TEST["counterexample"]}
    assert claims.tally([worst, refuted]) == [["w", "", 2, 0, 1, 1, 0, 0, (1.53, 3.5), None, None]]
    value, low, high = claims.estimate(worst)
    assert value == 1.53 and math.isnan(low) and math.isnan(high)
    assert claims.estimate({**worst, "test": TEST["mean"]}) == (1.1, 1.09, 1.11)  # a bound on the mean: its mean


def test_a_block_is_regenerated_from_its_summary_and_a_missing_summary_is_named(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "toy-default.summary.csv").write_text(
        "family,method,reference,verdict,effect,identical_to\nf,b,a,held,0.25,\n")
    page = tmp_path / "page.md"
    page.write_text("intro\n<!-- claims toy default -->\nstale\n<!-- /claims -->\nafter\n")
    assert refresh_claims.refresh(page, tmp_path / "results") is True
    assert "| f | a beats b | 1 | 1 | 0 | 0 | 0 | 0 | 0.25 | — | — |" in page.read_text() and "stale" not in page.read_text()
    assert refresh_claims.refresh(page, tmp_path / "results") is False  # nothing left to change
    page.write_text("<!-- claims gone default -->\n<!-- /claims -->\n")
    with pytest.raises(FileNotFoundError, match="gone-default.summary.csv"):
        refresh_claims.refresh(page, tmp_path / "results")


def test_every_claims_table_in_the_docs_is_its_committed_summarys():
    assert refresh_claims.main(["--docs", str(ROOT / "docs"), "--check"]) == 0


def test_every_committed_summary_is_named_by_a_docs_page():
    text = "".join(page.read_text() for page in (ROOT / "docs").glob("*.md"))
    for path in RESULTS:
        name, preset = path.name.removesuffix(".summary.csv").rsplit("-", 1)
        assert f"<!-- claims {name} {preset} -->" in text, f"{path.name} is in no docs page"


def _float(value: str) -> float:
    return float(value) if value not in ("", None) else math.nan


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.name)
def test_a_committed_summarys_verdicts_are_the_ones_its_p_values_give(path):
    """Recompute Holm within each family from the raw p-values and decide again, the direction
    from ``p_value`` and the magnitude from ``p_inside`` and ``p_outside``: a hand-edited verdict,
    magnitude or p-value fails. A default or paper preset has at least 30 seeds at every tested point;
    a comparison restricted to the seeds where a quantity exists (its claim says "seeds where", as
    OASiS's Fig. 4 pairs only seeds where both methods finish jobs of the class) keeps at least 20."""
    rows = claims.read_summary(path)
    numbers = ("p_value", "p_adjusted", "band_low", "band_high", "p_inside", "p_outside", "effect", "mean")
    tested = [{**r, **{k: _float(r.get(k)) for k in numbers}, "n_seeds": int(r["n_seeds"])}
              for r in rows if r.get("p_value")]
    adjust(tested)
    for row, original in zip(tested, [r for r in rows if r.get("p_value")]):
        if not math.isnan(row["band_low"]):
            assert original["magnitude"] == row["magnitude"]
            if row["magnitude"] not in ("", NO_DATA, OUTSIDE):
                assert original["magnitude"] == magnitude(_float(original["p_inside_adjusted"]),
                                                          _float(original["p_outside_adjusted"]), row["n_seeds"])
        if math.isnan(row["p_value"]):
            continue
        assert row["p_adjusted"] == pytest.approx(_float(original["p_adjusted"]), rel=1e-9, abs=1e-15, nan_ok=True)
        assert original["verdict"] == row["verdict"]
        if row["verdict"] not in (OUTSIDE, NO_DATA):
            assert original["verdict"] == decide(row["p_adjusted"], original["leans"], row["n_seeds"])
    if not path.name.endswith("-quick.summary.csv"):
        paired = [r for r in rows if r.get("p_value") and r["test"].startswith("Wilcoxon")]
        assert all(int(r["n_seeds"]) >= (20 if "seeds where" in r["claim"] else 30) for r in paired)
