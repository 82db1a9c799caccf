"""Compare two report folders of the same reproduction, byte for byte apart from time columns.

A refactoring of a reproduction must not change what it reports: run its quick preset before and
after (two folders), then

    python tools/compare_reports.py BEFORE AFTER

compares ``results.csv`` and ``summary.csv`` line by line after dropping the columns that hold
wall-clock times (:func:`_timed`), and every file in ``worst/`` byte
for byte. Exit 0 and one line per file when all are equal; exit 1 with the first difference of each
file otherwise.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

TABLES = ("results.csv", "summary.csv")


def _timed(column: str) -> bool:
    """A column of wall-clock time: seconds (``*_s``), or Table II's placement computation time in
    milliseconds (``*_pct_ms``; its ``*_pitt_ms``, a model's per-iteration time, is not a clock)."""
    return column.endswith(("_s", "_pct_ms")) or column == "seconds"


def _rows(path: Path) -> list[list[str]]:
    """The CSV's rows without its time columns (the header first); [] when the file is missing."""
    if not path.is_file():
        return []
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    keep = [k for k, name in enumerate(rows[0]) if not _timed(name)] if rows else []
    return [[row[k] for k in keep if k < len(row)] for row in rows]


def compare(before: Path, after: Path) -> list[str]:
    """One line per compared file: ``same`` or the first difference."""
    lines = []
    for name in TABLES:
        a, b = _rows(before / name), _rows(after / name)
        if a == b:
            lines.append(f"same      {name} ({max(len(a) - 1, 0)} rows)")
            continue
        k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        shown = (a[k] if k < len(a) else "<none>", b[k] if k < len(b) else "<none>")
        lines.append(f"DIFFERENT {name} at row {k}: {shown[0]} != {shown[1]}")
    names = sorted({p.relative_to(folder).as_posix() for folder in (before, after)
                    for p in (folder / "worst").rglob("*") if p.is_file()})
    for name in names:
        a, b = before / name, after / name
        same = a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes()
        lines.append(f"{'same     ' if same else 'DIFFERENT'} {name}")
    return lines


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0] + "\nusage: python tools/compare_reports.py BEFORE AFTER",
              file=sys.stderr)
        return 2
    lines = compare(Path(sys.argv[1]), Path(sys.argv[2]))
    print("\n".join(lines))
    return 1 if any(line.startswith("DIFFERENT") for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
