"""Reading and writing the JSON documents optsched exchanges (instances, schedules, results).

Reading turns every failure into one :class:`~optsched.errors.InputError` line naming the file and
the problem; writing is atomic (a temporary file renamed into place), so that a failed command
leaves nothing half-written. A special file (``/dev/null``, a named pipe) is written in place, never
replaced by a regular file.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol

from .errors import InputError

#: The largest input file read by default (``--max-input-mb`` raises it): a 10,000-job instance is
#: a few MB, and parsing a file takes about 20 times its size in memory.
MAX_INPUT_MB = 64


def read_text(path: str, max_mb: float = MAX_INPUT_MB, what: str = "") -> str:
    """The text of a UTF-8 file of at most ``max_mb`` megabytes, read in chunks (a pipe or a device
    has no size ahead, and a large limit allocates nothing); every failure is one
    :class:`InputError` line naming the file. ``what`` names the kind of file in the messages."""
    limit = f"more than the input limit of {max_mb:g} MB (raise it with --max-input-mb)"
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_mb * 1e6:
                raise InputError(f"{path}: {size / 1e6:,.1f} MB, {limit}")
            chunks, read = [], 0
            while chunk := f.read(READ_CHUNK):
                read += len(chunk)
                if read > max_mb * 1e6:
                    raise InputError(f"{path}: {limit}")
                chunks.append(chunk)
        return b"".join(chunks).decode("utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not {what or 'a file'}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


#: Bytes read at a time from an input file.
READ_CHUNK = 1 << 20


def read_json(path: str, max_mb: float = MAX_INPUT_MB) -> Any:
    """Parse a JSON file of at most ``max_mb`` megabytes; NaN and Infinity literals are refused
    (they are not JSON)."""
    return parse_json(read_text(path, max_mb, "a JSON file"), path)


def parse_json(text: str, where: str = "<input>") -> Any:
    """Parse ``text`` as strict JSON: NaN and Infinity are refused, and a syntax error raises ``InputError`` naming
    ``where``, the line and the column."""
    def refuse(literal: str) -> Any:
        raise InputError(f"{where}: {literal} is not a number JSON allows")

    try:
        parsed = json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested more than {MAX_DEPTH} levels deep") from None
    except InputError:
        raise
    except ValueError:  # an integer literal beyond Python's digit limit for int(str)
        raise InputError(f"{where}: an integer literal of more than {sys.get_int_max_str_digits():,} digits") from None
    if nesting(parsed) > MAX_DEPTH:
        raise InputError(f"{where}: JSON nested more than {MAX_DEPTH} levels deep")
    return parsed


#: Deepest nesting of arrays and objects a document may have (optsched's own documents use 5).
MAX_DEPTH = 64


def nesting(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def dumps(obj: Any) -> str:
    """Strict JSON text; a NaN or an infinity is an error (documents never hold one: see :func:`plain`
    for summaries, where NaN means undefined)."""
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def plain(obj: Any) -> Any:
    """``obj`` as strict JSON data for a ``--json`` summary: NaN and infinities (undefined values) as
    None, NumPy scalars as Python numbers, tuples as lists, anything else unknown as its text."""
    if isinstance(obj, dict):
        return {str(key): plain(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(value) for value in obj]
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if hasattr(obj, "item") and callable(obj.item):  # a NumPy scalar
        return plain(obj.item())
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    return str(obj)


def check_writable(path: str, *inputs: str) -> None:
    """Fail early, before any work, if ``path`` cannot be written, or is one of the ``inputs``."""
    check_name(path)
    folder = _target_folder(path)
    for given in inputs:
        if os.path.exists(path) and os.path.exists(given) and os.path.samefile(path, given):
            raise InputError(f"{path}: is the input file {given}; write the output elsewhere")
    if not _special(path):
        check_folder_writable(folder, path)


def check_name(path: str) -> None:
    """Refuse a path the file system cannot hold: a component longer than its folder allows
    (usually 255 bytes), or a whole path longer than the system's limit."""
    shown = path if len(path) <= 80 else path[:77] + "..."
    try:
        encoded = os.fsencode(path)
    except UnicodeError:
        raise InputError(f"{shown}: the name cannot be encoded for the file system") from None
    if len(encoded) >= _limit("PC_PATH_MAX", "/", 4096):
        raise InputError(f"{shown}: the path is {len(encoded):,} bytes long, more than the file system allows")
    folder = os.path.dirname(os.path.abspath(path))
    while folder and not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    longest = _limit("PC_NAME_MAX", folder or "/", 255)
    for part in encoded.split(b"/"):
        if len(part) > longest:
            raise InputError(f"{shown}: a name of {len(part):,} bytes, more than the file system's {longest} "
                             "(File name too long)")


def _limit(name: str, folder: str, default: int) -> int:
    """``os.pathconf(folder, name)``, or ``default`` where the system does not say."""
    try:
        return os.pathconf(folder, name)
    except (OSError, ValueError):
        return default


