"""An MkDocs hook: before the site is built, draw the figures of docs/gallery.md with
``optsched.plot`` into docs/gallery/ (not committed): a Gantt chart of every family on a tiny
instance, and means with their 95% intervals and the paper algorithm's paired relative gains from
the committed reproduction summaries (docs/results/)."""

from __future__ import annotations

import csv
from pathlib import Path

GALLERY = Path(__file__).resolve().parents[1] / "gallery"
RESULTS = Path(__file__).resolve().parents[1] / "results"
#: (file, summary, x column, the rows kept: column -> value ("": empty), x label, y on a log axis).
SWEEPS = (
    ("asrpt-offered-load", "asrpt-sim-default", "value", {"sweep": "offered load"}, "offered load (1 = the trace's)",
     True),
    ("edge-jobs", "edge-sec5-default", "jobs", {"servers": "40", "value": "jct", "slot_hours": ""},
     "jobs (40 servers)", True),
    ("hetero-jobs-ps", "hetero-sec7-default", "jobs", {"servers": "30", "framework": "ps", "sweep": ""},
     "jobs (PS, 30 servers)", True),
    ("oasis-jobs", "oasis-sec5-default", "jobs", {"figure": "3", "value": "utility"},
     "jobs (T = 100, 20 + 20 servers)", False),
    # the paper presets, at the paper's sizes
    ("asrpt-paper-window", "asrpt-sim-paper", "value", {"sweep": "jobs"}, "trace jobs in the window", True),
    ("asrpt-paper-single-gpu", "asrpt-sim-paper", "value", {"sweep": "single-GPU share"},
     "share of single-GPU jobs (16,449 jobs)", True),
    ("edge-paper-jobs", "edge-sec5-paper", "jobs", {"servers": "100", "value": "jct", "slot_hours": ""},
     "jobs (100 servers)", True),
    ("hetero-paper-jobs-ps", "hetero-sec7-paper", "jobs", {"servers": "150", "framework": "ps", "sweep": ""},
     "jobs (PS, 150 servers)", True),
    ("oasis-paper-jobs", "oasis-sec5-paper", "jobs", {"figure": "3", "value": "utility"},
     "jobs (T = 300, 50 + 50 servers)", False),
)


def _number(text: str):
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _rows(summary: str, x: str, keep: dict[str, str]) -> list[dict]:
    """The method rows of a committed summary that match ``keep``, with numbers where plot.intervals
    needs them."""
    with open(RESULTS / f"{summary}.summary.csv", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r.get("method") not in ("claim", "", None) and r.get("mean")
                and all((r.get(column) or "") == value for column, value in keep.items())]
    return [{**r, "mean": float(r["mean"]), "ci_low": float(r["ci_low"]), "ci_high": float(r["ci_high"]),
             x: _number(r[x])} for r in rows]


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
    for file, summary, x, keep, xlabel, log in SWEEPS:
        rows = _rows(summary, x, keep)
        with plot.figure(GALLERY / f"{file}.svg", format="svg") as (_, ax):
            plot.intervals(rows, x, ax=ax, xlabel=xlabel, log=log,
                           ylabel=f"{rows[0]['summary']} (mean, 95% interval)", title=f"{summary}, 30 seeds")
        plot.gains_figure(rows, x, GALLERY / f"{file}-gain.svg", format="svg", xlabel=xlabel,
                          title=f"{summary}, 30 seeds")
