"""The family's textbook claim as a slack for ``optsched search single --target theorem:NAME`` (a
negative slack is a counterexample); the template every family's ``checks.py`` follows.

* ``smith`` (Smith 1956, :mod:`theory`): with every release date 0, WSPT's schedule is optimal. The
  slack is ``OPT − WSPT`` (never positive: OPT is the proven optimum; negative is a violation).
  With some release date above 0 the claim does not apply (slack 0); the ``guide``, the share of
  jobs released at 0, leads the search to instances where it does.
"""

from __future__ import annotations

from ..registry import get
from .instance import Instance


def smith_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``smith`` check (module docstring); ``optimum`` is the proven optimum."""
    at_zero = sum(job.r == 0 for job in instance.jobs)
    if at_zero < instance.n or optimum is None:
        return 0.0, {"applies": False, "why": "Smith's rule needs every release date at 0",
                     "guide": at_zero / instance.n}
    ran = get("single").run(instance, algorithm, **params)
    if ran.objective is None:
        raise RuntimeError(f"{algorithm}'s schedule fails the verifier: {ran.verdict.violations[0]}")
    return optimum - ran.objective, {"applies": True, "alg": ran.objective, "opt": optimum, "guide": 1.0}
