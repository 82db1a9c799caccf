"""Parameters of algorithms and generators: how a registration declares one (a default, a choice
of names, or a :class:`Bounded` range) and how ``KEY=VALUE`` text from the command line or a study
file is bound to it (:func:`bind`: coerced to the default's type, range-checked, unknown keys refused
with the nearest known name)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InputError


@dataclass(frozen=True)
class Bounded:
    """A numeric parameter's default and its valid range, declared once in the registration:
    ``low <= value <= high`` (``low < value`` when ``open_low``); None leaves a side open.
    :func:`bind` checks it before any work starts."""

    default: int | float
    low: float | None = None
    high: float | None = None
    open_low: bool = False

    def admits(self, value: float) -> bool:
        """Whether ``value`` lies in the declared range."""
        above = self.low is None or (value > self.low if self.open_low else value >= self.low)
        return above and (self.high is None or value <= self.high)

    def describe(self) -> str:
        """The range in words, as error messages and ``optsched families`` show it (``>= 0 and <= 1``)."""
        low = "" if self.low is None else f"{'>' if self.open_low else '>='} {self.low:g}"
        high = "" if self.high is None else f"<= {self.high:g}"
        return " and ".join(filter(None, (low, high)))


def positive(default: int | float) -> Bounded:
    """A parameter that must be > 0."""
    return Bounded(default, 0, open_low=True)


def at_least(low: float, default: int | float) -> Bounded:
    """A parameter that must be >= ``low``."""
    return Bounded(default, low)


def between(low: float, high: float, default: int | float) -> Bounded:
    """A parameter that must lie in [``low``, ``high``]."""
    return Bounded(default, low, high)


def default_of(declared: Any) -> Any:
    """The default of a declared parameter: a choice's first name, a :class:`Bounded`'s default, or
    the value itself."""
    if isinstance(declared, tuple):
        return declared[0]
    if isinstance(declared, Bounded):
        return declared.default
    return declared


def bind(defaults: Mapping[str, Any], given: Mapping[str, str], owner: str, flag: str) -> dict[str, Any]:
    """``defaults`` updated with ``given`` strings coerced to the defaults' types (a tuple default is a
    choice among its names, the first being the default; a :class:`Bounded` one is range-checked)."""
    bound = {key: default_of(value) for key, value in defaults.items()}
    for key, text in given.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise InputError(f"{owner} has no parameter '{key}'{did_you_mean(key, defaults)} (parameters: {known})")
        bound[key] = _coerce(text, defaults[key], f"{flag} {key}")
    return bound


def _coerce(text: str, default: Any, where: str) -> Any:
    if isinstance(default, Bounded):
        value = _coerce(text, default.default, where)
        if not default.admits(value):
            raise InputError(f"{where}: must be {default.describe()}, got {text}")
        return value
    if isinstance(default, tuple):
        if text not in default:
            raise InputError(f"{where}: must be one of {', '.join(default)}, got {text!r}{did_you_mean(text, default)}")
        return text
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise InputError(f"{where}: expected true or false, got {text!r}")
    for kind, name in ((int, "an integer"), (float, "a number")):
        if isinstance(default, kind):
            try:
                value = kind(text)
            except ValueError:
                raise InputError(f"{where}: expected {name}, got {text!r}") from None
            if value != value or value in (float("inf"), float("-inf")):
                raise InputError(f"{where}: expected a finite number, got {text!r}")
            return value
    return text


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``": did you mean 'x'?"`` for the known name closest to a mistyped one, or ``""``."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f": did you mean '{close[0]}'?" if close else ""
