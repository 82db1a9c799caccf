"""The report folder of ``optsched reproduce NAME``: the registered reproductions, one run of one
(:func:`run`: the folder claimed, the reproduction run, ``report.md``, ``results.csv`` and
``summary.csv`` written), and the worst cases saved as files ``optsched verify`` reads."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..jsonio import write_text
from ..outputs import claim_folder
from ..plot import markdown_figure
from ..provenance import version_string
from ..registry import Family, Reproduction, families, get
from ..solvers import cbc_version, cp_sat_version, highs_version
from ..study.engine import Execution
from ..study.report import Table
from .report import Report
from .setting import DEFAULT_SEEDS, QUICK_WARNING, SCALES, Setting


def save_case(setting: Setting, name: str, family_name: str, runs: dict[str, tuple[Any, Any, dict]],
              meta: dict) -> list[str]:
    """Write a worst case to ``worst/`` in the report folder, as files ``optsched verify`` reads:
    for each ``label -> (instance, schedule, produced_by)``, ``<name>.<label>.instance.json`` and
    ``<name>.<label>.schedule.json`` (an instance shared by two labels is written once per label;
    no schedule file where ``schedule`` is None: an optimum that is not a schedule, which
    ``optsched solve`` recomputes from the instance). Returns the file names, relative to the
    report folder."""
    from ..documents import instance_document, schedule_document
    from ..jsonio import write_json

    family = get(family_name)
    folder = setting.out_dir / "worst"
    folder.mkdir(exist_ok=True)
    written = []
    for label, (instance, schedule, produced_by) in runs.items():
        documents = [("instance", instance_document(family, instance, meta))]
        if schedule is not None:
            documents.append(("schedule", schedule_document(family, instance, schedule, produced_by)))
        for kind, doc in documents:
            path = folder / f"{name}.{label}.{kind}.json"
            write_json(str(path), doc)
            written.append(str(path.relative_to(setting.out_dir)))
    return written


def write_report(report: Report, setting: Setting, name: str, results: list[Table]) -> Path:
    """Write ``report.md`` (with the ``results`` tables, :meth:`Report.results`), ``results.csv`` and
    ``summary.csv`` next to the figures already in ``out_dir``."""
    versions = f"optsched {version_string()}, HiGHS {highs_version()}, CBC {cbc_version()}, CP-SAT {cp_sat_version()}"
    family = owner(name)
    cited = "; ".join(paper.text() for paper in family.papers) if family else ""
    lines = [f"# {report.title}", "",
             f"`optsched reproduce {name} --preset {setting.scale} --seeds {setting.seeds}` ({versions}). "
             + setting.computing(), ""]
    lines += [f"**Paper:** {cited}", ""] if cited else []
    if report.paper_says:
        lines += ["## What the paper reports", ""] + [f"- {s}" for s in report.paper_says] + [""]
    lines += ["## Settings the paper left open, and what was assumed", ""]
    lines += [f"- {s}" for s in report.assumptions] + [""]
    lines += ["## Results", ""]
    if setting.scale == "quick":
        lines += [QUICK_WARNING, ""]
    if report.summary:
        lines += [f"**How the verdicts are computed.** {report.testing()}See docs/study.md, \"Statistics\".", ""]
    for table in results:
        lines += [table.markdown(), ""]
    for file, caption in report.figures:
        lines += [markdown_figure(file, caption), "", f"*{caption}*", ""]
    write_text(str(setting.out_dir / "report.md"), "\n".join(lines))
    summary = [{**r, "paper": cited} for r in report.decided()] if cited else report.decided()
    for rows, file in ((report.records, "results.csv"), (summary, "summary.csv")):
        if rows:
            _write_csv(setting.out_dir / file, rows)
    return setting.out_dir / "report.md"


def _write_csv(path: Path, rows: list[dict]) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(dict.fromkeys(k for r in rows for k in r)))
    writer.writeheader()
    writer.writerows(rows)
    write_text(str(path), buffer.getvalue())


def reproductions() -> dict[str, Reproduction]:
    """Every registered reproduction, by name."""
    found: dict[str, Reproduction] = {}
    for family in families().values():
        found.update(family.reproductions)
    return found


def owner(name: str) -> Family | None:
    """The family that registers reproduction ``name`` (whose papers its report cites); None for a
    reproduction no family registers (a test's)."""
    return next((family for family in families().values() if name in family.reproductions), None)


@dataclass(frozen=True)
class Reproduced:
    """One run of a reproduction: its name, the setting it ran with, its report, the tables to show
    (:meth:`Report.results`) and the path of ``report.md``."""

    name: str
    setting: Setting
    report: Report
    results: list[Table]
    path: Path


def run(name: str, scale: str, seeds: int | None, workers: int, out_dir: str | None, *, progress: bool = True,
        executor: str = "local", scheduler: str | None = None, fresh: bool = False) -> Reproduced:
    """Run reproduction ``name`` and write its report folder (with the cache of its tasks, which
    ``fresh`` discards); a progress bar goes to stderr when it is a terminal. The command line
    prints what it returns (cli.py)."""
    table = reproductions()
    if name not in table:
        raise InputError(f"unknown reproduction '{name}' (known: {', '.join(table) or 'none'})")
    if scale not in SCALES:
        raise InputError(f"--preset must be one of {', '.join(SCALES)}, got {scale!r}")
    setting = Setting(scale, seeds or DEFAULT_SEEDS[scale], Path(out_dir or f"reproduce-{name}"),
                      Execution(executor, workers, scheduler), progress)
    # The owner of the folder is the reproduction and its preset; more seeds extend it (from the cache).
    with claim_folder(setting.out_dir, {"verb": "reproduce", "name": name, "preset": scale}, fresh=fresh,
                      subfolders=("worst",), parents=True) as folder:
        try:
            report = table[name].run(setting)
        except InputError:  # found late (an unreachable Dask scheduler): leave no folder this run made for nothing
            folder.abandon()
            raise
        results = report.results()
        path = write_report(report, setting, name, results)
        folder.finish()
    return Reproduced(name, setting, report, results, path)
