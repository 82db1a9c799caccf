"""Output folders (optsched/outputs.py) and output files (optsched/jsonio.py): ownership, stale files,
cleanup, symbolic links and file modes; at the process boundary where users meet them."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import time

import pytest

from optsched.errors import InputError
from optsched.jsonio import write_text
from optsched.outputs import OWNER_FILE, claim_folder

from .contract_helpers import console_script, optsched

OWNER = {"verb": "study", "name": "a"}


def put(folder, name: str, text: str) -> None:
    """Write a file into a claimed folder as optsched does (through jsonio, watched by the claim)."""
    write_text(str(folder.path / name), text)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_new_folder_is_created_and_owned_with_the_digest_of_each_file_written(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as folder:
        assert json.loads((tmp_path / "out" / OWNER_FILE).read_text()) == {**OWNER, "files": {}}
        put(folder, "table.csv", "x")
        (tmp_path / "out" / "notes.txt").write_text("saved by hand meanwhile")
        folder.finish()
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["files"] == {"table.csv": sha("x")}


def test_the_same_run_again_removes_only_the_files_it_no_longer_writes(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as first:
        for name in ("report.md", "old-figure.png"):
            put(first, name, "first")
        first.finish()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    with claim_folder(tmp_path / "out", OWNER) as again:
        put(again, "report.md", "second")
        assert again.finish() == ["old-figure.png"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [OWNER_FILE, "notes.txt", "report.md"]


def test_a_file_changed_after_optsched_wrote_it_is_never_replaced_or_removed(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as first:
        put(first, "report.md", "first")
        first.finish()
    (tmp_path / "out" / "report.md").write_text("first, with my notes")
    for fresh in (False, True):
        with pytest.raises(InputError, match="report.md: was changed after optsched wrote it"):
            claim_folder(tmp_path / "out", OWNER, fresh=fresh)
    assert (tmp_path / "out" / "report.md").read_text() == "first, with my notes"


def test_a_run_never_writes_over_a_file_it_did_not_write(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as first:
        first.finish()
    (tmp_path / "out" / "results.csv").write_text("mine")
    with claim_folder(tmp_path / "out", OWNER) as again, pytest.raises(InputError, match="did not write is in the way"):
        put(again, "results.csv", "optsched's")
    assert (tmp_path / "out" / "results.csv").read_text() == "mine"
    assert [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".optsched-")] == []


def test_a_run_killed_between_a_write_and_its_record_leaves_a_folder_the_next_run_knows(tmp_path):
    """The owner file names a file's digest before the file is renamed into place: either content is optsched's."""
    with claim_folder(tmp_path / "out", OWNER) as first:
        put(first, "report.md", "first")
        first.replacing(os.path.realpath(tmp_path / "out" / "report.md"), sha("second"))
        (tmp_path / "out" / "report.md").write_text("second")  # renamed into place, then killed
    with claim_folder(tmp_path / "out", OWNER) as again:
        assert again.previous == {"report.md": sha("second")}


def test_another_run_is_refused_and_fresh_replaces_only_its_files(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as first:
        put(first, "results.csv", "a")
        first.finish()
    (tmp_path / "out" / "later.txt").write_text("mine")
    os.utime(tmp_path / "out" / "later.txt", (2e9, 2e9))  # a clock ahead of the run
    other = {"verb": "study", "name": "b"}
    with pytest.raises(InputError, match="holds the output of another run"):
        claim_folder(tmp_path / "out", other)
    assert (tmp_path / "out" / "results.csv").read_text() == "a"
    with claim_folder(tmp_path / "out", other, fresh=True) as replaced:
        replaced.finish()
    assert not (tmp_path / "out" / "results.csv").exists()
    assert (tmp_path / "out" / "later.txt").read_text() == "mine"
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["name"] == "b"


def test_a_record_from_before_digests_lets_its_files_be_rewritten_never_removed(tmp_path):
    (tmp_path / "out").mkdir()
    for name in ("results.csv", "old.png"):
        (tmp_path / "out" / name).write_text("older optsched")
    (tmp_path / "out" / OWNER_FILE).write_text(json.dumps({**OWNER, "files": ["results.csv", "old.png"]}))
    with claim_folder(tmp_path / "out", OWNER) as again:
        put(again, "results.csv", "new")
        assert again.finish() == []
    assert (tmp_path / "out" / "old.png").exists()
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["files"] == {"results.csv": sha("new")}


def test_a_run_adopts_a_folder_only_where_it_says_so_and_keeps_its_files(tmp_path):
    """An older optsched's record of the same preset is taken over (``adopts``); anything else is not."""
    with claim_folder(tmp_path / "out", {"verb": "study", "name": "demo", "parts": [1]}) as first:
        put(first, "results.csv", "a")
        first.finish()
    preset = {"verb": "study", "preset": "demo"}
    with pytest.raises(InputError, match="holds the output of another run"):
        claim_folder(tmp_path / "out", preset, adopts=lambda recorded: recorded.get("name") == "other")
    again = claim_folder(tmp_path / "out", preset, adopts=lambda recorded: recorded.get("name") == "demo")
    assert again.previous == {"results.csv": sha("a")}
    assert json.loads((tmp_path / "out" / OWNER_FILE).read_text())["preset"] == "demo"


