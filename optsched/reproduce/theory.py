"""A paper's theorems and lemmas tested on random instances (``optsched reproduce PAPER-theory``).

Each statement is a claim about every instance in its regime, and optsched holds it as a
:class:`~optsched.registry.Check` of the family (a slack that is negative exactly on a
counterexample; ``bound`` is the competitive bound of an algorithm's :class:`~optsched.registry.Theorem`),
the same number ``optsched search FAMILY --target theorem:NAME`` drives down. Here it is scored on
the instances the search starts from (the family's ``mutate.space().start(seed, size)``), seed by
seed at each size, by the search's own scoring (search/evaluate.py: the algorithm's schedule
verified, the optimum proven within the node budget where the statement needs it).

A sample cannot prove a claim about every instance, so the verdict of a statement at a size is
"did not hold" when one instance violates it (a counterexample, certain) and otherwise "not
resolved", with how rare a violation can still be (study/stats.py ``no_counterexample``,
``violation_rate_high``). Instances where the statement does not apply (its check says why), or
whose optimum was not proven, are counted and left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..registry import get
from ..search.evaluate import evaluate
from ..search.strategy import text_of
from ..study.report import Table
from .report import Report
from .setting import Setting
from .tasks import parallel_map


@dataclass(frozen=True)
class Statement:
    """A theorem or lemma of the paper as one of the family's checks: ``where`` (the paper's
    numbering, e.g. "Theorem 5"), what it says (``claim``), the check (``"bound"``: the algorithm's
    competitive bound) and the algorithm and parameters it is about. With generator ``options`` the
    instances are ``family.generate("tiny", seed, jobs=size, **options)`` (for example a framework
    the search space does not start from) instead of the search space's."""

    where: str
    claim: str
    check: str
    algorithm: str
    params: tuple[tuple[str, Any], ...] = ()
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def family_label(self) -> str:
        """The claim family of its summary rows."""
        return f"{self.where}: {self.claim}"


@dataclass(frozen=True)
class TheoryTask:
    """One statement on one seeded instance of the family's search space."""

    family: str
    check: str
    algorithm: str
    params: tuple[tuple[str, Any], ...]
    size: int
    seed: int
    options: tuple[tuple[str, Any], ...] = ()


#: Instance sizes (the search space's ``size``: jobs) per preset.
SIZES = {"quick": (3, 4), "default": (3, 4, 5, 6), "paper": (3, 4, 5, 6, 8)}


def _theory_task(task: TheoryTask) -> dict:
    """The statement's slack on the seed's instance, or why it was not scored."""
    family = get(task.family)
    doc = (family.generate("tiny", task.seed, jobs=task.size, **dict(task.options)).to_dict() if task.options
           else family.space().start(task.seed, task.size))
    try:
        out = evaluate((task.family, task.algorithm, task.params, f"theorem:{task.check}", text_of(doc)))
    except InputError as exc:  # theorem:bound where the algorithm claims no bound for this instance
        out = {"valid": False, "reason": f"does not apply: {exc}"}
    details = out.get("details", {})
    reason = out.get("reason", "") or ("" if details.get("applies", True) else f"does not apply: {details.get('why')}")
    return {"size": task.size, "seed": task.seed, "scored": not reason, "reason": reason,
            "slack": out.get("slack") if not reason else None}


