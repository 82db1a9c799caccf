"""optsched: online scheduling of distributed ML training jobs, with exact offline baselines.

Each family (see :mod:`optsched.registry`) pairs a paper's offline formulations, solved through
:mod:`optsched.solvers`, with its online algorithms and baselines, and judges every schedule with
an independent verifier. The public API, imported on first use so that ``import optsched`` stays
light:

=================  ====================================================================
``get(name)``      a registered family (:class:`~optsched.registry.Family`)
``families()``     every registered family, by name
``solve(...)``     build, solve, decode and verify a formulation -> :class:`Solved`
``run(...)``       run and verify an algorithm -> :class:`Run`
``judge(...)``     the verifier's :class:`Verdict` on any schedule
``load(folder)``   a study's, reproduction's or search's output folder as DataFrames
``job_metrics``    per-job release, start, end, JCT and slowdown of a schedule, as a DataFrame
``ratio(...)``     the competitive ratio of a value against an optimum or bound, 1 is best
``Result``         the solver layer's honest result (status, objective, bound, gap, duals)
``InputError``     what optsched raises for bad input
=================  ====================================================================

Examples
--------
>>> import optsched
>>> family = optsched.get("single")
>>> instance = family.generate("tiny", seed=3)
>>> optimum = family.solve(instance, "time-indexed")
>>> online = family.run(instance, "wspt")
>>> online.objective >= optimum.verdict.objective
True
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:  # the one version source is pyproject.toml, read from the installed package's metadata
    __version__ = version("optsched")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"

#: Public name -> the module that defines it.
_EXPORTS = {
    "get": "registry", "families": "registry",
    "solve": "pipeline", "run": "pipeline", "judge": "pipeline",
    "Solved": "pipeline", "Run": "pipeline", "Verdict": "pipeline",
    "Result": "solvers", "SolveStatus": "solvers", "InputError": "errors", "load": "results",
    "ratio": "numeric", "job_metrics": "metrics",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API (``__all__``), not this module's own imports."""
    return sorted(__all__)
