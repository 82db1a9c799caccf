"""Output folders of ``study``, ``reproduce`` and ``search``: checked before any work, owned by one run.

:func:`claim` checks a folder before anything is computed or written, and records which run owns it
in ``.optsched.json`` (the verb and every parameter that shapes the results):

* the path is a folder, or nothing yet whose parent folder can take one (a regular file, a named
  pipe or a dangling symbolic link there is bad input);
* every entry already inside is a regular file (or a subfolder the verb writes): a directory where
  optsched writes a file is found now, not after an hour of work;
* a folder written by a run with other parameters is refused, not merged; ``--fresh`` replaces that
  run's outputs (only files optsched wrote there); a non-empty folder optsched did not write is
  refused in any case.

:meth:`Claimed.finish` removes what an earlier run of the same folder wrote and this one did not (a
stale figure), and records the files written; :meth:`Claimed.abandon` removes a folder this run
created and stored nothing in (bad input found late, such as an unreachable Dask scheduler).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .jsonio import check_folder_writable, write_json

OWNER_FILE = ".optsched.json"
CACHE_FILES = ("cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm")


def _describe(owner: dict) -> str:
    shown = {k: v for k, v in owner.items() if k not in ("verb", "files", "optsched")}
    return f"optsched {owner.get('verb', '?')} {json.dumps(shown, sort_keys=True)[:200]}"


def _kind(path: Path) -> str | None:
    """What is at ``path`` when it is not a folder: None for nothing (or a folder)."""
    if path.is_symlink() and not path.exists():
        return "a dangling symbolic link"
    if not path.exists() or path.is_dir():
        return None
    mode = path.stat().st_mode
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    return "not a folder"


@dataclass
class Claimed:
    """A checked output folder owned by this run (see the module docstring)."""

    path: Path
    owner: dict
    created: list[Path]  #: folders this run created, innermost last
    previous: list[str] = field(default_factory=list)  #: files the earlier run of this folder wrote
    started_ns: int = field(default_factory=time.time_ns)

    def finish(self) -> list[str]:
        """Record the files this run wrote, remove stale ones of an earlier run; returns the stale ones."""
        written = sorted(name for name in _files(self.path) if _mtime_ns(self.path / name) >= self.started_ns)
        stale = [name for name in self.previous if name not in written and (self.path / name).is_file()]
        for name in stale:
            (self.path / name).unlink()
        self._record(written)
        return stale

    def abandon(self) -> None:
        """Remove the folders this run created when nothing but its cache and owner file is in them."""
        for folder in reversed(self.created):
            if not folder.is_dir():
                continue
            left = {p.name for p in folder.iterdir()} - {OWNER_FILE, *CACHE_FILES}
            if left or not _cache_empty(folder):
                return
            shutil.rmtree(folder)

    def _record(self, files: list[str]) -> None:
        write_json(str(self.path / OWNER_FILE), {**self.owner, "files": files})


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _files(folder: Path) -> list[str]:
    """Regular files under ``folder`` (relative names), its cache and owner file aside."""
    found = []
    for path in folder.rglob("*"):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and not path.is_symlink() and name not in (OWNER_FILE, *CACHE_FILES):
            found.append(name)
    return found


def _cache_empty(folder: Path) -> bool:
    path = folder / "cache.sqlite"
    if not path.exists():
        return True
    import sqlite3

    try:
        db = sqlite3.connect(path)
        try:
            return db.execute("SELECT COUNT(*) FROM units").fetchone()[0] == 0
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return False


def claim(path: str | Path, owner: dict[str, Any], *, fresh: bool = False, subfolders: Iterable[str] = (),
          parents: bool = False, adopts: Callable[[dict], bool] | None = None) -> Claimed:
    """Check ``path`` as this run's output folder and take it (see the module docstring).

    ``owner`` is plain JSON data naming the verb and the parameters (``{"verb": "study", ...}``);
    ``subfolders`` the folders the verb writes inside; ``parents`` lets missing parent folders be
    created. ``fresh`` drops the cache and an earlier run's outputs. ``adopts(recorded)`` says
    whether a folder recorded under another owner is this run's all the same (an older optsched's
    record of the same preset). Raises :class:`InputError` before anything is written.
    """
    folder = Path(path)
    kind = _kind(folder)
    if kind:
        raise InputError(f"{folder}: cannot write the output folder there: it is {kind}")
    missing = []
    if not folder.is_dir():
        existing = next((p for p in (folder.absolute(), *folder.absolute().parents) if os.path.lexists(p)), None)
        missing = [p for p in (folder.absolute(), *folder.absolute().parents) if not os.path.lexists(p)]
        if existing is None or not existing.is_dir():
            raise InputError(f"{folder}: cannot create it: {existing} is not a folder")
        if len(missing) > 1 and not parents:
            raise InputError(f"{folder}: cannot create it: folder {folder.absolute().parent} does not exist")
        check_folder_writable(str(existing), str(folder))
        previous: list[str] = []
    else:
        previous = _check_contents(folder, owner, fresh, set(subfolders), adopts)
        check_folder_writable(str(folder), str(folder))
    created = sorted(missing, key=lambda p: len(p.parts))
    folder.mkdir(parents=True, exist_ok=True)
    claimed = Claimed(folder, owner, created, previous)
    if fresh:
        for name in (*CACHE_FILES, *previous):
            (folder / name).unlink(missing_ok=True)
        claimed.previous = []
    claimed._record(claimed.previous)
    return claimed


def _check_contents(folder: Path, owner: dict, fresh: bool, subfolders: set[str],
                    adopts: Callable[[dict], bool] | None = None) -> list[str]:
    """Refuse what cannot be written over; return the files of the earlier run that owns ``folder``."""
    entries = {p.name: p for p in folder.iterdir()}
    for name, entry in sorted(entries.items()):
        if name in subfolders and entry.is_dir() and not entry.is_symlink():
            for inner in entry.rglob("*"):
                if not (inner.is_file() and not inner.is_symlink()):
                    raise InputError(f"{inner}: is in the way of an output file (not a regular file); remove it "
                                     "or choose another -o folder")
            continue
        if not (entry.is_file() and not entry.is_symlink()):
            raise InputError(f"{entry}: is in the way of an output file (not a regular file); remove it or "
                             "choose another -o folder")
    if not entries:
        return []
    if OWNER_FILE not in entries:
        if "cache.sqlite" in entries:  # written by an optsched from before owner files: taken over
            return []
        raise InputError(f"{folder}: holds files optsched did not write; choose an empty or new -o folder")
    try:
        recorded = json.loads((folder / OWNER_FILE).read_text(encoding="utf-8"))
        files = recorded.pop("files")
        if not isinstance(recorded, dict) or not isinstance(files, list):
            raise ValueError
    except (OSError, ValueError, KeyError, AttributeError):
        raise InputError(f"{folder / OWNER_FILE}: is damaged; remove the folder or choose another -o folder") from None
    recorded.pop("optsched", None)
    wanted = {k: v for k, v in owner.items() if k != "optsched"}
    if recorded != json.loads(json.dumps(wanted)) and not fresh and not (adopts and adopts(recorded)):
        raise InputError(f"{folder}: holds the output of another run ({_describe(recorded)}); choose another -o "
                         "folder, or give --fresh to replace it")
    return [name for name in files
            if isinstance(name, str) and name and not name.startswith("/") and ".." not in name.split("/")]
