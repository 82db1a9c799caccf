"""The verdicts of a reproduction's ``summary.csv``, counted per claim family, for its report and for
the docs: the claims tables of ``docs/<family>.md`` are generated from committed summaries, never
typed.

* :func:`tally`: per claim family (and comparison), how many tests held, did not hold, or were not
  resolved, with the range of the estimates (relative gains, slopes, means, worst cases); methods merged into
  an identical one are not counted again.
* :func:`markdown`: that tally as a Markdown table.
* :func:`refresh`: rewrite every block ``<!-- claims NAME PRESET -->`` ... ``<!-- /claims -->`` of a
  docs page from ``docs/results/NAME-PRESET.summary.csv``; ``python -m optsched.study.claims``
  refreshes every page, ``--check`` only reports the pages that differ (tests/study/test_claims.py
  fails on any).
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .stats import HELD, NOT_HELD, NOT_RESOLVED, WORST_CASE_TESTS

BLOCK = re.compile(r"(<!-- claims (?P<name>[\w-]+) (?P<preset>\w+) -->\n)(?P<body>.*?)(<!-- /claims -->)", re.S)
COLUMNS = ["claim family", "comparison", "tests", "held", "did not hold", "not resolved", "estimates"]


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
    """``[family, comparison, tests, held, did not hold, not resolved, (least, largest estimate)]``
    per claim family and comparison, in the order the rows first name them."""
    counts: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        if not row.get("verdict") or row.get("identical_to"):
            continue
        comparison = "" if row.get("method") == "claim" else f"{row['reference']} beats {row['method']}"
        entry = counts.setdefault((str(row["family"]), comparison),
                                  {HELD: 0, NOT_HELD: 0, NOT_RESOLVED: 0, "estimates": []})
        entry[row["verdict"]] += 1
        value = estimate(row)[0]
        if not math.isnan(value):
            entry["estimates"].append(value)
    return [[family, comparison, e[HELD] + e[NOT_HELD] + e[NOT_RESOLVED], e[HELD], e[NOT_HELD], e[NOT_RESOLVED],
             (min(e["estimates"]), max(e["estimates"])) if e["estimates"] else None]
            for (family, comparison), e in counts.items()]


def span_text(span: tuple[float, float] | None) -> str:
    """How a table shows the range of a family's estimates: ``low .. high``, one value, or a dash."""
    if span is None:
        return "—"
    low, high = span
    return f"{low:.3g}" if low == high else f"{low:.3g} .. {high:.3g}"


def markdown(rows: Iterable[Mapping[str, Any]]) -> str:
    """The tally as a Markdown table (with a trailing newline)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for family, comparison, *counts, span in tally(rows):
        cells = [family, comparison or "—", *counts, span_text(span)]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def read_summary(path: Path) -> list[dict[str, str]]:
    """The rows of a ``summary.csv``, as dicts of strings."""
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def refresh(page: Path, results: Path, write: bool = True) -> bool:
    """Rewrite ``page``'s claims blocks from ``results/NAME-PRESET.summary.csv``; True when the page
    changed (or, with ``write=False``, would change)."""
    text = page.read_text()

    def table(match: re.Match) -> str:
        source = results / f"{match['name']}-{match['preset']}.summary.csv"
        if not source.is_file():
            raise FileNotFoundError(f"{page}: a claims block names {source}, which does not exist")
        return match.group(1) + markdown(read_summary(source)) + match.group(5)

    new = BLOCK.sub(table, text)
    if write and new != text:
        page.write_text(new)
    return new != text


def main(argv: list[str] | None = None) -> int:
    """``python -m optsched.study.claims [--check]``: regenerate every claims table of the docs from
    ``docs/results/`` (with ``--check``, write nothing and exit 1 if a page would change)."""
    parser = argparse.ArgumentParser(description="Regenerate the claims tables of docs/*.md from docs/results/.")
    parser.add_argument("--docs", default="docs", help="the docs folder (default docs)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page would change")
    args = parser.parse_args(argv)
    docs = Path(args.docs)
    changed = [page for page in sorted(docs.glob("*.md")) if refresh(page, docs / "results", write=not args.check)]
    for page in changed:
        print(f"{page}: {'differs from' if args.check else 'regenerated from'} docs/results")
    return 1 if changed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
