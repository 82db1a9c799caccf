"""Reproduction tasks on the study engine (optsched/reproduce/tasks.py, parallel_map): cached in the
report folder, resumed, refused when a task fails, values as plain JSON data."""

from fractions import Fraction

import numpy as np
import pytest

from optsched.errors import Failure
from optsched.reproduce import Setting, parallel_map
from optsched.study.engine import Execution

CALLS: list = []


def _task(task):
    CALLS.append(task)
    k, scale = task
    if k < 0:
        raise ValueError("a negative task")
    return {"k": k, "square": np.int64(k * k), "scaled": Fraction(k, scale), "pair": (k, k)}


def setting(folder, workers=1):
    folder.mkdir(exist_ok=True)
    return Setting("default", 1, folder, Execution(workers=workers))


def test_tasks_run_once_then_come_from_the_folders_cache(tmp_path):
    CALLS.clear()
    tasks = [(k, 4) for k in range(5)]
    first = parallel_map(_task, tasks, setting(tmp_path), "toy")
    assert len(CALLS) == 5 and (tmp_path / "cache.sqlite").exists()
    assert first[3] == {"k": 3, "square": 9, "scaled": 0.75, "pair": [3, 3]}  # plain JSON, fresh or cached
    again = parallel_map(_task, [*tasks, (5, 4)], setting(tmp_path), "toy")
    assert len(CALLS) == 6 and CALLS[-1] == (5, 4)  # only the new task ran
    assert again[:5] == first


def test_a_run_counts_the_time_of_every_unit_cached_or_not(tmp_path):
    tasks = [(k, 4) for k in range(5)]
    first = setting(tmp_path)
    parallel_map(_task, tasks, first, "toy")
    units, cached, seconds = first.ledger["toy"]
    assert (units, cached) == (5, 0) and seconds > 0
    resumed = setting(tmp_path)
    parallel_map(_task, [*tasks, (5, 4)], resumed, "toy")
    assert resumed.ledger["toy"][:2] == (6, 5) and resumed.ledger["toy"][2] >= seconds  # the cached five count
    assert "in 6 units" in resumed.computing() and "5 came from the cache" in resumed.computing()
    parallel_map(_task, [(6, 4)], resumed, "toy")  # a second call under the same label adds to it
    assert resumed.ledger["toy"][:2] == (7, 5)


def test_a_failing_task_stops_the_reproduction_and_is_not_cached(tmp_path):
    CALLS.clear()
    with pytest.raises(Failure, match="toy: a task failed: ValueError: a negative task"):
        parallel_map(_task, [(1, 1), (-1, 1)], setting(tmp_path), "toy")
    with pytest.raises(Failure):
        parallel_map(_task, [(1, 1), (-1, 1)], setting(tmp_path), "toy")
    assert CALLS == [(1, 1), (-1, 1), (-1, 1)]  # the good task was cached, the failure ran again


def test_local_processes_give_the_values_one_process_gives(tmp_path):
    tasks = [(k, 3) for k in range(6)]
    one = parallel_map(_task, tasks, setting(tmp_path / "one"), "toy")
    two = parallel_map(_task, tasks, setting(tmp_path / "two", workers=2), "toy")
    assert one == two
