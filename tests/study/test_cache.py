"""The study cache (optsched/study/cache.py): one row per key, checksums that catch an edited row,
and a damaged file as one line of bad input."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from optsched.errors import InputError
from optsched.study import run
from optsched.study.cache import Cache

from ..cli_helpers import run as run_cli
from .helpers import small, stable


def test_a_stored_result_comes_back_and_a_key_is_stored_once(tmp_path):
    cache = Cache(tmp_path / "cache.sqlite")
    cache.store("k1", "algorithm", {"objective": 3.5, "status": "feasible"})
    cache.store("k1", "algorithm", {"objective": 99.0, "status": "feasible"})  # a second store keeps the first
    found, damaged = cache.lookup(["k1", "missing"])
    assert found == {"k1": {"objective": 3.5, "status": "feasible"}} and damaged == [] and len(cache) == 1
    cache.close()
    reopened = Cache(tmp_path / "cache.sqlite")
    assert reopened.lookup(["k1"])[0]["k1"]["objective"] == 3.5
    reopened.close()


def _edit_behind_the_cache(path, key: str, text: str) -> None:
    """Overwrite a stored result's text without updating its checksum, as damage would."""
    db = sqlite3.connect(path)
    db.execute("UPDATE units SET result = ? WHERE key = ?", (text, key))
    db.commit()
    db.close()


def test_an_edited_row_fails_its_checksum_and_is_dropped(tmp_path):
    cache = Cache(tmp_path / "cache.sqlite")
    cache.store("k1", "reference", {"objective": 10.0})
    cache.store("k2", "reference", {"objective": 20.0})
    cache.close()
    _edit_behind_the_cache(tmp_path / "cache.sqlite", "k1", '{"objective": 9.0}')
    cache = Cache(tmp_path / "cache.sqlite")
    found, damaged = cache.lookup(["k1", "k2"])
    assert damaged == ["k1"] and found == {"k2": {"objective": 20.0}}
    assert len(cache) == 1  # the damaged row is gone, so the unit's new result can take its place
    cache.close()


def test_intact_reads_the_checksum_valid_rows_in_key_order_and_counts_the_rest(tmp_path):
    """Cache.intact (benchmarks/paper_runs.py archives from it): the rows whose checksum holds, and
    the number that failed it, from one read, leaving the file as it was."""
    cache = Cache(tmp_path / "cache.sqlite")
    for key in ("k3", "k1", "k2"):
        cache.store(key, "task", {"value": key})
    cache.close()
    _edit_behind_the_cache(tmp_path / "cache.sqlite", "k2", '{"value": "edited"}')
    cache = Cache(tmp_path / "cache.sqlite")
    good, damaged = cache.intact()
    assert [key for key, _, _ in good] == ["k1", "k3"] and damaged == 1
    assert len(cache) == 3  # read only: the damaged row is still there
    cache.close()


def test_many_keys_are_looked_up_past_sqlites_parameter_limit(tmp_path):
    cache = Cache(tmp_path / "cache.sqlite")
    for k in range(1200):
        cache.store(f"k{k}", "task", {"value": k})
    found, _ = cache.lookup([f"k{k}" for k in range(1300)])
    assert len(found) == 1200 and found["k1199"] == {"value": 1199}
    cache.close()


def test_a_file_that_is_not_a_database_is_one_line_of_bad_input(tmp_path):
    (tmp_path / "cache.sqlite").write_bytes(b"not a database at all" * 400)
    with pytest.raises(InputError, match="the cache is damaged.*--fresh"):
        Cache(tmp_path / "cache.sqlite").lookup(["k"])


