"""Where units run: local processes, a Dask cluster, a killed worker replaced (optsched/study/executors.py)."""


import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from optsched.study import run

from ..cli_helpers import run as run_cli
from .helpers import cached_rows, small, stable


def test_two_local_workers_give_the_same_table_as_one(tmp_path):
    one = run(small(tmp_path, "one"), progress=False)
    two = run(small(tmp_path, "two", workers=2), progress=False)
    pd.testing.assert_frame_equal(stable(one.results.drop(columns="study")), stable(two.results.drop(columns="study")))


def test_a_study_on_a_local_dask_cluster_gives_the_same_table_as_local_processes(tmp_path):
    pytest.importorskip("distributed")
    local = run(small(tmp_path, "local", workers=2), progress=False)
    dask = run(small(tmp_path, "dask", workers=2, executor="dask"), progress=False)
    assert dask.cached == 0
    pd.testing.assert_frame_equal(stable(local.results.drop(columns="study")),
                                  stable(dask.results.drop(columns="study")))
    pd.testing.assert_frame_equal(stable(local.references.drop(columns="study")),
                                  stable(dask.references.drop(columns="study")))


def test_an_unreachable_dask_scheduler_is_one_line_and_exit_2(capfd, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from optsched.study import executors

    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
    code, _, err = run_cli(capfd, "study", "--family", "single", "--seeds", "1", "--executor", "dask",
                           "--scheduler", "tcp://127.0.0.1:9", "--quiet", "-o", tmp_path / "out")
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert not (tmp_path / "out").exists()


def test_a_killed_worker_is_replaced_and_its_units_run_again(tmp_path):
    """kill -9 of one worker process breaks the pool; the study replaces it and finishes complete."""
    argv = ["study", "--family", "single", "--seeds", "60", "--jobs", "4,5", "--workers", "2", "--quiet"]
    out = tmp_path / "k"
    proc = subprocess.Popen([sys.executable, "-m", "optsched.cli", *argv, "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while cached_rows(out / "cache.sqlite") < 20 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    assert children, "no worker process to kill; make the study longer"
    os.kill(int(children[0]), signal.SIGKILL)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "a worker process died" in err and "Traceback" not in err
    assert cached_rows(out / "cache.sqlite") == 480
    assert len(pd.read_csv(out / "results.csv")) == 240

