"""The papers as citations (optsched/citations.py): in the registry, `optsched families --json`,
and each family's docs page."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from optsched.citations import PAPERS, Paper
from optsched.registry import families

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: The docs page of each family (placement shares A-SRPT's).
PAGES = {"single": "single.md", "oasis": "oasis.md", "edge": "edge.md", "hetero": "hetero.md",
         "placement": "asrpt.md", "asrpt": "asrpt.md"}


def test_every_family_cites_its_papers_with_authors_title_venue_and_year():
    for family in families().values():
        assert family.papers, family.name
        for paper in family.papers:
            assert paper.authors and paper.title and paper.venue and 1950 < paper.year < 2100
            assert paper.url == (f"https://doi.org/{paper.doi}" if paper.doi
                                 else f"https://arxiv.org/abs/{paper.arxiv}" if paper.arxiv else "")


def test_the_reference_text_in_ieee_style():
    two = Paper("x", ("A. One", "B. Two"), "A Title", "Some Journal", 2020, volume="3", pages="1-9", doi="10.1/x")
    assert two.text() == "A. One and B. Two, \u201cA Title,\u201d Some Journal, vol. 3, pp. 1-9, 2020. doi:10.1/x"
    assert two.short() == "One and Two, Some Journal 2020" and two.url == "https://doi.org/10.1/x"
    assert PAPERS["luo2025"].url == "https://arxiv.org/abs/2501.05563"
    assert PAPERS["zhou2023"].text().startswith("R. Zhou, J. Pang, Q. Zhang, C. Wu, L. Jiao, Y. Zhong, and Z. Li,")


def test_families_json_carries_full_citations():
    out = subprocess.run([sys.executable, "-m", "optsched.cli", "families", "--json"], capture_output=True, text=True,
                         check=True).stdout
    listed = {f["name"]: f for f in json.loads(out)}
    hetero = listed["hetero"]["papers"][0]
    assert hetero["doi"] == "10.1109/TCC.2022.3143153" and hetero["year"] == 2023
    assert hetero["citation"] == PAPERS["zhou2023"].text()
    assert listed["hetero"]["source"] == "Zhou et al., IEEE Transactions on Cloud Computing 2023"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_family_page_gives_its_papers_full_reference(name):
    page = " ".join((DOCS / PAGES[name]).read_text().split())  # a reference may be wrapped over lines
    for paper in families()[name].papers:
        assert paper.text() in page, f"docs/{PAGES[name]} does not cite {paper.key} as the registry does"


def test_a_reproduction_cites_its_paper_in_report_and_summary(tmp_path):
    out = tmp_path / "t2"
    subprocess.run([sys.executable, "-m", "optsched.cli", "reproduce", "asrpt-table2", "--preset", "quick", "--quiet",
                    "-o", str(out)], capture_output=True, text=True, check=True)
    luo = PAPERS["luo2025"].text()
    assert f"**Paper:** {luo}" in (out / "report.md").read_text()
    with open(out / "summary.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(r["paper"] == luo for r in rows)


def test_citation_cff_names_optsched_at_its_version_and_every_paper():
    """CITATION.cff is written by hand; this ties it to pyproject's version and to PAPERS."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parents[1]
    cff = (root / "CITATION.cff").read_text()
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert f'version: "{project["version"]}"' in cff and "license: MIT" in cff
    for paper in PAPERS.values():
        assert f'title: "{paper.title}"' in cff, paper.key
        assert f"year: {paper.year}" in cff
        if paper.doi:
            assert f'doi: "{paper.doi}"' in cff


def test_each_familys_algorithm_and_model_cite_the_paper_in_a_references_section():
    """The docstring of each family's own algorithm and first formulation ends with a numpydoc
    References section naming the family's paper (Algorithm or equation included)."""
    for family in families().values():
        surnames = [paper.authors[0].split()[-1] for paper in family.papers]
        algorithm = next(iter(family.algorithms.values()))
        formulation = next(iter(family.formulations.values()))
        for function in (algorithm.run, formulation.build):
            doc = function.resolve().__doc__ if hasattr(function, "resolve") else function.__doc__
            references = doc.split("References\n")[-1] if doc and "References\n" in doc else ""
            assert "----------" in references and any(s in references for s in surnames), (family.name, doc)


def test_cite_prints_bibtex_for_optsched_at_its_commit_and_the_families_papers():
    """`optsched cite` (the installed script): one @software entry naming the version (and the git
    commit of a clone, as `--version` does), then one entry per paper of the families asked, each
    with balanced braces and the paper's key, year and DOI or arXiv identifier."""
    import json

    from optsched.provenance import version_string

    from .contract_helpers import optsched

    done = optsched("cite", "edge", "asrpt")
    assert done.code == 0, done.err
    entries = done.out.strip().split("\n\n")
    assert entries[0].startswith("@software{optsched,") and f"version = {{{version_string()}}}" in entries[0]
    assert [e.partition("{")[2].partition(",")[0] for e in entries[1:]] == ["wang2022", "luo2025"]
    for entry in entries:
        assert entry.count("{") == entry.count("}")
    assert "doi = {10.1109/JSAC.2022.3180772}" in entries[1] and "eprint = {2501.05563}" in entries[2]
    assert optsched("--version").out.strip() == f"optsched {version_string()}"
    every = json.loads(optsched("cite", "--json").out)
    assert {p["key"] for p in every["papers"]} == set(PAPERS) and every["optsched"]["version"]
    assert optsched("cite", "nope").code == 2
