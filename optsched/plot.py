"""Figures of schedules and of study results, in one style: ``optsched.plot``.

* :func:`gantt` draws a schedule of any family: its servers (or workers) over time, one colour per
  job, a job's preemptions as the gaps between its bars, its placement as the rows it occupies, and a
  preemptive baseline's killed runs hatched. What to draw comes from the family (``Family.bars``,
  in its ``schedule.py``); a family whose schedules are not timelines draws them itself
  (``Family.chart``: placement's stages over the GPUs of each server). This module imports no family.
* :func:`bars` gives the rectangles behind a Gantt chart, for tables or other plotting libraries.
* :func:`intervals` draws means with their 95% intervals against a swept value (a reproduction's
  ``summary.csv`` rows); :func:`gains` the paired relative gains behind the verdicts, and
  :func:`gains_figure` saves them with a second panel for the gains too small to read beside the
  others; :func:`ratios` draws a study's ratios per method and family.
* :func:`figure` and :func:`save`: the project's style (:data:`STYLE`), one column wide, written as
  PNG at 300 dpi, PDF or SVG.

Examples
--------
>>> import optsched
>>> from optsched import plot
>>> family = optsched.get("single")
>>> instance = family.generate("tiny", seed=0)
>>> ran = optsched.run(family, instance, "wspt")
>>> ax = plot.gantt(instance, ran.schedule)
>>> ax.get_xlabel()
'time'
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .jsonio import write_file

if TYPE_CHECKING:
    from .registry import Family

#: Output formats of :func:`save`; PDF and SVG are vector.
FORMATS = ("png", "pdf", "svg")
#: The format of the figures a report writes (``--format``; SVG, vector and shown by Markdown
#: viewers, unless set): :func:`report_format` sets it for the code that writes one report.
REPORT_FORMAT: ContextVar[str] = ContextVar("optsched_report_format", default="svg")
#: Raster resolution.
DPI = 300
#: One column of a two-column paper (inches).
COLUMN_WIDTH = 3.5
#: The least height (inches) of a figure of stacked panels, so that one panel keeps room beside its titles.
STACK_MIN_HEIGHT = 2.4
#: The project's matplotlib style: serif text at paper sizes, light grid, no top or right spine.
STYLE: dict[Any, Any] = {
    "font.family": "serif", "font.size": 8, "axes.titlesize": 8, "figure.titlesize": 9, "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.5,
    "axes.spines.top": False, "axes.spines.right": False, "lines.linewidth": 1.2, "lines.markersize": 4,
    "errorbar.capsize": 2, "legend.frameon": False, "figure.constrained_layout.use": True,
    "savefig.dpi": DPI, "pdf.fonttype": 42, "svg.fonttype": "none",
}


@dataclass(frozen=True)
class Bar:
    """One rectangle of a Gantt chart: ``job`` on row ``row`` from ``start`` to ``end``;
    ``killed``: a run a preemptive baseline started and later killed (its work was lost)."""

    row: str
    start: float
    end: float
    job: int
    killed: bool = False


def pyplot():
    """``matplotlib.pyplot``, imported on first use (so that ``import optsched.plot`` stays light)."""
    import matplotlib.pyplot as plt

    return plt


def styled(function):
    """Run ``function`` in the project's style (:data:`STYLE`): text and lines take their sizes
    when they are drawn, so the whole drawing happens inside the style, and nothing outside changes."""
    import functools

    @functools.wraps(function)
    def inside(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context(STYLE):
            return function(*args, **kwargs)

    return inside


@contextmanager
def report_format(format: str) -> Iterator[str]:
    """``with report_format("pdf"): ...``: the figures the enclosed code writes with :func:`figure`
    are PDFs, and :func:`report_name` names them so."""
    if format not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, got {format!r}")
    token = REPORT_FORMAT.set(format)
    try:
        yield format
    finally:
        REPORT_FORMAT.reset(token)


def report_name(name: str) -> str:
    """A report's figure file ``name`` in the current :data:`REPORT_FORMAT` (``x.png`` -> ``x.svg``)."""
    return str(Path(name).with_suffix(f".{REPORT_FORMAT.get()}"))


