"""Parameters of algorithms and generators: how a registration declares one (a default, a choice
of names, or a :class:`Bounded` range) and how ``KEY=VALUE`` text from the command line or a study
file is bound to it (:func:`bind`: coerced to the default's type, range-checked, unknown keys refused
with the nearest known name)."""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .limits import MAX_JOBS, MAX_NODES, MAX_SEED, MAX_THREADS, NODE_LIMIT, WORK_LIMIT


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
        low = "" if self.low is None else f"{'>' if self.open_low else '>='} {_shown(self.low)}"
        high = "" if self.high is None else f"<= {_shown(self.high)}"
        return " and ".join(filter(None, (low, high)))


def _shown(x: float) -> str:
    """A bound as a message shows it: ``1`` and ``0.5`` as such, a large whole number with commas."""
    return f"{int(x):,}" if float(x).is_integer() and abs(x) >= 1e6 else f"{x:g}"


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
        _known(key, defaults, owner)
        bound[key] = _coerce(text, defaults[key], f"{flag} {key}")
    return bound


def _declared(value: Any, declared: Any, where: str, convert: Callable[[Any, Any, str], Any], shown: str) -> Any:
    """``value`` against a declaration: a :class:`Bounded` range (``convert`` gives the value of its
    default's type first), a choice of names, or else ``convert(value, declared, where)``; ``shown``
    is the value as an error shows it."""
    if isinstance(declared, Bounded):
        converted = _declared(value, declared.default, where, convert, shown)
        if not declared.admits(converted):
            raise InputError(f"{where}: must be {declared.describe()}, got {shown}")
        return converted
    if isinstance(declared, tuple):
        if not isinstance(value, str) or value not in declared:
            hint = did_you_mean(value, declared)
            raise InputError(f"{where}: must be one of {', '.join(declared)}, got {value!r}{hint}")
        return value
    return convert(value, declared, where)


def _coerce(text: str, default: Any, where: str) -> Any:
    return _declared(text, default, where, _from_text, text)


def _from_text(text: str, default: Any, where: str) -> Any:
    """``text`` as a value of ``default``'s type (bool, int, float, or text)."""
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
    """``": did you mean 'x'?"`` for the known name closest to a mistyped one, or ``""`` (also for a
    name that is not a string)."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f": did you mean '{close[0]}'?" if close else ""


def check_values(defaults: Mapping[str, Any], given: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """The Python API's :func:`bind`: ``given`` values (not text) checked against the declarations,
    each of the declared type (an integer where a number is declared is taken as a number) and in its
    declared range; an unknown key is refused with the nearest known name. Returns the given values
    coerced (an integer given for a number becomes a float), without the defaults."""
    checked = {}
    for key, value in given.items():
        _known(key, defaults, owner)
        checked[key] = checked_value(value, defaults[key], key)
    return checked


def _known(key: str, defaults: Mapping[str, Any], owner: str) -> None:
    """Refuse a parameter ``owner`` does not declare, naming the nearest declared one."""
    if key not in defaults:
        known = ", ".join(sorted(defaults)) or "none"
        raise InputError(f"{owner} has no parameter '{key}'{did_you_mean(str(key), defaults)} (parameters: {known})")


def checked_value(value: Any, declared: Any, where: str) -> Any:
    """``value`` checked against one declaration (a default, a choice or a :class:`Bounded`), as
    :func:`check_values` does; ``where`` names it in the error."""
    return _declared(value, declared, where, _typed, repr(value))


def _typed(value: Any, declared: Any, where: str) -> Any:
    """``value`` checked to be of ``declared``'s type (an integer is a number; a bool is not)."""
    if isinstance(declared, bool):
        if not isinstance(value, bool):
            raise InputError(f"{where}: expected True or False, got {value!r}")
        return value
    if isinstance(declared, (int, float)):
        kind = "an integer" if isinstance(declared, int) else "a number"
        if isinstance(value, bool) or not isinstance(value, numbers.Integral if kind == "an integer" else numbers.Real):
            raise InputError(f"{where}: expected {kind}, got {value!r}")
        if not math.isfinite(value):
            raise InputError(f"{where}: expected a finite number, got {value!r}")
        return int(value) if isinstance(value, numbers.Integral) and kind == "an integer" else float(value)
    if isinstance(declared, str) and not isinstance(value, str):
        raise InputError(f"{where}: expected a string, got {value!r}")
    return value


def optional(value: Any, name: str) -> Any:
    """``value`` checked against the option ``name`` of :data:`OPTIONS`; None passes (not set)."""
    return None if value is None else checked_value(value, OPTIONS[name], name)


#: The options of solves, runs and generators, declared once: the command line's flags take their
#: ranges from here (cli.py), and the Python API checks its arguments against them.
OPTIONS = {
    "seed": Bounded(0, 0, MAX_SEED),
    "jobs": Bounded(1, 1, MAX_JOBS),
    "node_limit": Bounded(NODE_LIMIT, 1, MAX_NODES),
    "threads": Bounded(1, 1, MAX_THREADS),
    "time_limit": Bounded(1.0, 0, open_low=True),
    "budget_s": Bounded(1.0, 0, open_low=True),
    "work_limit": Bounded(WORK_LIMIT, 0, open_low=True),
    "gap": Bounded(0.0, 0),
}
