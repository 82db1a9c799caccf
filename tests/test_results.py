"""Output folders as data (optsched/results.py): `optsched.load` on a study's, a search's and a
reproduction's folder, and its doctest."""

from __future__ import annotations

import doctest

import pytest

import optsched
import optsched.results
from optsched.errors import InputError

from .contract_helpers import optsched as run_installed


def test_the_doctest_holds():
    outcome = doctest.testmod(optsched.results, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted and not outcome.failed


def test_load_reads_every_table_and_document_the_run_wrote_and_nothing_else(tmp_path):
    study = tmp_path / "study"
    done = run_installed("study", "--family", "single", "--instances", "tiny", "--seeds", "0-2", "--jobs", "3,4",
                         "--workers", "1", "--quiet", "-o", study)
    assert done.code == 0, done.err
    (study / "mine.csv").write_text("a,b\n1,2\n")  # a file of the user's: not optsched's to read
    outputs = optsched.load(study)
    assert outputs.verb == "study" and set(outputs.tables) == {"results", "summary", "references",
                                                               "summary_references"}
    results = outputs["results"]
    assert len(results) == 12 and set(results["method"]) == {"wspt", "fifo"} and (results["ratio"] >= 1).all()
    assert outputs.documents["study"]["parts"][0]["family"] == "single"
    with pytest.raises(KeyError, match="tables: "):
        outputs["nope"]
    search = tmp_path / "search"
    assert run_installed("search", "single", "--algorithm", "wspt", "--budget", "10", "--quiet", "-o", search).code == 0
    found = optsched.load(search)
    assert found.verb == "search" and len(found["history"]) >= 10 and found.documents["result"]["target"] == "ratio"
    reproduced = tmp_path / "reproduce"
    assert run_installed("reproduce", "asrpt-table2", "--preset", "quick", "--workers", "1", "--quiet",
                         "-o", reproduced).code == 0
    again = optsched.load(reproduced)
    assert again.verb == "reproduce" and {"results", "summary"} <= set(again.tables)


def test_a_folder_optsched_did_not_write_is_bad_input(tmp_path):
    with pytest.raises(InputError, match="not an output folder optsched wrote"):
        optsched.load(tmp_path)
