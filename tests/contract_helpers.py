"""Running the installed ``optsched`` console script as a user does: a separate process, reading
what reaches file descriptors 1 and 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

#: A command that runs longer than this is a hang (the slowest contract case takes a few seconds).
TIMEOUT_S = 120


@dataclass(frozen=True)
class Done:
    code: int
    out: str
    err: str


def console_script() -> str:
    """The ``optsched`` script installed next to this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("optsched")
    if beside.exists():
        return str(beside)
    found = shutil.which("optsched")
    if found is None:
        pytest.fail("the optsched console script is not installed (pip install -e .)")
    return found


def optsched(*argv, cwd: str | os.PathLike | None = None, stdin: str | None = None,
             env: dict | None = None, timeout: float = TIMEOUT_S) -> Done:
    """Run ``optsched ARGV...`` and return its exit code, stdout and stderr."""
    proc = subprocess.run([console_script(), *map(str, argv)], capture_output=True, text=True, cwd=cwd,
                          input=stdin if stdin is not None else "", timeout=timeout,
                          env={**os.environ, **(env or {})})
    return Done(proc.returncode, proc.stdout, proc.stderr)
