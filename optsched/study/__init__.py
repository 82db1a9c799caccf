"""Ratio studies: every method of a family over many instances, against the offline optimum or a
certified bound, cached, resumable, on local processes or a Dask cluster (``optsched study``).

Modules: ``spec`` (what to run: TOML, flags, presets; validated), ``units`` (one unit of work and its
cache key), ``cache`` (SQLite store of finished units), ``executors`` (local processes, Dask),
``table`` (certified ratios, theorem checks, summaries), ``runner`` (putting it together and
writing the output folder). Figures and report.md come from :mod:`optsched.study.report`.

From Python::

    from optsched.study import load, run
    outcome = run(load("my-study.toml"))
    outcome.results          # pandas DataFrame, one row per (instance, method)
"""

from . import spec
from .runner import StudyOutcome, run
from .spec import PRESETS, Study, load, study

__all__ = ["StudyOutcome", "PRESETS", "Study", "load", "run", "spec", "study"]
