"""Output folders (optsched/outputs.py) and output files (optsched/jsonio.py): ownership, stale files,
cleanup, symbolic links and file modes; at the process boundary where users meet them."""

from __future__ import annotations

import json
import os
import stat

import pytest

from optsched.errors import InputError
from optsched.jsonio import write_text
from optsched.outputs import OWNER_FILE, claim

from .contract_helpers import optsched

OWNER = {"verb": "study", "name": "a"}


def test_a_new_folder_is_created_and_owned(tmp_path):
    folder = claim(tmp_path / "out", OWNER)
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text()) == {**OWNER, "files": []}
    (tmp_path / "out" / "table.csv").write_text("x")
    folder.finish()
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["files"] == ["table.csv"]


def test_the_same_run_again_removes_only_the_files_it_no_longer_writes(tmp_path):
    first = claim(tmp_path / "out", OWNER)
    for name in ("report.md", "old-figure.png"):
        (tmp_path / "out" / name).write_text("first")
    first.finish()
    again = claim(tmp_path / "out", OWNER)
    (tmp_path / "out" / "report.md").write_text("second")
    assert again.finish() == ["old-figure.png"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [OWNER_FILE, "report.md"]


def test_another_run_is_refused_and_fresh_replaces_only_its_files(tmp_path):
    first = claim(tmp_path / "out", OWNER)
    (tmp_path / "out" / "results.csv").write_text("a")
    first.finish()
    other = {"verb": "study", "name": "b"}
    with pytest.raises(InputError, match="holds the output of another run"):
        claim(tmp_path / "out", other)
    assert (tmp_path / "out" / "results.csv").read_text() == "a"
    claim(tmp_path / "out", other, fresh=True)
    assert not (tmp_path / "out" / "results.csv").exists()
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["name"] == "b"


def test_a_run_adopts_a_folder_only_where_it_says_so_and_keeps_its_files(tmp_path):
    """An older optsched's record of the same preset is taken over (``adopts``); anything else is not."""
    first = claim(tmp_path / "out", {"verb": "study", "name": "demo", "parts": [1]})
    (tmp_path / "out" / "results.csv").write_text("a")
    first.finish()
    preset = {"verb": "study", "preset": "demo"}
    with pytest.raises(InputError, match="holds the output of another run"):
        claim(tmp_path / "out", preset, adopts=lambda recorded: recorded.get("name") == "other")
    again = claim(tmp_path / "out", preset, adopts=lambda recorded: recorded.get("name") == "demo")
    assert again.previous == ["results.csv"]
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["preset"] == "demo"


def test_a_folder_of_someone_elses_files_is_never_taken(tmp_path):
    (tmp_path / "mine.txt").write_text("mine")
    for fresh in (False, True):
        with pytest.raises(InputError, match="optsched did not write"):
            claim(tmp_path, OWNER, fresh=fresh)
    assert (tmp_path / "mine.txt").read_text() == "mine"


def test_abandon_removes_the_folders_a_run_created_and_nothing_else(tmp_path):
    folder = claim(tmp_path / "a" / "b", OWNER, parents=True)
    folder.abandon()
    assert list(tmp_path.iterdir()) == []
    kept = claim(tmp_path / "c", OWNER)
    (tmp_path / "c" / "figure.png").write_text("made")
    kept.abandon()
    assert (tmp_path / "c" / "figure.png").exists()


def test_missing_parents_are_refused_unless_asked_for(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        claim(tmp_path / "a" / "b", OWNER)
    assert list(tmp_path.iterdir()) == []


def test_writes_follow_a_symbolic_link_keep_a_files_mode_and_honour_the_umask(tmp_path):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("{}")
    target.chmod(0o664)
    link.symlink_to(target)
    write_text(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
    old = os.umask(0o022)
    try:
        write_text(str(tmp_path / "fresh.json"), "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o644


def test_generate_writes_through_a_symbolic_link(tmp_path):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("{}")
    link.symlink_to(target)
    assert optsched("generate", "single", "-o", link).code == 0
    assert link.is_symlink() and json.loads(target.read_text())["family"] == "single"


SEARCH = ["--size-max", "2", "--budget", "3", "--shrink-budget", "0", "--workers", "1", "--quiet"]


def test_a_second_search_into_the_folder_is_refused_and_fresh_takes_it(tmp_path):
    out = tmp_path / "X"
    assert optsched("search", "oasis", "--algorithm", "oasis", *SEARCH, "-o", out).code == 0
    schedule = (out / "opt.schedule.json").read_text()
    refused = optsched("search", "edge", "--algorithm", "aonline", *SEARCH, "-o", out)
    assert refused.code == 2 and "holds the output of another run" in refused.err
    assert (out / "opt.schedule.json").read_text() == schedule
    replaced = optsched("search", "edge", "--algorithm", "aonline", *SEARCH, "--fresh", "-o", out)
    assert replaced.code == 0, replaced.err
    assert json.loads((out / "opt.schedule.json").read_text())["family"] == "edge"
    resumed = optsched("search", "edge", "--algorithm", "aonline", *SEARCH[:-3], "--budget", "5", "--workers", "1",
                       "--quiet", "-o", out)
    assert resumed.code == 0, resumed.err  # a larger budget extends the same search


def test_every_file_of_a_study_folder_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        done = optsched("study", "--family", "single", "--seeds", "1", "--jobs", "3", "--workers", "1", "--quiet",
                        "-o", tmp_path / "out")
    finally:
        os.umask(old)
    assert done.code == 0, done.err
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out").iterdir()}
    assert "ratios.svg" in modes and set(modes.values()) == {0o644}, modes
