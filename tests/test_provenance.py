"""The version a result names (optsched/provenance.py): the package version, and the commit of the
checkout optsched runs from, read from .git whether HEAD names a branch, a packed ref or a detached
commit, in a clone or in a worktree; nothing outside a clone."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import optsched.provenance as provenance

ROOT = Path(__file__).resolve().parents[1]


def _copy_with_git(tmp_path: Path, git: str) -> Path:
    """optsched's source copied into a fresh tree, a git repository made there in the way ``git`` says."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "optsched", tree / "optsched", ignore=shutil.ignore_patterns("__pycache__"))
    run = lambda *argv: subprocess.run(["git", *argv], cwd=tree, check=True, capture_output=True, text=True)  # noqa: E731
    run("init", "-q", "-b", "main")
    run("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "one")
    if git == "packed":
        run("pack-refs", "--all")
    elif git == "detached":
        run("checkout", "-q", "--detach")
    return tree


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to make the repositories")
@pytest.mark.parametrize("git", ["branch", "packed", "detached"])
def test_the_commit_is_read_whatever_head_names(tmp_path, git):
    tree = _copy_with_git(tmp_path, git)
    expected = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, check=True, capture_output=True,
                              text=True).stdout.strip()
    shown = subprocess.run([sys.executable, "-c", "import optsched.provenance as p; print(p.commit())"],
                           cwd=tmp_path, env={"PYTHONPATH": str(tree)}, check=True, capture_output=True,
                           text=True).stdout.strip()
    assert shown == expected


def test_outside_a_clone_it_is_the_package_version(monkeypatch, tmp_path):
    monkeypatch.setattr(provenance, "__file__", str(tmp_path / "optsched" / "provenance.py"))
    provenance.commit.cache_clear()
    try:
        assert provenance.commit() is None and provenance.version_string() == provenance.__version__
    finally:
        provenance.commit.cache_clear()
