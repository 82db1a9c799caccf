"""Output folders of ``study``, ``reproduce`` and ``search``: checked before any work, owned by one run.

:func:`claim_folder` checks a folder before anything is computed or written, and records which run owns it
in ``.optsched.json`` (the verb and every parameter that shapes the results, and the files it wrote):

* the path is a folder, or nothing yet whose parent folder can take one (a regular file, a named
  pipe or a dangling symbolic link there is bad input);
* every entry already inside is a regular file (or a subfolder the verb writes, which must be a
  folder): a directory where optsched writes a file is found now, not after an hour of work;
* a folder written by a run with other parameters is refused, not merged; ``--fresh`` replaces that
  run's outputs (only files optsched wrote there); a non-empty folder optsched did not write (no
  owner file, whatever else it holds) is refused in any case;
* the cache of an earlier run of the folder is readable (a damaged one is refused before the owner
  file is touched).

Ownership is by content, never by clock: the owner file records each file's name with the SHA-256
of the bytes this run wrote (:class:`Claimed` watches every :func:`optsched.jsonio.write_file`), so
a file someone else saved, copied or touched into the folder is never recorded, replaced or
deleted, and a file optsched wrote that was changed since is no longer its own: the run is refused
before any work until it is moved away. The record is written before and after each write, so a
run killed at any moment leaves a folder the next run can still tell apart.

:meth:`Claimed.finish` removes what an earlier run of the same folder wrote, this one did not, and
nobody changed since (a stale figure), and records the files written; :meth:`Claimed.abandon`
removes a folder this run created and stored nothing in (bad input found late, such as an
unreachable Dask scheduler).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .jsonio import check_folder_writable, check_name, digest_of, parse_json, read_text, watch, write_json

OWNER_FILE = ".optsched.json"
CACHE_FILES = ("cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm")
#: The largest owner file read (a record of some thousands of files is well below it).
OWNER_FILE_MB = 16


def _describe(owner: dict) -> str:
    shown = {k: v for k, v in owner.items() if k not in ("verb", "files", "writing", "optsched")}
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
    """A checked output folder owned by this run (see the module docstring).

    ``previous`` maps each file an earlier run of the folder wrote to the digest it wrote (None: named
    by an older optsched's record, which kept no digests; such a file may be rewritten, never
    deleted); ``written`` the files this run wrote to theirs. Use it as a context manager: while it
    lasts, every write into the folder is checked and recorded."""

    path: Path
    owner: dict
    created: list[Path]  #: folders this run created, innermost last
    previous: dict[str, str | None] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    writing: dict[str, str] = field(default_factory=dict)  #: written, not yet renamed into place

    def __enter__(self) -> Claimed:
        self._watching = watch(self)
        self._watching.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._watching.__exit__(None, None, None)

    def _name(self, real: str) -> str | None:
        """``real``'s name relative to the folder, or None outside it (and for the owner file)."""
        root = os.path.realpath(self.path)
        if not real.startswith(root + os.sep):
            return None
        name = Path(os.path.relpath(real, root)).as_posix()
        return None if name == OWNER_FILE else name

    def replacing(self, path: str, digest: str) -> None:
        """Refuse to replace a file of the folder that this run, or an earlier one, did not write."""
        name = self._name(path)
        if name is None:
            return
        if os.path.lexists(path) and name not in self.written and not _still(self.path, name, self.previous):
            raise InputError(f"{path}: a file optsched did not write is in the way; move it, or choose another "
                             "-o folder")
        self.writing[name] = digest
        self._record()

    def replaced(self, path: str, digest: str) -> None:
        """Record a file this run wrote."""
        name = self._name(path)
        if name is None:
            return
        self.writing.pop(name, None)
        self.written[name] = digest
        self._record()

    def finish(self) -> list[str]:
        """Record the files this run wrote, remove stale ones of an earlier run that nobody changed since;
        returns the removed ones."""
        stale = [name for name, digest in self.previous.items()
                 if name not in self.written and digest is not None and _digest(self.path / name) == digest]
        for name in stale:
            (self.path / name).unlink()
        self.previous = {}
        self._record()
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

    def _record(self) -> None:
        files = {**self.previous, **self.written}
        write_json(str(self.path / OWNER_FILE), {**self.owner, "files": dict(sorted(files.items())),
                                                 **({"writing": self.writing} if self.writing else {})})


