"""What a search writes and prints (optsched/search/output.py): the folder's files, the certified
result, the verdict on the claim, and the summary lines."""

import csv
import json

import pytest

from optsched.citations import PAPERS
from optsched.registry import get
from optsched.search import run
from optsched.search.output import summary_lines


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    out = tmp_path_factory.mktemp("search") / "smith"
    outcome = run("single", "wspt", "theorem:smith", budget=8, shrink_budget=4, size_max=3, out_dir=out)
    return out, outcome, json.loads((out / "result.json").read_text())


def test_the_folder_holds_every_output_and_a_history_row_per_scored_instance(searched):
    out, outcome, result = searched
    for name in ("result.json", "report.md", "history.csv", "progress.svg", "instance.json", "found.instance.json",
                 "alg.schedule.json"):
        assert (out / name).is_file(), name
    with open(out / "history.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(outcome.history) == result["search_evaluations"] + result["shrink_evaluations"]


def test_the_result_is_certified_and_smiths_rule_is_not_broken(searched):
    _, _, result = searched
    assert result["violation"] is False and result["shrunk"]["slack"] >= 0
    cert = result["certificate"]
    assert cert["alg_feasible"] and cert["opt"] <= cert["alg"] + 1e-9


def test_the_summary_names_the_search_its_certificate_and_the_verdict(searched):
    out, outcome, result = searched
    lines = summary_lines(get("single"), "wspt", "theorem:smith", outcome, result, None)
    assert lines[0].startswith(f"single / wspt, theorem:smith: best −slack = {outcome.best.value:.6g}")
    assert "-0 " not in lines[0]
    assert lines[-1] == "  counterexample: no"
    assert "Smith's rule" in (out / "report.md").read_text()
    assert PAPERS["smith1956"].text() in (out / "report.md").read_text()
