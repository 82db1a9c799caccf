"""Cache keys from what a unit depends on (optsched/study/depends.py).

Each test copies the optsched source to a temporary folder, edits the copy, and computes every unit
key of the demo study from the original and from the copy in fresh interpreters: a key that stays
the same is a unit the rerun takes from its cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import optsched
from optsched.study import depends

SOURCE = Path(optsched.__file__).resolve().parent

KEYS = """
import json, sys
from pathlib import Path
from optsched import study
from optsched.study.runner import unit_keys
demo = study.study(study.PRESETS["demo"](), "preset demo", Path("unused"))
json.dump(unit_keys(demo), sys.stdout)
"""


def _keys(root: Path, hash_seed: str = "0") -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", KEYS], capture_output=True, text=True, env=env, cwd=root)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("original")
    shutil.copytree(SOURCE, root / "optsched", ignore=shutil.ignore_patterns("__pycache__"))
    return _keys(root)


def _edited(tmp_path: Path, file: str, old: str, new: str) -> dict[str, str]:
    shutil.copytree(SOURCE, tmp_path / "optsched", ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "optsched" / file
    text = path.read_text()
    assert old in text, f"{file} no longer contains {old!r}: update the test"
    path.write_text(text.replace(old, new, 1))
    return _keys(tmp_path)


def _rerun(original: dict[str, str], edited: dict[str, str]) -> set[str]:
    """The labels of the units a rerun after the edit would compute (their keys changed)."""
    assert len(original) == len(edited) == 3120
    return {label for key, label in edited.items() if key not in original}


def test_keys_are_the_same_in_every_interpreter(original, tmp_path):
    shutil.copytree(SOURCE, tmp_path / "optsched", ignore=shutil.ignore_patterns("__pycache__"))
    assert _keys(tmp_path, hash_seed="12345") == original


def test_a_comment_in_the_cli_reruns_nothing(original, tmp_path):
    edited = _edited(tmp_path, "cli.py", "from __future__ import annotations\n",
                     "from __future__ import annotations\n\n# a comment a developer added\n")
    assert _rerun(original, edited) == set()


def test_a_docstring_edit_in_a_formulation_reruns_nothing(original, tmp_path):
    edited = _edited(tmp_path, "single/formulations.py", '"""', '"""Edited. ')
    assert _rerun(original, edited) == set()


def test_an_edit_to_one_algorithm_reruns_its_runs_and_the_solves_it_starts(original, tmp_path):
    edited = _edited(tmp_path, "single/online.py", "def wspt(instance: Instance, *, seed: int = 0) -> Schedule:\n",
                     "def wspt(instance: Instance, *, seed: int = 0) -> Schedule:\n    edited = True  # noqa\n")
    rerun = _rerun(original, edited)
    # wspt's runs, and the time-indexed solves (references and relaxations): WSPT is the MILP's start
    # and the CP-SAT model's hint; fifo's runs and the other families' units stay cached
    roles = {tuple(label.split("/")[:2]) for label in rerun}
    assert roles == {("single", "wspt"), ("single", "reference"), ("single", "relaxation")}
    assert len(rerun) == sum(label.split("/")[:2] in (["single", "wspt"], ["single", "reference"],
                                                      ["single", "relaxation"]) for label in original.values())


def test_an_edit_to_a_formulation_reruns_its_references_only(original, tmp_path):
    edited = _edited(tmp_path, "single/formulations.py",
                     "def time_indexed(instance: Instance, relax: bool = False) -> Model:\n",
                     "def time_indexed(instance: Instance, relax: bool = False) -> Model:\n    edited = True  # noqa\n")
    rerun = _rerun(original, edited)
    roles = {tuple(label.split("/")[:2]) for label in rerun}
    assert roles == {("single", "reference"), ("single", "relaxation")}
    assert len(rerun) == sum(label.split("/")[:2] in (["single", "reference"], ["single", "relaxation"])
                             for label in original.values())


def test_an_edit_to_the_verifier_reruns_every_unit_of_its_family_and_no_other(original, tmp_path):
    edited = _edited(tmp_path, "single/schedule.py",
                     "def verify(instance: Instance, schedule: Schedule) -> list[str]:\n",
                     "def verify(instance: Instance, schedule: Schedule) -> list[str]:\n    edited = True  # noqa\n")
    rerun = _rerun(original, edited)
    assert rerun == {label for label in original.values() if label.startswith("single/")}


def test_a_task_reaches_the_family_it_looks_up_by_name_but_not_the_report():
    reached, whole = depends.reach("optsched.edge.reproduce", "_ratio_task")
    modules = {name.split("#")[0] for name, _ in reached} | whole
    assert "optsched.edge.online" in modules and "optsched.edge.formulations" in modules
    assert not {"optsched.cli", "optsched.study.report", "optsched.oasis.online"} & modules


def test_a_task_that_runs_a_method_by_name_reaches_every_algorithm_of_its_family_and_no_model():
    """hetero-sec7's runs (``run_verified(get("hetero"), ...)`` with the method from the task) key on
    hetero's algorithms, verifier and objective: an edit to a bound route or a model reruns none."""
    reached, whole = depends.reach("optsched.hetero.reproduce", "_online_task")
    modules = {name.split("#")[0] for name, _ in reached} | whole
    assert {"optsched.hetero.online", "optsched.hetero.baselines", "optsched.hetero.schedule"} <= modules
    assert not {"optsched.hetero.pooled", "optsched.hetero.formulations", "optsched.hetero.checks",
                "optsched.hetero.mutate"} & modules


