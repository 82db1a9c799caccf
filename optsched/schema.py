"""Typed field readers for validating JSON documents, each error naming the field's path.

A family's ``from_dict`` reads its document through :class:`Fields`; every refusal is one
:class:`~optsched.errors.InputError` line such as ``jobs[3].p: must be a positive integer, got -1``.
"""

from __future__ import annotations

import math
from typing import Any

from .errors import InputError
from .limits import MAX_MAGNITUDE


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Fields:
    """Reads one JSON object; call :meth:`done` to refuse keys nobody read."""

    def __init__(self, obj: Any, where: str):
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        self.obj, self.where = obj, where
        self._read: set[str] = set()

    def _get(self, key: str, default: Any = ...) -> Any:
        self._read.add(key)
        if key in self.obj:
            return self.obj[key]
        if default is ...:
            raise InputError(f"{self.where}: missing field '{key}'")
        return default

    def path(self, key: str) -> str:
        """The path of field ``key`` in the document, for error messages."""
        return f"{self.where}.{key}" if self.where else key

    def integer(self, key: str, *, min: int | None = None, default: Any = ...) -> int:
        """Field ``key`` as an integer (at least ``min``), or ``default`` when absent; else ``InputError``."""
        return integer(self._get(key, default), self.path(key), min=min)

    def number(self, key: str, *, min: float | None = None, positive: bool = False,
               default: Any = ...) -> float:
        """Field ``key`` as a finite number (at least ``min``, or > 0 with ``positive``), or ``default`` when
        absent; else ``InputError``."""
        return number(self._get(key, default), self.path(key), min=min, positive=positive)

    def text(self, key: str, *, default: Any = ..., choices: tuple[str, ...] | None = None) -> str:
        """Field ``key`` as a string (one of ``choices``), or ``default`` when absent; else ``InputError``."""
        value = self._get(key, default)
        if not isinstance(value, str):
            raise InputError(f"{self.path(key)}: must be a string, got {_show(value)}")
        if choices is not None and value not in choices:
            raise InputError(f"{self.path(key)}: must be one of {', '.join(choices)}, got {value!r}")
        return value

    def array(self, key: str, *, nonempty: bool = False, default: Any = ...) -> list:
        """Field ``key`` as a list (not empty with ``nonempty``), or ``default`` when absent; else ``InputError``."""
        value = self._get(key, default)
        if not isinstance(value, list):
            raise InputError(f"{self.path(key)}: must be a list, got {_show(value)}")
        if nonempty and not value:
            raise InputError(f"{self.path(key)}: must not be empty")
        return value

    def raw(self, key: str, default: Any = ...) -> Any:
        """Field ``key`` as it is, or ``default`` when absent."""
        return self._get(key, default)

    def done(self) -> None:
        """Raise ``InputError`` naming the first field no reader asked for (an unknown field is bad input, not
        ignored)."""
        extra = sorted(set(self.obj) - self._read)
        if extra:
            raise InputError(f"{self.where or 'document'}: unknown field '{extra[0]}'")


def per_job(d: Any, count: int, where: str, items: str = "entries") -> list[tuple[Any, str]]:
    """A schedule document's ``jobs`` list, one entry per instance job: ``(entry, path)`` pairs;
    ``items`` names the entries in the error for a wrong count."""
    f = Fields(d, where)
    raw = f.array("jobs")
    f.done()
    if len(raw) != count:
        raise InputError(f"{f.path('jobs')}: has {len(raw)} {items}, the instance has {count} jobs")
    return [(entry, f.path(f"jobs[{j}]")) for j, entry in enumerate(raw)]


def integer(value: Any, where: str, *, min: int | None = None) -> int:
    """``value`` as an int if it is an integral number within the magnitude limit (at least ``min``); else
    ``InputError`` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
        isinstance(value, float) and not (math.isfinite(value) and value.is_integer())
    ):
        raise InputError(f"{where}: must be an integer, got {_show(value)}")
    _check_magnitude(value, where)
    value = int(value)
    if min is not None and value < min:
        kind = "a positive integer" if min == 1 else f"an integer >= {min}"
        raise InputError(f"{where}: must be {kind}, got {value}")
    return value


def number(value: Any, where: str, *, min: float | None = None, positive: bool = False) -> float:
    """``value`` as a finite float within the magnitude limit (at least ``min``, or > 0 with ``positive``); else
    ``InputError`` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: must be a number, got {_show(value)}")
    _check_magnitude(value, where)
    value = float(value)
    if not math.isfinite(value):
        raise InputError(f"{where}: must be a finite number, got {value}")
    if positive and value <= 0:
        raise InputError(f"{where}: must be positive, got {value:g}")
    if min is not None and value < min:
        raise InputError(f"{where}: must be >= {min:g}, got {value:g}")
    return value


def _check_magnitude(value: int | float, where: str) -> None:
    """Refuse numbers beyond :data:`~optsched.limits.MAX_MAGNITUDE`, integers too large for a float
    included (named by their digit count rather than printed)."""
    if abs(value) > MAX_MAGNITUDE:
        digits = len(str(abs(value))) if isinstance(value, int) else 0
        shown = f"an integer of {digits} digits" if digits > 20 else _show(value)
        raise InputError(f"{where}: must be at most {MAX_MAGNITUDE:g} in absolute value, got {shown}")
