"""How a reproduction runs (optsched/reproduce/setting.py): the presets' seeds, as the help states
them, and the computing time a run reports."""

import shutil
import subprocess
from pathlib import Path

from optsched.reproduce import DEFAULT_SEEDS, Setting
from optsched.study.engine import Execution


def test_the_help_states_each_presets_seeds():
    done = subprocess.run([shutil.which("optsched"), "reproduce", "--help"], capture_output=True, text=True, check=True)
    text = " ".join(done.stdout.split())
    for preset, seeds in DEFAULT_SEEDS.items():
        assert f"{preset} (" in text and f"{seeds} seeds" in text.split(f"{preset} (", 1)[1].split(")", 1)[0]


def test_a_run_reports_its_computing_time_in_hours_past_one():
    setting = Setting("paper", 30, Path("unused"), Execution(workers=2))
    setting.ledger.update({"a": (10, 4, 1800.0), "b": (5, 0, 5400.0)})
    assert setting.computing().startswith("Computing time: 2.0 hours in 15 units")
    assert "4 came from the cache this run" in setting.computing()
    assert Setting("quick", 5, Path("unused")).computing().startswith("Computing time: 0 s in 0 units")