def test_a_cached_row_that_fails_its_checksum_is_run_again_and_reported(tmp_path):
    s = small(tmp_path)
    first = run(s, progress=False)
    db = tmp_path / "s" / "cache.sqlite"
    with sqlite3.connect(db) as con:  # one stored objective digit changed, as a disk fault or an edit would
        key, text = con.execute("SELECT key, result FROM units WHERE result LIKE '%\"objective\": %' "
                                "AND kind = 'algorithm' LIMIT 1").fetchone()
        value = text.split('"objective": ')[1].split(",")[0]
        tampered = text.replace(f'"objective": {value}', f'"objective": {float(value) + 1}', 1)
        assert tampered != text
    _edit_behind_the_cache(db, key, tampered)
    again = run(s, progress=False)
    assert again.recomputed == 1 and again.cached == again.units - 1
    pd.testing.assert_frame_equal(stable(again.results), stable(first.results))
    third = run(s, progress=False)
    assert third.recomputed == 0 and third.cached == third.units


def test_a_damaged_cache_file_is_one_line_of_bad_input(tmp_path, capfd):
    argv = ["study", "--family", "single", "--seeds", "4", "--jobs", "3,4", "--workers", "1", "--quiet",
            "-o", tmp_path / "s"]
    assert run_cli(capfd, *argv)[0] == 0
    db = tmp_path / "s" / "cache.sqlite"
    for leftover in ("cache.sqlite-wal", "cache.sqlite-shm"):
        (tmp_path / "s" / leftover).unlink(missing_ok=True)
    data = bytearray(db.read_bytes())
    data[100:4096 * 2] = b"\xff" * (4096 * 2 - 100)  # the header's tail and the first pages
    db.write_bytes(bytes(data))
    code, out, err = run_cli(capfd, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "the cache is damaged" in err and "--fresh" in err
    code, _, _ = run_cli(capfd, *argv, "--fresh")
    assert code == 0



def test_a_restored_paper_run_folder_is_taken_by_the_reproduction(tmp_path, monkeypatch):
    """benchmarks/paper_runs.py restore claims the folder as `optsched reproduce NAME --preset paper -o
    OUT` does, so that run resumes from the restored units instead of refusing a folder it did not write."""
    import gzip
    import importlib.util
    import json

    from optsched.outputs import claim_folder

    spec = importlib.util.spec_from_file_location("paper_runs", Path(__file__).parents[2] / "benchmarks/paper_runs.py")
    paper_runs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paper_runs)
    monkeypatch.setattr(paper_runs, "ARCHIVES", tmp_path)
    with gzip.open(tmp_path / "edge-sec5.jsonl.gz", "wt") as fh:
        fh.write(json.dumps({"reproduction": "edge-sec5", "commit": "0" * 40, "units": 1}) + "\n")
        fh.write(json.dumps({"key": "k1", "kind": "task", "result": {"value": 1}}) + "\n")
    paper_runs.restore("edge-sec5", tmp_path / "out")
    with claim_folder(tmp_path / "out", {"verb": "reproduce", "name": "edge-sec5", "preset": "paper"}) as folder:
        assert Cache(folder.path / "cache.sqlite").lookup(["k1"])[0] == {"k1": {"value": 1}}
    with pytest.raises(InputError, match="another run"):
        claim_folder(tmp_path / "out", {"verb": "reproduce", "name": "edge-sec5", "preset": "quick"})
    # a default preset's archive is its own file, and its folder is claimed for that preset
    with gzip.open(tmp_path / "edge-sec5-default.jsonl.gz", "wt") as fh:
        fh.write(json.dumps({"reproduction": "edge-sec5", "preset": "default", "commit": "0" * 40, "units": 1}) + "\n")
        fh.write(json.dumps({"key": "k2", "kind": "task", "result": {"value": 2}}) + "\n")
    paper_runs.restore("edge-sec5", tmp_path / "out-default", preset="default")
    with claim_folder(tmp_path / "out-default", {"verb": "reproduce", "name": "edge-sec5", "preset": "default"}) as folder:
        assert Cache(folder.path / "cache.sqlite").lookup(["k2"])[0] == {"k2": {"value": 2}}