def _roles(rerun: set[str]) -> set[tuple[str, str]]:
    return {tuple(label.split("/")[:2]) for label in rerun}


def _all_of(original: dict[str, str], roles: set[tuple[str, str]]) -> set[str]:
    return {label for label in original.values() if tuple(label.split("/")[:2]) in roles}


def test_in_a_family_whose_solves_start_from_online_schedules_an_edit_to_another_algorithm_reruns_its_runs_only(
        original, tmp_path):
    """OASiS's exact models start from OASiS's and RRH's schedules (the MIP start and the CP-SAT hint):
    an edit to FIFO, which no solve runs, re-runs FIFO's units and nothing else (issue 49)."""
    edited = _edited(tmp_path, "oasis/baselines.py", "def fifo(instance: Instance, *, seed: int = 0, ",
                     "def fifo(instance: Instance, *, seed: int = 0, edited: bool = True, ")
    rerun = _rerun(original, edited)
    assert rerun and rerun == _all_of(original, {("oasis", "fifo")})


def test_an_edit_to_an_algorithm_a_solve_starts_from_reruns_its_runs_and_those_solves(original, tmp_path):
    edited = _edited(tmp_path, "oasis/baselines.py", "def rrh(instance: Instance, *, seed: int = 0, ",
                     "def rrh(instance: Instance, *, seed: int = 0, edited: bool = True, ")
    rerun = _rerun(original, edited)
    assert _roles(rerun) <= {("oasis", "rrh"), ("oasis", "reference"), ("oasis", "relaxation")}
    assert ("oasis", "rrh") in _roles(rerun) and ("oasis", "reference") in _roles(rerun)
    assert rerun == _all_of(original, _roles(rerun))


def test_an_edit_to_a_cp_sat_model_leaves_the_relaxations_cached(original, tmp_path):
    """A relaxation is keyed by the formulation whose LP it is, never by ``best``: the CP-SAT model
    has no LP, so an edit to it re-runs the references (``best`` may solve it) and no relaxation."""
    edited = _edited(tmp_path, "oasis/formulations.py", "def cp_sat(instance: Instance, relax: bool = False) -> "
                     "CpSatModel:\n", "def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:\n"
                     "    edited = True  # noqa\n")
    rerun = _rerun(original, edited)
    assert rerun == _all_of(original, {("oasis", "reference")})
