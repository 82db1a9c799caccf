"""Regenerate the claims tables of ``docs/*.md`` from the committed summaries in ``docs/results/``.

Every block ``<!-- claims NAME PRESET -->`` ... ``<!-- /claims -->`` of a docs page is rewritten from
``docs/results/NAME-PRESET.summary.csv`` by ``optsched.study.claims.markdown``, so that a claims
table is computed, never typed; so is the block ``<!-- register totals -->`` of docs/claims.md, the
count of the claims register's rows by paper and status (:func:`register`, :func:`totals`).
``--check`` writes nothing and exits 1 when a page would change (tests/study/test_claims.py runs it).

    python tools/refresh_claims.py [--docs docs] [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from optsched.study.claims import markdown, read_summary

TOTALS = re.compile(r"(<!-- register totals -->\n)(?P<body>.*?)(<!-- /register totals -->)", re.S)
#: a row of the claims register: | id | where | claim | status | evidence |
ROW = re.compile(r"^\| (?P<id>[HOEA]\d+) \| (?P<where>[^|]*) \| (?P<claim>.*) \| (?P<status>[a-z ]+) "
                 r"\| (?P<evidence>.*) \|$")
STATUSES = ("verdict", "outside", "counterexample", "check", "reason", "not yet")
PAPERS = {"H": "hetero", "O": "oasis", "E": "edge", "A": "asrpt"}
BLOCK = re.compile(r"(<!-- claims (?P<name>[\w-]+) (?P<preset>\w+) -->\n)(?P<body>.*?)(<!-- /claims -->)", re.S)


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
    new = TOTALS.sub(lambda m: m.group(1) + totals(register(new)) + m.group(3), new)
    if write and new != text:
        page.write_text(new)
    return new != text


def register(text: str) -> list[dict[str, str]]:
    """The rows of the claims register in a page's ``text`` (docs/claims.md): id, where, claim,
    status, evidence."""
    return [m.groupdict() for m in map(ROW.match, text.splitlines()) if m]


def totals(rows: list[dict[str, str]]) -> str:
    """The register's rows counted by paper and status, as a Markdown table (with a trailing newline)."""
    lines = ["| paper | claims | " + " | ".join(STATUSES) + " |", "|" + "---|" * (len(STATUSES) + 2)]
    for letter, paper in [*PAPERS.items(), ("", "all")]:
        mine = [r for r in rows if r["id"].startswith(letter)]
        lines.append(f"| {paper} | {len(mine)} | " + " | ".join(str(sum(r["status"] == s for r in mine))
                                                             for s in STATUSES) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Regenerate every claims table of the docs (with ``--check``: write nothing, exit 1 on a change)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
