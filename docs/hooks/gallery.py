"""An MkDocs hook: before the site is built, draw the figures of docs/gallery.md with
``optsched.plot`` into docs/gallery/ (not committed): a Gantt chart of every family on a tiny
instance, and means with their 95% intervals from the committed reproduction summaries
(docs/results/)."""

from __future__ import annotations

import csv
from pathlib import Path

GALLERY = Path(__file__).resolve().parents[1] / "gallery"
RESULTS = Path(__file__).resolve().parents[1] / "results"
#: (file, summary, sweep column, its value column, rows kept, x label, log y)
SWEEPS = (
    ("asrpt-offered-load", "asrpt-sim-default", "sweep", "offered load", "offered load (1 = the trace's)", True),
    ("edge-jobs", "edge-sec5-default", "servers", "40", "jobs (40 servers)", True),
    ("hetero-jobs-ps", "hetero-sec7-default", "servers", "30", "jobs (PS, 30 servers)", True),
)


def _number(text: str):
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _rows(summary: str, column: str, keep: str) -> list[dict]:
    with open(RESULTS / f"{summary}.summary.csv", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r.get("method") not in ("claim", "", None) and r.get("mean")]
    if summary == "hetero-sec7-default":
        rows = [r for r in rows if r.get("framework") == "ps" and not r.get("sweep")]
    if summary == "edge-sec5-default":
        rows = [r for r in rows if r.get("value") == "jct" and not r.get("slot_hours")]
    rows = [r for r in rows if r.get(column) == keep]
    return [{**r, "mean": float(r["mean"]), "ci_low": float(r["ci_low"]), "ci_high": float(r["ci_high"]),
             "value": _number(r["value"]), "jobs": _number(r.get("jobs", "0") or "0")} for r in rows]


def on_pre_build(config, **kwargs) -> None:
    import optsched
    from optsched import plot

    GALLERY.mkdir(exist_ok=True)
    for name, family in optsched.families().items():
        instance = family.generate("tiny", seed=1)
        algorithm = next(iter(family.algorithms))
        with plot.figure(GALLERY / f"gantt-{name}.svg", format="svg") as (_, ax):
            plot.gantt(instance, family.run(instance, algorithm, seed=1).schedule, ax=ax,
                       title=f"{name}: {algorithm} on a tiny instance")
    for file, summary, column, keep, xlabel, log in SWEEPS:
        rows = _rows(summary, "sweep" if column == "sweep" else column, keep)
        x = "value" if column == "sweep" else "jobs"
        with plot.figure(GALLERY / f"{file}.svg", format="svg") as (_, ax):
            plot.intervals(rows, x, ax=ax, xlabel=xlabel, log=log,
                           ylabel=f"{rows[0]['summary']} (mean, 95% interval)", title=f"{summary}, 30 seeds")
