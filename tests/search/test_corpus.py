"""The counterexample corpus (instances/counterexamples/, optsched/search/corpus.py): every entry
still breaks its claim, and each family's docs page links every entry of its family. A change
that makes a counterexample disappear (an accidental "fix" of a paper-faithful algorithm) fails
here, loudly."""

from __future__ import annotations

from pathlib import Path

import pytest

from optsched.jsonio import read_json
from optsched.search.corpus import replay

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = sorted((ROOT / "instances" / "counterexamples").glob("*/*.json"))


def test_the_corpus_has_the_claims_the_docs_report_false():
    names = {f"{p.parent.name}/{p.stem}" for p in ENTRIES}
    assert {"oasis/theorem2-dual", "oasis/theorem4-ratio", "oasis/fig5-ratio", "edge/lemma2b",
            "hetero/theorem1-mincost1"} <= names


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_counterexample_still_breaks_its_claim(path):
    outcome = replay(path)
    assert outcome.violated, f"{path.name} no longer breaks its claim: {outcome.value} ({outcome.reason})"
    found = read_json(str(path))["found"]["value"]
    assert outcome.value == pytest.approx(found, rel=1e-6), "the counterexample changed; rebuild the corpus"


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_family_docs_link_the_counterexample(path):
    docs = (ROOT / "docs" / f"{path.parent.name}.md").read_text()
    assert f"instances/counterexamples/{path.parent.name}/{path.name}" in docs