def check_folder_writable(folder: str, named: str) -> None:
    """Fail early if no file can be created in ``folder`` (read-only, /proc, no permission)."""
    fd, probe = _temporary(folder, named, ".probe")
    os.close(fd)
    os.unlink(probe)


def _target_folder(path: str) -> str:
    """The folder ``path`` will be written in (a symbolic link's target's); refused when missing or
    when ``path`` is a folder."""
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: cannot write: directory {folder} does not exist")
    if os.path.isdir(path):
        raise InputError(f"{path}: cannot write: is a directory")
    return folder


def _temporary(folder: str, named: str, suffix: str) -> tuple[int, str]:
    """A new file in ``folder`` (descriptor, path); a folder that refuses one is bad input."""
    try:
        return tempfile.mkstemp(dir=folder, prefix=".optsched-", suffix=suffix)
    except OSError as exc:
        raise InputError(f"{named}: cannot write there: {exc.strerror or exc}") from None


def _special(path: str) -> bool:
    """Whether ``path`` exists and is not a regular file (a device such as /dev/null, a pipe)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def write_json(path: str, obj: Any) -> None:
    """Write ``obj`` as JSON atomically: the file appears complete or not at all."""
    write_text(path, dumps(obj))


def _new_file_mode(existing: str) -> int:
    """The mode the written file gets: an existing file's own, else what the umask gives a new file."""
    try:
        return stat.S_IMODE(os.stat(existing).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text(path: str, text: str) -> None:
    """Write ``text`` as :func:`write_file` does."""
    def fill(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    write_file(path, fill)


class Watcher(Protocol):
    """What an output folder's owner (:class:`optsched.outputs.Claimed`) is told of every write."""

    def replacing(self, path: str, digest: str) -> None:
        """``path`` (a real path) is about to get content of SHA-256 ``digest``; raise
        :class:`InputError` to refuse (the file is left as it was)."""

    def replaced(self, path: str, digest: str) -> None:
        """``path`` now holds that content."""


#: The watchers of every write of this process (:func:`watch`).
_WATCHERS: list[Watcher] = []


@contextmanager
def watch(watcher: Watcher) -> Iterator[None]:
    """Tell ``watcher`` of every file :func:`write_file` writes while the context lasts."""
    _WATCHERS.append(watcher)
    try:
        yield
    finally:
        _WATCHERS.remove(watcher)


def digest_of(path: str) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(READ_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def write_file(path: str, fill: Callable[[str], None]) -> None:
    """Write a file atomically: ``fill(tmp)`` writes a temporary file in the target's folder, which is
    then renamed into place, so the file appears complete or not at all. A symbolic link is written
    through to its target, as ``cp`` does; an existing file keeps its mode, a new one gets the
    umask's; a special file (``/dev/null``, a named pipe) is written in place. A file system that
    fails the write (full, read-only, a quota) is one :class:`InputError` line, and the target is
    left as it was."""
    check_name(path)
    folder = _target_folder(path)
    if _special(path):
        _failing_as_input(path, lambda: fill(path))
        return
    target = os.path.realpath(path)
    fd, tmp = _temporary(folder, path, os.path.splitext(path)[1] or ".tmp")
    os.close(fd)
    try:
        _failing_as_input(path, lambda: fill(tmp))
        digest = digest_of(tmp) if _WATCHERS else ""
        for watcher in _WATCHERS:
            watcher.replacing(target, digest)
        _failing_as_input(path, lambda: _rename(tmp, target))
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    for watcher in _WATCHERS:
        watcher.replaced(target, digest)


def keep_file(path: str) -> None:
    """Keep ``path`` as this run's output without writing it again (a figure drawn from the same data):
    the watchers hear of it as of a write of its present content, so an output folder's owner keeps
    it, and refuses it (:class:`InputError`) as it would refuse writing there."""
    target = os.path.realpath(path)
    digest = digest_of(target)
    for watcher in _WATCHERS:
        watcher.replacing(target, digest)
    for watcher in _WATCHERS:
        watcher.replaced(target, digest)


def _rename(tmp: str, target: str) -> None:
    """Give ``tmp`` the mode ``target`` should have and rename it into place."""
    os.chmod(tmp, _new_file_mode(target))
    os.replace(tmp, target)


def _failing_as_input(path: str, act: Callable[[], Any]) -> None:
    """Run ``act``; an error of the file system (no space, read-only, a quota, a file too large)
    becomes one line of :class:`InputError` naming ``path``."""
    try:
        act()
    except OSError as exc:
        if exc.errno not in _ENVIRONMENT:
            raise
        raise InputError(f"{path}: cannot write: {exc.strerror or os.strerror(exc.errno)}") from None


#: errno values that say the file system, not optsched, refused a write.
_ENVIRONMENT = {errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EFBIG, errno.EACCES, errno.EPERM,
                errno.ENAMETOOLONG, errno.EIO}


def fingerprint(content: Any) -> str:
    """A short content hash of a JSON-ready object (canonical key order), used to tie a schedule
    to the instance it was made for."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]