def markdown_figure(name: str, caption: str) -> str:
    """A report figure in Markdown: an image for PNG and SVG, a link for PDF (which viewers do not
    show inline)."""
    name = report_name(name)
    return f"[{caption}]({name})" if name.endswith(".pdf") else f"![{caption}]({name})"


@contextmanager
def figure(path: Path | str | None = None, *, format: str | None = None, rows: int = 1, cols: int = 1,
           width: float = COLUMN_WIDTH, height: float | None = None, **subplots: Any) -> Iterator[tuple[Any, Any]]:
    """``with figure(path) as (fig, ax): ...`` draws in the project's style and saves to ``path``
    in ``format``, by default the current report's (:data:`REPORT_FORMAT`, which replaces the
    suffix of ``path``); ``rows`` x ``cols`` panels share one figure ``width`` inches wide (one
    column by default)."""
    import matplotlib

    plt = pyplot()
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(rows, cols, figsize=(width, height or width * 0.62 * rows / max(1, cols) ** 0.5),
                               **{"squeeze": rows * cols == 1, **subplots})
        try:
            yield fig, ax
            finish(fig)
            if path is not None:
                save(fig, path, format=format or REPORT_FORMAT.get())
        finally:
            if path is not None:
                plt.close(fig)


def finish(fig: Any) -> None:
    """What a reviewer would otherwise send back, fixed on every panel of ``fig``: a legend inside
    the data moves to the right of the panel; an x axis whose plotted values are all integers (job and
    server counts, a sweep) gets those values as ticks when there are at most 8 (one value: a point
    with room around it), else integer ticks, unless the caller set the ticks (:func:`intervals` sets
    a sweep's values, its points sitting offset from them); long labels and titles are wrapped to
    the panel's width, so that the figure keeps its size (one column) with nothing cut."""
    import numpy as np
    from matplotlib.ticker import FixedLocator, MaxNLocator

    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None and legend.get_bbox_to_anchor() == ax.bbox:  # not placed by the caller
            handles, labels = ax.get_legend_handles_labels()
            if handles:
                ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=6,
                          handlelength=1.5)
        xs = [x for line in ax.get_lines() for x in np.asarray(line.get_xdata(), dtype=float).ravel()]
        chosen = isinstance(ax.xaxis.get_major_locator(), FixedLocator)
        if xs and not chosen and ax.get_xscale() == "linear" and all(np.isfinite(x) and float(x).is_integer()
                                                                     for x in xs):
            swept = sorted(set(xs))
            if len(swept) == 1:  # one value: a point with its own tick, not a range
                ax.set_xticks(swept)
                ax.set_xlim(swept[0] - 1, swept[0] + 1)
            elif len(swept) <= 8:
                ax.set_xticks(swept)  # a sweep's few values: its own ticks
            else:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if not isinstance(ax.xaxis.get_major_locator(), FixedLocator) and ax.get_xscale() == "linear":
            _spread_ticks(fig, ax)
        label = ax.get_ylabel()
        height = max(20, int(17 * ax.get_position().height * fig.get_figheight()))  # characters along the axis
        if len(label) > height:
            ax.set_ylabel(textwrap.fill(label.replace("\n", " "), height))
        columns = max(20, int(55 * ax.get_position().width * fig.get_figwidth() / COLUMN_WIDTH))
        text = ax.get_xlabel()
        if len(text) > columns and "\n" not in text:
            ax.set_xlabel(textwrap.fill(text, columns))
        for title in (ax.title, ax._left_title, ax._right_title):  # every title location, its font kept
            text = title.get_text()
            if len(text) > columns and "\n" not in text:
                title.set_text(textwrap.fill(text, columns))
    title = fig._suptitle
    if title is not None and len(title.get_text()) > 45 and "\n" not in title.get_text():
        title.set_text(textwrap.fill(title.get_text(), 45))