def theory_report(setting: Setting, family_name: str, statements: Sequence[Statement], title: str,
                  says: Sequence[str]) -> Report:
    """Score every statement on ``setting.seeds`` seeds at each size of the preset (:data:`SIZES`), and
    report a claim per statement and size, a table, the figure of every slack and the per-instance
    records."""
    from ..study.stats import no_counterexample, violation_rate_high

    chosen = SIZES[setting.scale]
    report = Report(title, paper_says=list(says),
                    assumptions=[ASSUMED.format(family=family_name, sizes=", ".join(map(str, chosen)),
                                                last=setting.seeds - 1)])
    table = Table(TABLE_TITLE, ["statement", "algorithm", "instances scored", "not scored", "counterexamples",
                                "least slack", "violation rate at most (95%)"], [], note=TABLE_NOTE)
    for statement in statements:
        tasks = [TheoryTask(family_name, statement.check, statement.algorithm, statement.params, size, seed,
                            statement.options)
                 for size in chosen for seed in range(setting.seeds)]
        rows = parallel_map(_theory_task, tasks, setting, f"{family_name} theory: {statement.where}")
        for row in rows:
            report.records.append({"statement": statement.where, "check": statement.check,
                                   "algorithm": statement.algorithm, **dict(statement.options), **row})
        for size in chosen:
            violations = [0.0 - r["slack"] for r in rows if r["size"] == size and r["scored"]]
            report.claim(statement.family_label, {"size": size, "algorithm": statement.algorithm,
                                                  **dict(statement.options)}, violations,
                         f"{statement.where} ({statement.algorithm}, {size} jobs): {statement.claim} (values: "
                         "minus the slack; positive is a counterexample)", no_counterexample(violations))
            report.summary[-1]["violation_rate_high"] = violation_rate_high(len(violations))
        scored = [r for r in rows if r["scored"]]
        reasons = sorted({r["reason"].split(":")[0] for r in rows if not r["scored"]})
        table.rows.append([statement.family_label, statement.algorithm, len(scored),
                           f"{len(rows) - len(scored)}" + (f" ({'; '.join(reasons)})" if reasons else ""),
                           sum(r["slack"] < 0 for r in scored), min((r["slack"] for r in scored), default=None),
                           violation_rate_high(len(scored)) if not any(r["slack"] < 0 for r in scored) else "-"])
    report.tables.append(table)
    _slack_figure(report, setting, statements)
    return report


def _slack_figure(report: Report, setting: Setting, statements: Sequence[Statement]) -> None:
    """Every scored instance's slack per statement (a dot each, clipped to [−1, 1] on a symmetric log
    scale so that a tiny margin shows), counterexamples in red left of the line at 0."""
    import numpy as np

    from ..plot import COLUMN_WIDTH, figure

    name = "slacks.png"
    scored = [[r for r in report.records if r["statement"] == st.where and r["check"] == st.check
               and r["algorithm"] == st.algorithm and r["scored"]] for st in statements]
    with figure(setting.out_dir / name, width=2 * COLUMN_WIDTH, height=0.9 + 0.28 * len(statements)) as (_, ax):
        jitter = np.random.default_rng(0)
        for k, rows in enumerate(scored):
            slacks = np.clip([r["slack"] for r in rows], -1.0, 1.0)
            bad = slacks < 0
            y = k + jitter.uniform(-0.25, 0.25, len(slacks))
            ax.scatter(slacks[~bad], y[~bad], s=4, color="C0", alpha=0.5, linewidths=0)
            ax.scatter(slacks[bad], y[bad], s=6, color="C3", alpha=0.8, linewidths=0)
        ax.axvline(0.0, color="0.3", linewidth=0.8)
        ax.set_xscale("symlog", linthresh=1e-4)
        ax.set_xlim(-1.05, 1.05)
        ax.set_yticks(range(len(statements)), [st.where for st in statements])
        ax.invert_yaxis()
        ax.set_xlabel("slack (negative: a counterexample; clipped to [−1, 1])")
    report.figures.append((name, SLACK_CAPTION))


SLACK_CAPTION = ("Each statement's slack on every scored instance (a dot each, all sizes): right of 0 the "
                 "statement held on that instance, by that margin; left of 0 (red) a counterexample. Symmetric log "
                 "scale, linear within 10^-4 of 0.")
ASSUMED = ("Instances: the `{family}` search space's starting instances (`optsched search`'s, its "
           "`mutate.space().start(seed, size)`), seeds 0..{last} at {sizes} jobs; each statement scored as "
           "`optsched search {family} --target theorem:NAME` scores it (the schedule verified, the optimum "
           "proven within the node budget where the statement needs it).")
TABLE_TITLE = "The theorems and lemmas on random instances: counterexamples, or how rare one can be"
TABLE_NOTE = ("A statement about every instance is refuted by one counterexample and never proven by a sample: "
              "with none among n instances, fewer than the last column's share of such instances violate it "
              "(95%, the exact binomial bound, about 3/n). Not scored: the optimum not proven, or the statement "
              "does not apply (its check says why).")
