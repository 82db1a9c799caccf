"""The counterexample corpus (instances/counterexamples/, optsched/search/corpus.py): every entry
still breaks its claim, and each family's docs page links every entry of its family. A change
that makes a counterexample disappear (an accidental "fix" of a paper-faithful algorithm) fails
here, loudly."""

from __future__ import annotations

from pathlib import Path

import pytest

from optsched.jsonio import read_json
from optsched.search.corpus import LABELS, OUTSIDE, replay

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = sorted((ROOT / "instances" / "counterexamples").glob("*/*.json"))
WORST = sorted((ROOT / "instances" / "worst-cases").glob("*/*.json"))


def test_the_corpus_has_the_claims_the_docs_report_false():
    names = {f"{p.parent.name}/{p.stem}" for p in ENTRIES}
    assert {"oasis/theorem2-dual", "oasis/theorem4-ratio", "edge/lemma2b", "hetero/theorem1-mincost1"} <= names
    assert "oasis/fig5-ratio" in {f"{p.parent.name}/{p.stem}" for p in WORST}


@pytest.mark.parametrize("path", ENTRIES + WORST, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_every_entry_is_labelled_for_what_it_refutes_and_the_docs_use_the_same_words(path):
    """Issue 29: a counterexample says whether it refutes the claim as printed, under the proof's
    own assumptions, or only a repaired reading; a find outside a claim's stated regime is a worst
    case, kept out of the counterexample corpus; docs/search.md names each entry with its label."""
    item = read_json(str(path))
    assert item["label"] in LABELS and len(item["assumptions"]) > 80
    assert (item["label"] == OUTSIDE) == (path.parent.parent.name == "worst-cases")
    search = (ROOT / "docs" / "search.md").read_text()
    row = next((line for line in search.splitlines() if f"`{path.parent.name}/{path.name}`" in line), "")
    assert item["label"] in row, f"docs/search.md has no row for {path.name} with its label"


@pytest.mark.parametrize("path", ENTRIES + WORST, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_counterexample_still_breaks_its_claim(path):
    outcome = replay(path)
    assert outcome.violated, f"{path.name} no longer breaks its claim: {outcome.value} ({outcome.reason})"
    found = read_json(str(path))["found"]["value"]
    assert outcome.value == pytest.approx(found, rel=1e-6), "the counterexample changed; rebuild the corpus"


@pytest.mark.parametrize("path", ENTRIES + WORST, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_family_docs_link_the_entry_with_its_label(path):
    docs = (ROOT / "docs" / f"{path.parent.name}.md").read_text()
    link = f"instances/{path.parent.parent.name}/{path.parent.name}/{path.name}"
    assert link in docs
    paragraph = " ".join(next(p for p in docs.split("\n- ") if link in p).split())  # Markdown's wrapping aside
    assert read_json(str(path))["label"] in paragraph
