"""docs/claims.md, the register of every claim of the four papers, kept in step with the reproductions:
a verdict row names a claim family its reproduction's committed default or paper summary has, every paper
claim family of every committed default summary is named by a verdict row (or by a counterexample row,
which may name the family that scores its statement on random instances), a counterexample row's
file exists, and every row has a status with its evidence (the totals block is computed:
tests/study/test_claims.py runs tools/refresh_claims.py --check)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from optsched.study.claims import read_summary
from optsched.study.stats import OUTSIDE

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "claims.md"
VERDICT = re.compile(r"^`(?P<reproduction>[\w-]+)` · `(?P<family>.+)`$")
#: a family named inside a counterexample row's evidence
NAMED = re.compile(r"`(?P<reproduction>[\w-]+)` · `(?P<family>[^`]+)`")
#: claim families that test a set-up, a variant of optsched's own, or a reading the paper does not make,
#: rather than a paper's claim (docs/study.md, "Set-ups" and "Outside the paper's regime")
NOT_PAPER_CLAIMS = ("Set-up sweep", "D17:", "Where the prices bind", "Fig. 4 where the prices bind",
                    "(not a paper claim)", "read as a worst case")


def _tool():
    spec = importlib.util.spec_from_file_location("refresh_claims", ROOT / "tools" / "refresh_claims.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROWS = _tool().register(PAGE.read_text())


def _families(reproduction: str, presets: tuple[str, ...] = ("default", "paper")) -> dict[str, list[str]]:
    """The claim families of a reproduction's committed summaries, with their rows' verdicts: the
    default preset's, and the paper preset's for a family the default summary does not have."""
    families: dict[str, list[str]] = {}
    for preset in presets:
        path = ROOT / "docs" / "results" / f"{reproduction}-{preset}.summary.csv"
        found: dict[str, list[str]] = {}
        for r in read_summary(path) if path.is_file() else []:
            if r.get("verdict"):
                found.setdefault(r["family"], []).append(r["verdict"])
        families = {**found, **families}
    return families


def test_the_register_has_every_paper_and_unique_ids():
    ids = [r["id"] for r in ROWS]
    assert len(ids) == len(set(ids)) >= 100
    assert {i[0] for i in ids} == {"H", "O", "E", "A"}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_every_row_has_a_status_and_its_evidence(row):
    assert row["status"] in _tool().STATUSES
    assert len(row["evidence"].strip()) > 10 and row["claim"].strip()
    if row["status"] in ("verdict", "outside"):
        match = VERDICT.match(row["evidence"].strip())
        assert match, f"{row['id']}: a verdict names `reproduction` · `claim family`"
        verdicts = _families(match["reproduction"]).get(match["family"])
        assert verdicts, f"{row['id']}: {match['reproduction']}'s committed summaries have no family {match['family']!r}"
        assert (set(verdicts) == {OUTSIDE}) == (row["status"] == "outside"), \
            f"{row['id']}: the family's verdicts are {sorted(set(verdicts))}, and the row says {row['status']}"
    if row["status"] == "counterexample":
        path = re.search(r"`(instances/counterexamples/[^`]+)`", row["evidence"])
        assert path and (ROOT / path[1]).is_file()
        for match in NAMED.finditer(row["evidence"]):
            assert _families(match["reproduction"]).get(match["family"]), \
                f"{row['id']}: {match['reproduction']}'s committed summaries have no family {match['family']!r}"


@pytest.mark.parametrize("summary", sorted((ROOT / "docs" / "results").glob("*-default.summary.csv")),
                         ids=lambda p: p.name)
def test_every_paper_claim_family_of_a_reproduction_is_in_the_register(summary):
    reproduction = summary.name.removesuffix("-default.summary.csv")
    named = {VERDICT.match(r["evidence"].strip())["family"] for r in ROWS if r["status"] in ("verdict", "outside")
             and VERDICT.match(r["evidence"].strip())["reproduction"] == reproduction}
    named |= {m["family"] for r in ROWS if r["status"] == "counterexample" for m in NAMED.finditer(r["evidence"])
              if m["reproduction"] == reproduction}
    for family in _families(reproduction, ("default",)):
        if not any(marker in family for marker in NOT_PAPER_CLAIMS):
            assert family in named, f"docs/claims.md names no claim for {reproduction}'s family {family!r}"
