"""Reproducing a paper's evaluation: ``optsched reproduce NAME``.

Each family registers its reproductions (:class:`~optsched.registry.Reproduction`); a reproduction turns a
:class:`Setting` (preset, seeds, output folder, execution) into a :class:`Report`: tables, figures,
the paper's claims tested over seeds, and the settings the paper left open with what was assumed.
The kit:

=============  ===================================================================================
``setting``    :class:`Setting`, the presets' seeds and the shared budgets
``report``     :class:`Report`: tables, figures, claims and their tests
``tasks``      :func:`parallel_map`: tasks as cached units on the study engine
``methods``    :func:`run_verified`, :func:`verified_objective`: a method run, its schedule verified
``exact``      :func:`confirmed_optimum`, :func:`certified_ratio`
``theory``     :func:`theory_report`: a paper's theorems and lemmas (:class:`Statement`) on random instances
``sweeps``     the points and rows of job and server sweeps
``folder``     :func:`run` (one reproduction, its report folder), :func:`save_case`, :func:`reproductions`
=============  ===================================================================================
"""

from .exact import certified_ratio, confirmed_optimum
from .folder import Reproduced, owner, reproductions, run, save_case, write_report
from .methods import Method, method, run_verified, verified_objective
from .report import Report, interval_rows
from .setting import CERTIFIED_SEEDS, DEFAULT_SEEDS, EXACT_BUDGET, QUICK_WARNING, SCALES, Setting
from .sweeps import JobServerSweeps, mean, sweep_points, sweep_rows
from .tasks import parallel_map
from .theory import Statement, theory_report

__all__ = ["CERTIFIED_SEEDS", "DEFAULT_SEEDS", "EXACT_BUDGET", "QUICK_WARNING", "SCALES",
           "JobServerSweeps", "Method",
           "Report", "Reproduced", "Setting", "Statement", "certified_ratio", "confirmed_optimum", "interval_rows",
           "mean",
           "method", "owner", "parallel_map", "reproductions", "run", "run_verified", "save_case", "sweep_points",
           "sweep_rows", "theory_report", "verified_objective", "write_report"]
