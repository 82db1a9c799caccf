"""Algorithms from outside the package: a researcher's own function, named where a registered
algorithm's name goes (``run --algorithm``, a study's ``algorithms``, ``search --algorithm``) or
handed over from Python, or registered by an installed package under a name of its own (an entry
point of the group ``optsched.algorithms``, named ``FAMILY.NAME``, pointing at
``module:function``).

A function is named ``module.path:function`` (an importable module) or ``path/to/file.py:function``
(a source file, loaded under a module name of its own). It is called as a registered algorithm is,
``function(instance, *, seed, **params)``: ``seed`` only when the function takes it (or ``**kwargs``),
and its parameters are its keyword arguments with a default of type bool, int, float or str, each
typed by its default, as ``--param KEY=VALUE`` and a study's ``params`` set them. Its schedule goes
through the family's verifier like any other; a study keys its runs by the function's source file
(:mod:`optsched.study.depends`), so editing the file runs them again.

Bad names are bad input (:class:`~optsched.errors.InputError`, one line): a module that does not
import, a file that is not there, a name the module lacks, something that is not a function, or a
parameter without a plain default. What the function does when it runs is its own: an exception, or
a result that is not one of the family's schedules, is an :class:`AlgorithmFailure` naming the
function and where it raised (a study records it as a crashed run and goes on). A function given a
per-run budget (:func:`within`; ``--algorithm-budget``, a study's ``algorithm_budget``) that runs
past it is stopped and fails its run the same way, an :class:`OverBudget`: a wall-clock guard
against a function that never returns, whose failure a study does not cache (a rerun tries again).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
import traceback
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from .alarm import TimeUp, stop_after
from .errors import Failure, InputError

#: The types a parameter's default may have (a command line sets it from text).
PLAIN = (bool, int, float, str)


class AlgorithmFailure(Failure):
    """A researcher's algorithm raised, or returned something that is not a schedule."""


class OverBudget(AlgorithmFailure):
    """A researcher's algorithm ran past its per-run budget (wall clock)."""


def within(name: str, budget_s: float | None, call: Callable[[], Any]) -> Any:
    """``call()``, stopped after ``budget_s`` seconds of wall clock (None: no budget) with an
    :class:`OverBudget` naming ``name`` (:func:`optsched.alarm.stop_after`: interrupted in the main
    thread of a POSIX process, as in a study's local workers; elsewhere, such as a Dask worker's
    thread, the function runs to its end and fails its run if it took longer)."""
    if budget_s is None:
        return call()
    try:
        return stop_after(budget_s, call)
    except TimeUp:
        raise OverBudget(f"algorithm {name} ran past its per-run budget of {budget_s:g} s (wall clock; "
                         "--algorithm-budget)") from None


#: The entry-point group through which an installed package registers algorithms: each entry is
#: named ``FAMILY.NAME`` and points at ``module:function``.
ENTRY_POINTS = "optsched.algorithms"


@cache
def _entry_points() -> dict[str, dict[str, str]]:
    from importlib.metadata import entry_points

    found: dict[str, dict[str, str]] = {}
    for entry in entry_points(group=ENTRY_POINTS):
        family, _, name = entry.name.partition(".")
        if name:
            found.setdefault(family, {})[name] = entry.value
    return found


def installed(family: str) -> dict[str, str]:
    """The algorithms installed packages register for ``family`` (entry points of the group
    :data:`ENTRY_POINTS`), by name, as ``module:function``."""
    return dict(_entry_points().get(family, {}))


def is_function_name(name: Any) -> bool:
    """Whether ``name`` names a function (``module:function`` or ``file.py:function``) rather than a
    registered algorithm (registered names have no colon)."""
    return isinstance(name, str) and ":" in name


def label_of(name: str) -> str:
    """A short name for tables and output folders: the function's own name."""
    return name.rpartition(":")[2].rpartition(".")[2]