def _spread_ticks(fig: Any, ax: Any) -> None:
    """Fewer ticks on ``ax``'s x axis until their labels no longer touch (five-digit slot numbers
    on one column ran together: "0250050007500"); a locator the caller fixed is left alone."""
    from matplotlib.ticker import MaxNLocator

    integer = all(float(t).is_integer() for t in ax.get_xticks())
    for _ in range(6):
        fig.draw_without_rendering()
        boxes = sorted((t.get_window_extent() for t in ax.get_xticklabels() if t.get_visible() and t.get_text()),
                       key=lambda b: b.x0)
        gap = 0.5 * min((b.height for b in boxes), default=0.0)  # half a character between labels
        if len(boxes) < 3 or all(a.x1 + gap <= b.x0 for a, b in zip(boxes, boxes[1:])):
            return
        ax.xaxis.set_major_locator(MaxNLocator(nbins=max(1, (len(boxes) - 1) // 2), integer=integer))


def save(fig: Any, path: Path | str, *, format: str | None = None) -> Path:
    """Write ``fig`` to ``path`` atomically as PNG (300 dpi), PDF or SVG: ``format``, else the
    suffix of ``path``; a path without one gets ``.{format}``. Returns the path written."""
    path = Path(path)
    chosen = format or path.suffix.lstrip(".") or "png"
    if chosen not in FORMATS:
        raise InputError(f"figure format must be one of {', '.join(FORMATS)}, got {chosen!r}")
    if path.suffix.lstrip(".") != chosen:
        path = path.with_suffix(f".{chosen}")
    import matplotlib

    with matplotlib.rc_context(STYLE):
        write_file(str(path), lambda tmp: fig.savefig(tmp, format=chosen, dpi=DPI))  # the figure's own size
    return path


def family_of(instance: Any) -> str:
    """The family whose instance ``instance`` is, from the package that defines its class."""
    from .registry import defining_family

    name = defining_family(instance)
    if name is None:
        raise InputError(f"instance: not an optsched instance: {type(instance).__name__}")
    return name


def _checked(instance: Any, schedule: Any, family: str | None) -> Family:
    """The family to draw (``family``, else the instance's), with the instance and the schedule
    checked to be of it (another family's is one ``InputError`` naming it)."""
    from .registry import get

    chosen = get(family or family_of(instance))
    chosen.check_instance(instance)
    chosen.check_schedule(schedule)
    return chosen


def bars(instance: Any, schedule: Any, family: str | None = None) -> list[Bar]:
    """The rectangles of ``schedule``'s Gantt chart, as its family draws them (``Family.bars``, in its
    ``schedule.py``): rows are servers (``hetero``, ``oasis``, ``asrpt``), workers (``edge``:
    ``server/worker``, and ``cloud``) or the machine (``single``); time is in the family's unit
    (``Family.time_unit``). Consecutive slots of one job on one row merge into one bar, so a gap is a
    preemption."""
    return _bars_of(_checked(instance, schedule, family), instance, schedule)


def _bars_of(chosen: Family, instance: Any, schedule: Any) -> list[Bar]:
    """:func:`bars` for an instance and schedule already checked to be of ``chosen``."""
    if chosen.bars is None:
        raise InputError(f"family {chosen.name}'s schedules are not timelines: plot.gantt draws them with its chart")
    return _merged(Bar(*bar) for bar in chosen.bars(instance, schedule))


def _merged(drawn: Iterable[Bar]) -> list[Bar]:
    out: list[Bar] = []
    for bar in sorted(drawn, key=lambda b: (b.row, b.job, b.killed, b.start)):
        last = out[-1] if out else None
        if last and (last.row, last.job, last.killed) == (bar.row, bar.job, bar.killed) and bar.start <= last.end:
            out[-1] = Bar(last.row, last.start, max(last.end, bar.end), last.job, last.killed)
        else:
            out.append(bar)
    return out


def _lanes(row_bars: Sequence[Bar]) -> tuple[dict[int, int], int]:
    """Interval colouring of one row's bars: each gets the first lane free at its start."""
    ends: list[float] = []
    lane: dict[int, int] = {}
    for k, bar in sorted(enumerate(row_bars), key=lambda item: (item[1].start, item[1].job)):
        free = next((i for i, end in enumerate(ends) if end <= bar.start + 1e-12), None)
        if free is None:
            ends.append(bar.end)
            free = len(ends) - 1
        ends[free] = bar.end
        lane[k] = free
    return lane, max(1, len(ends))


@styled
def gantt(instance: Any, schedule: Any, *, family: str | None = None, ax: Any = None,
          title: str | None = None) -> Any:
    """Draw ``schedule`` of ``instance`` as a Gantt chart on ``ax`` (a new one-column figure when
    None) and return the axes. Rows are the resources a job occupies (see :func:`bars`); jobs that
    share a row at the same time are stacked in lanes; a job's colour is the same on every row, so
    its placement reads down a column and its preemptions as gaps. Killed runs are hatched."""
    chosen = _checked(instance, schedule, family)
    if chosen.chart is not None:
        return chosen.chart(instance, schedule, ax, title)
    name = chosen.name
    drawn = _bars_of(chosen, instance, schedule)
    if ax is None:
        with figure(height=min(9.0, 0.9 + 0.22 * (len({b.row for b in drawn}) or 1))) as (_, ax):
            pass
    plt = pyplot()
    colours = plt.get_cmap("tab20")
    rows = sorted({b.row for b in drawn}, key=_row_key)
    for y, row in enumerate(rows):
        mine = [b for b in drawn if b.row == row]
        lane, lanes = _lanes(mine)
        for k, bar in enumerate(mine):
            height = 0.8 / lanes
            ax.barh(y - 0.4 + lane[k] * height + height / 2, bar.end - bar.start, left=bar.start, height=height,
                    color=colours(bar.job % 20), edgecolor="black", linewidth=0.3,
                    hatch="////" if bar.killed else None, alpha=0.5 if bar.killed else 1.0)
            if bar.end - bar.start > 0 and lanes <= 2:
                ax.text((bar.start + bar.end) / 2, y - 0.4 + lane[k] * height + height / 2, str(bar.job),
                        ha="center", va="center", fontsize=5)
    ax.set_yticks(range(len(rows)), rows)
    ax.invert_yaxis()
    ax.set_xlabel(chosen.time_unit)
    if all(float(t).is_integer() for b in drawn for t in (b.start, b.end)):  # slots: whole-number ticks
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(axis="y", visible=False)
    if any(b.killed for b in drawn):
        from matplotlib.patches import Patch

        ax.legend(handles=[Patch(facecolor="white", edgecolor="black", hatch="////", label="killed run")],
                  loc="upper right")
    ax.set_title(title or f"{name}: {len({b.job for b in drawn})} jobs (labels: job index)")
    return ax


#: Row groups in drawing order: the machine or worker servers first, then PS servers, then the cloud.
_GROUP = {"PS": 1, "cloud": 2}


def _row_key(row: str) -> tuple:
    parts = row.replace("/", " ").split()
    return (_GROUP.get(parts[0], 0), *(int(part) if part.isdigit() else part for part in parts))


@styled
def intervals(rows: Sequence[dict], x: str, *, ax: Any = None, xlabel: str | None = None, ylabel: str | None = None,
              log: bool = False, xlog: bool = False, title: str | None = None, legend: bool = True,
              palette: Sequence[str] | None = None) -> Any:
    """Each method's mean with its 95% interval against ``x``, from summary rows (a reproduction's
    ``summary.csv``: ``method``, ``mean``, ``ci_low``, ``ci_high``, ``n_seeds``). Methods are
    offset slightly along ``x`` so that equal values stay visible; ``log``/``xlog``: log axes (on a log
    y axis an interval reaching 0 or below stops at the axis floor, marked "v"; the x axis turns
    logarithmic by itself where a linear one would run the sweep's ticks together, :func:`_crowded`);
    ``legend``: draw the legend inside the axes (else the caller places it). A method's colour is
    its place in ``palette`` (default: the order the rows name the methods), so figures drawn from
    the same rows give a method the same colour."""
    if ax is None:
        with figure() as (_, ax):
            pass
    methods = list(dict.fromkeys(r["method"] for r in rows))
    palette = list(dict.fromkeys([*(palette or []), *methods]))
    xs = sorted({r[x] for r in rows})
    xlog = xlog or (_numeric(xs) and _crowded(xs))
    positive = [v for r in rows for v in (r["mean"], r["ci_low"]) if v > 0]
    floor = min(positive, default=1.0) / 1.5
    step = 0.02 if _numeric(xs) else 0.6 / max(2, len(methods))  # categories: spread within a band
    for k, method in enumerate(methods):
        mine = sorted((r for r in rows if r["method"] == method), key=lambda r: r[x])
        shift = (k - (len(methods) - 1) / 2) * step
        positions = [xs.index(r[x]) + shift if not _numeric(xs) else _offset(r[x], shift, xlog) for r in mine]
        means = [r["mean"] for r in mine]
        # a t-interval can reach 0 or below for a positive quantity: on a log axis it stops at the
        # axis floor, marked with a "v"
        lows = [r["ci_low"] if not log or r["ci_low"] > 0 else floor for r in mine]
        drawn = ax.errorbar(positions, means, yerr=[[m - low for m, low in zip(means, lows)],
                                                    [r["ci_high"] - m for m, r in zip(means, mine)]],
                            marker="o", linestyle="-" if _numeric(xs) else "none", label=method,
                            color=f"C{palette.index(method) % 10}")
        clipped = [p for p, r in zip(positions, mine) if log and r["ci_low"] <= 0]
        ax.plot(clipped, [floor] * len(clipped), "v", color=drawn.lines[0].get_color(), markersize=4)
    if not _numeric(xs):
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    if xlog:
        ax.set_xscale("log", base=2)
    if _numeric(xs) and len(xs) <= 8:  # a sweep's few values are its ticks (the points are offset from them)
        from matplotlib.ticker import NullLocator

        ax.set_xticks(xs, [f"{v:g}" for v in xs])
        ax.xaxis.set_minor_locator(NullLocator())
    if log:
        ax.set_yscale("log")
        if any(r["ci_low"] <= 0 for r in rows):
            ax.set_ylim(bottom=floor)
    n = max((int(r.get("n_seeds") or 0) for r in rows), default=0)
    ax.set_xlabel(x if xlabel is None else xlabel)
    ax.set_ylabel(textwrap.fill(ylabel or (rows[0].get("summary", "value") if rows else "value"), 40))
    if legend and len(methods) > 1:
        ax.legend(ncols=2 if len(methods) > 4 else 1)
    if title:
        ax.set_title(title, loc="left", fontsize=7, pad=2)
    else:
        ax.set_title(f"mean and 95% interval over {n} seeds")
    return ax


def paired_gains(rows: Sequence[dict]) -> list[dict]:
    """The summary rows paired against a reference with a finite ``effect``, as :func:`intervals`
    draws them: the estimate as ``mean``, its interval as ``ci_low``..``ci_high`` (NaN where it is
    infinite: too few pairs)."""
    import math

    def finite(value: Any) -> float:
        return float(value) if math.isfinite(float(value)) else math.nan

    return [{**r, "mean": float(r["effect"]), "ci_low": finite(r["effect_ci_low"]),
             "ci_high": finite(r["effect_ci_high"])}
            for r in rows if r.get("reference") and r.get("effect") not in (None, "")
            and math.isfinite(float(r["effect"]))]


#: A gain axis turns symmetric-logarithmic (linear within ±1) when an interval reaches this far: a
#: maximised objective near 0 on some seed makes relative gains of hundreds, which would flatten
#: every other method onto the zero line.
GAIN_SYMLOG_BEYOND = 5.0


#: :func:`close_to_zero`: a group of methods whose gains all lie within this fraction of the largest
#: gain drawn is flattened onto the zero line beside the others.
ZOOM_BELOW = 0.1


def close_to_zero(paired: Sequence[dict]) -> list[str]:
    """The methods of ``paired`` (:func:`paired_gains`) whose estimates and finite interval ends all
    lie within :data:`ZOOM_BELOW` of the largest absolute value drawn (of 1 on a symmetric-log axis,
    linear within ±1), when some other method lies beyond it: on one axis they sit on the zero line,
    so the sign of their gain, often what a verdict is about, cannot be read. Empty when there is no
    such split (nothing to zoom into)."""
    import math

    def values(method: str) -> list[float]:
        return [abs(v) for r in paired if r["method"] == method for v in (r["mean"], r["ci_low"], r["ci_high"])
                if math.isfinite(v)]

    methods = list(dict.fromkeys(r["method"] for r in paired))
    largest = max((v for m in methods for v in values(m)), default=0.0)
    if largest > GAIN_SYMLOG_BEYOND:  # the axis is linear within ±1 only: what is flattened is near 0 there
        largest = 1.0
    close = [m for m in methods if values(m) and max(values(m)) <= ZOOM_BELOW * largest]
    return close if close and len(close) < len(methods) else []


@styled
def gains(rows: Sequence[dict], x: str, *, ax: Any = None, xlabel: str | None = None, xlog: bool = False,
          title: str | None = None, only: Sequence[str] | None = None) -> Any:
    """The reference's paired relative gain over each other method against ``x``, from summary rows
    paired against it (``reference``, ``effect``, ``effect_ci_low``, ``effect_ci_high``: the
    Hodges-Lehmann estimate and its 95% interval, study/stats.py): a dashed line at 0, above it the
    reference is better. An interval that so few pairs cannot give (infinite, fewer than 6) is not
    drawn; past :data:`GAIN_SYMLOG_BEYOND` the axis is symmetric-logarithmic. Each method keeps
    the colour :func:`intervals` gives it when drawing the same ``rows``; ``only``: draw these
    methods alone (a panel zoomed on :func:`close_to_zero`'s), in the same colours."""
    import math

    paired = [r for r in paired_gains(rows) if only is None or r["method"] in only]
    if not paired:
        raise InputError("plot.gains: no row is paired against a reference (columns reference and effect)")
    n = max(int(float(r.get("n_seeds") or 0)) for r in paired)
    bare = all(math.isnan(r["ci_low"]) for r in paired)
    warning = "estimates only: fewer than 6 pairs give no 95% interval" if bare else ""
    ax = intervals(paired, x, ax=ax, xlabel=xlabel, xlog=xlog, palette=[r["method"] for r in rows],
                   title="; ".join(t for t in (title, warning) if t) or " ",
                   ylabel=f"{paired[0]['reference']}'s paired relative gain ({n} seeds)")
    ax.axhline(0.0, color="0.5", linewidth=0.8, linestyle="--")
    drawn = [v for r in paired for v in (r["mean"], r["ci_low"], r["ci_high"]) if math.isfinite(v)]
    if max(abs(v) for v in drawn) > GAIN_SYMLOG_BEYOND:
        ax.set_yscale("symlog", linthresh=1.0)
        ax.set_ylim(bottom=min(-1.0, 1.5 * min(drawn)))  # not decades below the lowest gain
    return ax


def gains_figure(rows: Sequence[dict], x: str, path: Path | str, *, format: str | None = None,
                 xlabel: str | None = None, xlog: bool = False, title: str | None = None) -> bool:
    """Save :func:`gains` of ``rows`` to ``path``; methods :func:`close_to_zero` finds get a second
    panel below, alone on their own scale. True when it did."""
    close = close_to_zero(paired_gains(rows))
    if not close:
        with figure(path, format=format) as (_, ax):
            gains(rows, x, ax=ax, xlabel=xlabel, xlog=xlog, title=title)
        return False
    with figure(path, format=format, rows=2) as (_, ((every,), (zoomed,))):
        gains(rows, x, ax=every, xlabel=xlabel, xlog=xlog, title=title or "every method")
        gains(rows, x, ax=zoomed, xlabel=xlabel, xlog=xlog, only=close,
              title="the methods close to 0 above, on their own scale")
    return True


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _crowded(xs: Sequence[float]) -> bool:
    """Whether a linear axis would run the ticks of a sweep's few values together (the least gap
    under a tenth of the range: 50, 100, 200, 400, 800 jobs) where a log axis spreads them (positive
    values spanning a factor of 4 or more)."""
    if not 3 <= len(xs) <= 8 or xs[0] <= 0 or xs[-1] < 4 * xs[0]:
        return False
    return min(b - a for a, b in zip(xs, xs[1:])) < 0.1 * (xs[-1] - xs[0])


def _offset(value: float, shift: float, log: bool) -> float:
    return value * (2 ** shift) if log else value + shift * (abs(value) or 1) * 0.5


@styled
def _table(rows: Any, columns: Sequence[str], what: str) -> Any:
    """``rows`` (a DataFrame, or a list of dicts) as a DataFrame holding ``columns``; anything else,
    or a table without them, is one ``InputError`` naming ``what``."""
    import pandas as pd

    if not isinstance(rows, (pd.DataFrame, list, tuple)):
        raise InputError(f"{what}: expected a table (a DataFrame or a list of dicts, as in results.csv), "
                         f"got {type(rows).__name__}")
    try:
        frame = pd.DataFrame(list(rows) if isinstance(rows, tuple) else rows)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{what}: not a table: {exc}") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        present = ", ".join(map(str, frame.columns)) or "none"
        raise InputError(f"{what}: no column {', '.join(missing)} (it has {present})")
    return frame


def ratios(results: Any, *, by: str = "family", path: Path | str | None = None, title: str | None = None) -> Any:
    """A study's ratios (``results.csv``: ``method``, ``ratio``, and the panel column ``by``), one
    panel per value of ``by`` stacked in one column on a shared x axis (1 is optimal; log scale
    when a ratio passes 5). Per method: each instance's ratio as a dot, the mean with its 95%
    Student-t interval in black; where the frame has them, ratios only against a bound
    (``ratio_kind`` = ``upper bound``) as hollow orange circles, the paper's per-instance bound
    (``theorem_bound``) as a red bar, and runs with an infinite ratio counted in the method's label.
    Saved to ``path`` when given; returns the first panel's axes."""
    import numpy as np
    import pandas as pd

    from .study.stats import describe

    frame = _table(results, ("method", "ratio", by), "results")
    frame["ratio"] = frame["ratio"].astype(float)
    kind = frame["ratio_kind"] if "ratio_kind" in frame else pd.Series("exact", index=frame.index)
    panels = list(dict.fromkeys(frame[by]))
    counts = [frame.loc[frame[by] == p, "method"].nunique() for p in panels]
    finite = frame.loc[np.isfinite(frame["ratio"]), "ratio"]
    top = max(1.05, float(finite.max()) if len(finite) else 1.05)
    height = max(STACK_MIN_HEIGHT, 0.55 + 0.2 * sum(counts) + 0.25 * len(panels))
    with figure(path, rows=len(panels), height=height, sharex=True, squeeze=False,
                gridspec_kw={"height_ratios": counts}) as (fig, axes):
        flat = list(np.asarray(axes).ravel())
        for ax, panel in zip(flat, panels):
            mine = frame[frame[by] == panel]
            methods = list(dict.fromkeys(mine["method"]))
            labels = []
            for y, method in enumerate(methods):
                rows = mine[mine["method"] == method]
                exact = rows.loc[(kind[rows.index] == "exact") & np.isfinite(rows["ratio"]), "ratio"]
                jitter = (np.arange(len(exact)) % 7 - 3) * 0.05
                ax.plot(exact, y + jitter, ".", color="tab:blue", alpha=0.45, markersize=2.5)
                if len(exact) >= 2:
                    s = describe(list(exact))
                    ax.errorbar([s["mean"]], [y], xerr=[[s["mean"] - s["ci_low"]], [s["ci_high"] - s["mean"]]],
                                fmt="o", color="black", markersize=3, zorder=3)
                bounded = rows.loc[kind[rows.index] == "upper bound", "ratio"]
                ax.plot(bounded, [y] * len(bounded), "o", mfc="none", color="tab:orange", markersize=3,
                        label="vs a bound only" if len(bounded) else None)
                label = method
                if infinite := int((~np.isfinite(rows["ratio"])).sum()):
                    label += f" ({infinite}×∞)"
                if "theorem_bound" in rows and rows["theorem_bound"].notna().any():
                    bound = float(rows["theorem_bound"].min())
                    if bound <= 3 * top:
                        ax.plot([bound], [y], "|", color="tab:red", markersize=9, markeredgewidth=1.5,
                                label="paper's bound")
                    else:
                        label += f" (bound ≥ {bound:.3g})"
                labels.append(label)
            ax.axvline(1.0, color="0.4", linewidth=0.6)
            ax.set_yticks(range(len(methods)), labels)
            ax.set_ylim(len(methods) - 0.5, -0.5)
            ax.set_title(str(panel), loc="left", fontsize=7, pad=2)
            ax.grid(axis="y", visible=False)
        if top > 5:
            flat[-1].set_xscale("log")
        flat[-1].set_xlabel("ratio (ALG/OPT, or OPT/ALG for max families; 1 = optimal)")
        handles = {label: handle for ax in flat for handle, label in zip(*ax.get_legend_handles_labels())}
        if handles:
            fig.legend(handles.values(), handles.keys(), loc="outside lower center", ncols=len(handles))
        fig.suptitle(title or "Ratio per method: instances (dots), mean and 95% interval (black)")
    return flat[0]
