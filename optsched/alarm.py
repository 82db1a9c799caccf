"""Stopping a Python call after so many seconds of wall clock: a researcher's function past its
per-run budget (:func:`optsched.plugins.within`), a model whose building would run past a solve's
time limit (:func:`optsched.pipeline.solve`). :func:`deadline_at` also tells the solves a model's
building makes (reduced-cost fixing's inner MILPs, :func:`optsched.pipeline.decide`) how long they
may take, since a solver's own C code cannot be interrupted from Python.

The timer interrupts the call where a signal can: in the main thread of a POSIX process (the
command line, a study's local workers). Elsewhere (a Dask worker's thread, Windows) the call runs
to its end and :class:`TimeUp` is raised after it if it took longer. A call interrupted inside C
code (a solver) is stopped when control returns to Python; one interrupted while a finaliser runs
(Python drops an exception raised there) is interrupted again 10 ms later.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

#: How soon the timer fires again after a TimeUp a finaliser swallowed.
RETRY_S = 0.01

_DEADLINE: ContextVar[float | None] = ContextVar("optsched_deadline", default=None)


class TimeUp(BaseException):
    """The call ran past its seconds (a BaseException, so that the call's own ``except Exception``
    does not swallow it)."""


def can_interrupt() -> bool:
    """Whether :func:`stop_after` can interrupt a call here (main thread, POSIX timers)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def stop_after(seconds: float, call: Callable[[], T]) -> T:
    """``call()``, or :class:`TimeUp` once ``seconds`` (> 0) of wall clock have passed (module
    docstring). Not nested: a call inside it must not start a timer of its own."""
    if not can_interrupt():
        started = time.perf_counter()
        out = call()
        if time.perf_counter() - started > seconds:
            raise TimeUp
        return out

    def alarm(signum: int, frame: Any) -> None:
        raise TimeUp

    def swallowed(unraisable: Any) -> None:
        """A TimeUp raised while a finaliser ran (``__del__``, a garbage-collection callback) is
        printed and dropped by Python: fire again shortly instead, so that the call still stops."""
        if unraisable.exc_type is TimeUp:
            signal.setitimer(signal.ITIMER_REAL, RETRY_S)
        else:
            hook(unraisable)

    hook = sys.unraisablehook
    previous = signal.signal(signal.SIGALRM, alarm)
    sys.unraisablehook = swallowed
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        sys.unraisablehook = hook
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def deadline_at(when: float | None) -> Iterator[None]:
    """Within the block, :func:`seconds_left` counts down to ``when`` (a ``time.perf_counter``
    value; None: no deadline)."""
    token = _DEADLINE.set(when)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def seconds_left() -> float | None:
    """Seconds to the deadline of the enclosing :func:`deadline_at` (negative once past it), or None."""
    when = _DEADLINE.get()
    return None if when is None else when - time.perf_counter()