def _digest(path: Path) -> str | None:
    """The SHA-256 of a regular file's bytes; None when it is gone or not a regular file."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        return digest_of(str(path))
    except OSError:
        return None


def _still(folder: Path, name: str, recorded: dict[str, str | None]) -> bool:
    """Whether ``name`` is as an earlier run recorded it: the bytes it wrote, or named by an older
    record without digests."""
    return name in recorded and (recorded[name] is None or _digest(folder / name) == recorded[name])


def _cache_empty(folder: Path) -> bool:
    path = folder / "cache.sqlite"
    if not path.exists():
        return True
    try:
        db = sqlite3.connect(path)
        try:
            return db.execute("SELECT COUNT(*) FROM units").fetchone()[0] == 0
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return False


def claim_folder(path: str | Path, owner: dict[str, Any], *, fresh: bool = False, subfolders: Iterable[str] = (),
                 parents: bool = False, adopts: Callable[[dict], bool] | None = None) -> Claimed:
    """Check ``path`` as this run's output folder and take it (see the module docstring).

    ``owner`` is plain JSON data naming the verb and the parameters (``{"verb": "study", ...}``);
    ``subfolders`` the folders the verb writes inside; ``parents`` lets missing parent folders be
    created. ``fresh`` drops the cache and an earlier run's outputs (those nobody changed since).
    ``adopts(recorded)`` says whether a folder recorded under another owner is this run's all the
    same (an older optsched's record of the same preset). Raises :class:`InputError` before
    anything is written. The result is a context manager: enter it before the run writes.
    """
    folder = Path(path)
    check_name(str(folder))
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
        previous: dict[str, str | None] = {}
    else:
        previous = _check_contents(folder, owner, fresh, set(subfolders), adopts)
        check_folder_writable(str(folder), str(folder))
    created = sorted(missing, key=lambda p: len(p.parts))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{folder}: cannot create it: {exc.strerror or exc}") from None
    claimed = Claimed(folder, owner, created, previous)
    if fresh:
        for name in CACHE_FILES:
            (folder / name).unlink(missing_ok=True)
        for name, digest in previous.items():
            if digest is not None and _digest(folder / name) == digest:
                (folder / name).unlink()
        claimed.previous = {}
    claimed._record()
    return claimed


def _check_contents(folder: Path, owner: dict, fresh: bool, subfolders: set[str],
                    adopts: Callable[[dict], bool] | None = None) -> dict[str, str | None]:
    """Refuse what cannot be written over; return the files (with their digests) of the earlier run
    that owns ``folder``."""
    entries = {p.name: p for p in folder.iterdir()}
    for name, entry in sorted(entries.items()):
        if name in subfolders:
            if not (entry.is_dir() and not entry.is_symlink()):
                raise InputError(f"{entry}: is in the way of an output folder (not a folder); remove it or "
                                 "choose another -o folder")
            for inner in entry.rglob("*"):
                if not (inner.is_file() and not inner.is_symlink()):
                    raise InputError(f"{inner}: is in the way of an output file (not a regular file); remove it "
                                     "or choose another -o folder")
            continue
        if not (entry.is_file() and not entry.is_symlink()):
            raise InputError(f"{entry}: is in the way of an output file (not a regular file); remove it or "
                             "choose another -o folder")
    if not entries:
        return {}
    if OWNER_FILE not in entries:
        raise InputError(f"{folder}: holds files optsched did not write; choose an empty or new -o folder")
    recorded, files = read_owner(folder / OWNER_FILE)
    wanted = {k: v for k, v in owner.items() if k != "optsched"}
    same = recorded == json.loads(json.dumps(wanted)) or bool(adopts and adopts(recorded))
    if not same and not fresh:
        raise InputError(f"{folder}: holds the output of another run ({_describe(recorded)}); choose another -o "
                         "folder, or give --fresh to replace it")
    for name in sorted(files):
        if (folder / name).exists() and not _still(folder, name, files):
            raise InputError(f"{folder / name}: was changed after optsched wrote it, so it is no longer "
                             "optsched's to replace; move it out of the folder, or choose another -o folder")
    if same and not fresh:
        _check_cache(folder)
    return {name: digest for name, digest in files.items() if (folder / name).exists()}


def read_owner(path: Path) -> tuple[dict, dict[str, str | None]]:
    """An owner file's record (without its files) and its files with their digests (None for each
    file of a record from before digests, which listed names only)."""
    damaged = InputError(f"{path}: is damaged; remove the folder or choose another -o folder")
    try:
        recorded = parse_json(read_text(str(path), OWNER_FILE_MB), str(path))
    except InputError:
        raise damaged from None
    if not isinstance(recorded, dict):
        raise damaged
    listed = recorded.pop("files", None)
    writing = recorded.pop("writing", {})
    recorded.pop("optsched", None)
    if isinstance(listed, list) and all(isinstance(name, str) for name in listed):
        files: dict[str, str | None] = dict.fromkeys(listed)
    elif isinstance(listed, dict) and all(isinstance(d, str) for d in listed.values()):
        files = dict(listed)
    else:
        raise damaged
    if not isinstance(writing, dict):
        raise damaged
    # a run killed between writing a file and recording it: either content is its own
    for name, digest in writing.items():
        if isinstance(digest, str) and isinstance(name, str) and _digest(path.parent / name) == digest:
            files[name] = digest
    return recorded, {name: digest for name, digest in files.items() if _safe(name)}


def _safe(name: str) -> bool:
    """A recorded name that stays inside the folder."""
    return bool(name) and not name.startswith("/") and ".." not in name.split("/") and name != OWNER_FILE


def _check_cache(folder: Path) -> None:
    """Refuse a cache SQLite cannot read, before the owner file is touched (``--fresh`` rebuilds it)."""
    path = folder / "cache.sqlite"
    if not path.exists():
        return
    try:
        db = sqlite3.connect(path)
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "units" in tables:
                db.execute("SELECT COUNT(*) FROM units").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise cache_failure(path, exc) from None


def cache_failure(path: Path, exc: sqlite3.DatabaseError) -> InputError:
    """One line for a cache SQLite refused: damaged (``--fresh`` rebuilds it), or a machine that
    cannot hold it (a full disk, a read-only folder, another run holding it), where the cache is
    intact and keeps what it stored."""
    name = getattr(exc, "sqlite_errorname", "")
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or (not name and ("malformed" in str(exc)
                                                                       or "not a database" in str(exc))):
        return InputError(f"{path}: the cache is damaged ({exc}); run again with --fresh to rebuild it")
    return InputError(f"{path}: cannot use the cache: {exc}; the results stored so far are kept, and a run "
                      "again once that is fixed computes only the rest")
