"""Reading and writing the JSON documents optsched exchanges (instances, schedules, results).

Reading turns every failure into one :class:`~optsched.errors.InputError` line naming the file and
the problem; writing is atomic (a temporary file renamed into place), so that a failed command
leaves nothing half-written.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Any

from .errors import InputError


def read_json(path: str) -> Any:
    """Parse a JSON file; NaN and Infinity literals are refused (they are not JSON)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a JSON file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    return parse_json(text, path)


def parse_json(text: str, where: str = "<input>") -> Any:
    def refuse(literal: str) -> Any:
        raise InputError(f"{where}: {literal} is not a number JSON allows")

    try:
        return json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def check_writable(path: str) -> None:
    """Fail early, before any work, if ``path`` cannot be created."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: cannot write: directory {folder} does not exist")
    if os.path.isdir(path):
        raise InputError(f"{path}: cannot write: is a directory")


def write_json(path: str, obj: Any) -> None:
    """Write ``obj`` as JSON atomically: the file appears complete or not at all."""
    write_text(path, dumps(obj))


def write_text(path: str, text: str) -> None:
    check_writable(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".optsched-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def fingerprint(content: Any) -> str:
    """A short content hash of a JSON-ready object (canonical key order), used to tie a schedule
    to the instance it was made for."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]
