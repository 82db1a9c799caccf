"""The engine (optsched/study/engine.py): cached units never run again, results from other code are
refused, and ``keep`` decides what is stored."""

from __future__ import annotations

import pytest

from optsched.errors import InputError
from optsched.study import engine
from optsched.study.cache import Cache
from optsched.study.units import make_task_unit

CALLS: list[int] = []


def square(k: int) -> int:
    CALLS.append(k)
    if k < 0:
        raise ValueError("a negative task")
    return k * k


def test_cached_units_do_not_run_again_and_equal_keys_run_once(tmp_path):
    CALLS.clear()
    cache = Cache(tmp_path / "cache.sqlite")
    units = [make_task_unit(square, k) for k in (1, 2, 2, 3)]
    first = engine.execute(units, cache)
    assert first.units == 3 and first.cached == 0 and sorted(CALLS) == [1, 2, 3]
    again = engine.execute([*units, make_task_unit(square, 4)], cache)
    assert again.units == 4 and again.cached == 3 and sorted(CALLS) == [1, 2, 3, 4]
    assert again.results[units[3].key]["value"] == 9  # from the cache, as plain JSON
    cache.close()


def test_keep_decides_what_is_stored(tmp_path):
    CALLS.clear()
    cache = Cache(tmp_path / "cache.sqlite")
    units = [make_task_unit(square, k) for k in (2, -1)]
    batch = engine.execute(units, cache, keep=lambda unit, result: result["status"] != "error")
    assert batch.results[units[1].key]["status"] == "error" and len(cache) == 1
    cache.close()


def test_a_result_from_other_code_is_refused(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "cache.sqlite")
    real = engine.executors.local

    def elsewhere(units, workers):  # a worker whose code differs from this process's
        for unit, result in real(units, workers):
            yield unit, {**result, "code": "0.1.0+another"}

    monkeypatch.setattr(engine.executors, "local", elsewhere)
    with pytest.raises(InputError, match="install the same optsched on every worker"):
        engine.execute([make_task_unit(square, 5)], cache)
    assert len(cache) == 0
    cache.close()


def test_without_a_terminal_progress_is_a_plain_line_now_and_then(tmp_path, monkeypatch, capfd):
    """A paper preset runs for hours in a batch job, where a bar is not drawn: a line on stderr once
    LOG_EVERY_S has passed (every unit here, the interval set to 0), none with progress off, and
    none for a run shorter than the interval (the default, so short runs stay silent)."""
    cache = Cache(tmp_path / "cache.sqlite")
    engine.execute([make_task_unit(square, 1)], cache)  # one cached unit
    units = [make_task_unit(square, k) for k in (1, 2, 3)]
    engine.execute(units, cache, label="squares", progress=True)
    assert capfd.readouterr().err == ""  # shorter than LOG_EVERY_S
    monkeypatch.setattr(engine, "LOG_EVERY_S", 0.0)
    engine.execute([make_task_unit(square, k) for k in (4, 5)], cache, label="squares", progress=False)
    assert capfd.readouterr().err == ""
    engine.execute([*units, *(make_task_unit(square, k) for k in (6, 7))], cache, label="squares", progress=True)
    lines = capfd.readouterr().err.splitlines()
    assert lines == ["optsched: squares: 4 of 5 units done (80%), 0 min into this run",
                     "optsched: squares: 5 of 5 units done (100%), 0 min into this run"]
    cache.close()
