"""Keeping what native libraries print off the process's standard streams.

The command-line contract (docs/design.md) promises that with ``--json`` standard output carries
exactly one JSON document. Solver libraries do not know that promise: highspy 1.16 prints a banner
on file descriptor 1 whenever a ``highspy.Highs`` object is created, and a solver log, a CBC message
or a warning from compiled code may land on descriptor 1 or 2 at any time. Replacing Python's
``sys.stdout`` does not stop them, since they write to the descriptors directly.

:func:`redirected` therefore points descriptors 1 and 2 themselves at a sink for the duration of a
solver call: ``/dev/null`` by default, the file named by :func:`set_log` (appended to), or the
original standard error when the log is ``"-"``. C stdio buffers are flushed before the descriptors
are restored, so that nothing buffered during the call escapes afterwards. Every solver call in
:mod:`optsched.solvers` goes through it; nesting and concurrent threads are safe (the descriptors are
redirected while at least one call is inside).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Where native output goes: None (discarded), a file path (appended to), or "-" (standard error).
_log: str | None = None
_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int] | None = None


def set_log(path: str | None) -> None:
    """Send native output to ``path`` (appended; ``"-"`` for standard error) or, with None, nowhere."""
    global _log
    _log = path


def log_requested() -> bool:
    """Whether a solver log was asked for (solvers then run with their log switched on)."""
    return _log is not None


def _flush_c_stdio() -> None:
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # no C library reachable this way (not Linux or macOS)
        pass


def _open_sink(saved_stderr: int) -> int:
    if _log == "-":
        return os.dup(saved_stderr)
    return os.open(_log or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)  # the umask decides


@contextmanager
def redirected() -> Iterator[None]:
    """Within the block, whatever is written to descriptors 1 and 2 goes to the log sink."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            sys.stdout.flush()
            sys.stderr.flush()
            saved = (os.dup(1), os.dup(2))
            sink = _open_sink(saved[1])
            os.dup2(sink, 1)
            os.dup2(sink, 2)
            os.close(sink)
            _saved = saved
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                sys.stdout.flush()
                sys.stderr.flush()
                _flush_c_stdio()
                for fd, copy in zip((1, 2), _saved):
                    os.dup2(copy, fd)
                    os.close(copy)
                _saved = None
