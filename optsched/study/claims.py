"""The verdicts of a reproduction's ``summary.csv``, counted per claim family, for its report and for
the docs: the claims tables of ``docs/<family>.md`` are generated from committed summaries, never
typed.

* :func:`tally`: per claim family (and comparison), how many tests held, did not hold, or were not
  resolved, how many points had no data or lay outside the paper's regime (no tests, counted apart),
  the range of the estimates (relative gains, slopes, means, worst cases), and for a claim with a
  number, the band around the paper's number and how many magnitudes were reproduced, not
  reproduced or not resolved; methods merged into an identical one are not counted again.
* :func:`markdown`: that tally as a Markdown table, which ``tools/refresh_claims.py`` writes into
  every claims block of the docs from ``docs/results/NAME-PRESET.summary.csv`` (its ``--check``
  reports the pages that differ; tests/study/test_claims.py fails on any).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .stats import (
    HELD,
    NO_DATA,
    NOT_HELD,
    NOT_REPRODUCED,
    NOT_RESOLVED,
    OUTSIDE,
    REPRODUCED,
    WORST_CASE_TESTS,
)

COLUMNS = ["claim family", "comparison", "tests", "held", "did not hold", "not resolved", "no data",
           "outside the paper's regime", "estimates", "paper's number (band)",
           "magnitude: reproduced / not / not resolved"]


def _number(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return math.nan
    return number


def estimate(row: Mapping[str, Any]) -> tuple[float, float, float]:
    """A row's estimate with its interval: a paired comparison's relative gain (NaN where some
    baseline value is 0); a claim's relative gain or slope where it has one; the largest value, with
    no interval, for a claim about every instance (the worst case is what it is about); else its mean."""
    effect = _number(row.get("effect"))
    if row.get("method") != "claim" or not math.isnan(effect):
        return effect, _number(row.get("effect_ci_low")), _number(row.get("effect_ci_high"))
    if row.get("test") in WORST_CASE_TESTS:
        return _number(row.get("max")), math.nan, math.nan
    return _number(row.get("mean")), _number(row.get("ci_low")), _number(row.get("ci_high"))


def tally(rows: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """``[family, comparison, tests, held, did not hold, not resolved, no data, outside the paper's
    regime, (least, largest estimate), band, (reproduced, not reproduced, not resolved)]`` per claim
    family and comparison, in the order the rows first name them; ``band`` lists the distinct
    ``(paper's words, low, high)`` of the family's banded rows, and it and the magnitude counts are
    None without a band."""
    counts: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        if not row.get("verdict") or row.get("identical_to"):
            continue
        comparison = "" if row.get("method") == "claim" else f"{row['reference']} beats {row['method']}"
        entry = counts.setdefault((str(row["family"]), comparison),
                                  {HELD: 0, NOT_HELD: 0, NOT_RESOLVED: 0, NO_DATA: 0, OUTSIDE: 0, "estimates": [],
                                   "bands": [], "magnitudes": {REPRODUCED: 0, NOT_REPRODUCED: 0, NOT_RESOLVED: 0}})
        entry[row["verdict"]] += 1
        value = estimate(row)[0]
        if not math.isnan(value):
            entry["estimates"].append(value)
        if not math.isnan(_number(row.get("band_low"))):
            band = (str(row.get("paper_number", "")), _number(row["band_low"]), _number(row["band_high"]))
            if band not in entry["bands"]:
                entry["bands"].append(band)
            if row.get("magnitude") in entry["magnitudes"]:
                entry["magnitudes"][row["magnitude"]] += 1
    return [[family, comparison, e[HELD] + e[NOT_HELD] + e[NOT_RESOLVED], e[HELD], e[NOT_HELD], e[NOT_RESOLVED],
             e[NO_DATA], e[OUTSIDE], (min(e["estimates"]), max(e["estimates"])) if e["estimates"] else None,
             e["bands"] or None,
             tuple(e["magnitudes"].values()) if e["bands"] else None]
            for (family, comparison), e in counts.items()]


def band_text(bands: list[tuple[str, float, float]] | None) -> str:
    """How a table shows a family's bands: the paper's words and each band's ends, or a dash."""
    if not bands:
        return "—"
    return "; ".join(f"{words}: {low:.4g} .. {high:.4g}" for words, low, high in bands)


def magnitude_text(counts: tuple[int, int, int] | None) -> str:
    """How a table shows the magnitude verdicts: reproduced / not reproduced / not resolved, or a dash."""
    return "—" if counts is None else " / ".join(str(c) for c in counts)


def span_text(span: tuple[float, float] | None) -> str:
    """How a table shows the range of a family's estimates: ``low .. high``, one value, or a dash."""
    if span is None:
        return "—"
    low, high = span
    return f"{low:.3g}" if low == high else f"{low:.3g} .. {high:.3g}"


def markdown(rows: Iterable[Mapping[str, Any]]) -> str:
    """The tally as a Markdown table (with a trailing newline)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for family, comparison, *counts, span, band, magnitudes in tally(rows):
        cells = [family, comparison or "—", *counts, span_text(span), band_text(band), magnitude_text(magnitudes)]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def read_summary(path: Path) -> list[dict[str, str]]:
    """The rows of a ``summary.csv``, as dicts of strings."""
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))