def test_a_folder_of_someone_elses_files_is_never_taken(tmp_path):
    (tmp_path / "mine.txt").write_text("mine")
    for fresh in (False, True):
        with pytest.raises(InputError, match="optsched did not write"):
            claim_folder(tmp_path, OWNER, fresh=fresh)
    assert (tmp_path / "mine.txt").read_text() == "mine"


def test_someone_elses_sqlite_file_named_like_the_cache_is_never_adopted(tmp_path):
    db = sqlite3.connect(tmp_path / "cache.sqlite")
    db.execute("CREATE TABLE units (name TEXT)")
    db.execute("INSERT INTO units VALUES ('mine')")
    db.commit()
    db.close()
    before = (tmp_path / "cache.sqlite").read_bytes()
    for fresh in (False, True):
        with pytest.raises(InputError, match="optsched did not write"):
            claim_folder(tmp_path, OWNER, fresh=fresh)
    assert (tmp_path / "cache.sqlite").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.sqlite"]


@pytest.mark.parametrize("record", ["[]", "[" * 100_000 + "]" * 100_000, '{"verb": "study", "files": 3}', "{"])
def test_a_damaged_owner_file_is_one_line_of_bad_input(tmp_path, record):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / OWNER_FILE).write_text(record)
    with pytest.raises(InputError, match="is damaged"):
        claim_folder(tmp_path / "out", OWNER)
    assert (tmp_path / "out" / OWNER_FILE).read_text() == record


def test_a_damaged_cache_is_refused_before_the_owner_file_is_touched(tmp_path):
    with claim_folder(tmp_path / "out", OWNER) as first:
        first.finish()
    (tmp_path / "out" / "cache.sqlite").write_bytes(b"not a database" * 100)
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    with pytest.raises(InputError, match="the cache is damaged"):
        claim_folder(tmp_path / "out", OWNER)
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before


def test_abandon_removes_the_folders_a_run_created_and_nothing_else(tmp_path):
    folder = claim_folder(tmp_path / "a" / "b", OWNER, parents=True)
    folder.abandon()
    assert list(tmp_path.iterdir()) == []
    kept = claim_folder(tmp_path / "c", OWNER)
    (tmp_path / "c" / "figure.png").write_text("made")
    kept.abandon()
    assert (tmp_path / "c" / "figure.png").exists()


def test_missing_parents_are_refused_unless_asked_for(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        claim_folder(tmp_path / "a" / "b", OWNER)
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


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_every_file_of_a_study_folder_and_its_log_follow_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        done = optsched("study", "--family", "single", "--seeds", "1", "--jobs", "3", "--workers", "1", "--quiet",
                        "-o", tmp_path / "out")
        generated = optsched("generate", "single", "-o", tmp_path / "i.json")
        logged = optsched("solve", tmp_path / "i.json", "--formulation", "time-indexed", "--log", tmp_path / "solve.log")
    finally:
        os.umask(old)
    assert done.code == 0 and generated.code == 0 and logged.code == 0, (done.err, logged)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out").iterdir()}
    modes["solve.log"] = stat.S_IMODE((tmp_path / "solve.log").stat().st_mode)
    assert "ratios.svg" in modes and "cache.sqlite" in modes, modes
    assert set(modes.values()) == {0o666 & ~umask}, modes


def test_a_file_saved_into_a_study_folder_during_the_run_survives_reruns_with_and_without_fresh(tmp_path):
    """Issue 49: a file someone saves into the output folder while a study runs (its clock ahead, or
    not) is never recorded as the run's, so neither a plain rerun nor ``--fresh`` deletes or changes it."""
    out = tmp_path / "rr"
    argv = [console_script(), "study", "--family", "single", "--seeds", "4", "--jobs", "3", "--no-relax",
            "--workers", "1", "--quiet", "-o", str(out)]
    run = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / OWNER_FILE).exists() and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.01)
    notes, copied = out / "notes.txt", out / "copied.csv"
    notes.write_text("my notes")
    copied.write_text("a copy")
    os.utime(copied, (time.time() + 3600, time.time() + 3600))  # a clock ahead of the run
    assert run.wait(timeout=120) == 0, run.stderr.read() if run.stderr else ""
    assert run.poll() is not None
    saved = {p: (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns) for p in (notes, copied)}
    recorded = json.loads((out / OWNER_FILE).read_text())["files"]
    assert "notes.txt" not in recorded and "copied.csv" not in recorded and "results.csv" in recorded
    for extra in ([], ["--fresh"], []):
        again = optsched(*argv[1:], *extra)
        assert again.code == 0, again.err
        assert {p: (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns) for p in (notes, copied)} == saved