def stamp(name: str) -> int | None:
    """When the source file ``name`` (``file.py:function``) names was last changed (ns), so that an
    edit in a long-lived process (a notebook) loads and keys the new code; None for a module name,
    which Python imports once per process."""
    where = name.rpartition(":")[0]
    if not where.endswith(".py"):
        return None
    try:
        return Path(where).expanduser().resolve().stat().st_mtime_ns
    except OSError:
        return None


def load(name: str) -> Callable[..., Any]:
    """The function ``name`` (``module.path:function`` or ``path/to/file.py:function``) names; a
    source file is loaded again when it has changed since (:func:`stamp`)."""
    return _load(name, stamp(name))


@cache
def _load(name: str, changed: int | None) -> Callable[..., Any]:
    where, _, qualname = name.rpartition(":")
    if not where or not qualname:
        raise InputError(f"algorithm {name!r}: expected module.path:function or file.py:function")
    module = _module_from_file(name, where, changed) if where.endswith(".py") else _module(name, where)
    found: Any = module
    for part in qualname.split("."):
        if not hasattr(found, part):
            raise InputError(f"algorithm {name!r}: {where} has no {qualname!r}")
        found = getattr(found, part)
    if not callable(found) or isinstance(found, type):
        raise InputError(f"algorithm {name!r}: {qualname} is a {type(found).__name__}, not a function")
    return found


def _module(name: str, module: str) -> Any:
    try:
        return importlib.import_module(module)
    except Exception as exc:  # the user's module failed to import: say why, in one line
        raise InputError(f"algorithm {name!r}: cannot import {module}: {_one_line(exc)}") from None


def _module_from_file(name: str, where: str, changed: int | None) -> Any:
    path = Path(where).expanduser().resolve()
    if not path.is_file():
        raise InputError(f"algorithm {name!r}: no such file {where}")
    module_name = f"optsched_plugin_{path.stem}_{hashlib.sha256(str(path).encode()).hexdigest()[:8]}"
    loaded = sys.modules.get(module_name)
    if loaded is not None and getattr(loaded, "__optsched_stamp__", None) == changed:
        return loaded
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"algorithm {name!r}: cannot load {where} as Python source")
    module = importlib.util.module_from_spec(spec)
    module.__optsched_stamp__ = changed  # type: ignore[attr-defined]
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise InputError(f"algorithm {name!r}: cannot load {where}: {_one_line(exc)}") from None
    return module


def parameters(name: str, function: Callable[..., Any]) -> tuple[dict[str, Any], bool]:
    """The function's parameters with their defaults (``seed`` aside), and whether it takes ``seed``."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return {}, True
    params: dict[str, Any] = {}
    takes_seed = False
    for k, p in enumerate(signature.parameters.values()):
        if p.kind is p.VAR_KEYWORD or p.name == "seed":
            takes_seed = True
        elif k == 0 or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue  # the instance
        elif p.default is p.empty:
            raise InputError(f"algorithm {name!r}: parameter {p.name!r} needs a default (optsched passes only "
                             "the instance, the seed and the parameters given)")
        elif not isinstance(p.default, PLAIN):
            raise InputError(f"algorithm {name!r}: parameter {p.name!r} has a default of type "
                             f"{type(p.default).__name__}; give it a bool, int, float or str default")
        else:
            params[p.name] = p.default
    return params, takes_seed


def name_of(function: Callable[..., Any]) -> str:
    """``module:qualname`` for a function another process can import again; a function of ``__main__``
    (a notebook's or a script's) keeps its own module name, and works in this process only."""
    return f"{function.__module__}:{function.__qualname__}"


def failure(name: str, exc: BaseException) -> AlgorithmFailure:
    """What an algorithm's exception becomes: one line naming the function, the error and where it raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return AlgorithmFailure(f"algorithm {name} raised {type(exc).__name__}: {_one_line(exc)}{where}")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
