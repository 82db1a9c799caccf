"""Reproducing a paper's evaluation: ``optsched reproduce NAME``.

Each family registers its reproductions (:class:`~optsched.registry.Reproduction`); a reproduction turns a
:class:`Setting` (scale, seeds, workers, output folder) into a :class:`Report`: tables, figures,
and the settings the paper left open with what was assumed. This module holds what every
reproduction shares: the parallel task map with progress, and writing the report folder.
"""

from __future__ import annotations

import csv
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .errors import InputError
from .jsonio import check_folder_writable, write_text
from .registry import Reproduction, families
from .solvers import cbc_version, highs_version
from .study.report import Table

SCALES = ("default", "paper")


@dataclass(frozen=True)
class Setting:
    scale: str  #: "default" (minutes) or "paper" (the paper's sizes)
    seeds: int
    workers: int
    out_dir: Path
    progress: TextIO | None = None


@dataclass
class Report:
    title: str
    tables: list[Table] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  #: (file name, caption)
    assumptions: list[str] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)  #: tidy rows written to results.csv
    paper_says: list[str] = field(default_factory=list)


def parallel_map(fn: Callable[[Any], Any], tasks: Sequence[Any], setting: Setting, label: str) -> list[Any]:
    """``[fn(t) for t in tasks]`` on ``setting.workers`` processes, with a progress line."""
    done, results, start = 0, [None] * len(tasks), time.perf_counter()

    def tick():
        if setting.progress is not None:
            elapsed = time.perf_counter() - start
            left = elapsed / done * (len(tasks) - done) if done else 0.0
            end = "\n" if done == len(tasks) else ""
            print(f"\r{label}: {done}/{len(tasks)} ({elapsed:.0f} s, about {left:.0f} s left)   ",
                  end=end, file=setting.progress, flush=True)

    if setting.workers <= 1:
        for k, task in enumerate(tasks):
            results[k] = fn(task)
            done += 1
            tick()
        return results
    with ProcessPoolExecutor(max_workers=setting.workers) as pool:
        futures = {pool.submit(fn, task): k for k, task in enumerate(tasks)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            done += 1
            tick()
    return results


def write_report(report: Report, setting: Setting, name: str) -> Path:
    """Write ``report.md`` and ``results.csv`` next to the figures already in ``out_dir``."""
    versions = f"optsched {__version__}, HiGHS {highs_version()}, CBC {cbc_version()}"
    lines = [f"# {report.title}", "",
             f"`optsched reproduce {name} --preset {setting.scale} --seeds {setting.seeds}` ({versions}).", ""]
    if report.paper_says:
        lines += ["## What the paper reports", ""] + [f"- {s}" for s in report.paper_says] + [""]
    lines += ["## Settings the paper left open, and what was assumed", ""]
    lines += [f"- {s}" for s in report.assumptions] + [""]
    lines += ["## Results", ""]
    for table in report.tables:
        lines += [table.markdown(), ""]
    for file, caption in report.figures:
        lines += [f"![{caption}]({file})", "", f"*{caption}*", ""]
    write_text(str(setting.out_dir / "report.md"), "\n".join(lines))
    if report.records:
        keys = list(dict.fromkeys(k for r in report.records for k in r))
        path = setting.out_dir / "results.csv"
        tmp = path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=keys)
            writer.writeheader()
            writer.writerows(report.records)
        os.replace(tmp, path)
    return setting.out_dir / "report.md"


def reproductions() -> dict[str, Reproduction]:
    found: dict[str, Reproduction] = {}
    for family in families().values():
        found.update(family.reproductions)
    return found


def run(name: str, scale: str, seeds: int | None, workers: int, out_dir: str | None,
        out: TextIO | None = None, progress: TextIO | None = None) -> Report:
    """Run reproduction ``name``, print its tables to ``out`` (stdout) and write its report folder;
    a progress line goes to ``progress`` (stderr) when it is a terminal."""
    out = out or sys.stdout
    progress = progress or sys.stderr
    table = reproductions()
    if name not in table:
        raise InputError(f"unknown reproduction '{name}' (known: {', '.join(table) or 'none'})")
    if scale not in SCALES:
        raise InputError(f"--preset must be one of {', '.join(SCALES)}, got {scale!r}")
    folder = Path(out_dir or f"reproduce-{name}")
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a directory")
    existing = next(p for p in (folder.absolute(), *folder.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise InputError(f"{folder}: cannot create it: {existing} is not a directory")
    check_folder_writable(str(existing), str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    setting = Setting(scale, seeds or (3 if scale == "paper" else 2), workers, folder,
                      progress if progress is not None and progress.isatty() else None)
    report = table[name].run(setting)
    path = write_report(report, setting, name)
    print(f"{report.title}\n", file=out)
    for t in report.tables:
        print(t.text() + "\n", file=out)
    print("Assumed where the paper is silent:", file=out)
    for a in report.assumptions:
        print(f"  - {a}", file=out)
    print(f"\nreport: {path}; figures: {', '.join(f for f, _ in report.figures)}", file=out)
    return report


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")
