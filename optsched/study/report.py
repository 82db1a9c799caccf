"""Tables and matplotlib figures: a study's report (see optsched/study/runner.py), and the
:class:`Table` and :func:`figure` every report (studies and reproductions) is made of.

* :class:`Table`: a titled table printed as text or markdown; :func:`figure`: one saved figure.
* :func:`summary_tables`: the per-method and per-reference summaries as printable tables.
* :func:`write_report`: ``report.md`` with those tables, the versions, how ratios are certified,
  and four figures: ratio distribution per method with the theorem's bound drawn, ratio vs
  instance size, integrality gap vs size, runtime vs size.
"""

from __future__ import annotations

import hashlib
import math
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..jsonio import keep_file, write_text
from ..plot import REPORT_FORMAT, STACK_MIN_HEIGHT, figure, intervals, markdown_figure, ratios, report_name
from ..registry import get
from .depends import whole_code
from .stats import describe

if TYPE_CHECKING:
    from .runner import StudyOutcome


@dataclass
class Table:
    """A table of a report: title, columns, rows and a note under it."""
    title: str
    columns: list[str]
    rows: list[list[Any]]
    note: str = ""

    def markdown(self) -> str:
        """The table in Markdown, its title as a level-3 heading and its note below."""
        lines = [f"### {self.title}", "", "| " + " | ".join(self.columns) + " |",
                 "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in self.rows]
        if self.note:
            lines += ["", self.note]
        return "\n".join(lines)

    def text(self) -> str:
        """The table as aligned plain text for a terminal (text columns flush left, numbers right)."""
        cells = [[str(c) for c in self.columns]] + [[_cell(v) for v in row] for row in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        left = [bool(self.rows) and isinstance(v, str) for v in (self.rows[0] if self.rows else self.columns)]
        lines = [self.title] + ["  ".join(c.ljust(w) if flush_left else c.rjust(w)
                                          for c, w, flush_left in zip(row, widths, left)).rstrip() for row in cells]
        return "\n".join(lines + (textwrap.wrap(self.note, 100) if self.note else []))


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _num(x, digits: int = 3):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return round(float(x), digits)


def summary_tables(outcome: StudyOutcome) -> list[Table]:
    """A study's summary tables: the reference solves with the LP relaxation, and the ratios per family and method."""
    refs = Table("Reference solves (optimum per instance) and the LP relaxation",
                 ["family", "formulation", "instances", "optimal", "cross-checked", "agree", "disagree",
                  "LP gap mean", "LP gap max", "solve median s"], [])
    for r in outcome.reference_summary.to_dict("records"):
        refs.rows.append([r["family"], r["formulation"], r["instances"], r["optimal"], r["cross_checked"],
                          r["cross_check_agree"], r["cross_check_disagree"], _num(r["integrality_gap_mean"]),
                          _num(r["integrality_gap_max"]), _num(r["solve_median_s"], 4)])
    refs.note = ("LP gap = OPT/LP (min) or LP/OPT (max), the integrality gap of the reference MILP (of the "
                 "family's first exact MILP where the reference is a CP-SAT model); 1 is tight.")
    methods = Table("Empirical competitive ratios (exact: against proven optima)",
                    ["family", "method", "runs", "feasible", "ratio mean", "median", "max", "infinite", "vs bound",
                     "bound max", "theorem bound", "held", "violated", "unknown", "beat OPT"], [])
    for m in outcome.method_summary.to_dict("records"):
        methods.rows.append([m["family"], m["method"], m["instances"], m["feasible"], _num(m["ratio_mean"]),
                             _num(m["ratio_median"]), _num(m["ratio_max"]), m["infinite_ratios"],
                             m["bound_ratios"], _num(m["bound_ratio_max"]),
                             f">= {_num(m['theorem_bound_min'])}" if m["theorem"] else "-",
                             m["theorem_held"] if m["theorem"] else "-", m["theorem_violated"] if m["theorem"] else "-",
                             m["theorem_unknown"] if m["theorem"] else "-", m["beats_reference"]])
    methods.note = ("ratio = ALG/OPT (min) or OPT/ALG (max), 1 is best; mean, median and max over finite ratios, "
                    "'infinite' counts runs that earned 0 where the optimum earns more. 'vs bound': runs whose "
                    "reference was not proven optimal, measured against the best proven bound ('bound max' is an "
                    "upper bound on their true ratios). "
                    "'theorem bound': the smallest per-instance bound the paper proves for the method.")
    return [refs, methods]


@contextmanager
def _panels(path: Path, count: int, title: str, sizes: list[list[int]], ylabel: str):
    """One panel per part, stacked in one paper column, each with its legend on its right and its
    instance sizes (job counts) as the x ticks; one y label for all."""
    with figure(path, rows=count, height=max(STACK_MIN_HEIGHT, 0.45 + 1.05 * count), squeeze=False) as (fig, axes):
        flat = list(axes.ravel())
        yield flat
        for ax, ticks in zip(flat, sizes):
            ax.set_xticks(ticks)
            if len(ticks) == 1:  # one size: a point, not a range
                ax.set_xlim(ticks[0] - 1, ticks[0] + 1)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=6, handlelength=1.2)
        flat[-1].set_xlabel("jobs per instance")
        fig.supylabel(ylabel, fontsize=8)
        fig.suptitle(title)


def _parts(frame: pd.DataFrame):
    for (part, family), g in frame.groupby(["part", "family"], sort=True):
        yield f"{family}" if frame["part"].nunique() == frame["family"].nunique() else f"{family} (part {part})", g


def _sizes(parts) -> list[list[int]]:
    return [sorted(int(s) for s in g["size"].dropna().unique()) for _, g in parts]


def _ratio_figure(results: pd.DataFrame, path: Path) -> None:
    panels = pd.concat([g.assign(panel=name) for name, g in _parts(results)]) if len(results) else results
    ratios(panels, by="panel", path=path)


def _by_size(frame: pd.DataFrame, value: str, how: str) -> pd.Series:
    return frame.groupby("size")[value].agg(how).sort_index()


def _size_figure(results: pd.DataFrame, path: Path) -> None:
    parts = list(_parts(results))
    with _panels(path, len(parts), "Mean exact ratio vs instance size, with 95% intervals", _sizes(parts),
                 "ALG/OPT (OPT/ALG for max)") as axes:
        for ax, (name, g) in zip(axes, parts):
            exact = g[g["ratio_kind"] == "exact"].astype({"ratio": float})
            exact = exact[np.isfinite(exact["ratio"])]
            rows = [{"method": method, "size": int(size), **describe(list(h["ratio"]), floor=1.0)}  # ALG/OPT >= 1
                    for (method, size), h in exact.groupby(["method", "size"], sort=False)]
            if rows:
                intervals(rows, "size", ax=ax, xlabel="", ylabel=" ", legend=False, title=name)


def _gap_figure(references: pd.DataFrame, path: Path) -> None:
    parts = list(_parts(references))
    with _panels(path, len(parts), "Integrality gap of the reference MILP (dots: instances; line: mean)", _sizes(parts),
                 "OPT/LP (LP/OPT for max)") as axes:
        for ax, (name, g) in zip(axes, parts):
            gaps = g.dropna(subset=["integrality_gap"])
            ax.plot(gaps["size"], gaps["integrality_gap"].astype(float), ".", alpha=0.6)
            if len(gaps):
                series = _by_size(gaps.astype({"integrality_gap": float}), "integrality_gap", "mean")
                ax.plot(series.index, series.values, "-D", color="black", markersize=3)
            relaxed = [f for f in dict.fromkeys(g["lp_formulation"]) if isinstance(f, str) and f]
            ax.set_title(f"{name}: LP of {'/'.join(relaxed)}" if relaxed else name, loc="left", fontsize=7,
                         pad=2)  # for best, the MILP's LP


def _runtime_figure(results: pd.DataFrame, references: pd.DataFrame, path: Path) -> None:
    parts = list(_parts(results))
    with _panels(path, len(parts), "Median runtime vs instance size (wall clock)", _sizes(parts),
                 "seconds (median)") as axes:
        for ax, (name, g) in zip(axes, parts):
            for method, h in g.dropna(subset=["runtime_s"]).groupby("method", sort=False):
                series = _by_size(h, "runtime_s", "median")
                ax.plot(series.index, series.values, marker="o", label=method)
            refs = references[references["part"] == g["part"].iloc[0]].dropna(subset=["runtime_s"])
            if len(refs):
                series = _by_size(refs, "runtime_s", "median")
                ax.plot(series.index, series.values, "k--", marker="s", label=f"solve {refs['formulation'].iloc[0]}")
            ax.set_yscale("log")
            ax.set_title(name, loc="left", fontsize=7, pad=2)


FIGURES = (("ratios.png", "Empirical ratio per method and family: instances, mean and 95% interval; the red bar is "
                           "the paper's bound where it proves one"),
           ("ratio_vs_size.png", "Mean exact ratio vs instance size"),
           ("integrality_gap.png", "Integrality gap of the reference MILP vs instance size"),
           ("runtime_vs_size.png", "Median runtime of each method and of the reference solve vs instance size"))


def write_report(outcome: StudyOutcome, out: Path, drawn: dict[str, str]) -> dict[str, str]:
    """Draw the figures and write ``report.md`` into ``out``. ``drawn`` maps each figure file an
    earlier run of the folder drew to the digest of what it was drawn from; a figure whose data,
    format and drawing code are the same, and whose file is still the one optsched wrote, is kept
    rather than drawn again (a cached rerun). Returns the same map for this run's figures."""
    results, references = outcome.results, outcome.references
    of_results, of_references = _digest(results), _digest(references)  # each table serialised once
    now: dict[str, str] = {}
    for name, data, draw in (
            ("ratios.png", (of_results,), lambda: _ratio_figure(results, out / "ratios.png")),
            ("ratio_vs_size.png", (of_results,), lambda: _size_figure(results, out / "ratio_vs_size.png")),
            ("integrality_gap.png", (of_references,), lambda: _gap_figure(references, out / "integrality_gap.png")),
            ("runtime_vs_size.png", (of_results, of_references),
             lambda: _runtime_figure(results, references, out / "runtime_vs_size.png"))):
        path = out / report_name(name)
        digest = _drawn_from(name, data)
        now[path.name] = digest
        if drawn.get(path.name) == digest and path.is_file():
            keep_file(str(path))
        else:
            draw()
    study = outcome.study
    v = outcome.versions
    lines = [f"# Study `{study.name}`", "",
             f"optsched {v['optsched']} (code digest {v['code'].rpartition('+')[2]}), HiGHS {v['highs']}, "
             f"CBC {v['cbc']}, CP-SAT {v['cp-sat']}; "
             f"executor {study.execution.executor} with {study.execution.workers} worker(s); {outcome.units} units "
             f"({outcome.cached} from the cache), "
             f"{outcome.wall_s:.1f} s.", "", "## Parts", ""]
    for k, part in enumerate(study.parts):
        ref = part.reference
        sizes = ", ".join(str(j) for j in part.jobs if j is not None) or "the preset's"
        lines.append(f"- part {k}: `{part.family}`, `{part.instances}` instances, seeds "
                     f"{part.seeds[0]}..{part.seeds[-1]} ({len(part.seeds)}), jobs {sizes}; reference "
                     f"`{ref.formulation}`{' (the family’s measured choice)' if ref.formulation == 'best' else ''} "
                     f"(budget {ref.budget()}"
                     f"{', cross-checked' if ref.cross_check else ''}); methods "
                     + ", ".join(f"`{m.label}`" for m in part.methods))
    lines += ["", "## Papers", ""]
    cited = dict.fromkeys(paper for part in study.parts for paper in get(part.family).papers)
    lines += [f"- `{paper.key}`: {paper.text()}" for paper in cited]
    lines += ["", "## Summary", ""]
    lines += [t.markdown() + "\n" for t in summary_tables(outcome)]
    problems = outcome.problems
    lines += ["## Checks", "", *(f"- **{p}**" for p in problems)] if problems else \
        ["## Checks", "", "- every schedule verified; none beat a proven optimum or bound; no solver disagreement"]
    lines += ["", "## Figures", ""]
    lines += [f"{markdown_figure(name, caption)}\n\n{caption}.\n" for name, caption in FIGURES]
    lines += ["## Files", "", "`results.csv` (one row per instance and method), `references.csv` (one row per "
              "instance), `summary.csv`, `summary_references.csv`, `study.json`. Column `ratio_kind` says whether "
              "a ratio is `exact` or an `upper bound` on the true ratio (reference not proven optimal).", ""]
    write_text(str(out / "report.md"), "\n".join(lines))
    return now


def _digest(frame: pd.DataFrame) -> str:
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()


def _drawn_from(name: str, data: tuple[str, ...]) -> str:
    """The digest of what figure ``name`` is drawn from: its tables' digests, the figure format, and
    optsched's code."""
    return hashlib.sha256("\n".join((name, REPORT_FORMAT.get(), whole_code(), *data)).encode()).hexdigest()
