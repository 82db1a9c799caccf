"""Every spec tag is explained inside the repository: each family's docs page has a register table
naming every erratum/ambiguity code of its spec, and every tag the family's code uses (``[A14]``,
``D18``, ``[R]``, ...) appears on that page, so a reader of the code never needs the spec."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT.parent / "shared" / "specs"
REGISTERS = Path(__file__).resolve().parent / "spec_registers.json"

#: family docs page -> (its packages, the spec, the spec's register row pattern, bare tags in its code)
PAGES = {
    "hetero": (("hetero",), "zhou-heterogeneous.md", r"^\| (D\d+) \|", r"\b(?:D\d{1,2}|E\d|W\d)\b"),
    "oasis": (("oasis",), "oasis.md", r"^\| (A\d+) \|", None),
    "edge": (("edge",), "edge-preemptive.md", r"^\| (E\d+) \|", r"\b(?:E\d{1,2}|CE\d|L\d-[a-z])\b"),
    "asrpt": (("asrpt", "placement"), "asrpt.md", r"^\* `\[(A\d+)\]`", None),
}
BRACKET_TAG = re.compile(r"\[([A-Z]{1,2}\d{0,2})\]")


def register_ids(page: str) -> set[str]:
    """The codes the page's register tables name in their first column, with ranges (``E1–E4``) and
    pairs (``D2/D3``) expanded."""
    ids: set[str] = set()
    for line in (ROOT / "docs" / f"{page}.md").read_text().splitlines():
        cell = re.match(r"^\| ([A-Z]{1,2}\d+(?:[–/][A-Z]{1,2}\d+)*) \|", line)
        if not cell:
            continue
        for part in cell.group(1).split("/"):
            bounds = part.split("–")
            prefix = re.match(r"[A-Z]+", bounds[0]).group(0)
            low, high = int(bounds[0][len(prefix):]), int(bounds[-1][len(prefix):])
            ids.update(f"{prefix}{k}" for k in range(low, high + 1))
    return ids


def code_tags(packages: tuple[str, ...], bare: str | None) -> set[str]:
    tags: set[str] = set()
    for package in packages:
        for path in (ROOT / "optsched" / package).glob("*.py"):
            text = path.read_text()
            tags.update(BRACKET_TAG.findall(text))
            if bare:
                tags.update(re.findall(bare, text))
    return tags


@pytest.mark.parametrize("page", PAGES)
def test_every_code_tag_is_explained_on_the_family_page(page):
    packages, _, _, bare = PAGES[page]
    text = (ROOT / "docs" / f"{page}.md").read_text()
    named = register_ids(page)
    missing = sorted(tag for tag in code_tags(packages, bare)
                     if tag not in named and not re.search(rf"(?<![\w-]){re.escape(tag)}(?![\w-])", text))
    assert not missing, f"docs/{page}.md does not explain {missing}"


def spec_codes(spec: str) -> set[str]:
    """The register codes of ``spec`` as recorded in the repository (tests/spec_registers.json), so
    that the check runs without the specs beside the checkout."""
    return set(json.loads(REGISTERS.read_text())[spec])


@pytest.mark.parametrize("page", PAGES)
def test_the_register_table_names_every_code_of_the_spec(page):
    _, spec, _, _ = PAGES[page]
    codes = spec_codes(spec)
    assert len(codes) >= 20, f"tests/spec_registers.json records only {sorted(codes)} for {spec}"
    missing = sorted(codes - register_ids(page), key=lambda c: int(c[1:]))
    assert not missing, f"docs/{page}.md's register table lacks {missing}"


@pytest.mark.skipif(not SPECS.is_dir(), reason="the specs are not beside this checkout: the recorded codes stand")
@pytest.mark.parametrize("page", PAGES)
def test_the_recorded_codes_are_the_specs(page):
    """Where the specs are beside the checkout, the record in tests/spec_registers.json is theirs."""
    _, spec, row, _ = PAGES[page]
    assert set(re.findall(row, (SPECS / spec).read_text(), flags=re.MULTILINE)) == spec_codes(spec)


def test_register_ids_expand_ranges_and_pairs():
    """The parser the two tests rely on: a row 'E1–E4' names E1..E4, 'D2/D3' names both."""
    ids = register_ids("hetero")
    assert {"E1", "E2", "E3", "E4", "D2", "D3"} <= ids and "D26" not in ids


#: The docs page on which each family's § references (the paper's sections and its spec's) are indexed,
#: under "Sections cited in the code" (single's code cites none).
SECTIONS_INDEXED = {"placement": "asrpt.md", "asrpt": "asrpt.md", "edge": "edge.md", "oasis": "oasis.md",
                    "hetero": "hetero.md"}


def _sections_cited(package: str) -> set[str]:
    text = "".join(p.read_text() for p in (ROOT / "optsched" / package).glob("*.py"))
    return set(re.findall(r"§\s?([0-9]+(?:\.[0-9]+)?|[IVX]+(?:-[A-Z](?![A-Za-z]))?)", text))


@pytest.mark.parametrize("family", sorted(SECTIONS_INDEXED))
def test_every_section_the_code_cites_is_indexed_on_its_docs_page(family):
    """A `§x.y` in a family's code resolves inside the repository: its docs page lists the section, what it
    holds and where the page gives it, so nothing outside the repository is needed to read the code."""
    page = (ROOT / "docs" / SECTIONS_INDEXED[family]).read_text()
    index = page.split("## Sections cited in the code", 1)[1]
    listed = {line.split("|")[1].strip() for line in index.splitlines() if line.startswith("| ") and "---" not in line}
    listed |= {s for s in _sections_cited(family) if not s[0].isdigit() and f"§{s}" in index}
    cited = _sections_cited(family)
    assert cited and cited <= listed, sorted(cited - listed)


def test_tags_are_qualified_by_their_family():
    """A tag means a row of one family's register (oasis's [A1] is not asrpt's [A1]): tags appear only in a
    family's own package, explained on its own page (the test above), never in the shared modules."""
    families = {package for packages, *_ in PAGES.values() for package in packages} | {"single"}
    shared = [p for p in (ROOT / "optsched").rglob("*.py") if p.relative_to(ROOT / "optsched").parts[0] not in families]
    tagged = {str(p.relative_to(ROOT)): re.findall(r"\[([A-Z]{1,2}\d{1,2})\]", p.read_text()) for p in shared}
    assert {path: tags for path, tags in tagged.items() if tags} == {}
