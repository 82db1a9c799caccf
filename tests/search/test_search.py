"""optsched search at the process boundary (optsched/search/__init__.py's checks of a request)."""

from __future__ import annotations

import pytest

from tests.contract_helpers import optsched as installed


@pytest.mark.parametrize("argv,message", [
    (["search", "nope", "--algorithm", "x"], "unknown family"),
    (["search", "edge", "--algorithm", "aonline", "--target", "theorem:nope"], "no theorem check"),
    (["search", "edge", "--algorithm", "srtf", "--target", "theorem:lemma2b"], "is about"),
    (["search", "edge", "--algorithm", "aonline", "--target", "best"], "ratio or theorem"),
    (["search", "edge", "--algorithm", "aonline", "--size-max", "99"], "--size-max"),
    (["search", "edge", "--algorithm", "aonline", "--target", "theorem:lemma2b", "--exceed", "2"], "--exceed"),
    (["search", "edge", "--algorithm", "aonline", "-o", "/nonexistent/dir/out"], "does not exist"),
    (["search", "oasis", "--algorithm", "oasis", "--regime", "tiny-jobs"], "no regime 'tiny-jobs' (regimes: small-demands)"),
    (["search", "edge", "--algorithm", "aonline", "--regime", "small-demands"], "regimes: none"),
])
def test_bad_requests_get_one_line_and_exit_2_and_write_nothing(tmp_path, argv, message):
    proc = installed(*argv, cwd=tmp_path)
    assert proc.code == 2 and proc.out == ""
    assert proc.err.count("\n") == 1 and message in proc.err
    assert list(tmp_path.iterdir()) == []

