"""Which optsched produced a result: the package version, and the git commit of the checkout it runs
from, where it runs from one (an editable install of a clone). Read from the files under ``.git``,
without running git; edits not committed yet are not detected (the code digests a study keeps with
each unit, its ``code`` column, are what tell two versions of the code apart).

Examples
--------
>>> from optsched.provenance import version_string
>>> version_string().startswith("0.")
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from . import __version__


@cache
def commit() -> str | None:
    """The commit the package's source tree is checked out at (40 hex digits), or None outside a clone."""
    git = Path(__file__).resolve().parent.parent / ".git"
    if git.is_file():  # a worktree: "gitdir: PATH"
        text = git.read_text().strip()
        if not text.startswith("gitdir: "):
            return None
        git = (git.parent / text.removeprefix("gitdir: ")).resolve()
    try:
        head = (git / "HEAD").read_text().strip()
    except OSError:
        return None
    if not head.startswith("ref: "):
        return head if len(head) == 40 else None
    ref = head.removeprefix("ref: ")
    common = Path((git / "commondir").read_text().strip()) if (git / "commondir").is_file() else None
    roots = [git] + ([(git / common).resolve()] if common else [])
    for root in roots:
        loose = root / ref
        if loose.is_file():
            return loose.read_text().strip()
        packed = root / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                sha, _, name = line.partition(" ")
                if name == ref:
                    return sha
    return None


def version_string() -> str:
    """``0.1.0`` or, in a clone, ``0.1.0 (git 1bfd78c)``: the version a report or a citation names."""
    found = commit()
    return f"{__version__} (git {found[:7]})" if found else __version__
