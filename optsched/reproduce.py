"""Reproducing a paper's evaluation: ``optsched reproduce NAME``.

Each family registers its reproductions (:class:`~optsched.registry.Reproduction`); a reproduction turns a
:class:`Setting` (scale, seeds, workers, output folder) into a :class:`Report`: tables, figures,
and the settings the paper left open with what was assumed. This module holds what every
reproduction shares: the parallel task map with progress, and writing the report folder.
"""

from __future__ import annotations

import csv
import io
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .errors import Failure, InputError
from .jsonio import dumps, plain, write_text
from .limits import NODE_LIMIT
from .outputs import claim
from .plot import figure, gains_figure, intervals, markdown_figure, paired_gains, report_name
from .registry import Family, Reproduction, families, get
from .solvers import cbc_version, cp_sat_version, highs_version
from .study.report import Table
from .study.table import ratio as ratio_to

SCALES = ("quick", "default", "paper")
#: The budget of every exact solve in a reproduction: branch-and-bound nodes on one solver thread,
#: so that a reproduction gives the same result files on every machine, idle or loaded (no
#: wall-clock limits). A solve it stops is reported against its bound, labelled so.
EXACT_BUDGET: dict[str, Any] = {"node_limit": NODE_LIMIT, "threads": 1}
#: Pricing rounds a column-generation bound route takes in a reproduction (its deterministic budget,
#: see :func:`certified_ratio`).
ROUTE_ROUNDS = 10
#: Seeds a certified ratio is computed on (the first ones): a bound per instance, which decides no
#: verdict; at the paper sizes one seed takes from seconds (edge) to most of an hour (hetero), each
#: measured in docs/benchmarks.md, "The paper presets", so 30 would add hours and tell little more.
CERTIFIED_SEEDS = 10
#: Seeds per point when --seeds is not given. 30 on the default and paper presets: at 30 pairs an
#: effect that wins on 80% of the seeds is called "held" with probability 0.99 alone and at least
#: 0.91 as the most demanding of 10 Holm-corrected tests (``benchmarks/power.py``; docs/study.md,
#: "Statistics"). The quick preset is a smoke test: 5 pairs never resolve a two-sided test.
DEFAULT_SEEDS = {"quick": 5, "default": 30, "paper": 30}
QUICK_WARNING = ("**The quick preset is a smoke test, not evidence.** It runs few seeds at small sizes to show "
                 "that the pipeline works; with 5 seeds no two-sided paired test reaches the 5% level, so its "
                 "comparisons are 'not resolved' by design. Conclusions come from the default and paper presets.")


@dataclass(frozen=True)
class Setting:
    """How a reproduction runs: its preset (``quick``, ``default`` or ``paper``), seeds per point, worker
    processes, report folder, progress bar, executor and Dask scheduler."""
    scale: str  #: "quick" (under 2 minutes), "default" (minutes) or "paper" (the paper's sizes)
    seeds: int
    workers: int
    out_dir: Path
    progress: bool = False  #: a progress bar on stderr (when it is a terminal)
    executor: str = "local"  #: "local" processes or "dask"
    scheduler: str | None = None  #: the Dask scheduler's address (None: a local cluster)
    #: per :func:`parallel_map` label (calls with the same label add up): (units, from the cache, seconds
    #: the units took), the cached ones at the time they were computed, so that a run resumed over
    #: several sessions reports its whole cost
    ledger: dict[str, tuple[int, int, float]] = field(default_factory=dict, compare=False, repr=False)

    def computing(self) -> str:
        """One sentence: what the units of this run took in all, summed over workers and sessions."""
        units = sum(n for n, _, _ in self.ledger.values())
        cached = sum(c for _, c, _ in self.ledger.values())
        seconds = sum(s for _, _, s in self.ledger.values())
        took = f"{seconds / 3600:.1f} hours" if seconds >= 3600 else f"{seconds:.0f} s"
        return (f"Computing time: {took} in {units:,} units (the sum of each unit's time on one worker, "
                f"whenever it ran; {cached:,} came from the cache this run).")


@dataclass
class Report:
    """What a reproduction reports: its title, tables, figures, the assumptions it made, the paper's claims, the
    rows of ``results.csv`` and the tested claims of ``summary.csv``."""
    title: str
    tables: list[Table] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  #: (file name, caption)
    assumptions: list[str] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)  #: tidy rows written to results.csv
    paper_says: list[str] = field(default_factory=list)
    summary: list[dict] = field(default_factory=list)  #: tidy rows written to summary.csv (see summarize)
    #: per claim and point, the baselines already compared and their values (see paired_claim)
    _baselines: dict[tuple[str, str], list[tuple[Any, dict]]] = field(default_factory=dict, repr=False)

    def summarize(self, records: list[dict], *, point: list[str], method: str, value: str, sense: str,
                  reference: str | None, label: str, margin: float = 0.0) -> list[dict]:
        """Add to :attr:`summary` the per-point statistics of ``value`` over seeds for every method,
        with the paired comparison against ``reference`` (study/stats.py ``summarize``; ``margin``:
        the relative gain the claim demands). The rows form one family of tests, ``label`` (one
        paper claim over its points and baselines), corrected together; they return for the
        caller's tables."""
        from .study.stats import summarize

        rows = [{"summary": label, "value": value, "family": label, **row}
                for row in summarize(records, point=point, method=method, value=value, sense=sense,
                                     reference=reference, margin=margin)]
        self.summary += rows
        return rows

    def claim(self, label: str, point: dict[str, Any], values: list[float], claim: str, tested: Any) -> None:
        """Add to :attr:`summary` a paper claim about one quantity (``values`` over seeds or instances
        at ``point``) with its test (study/stats.py ``Tested``: ``mean_within``, ``worst_case_below``,
        ``trend``). Claim rows with the same ``label`` form one family of tests."""
        from .study.stats import INTERVAL_METHOD, describe

        stats = describe(values)
        self.summary.append({"summary": label, "value": label, "family": label, **point, "method": "claim",
                             "n_seeds": stats["n"], "mean": stats["mean"], "median": stats["median"],
                             "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                             "interval_method": INTERVAL_METHOD, "max": max(values, default=math.nan),
                             "claim": claim, **tested.fields()})

    def paired_claim(self, label: str, point: dict[str, Any], a: Mapping[Any, float], b: Mapping[Any, float],
                     sense: str, claim: str, margin: float = 0.0) -> None:
        """Add the claim "A beats B" (by at least ``margin``, a fraction of B) over the seeds both have
        (``a``, ``b``: value per seed), decided by the paired test (study/stats.py ``paired``); the
        recorded values are A's gain over B in the objective's ``sense`` (B − A for "min", A − B
        for "max"), and the relative gain is the row's ``effect``. When ``point`` names a
        ``baseline`` whose values repeat those of an earlier baseline of the same claim at the same
        point, the row is merged into that one (``identical_to``): one observation, one test."""
        from .study.stats import EFFECT_METHOD, TEST, Tested, paired

        sign = -1.0 if sense == "min" else 1.0
        gains = [sign * (a[k] - b[k]) for k in a if k in b]
        c = paired(a, b, sense, margin)
        seen = self._baselines.setdefault((label, repr(sorted((k, repr(v)) for k, v in point.items()
                                                              if k != "baseline"))), [])
        twin = next((name for name, values in seen if values == dict(b)), "") if "baseline" in point else ""
        if "baseline" in point and not twin:
            seen.append((point["baseline"], dict(b)))
        self.claim(label, point, gains, claim, Tested(c.p_value, c.leans, c.verdict, TEST["paired"]))
        self.summary[-1].update({"effect": c.effect, "effect_ci_low": c.effect_ci_low,
                                 "effect_ci_high": c.effect_ci_high, "effect_method": EFFECT_METHOD,
                                 "margin": margin,
                                 "one_seed_decides": c.one_seed_decides, "identical_to": twin})

    def trend_claim(self, label: str, point: dict[str, Any], series: Mapping[Any, Mapping[float, float]],
                    direction: str, claim: str) -> None:
        """Add the claim "the value grows (``direction="up"``) or falls (``"down"``) with x", paired by
        seed (``series[seed][x] = value``): each seed's least-squares slope, tested against 0
        (study/stats.py ``trend``); the recorded values are the slopes, and the row's ``effect`` is
        their Hodges-Lehmann estimate with its interval, the quantity the Wilcoxon test is about
        (``mean`` and ``ci_low``..``ci_high`` keep the mean slope and its Student-t interval)."""
        from .study.stats import EFFECT_METHOD, hodges_lehmann, slopes, trend

        tested, _ = trend(series, direction)
        per_seed = list(slopes(series).values())
        self.claim(label, point, per_seed, claim, tested)
        estimate, low, high = hodges_lehmann(per_seed)
        self.summary[-1].update({"effect": estimate, "effect_ci_low": low, "effect_ci_high": high,
                                 "effect_method": EFFECT_METHOD})

    def decided(self) -> list[dict]:
        """:attr:`summary` with every family's p-values corrected and its verdicts decided from them
        (study/stats.py ``adjust``; idempotent)."""
        from .study.stats import adjust

        return adjust(self.summary)

    def testing(self) -> str:
        """One sentence for every report: how many tests, in how many families, corrected how, and
        the interval method."""
        from .study.stats import CORRECTION, EFFECT_METHOD, INTERVAL_METHOD, LEVEL

        rows = self.decided()
        families = {r["family"] for r in rows if r.get("tests_in_family")}
        tests = sum({r["family"]: r["tests_in_family"] for r in rows if r.get("tests_in_family")}.values())
        certain = sum(1 for r in rows if r.get("test", "").startswith("a counterexample"))
        merged = sum(1 for r in rows if r.get("identical_to"))
        return (f"{tests} tests in {len(families)} claim families, p-values corrected within each family by "
                f"{CORRECTION.capitalize()}'s method at the {LEVEL:.0%} familywise level (two-sided, the verdict "
                f"following the direction); intervals: {INTERVAL_METHOD} (relative gains: {EFFECT_METHOD}). "
                + (f"{certain} counterexample(s) are certain and take no test. " if certain else "")
                + (f"{merged} comparison(s) repeat another method's values exactly and are merged into it "
                   "(`identical_to`). " if merged else ""))

    def conclusions(self) -> Table | None:
        """The verdicts of :attr:`summary`, computed, never typed, after the correction within each
        family: per claim family (and, for the paired comparisons of a summary, per method), how many
        tests held, did not hold, or were not resolved (study/claims.py ``tally``; methods merged into
        an identical one are not counted again)."""
        from .study.claims import COLUMNS, span_text, tally
        from .study.stats import MIN_SEEDS

        rows = [[*counts, span_text(span)] for *counts, span in tally(self.decided())]
        table = Table("Conclusions (computed from summary.csv: tests over seeds, corrected within each claim family)",
                      COLUMNS, rows)
        table.note = ("A test is one point (sweep value) of a claim; estimates: the least and largest relative gain, "
                      "slope, mean or worst value of the family's tests; the claims point by point are the last table. "
                      + self.testing() + f"Fewer than {MIN_SEEDS} seeds never resolve, and with {MIN_SEEDS} no "
                      "two-sided Wilcoxon test reaches 5% (its least p-value is 2/32).")
        return table if table.rows else None

    def claims(self) -> Table | None:
        """Each paper claim at each point: what was tested, the estimate with its interval (a relative
        gain, a slope, a mean), the raw and corrected p-values and the verdict."""
        from .study.claims import estimate
        from .study.stats import WORST_CASE_TESTS

        rows = [r for r in self.decided() if r.get("method") == "claim"]
        table = Table("The claims point by point (summary.csv rows with method=claim)",
                      ["claim", "n", "estimate", "95% interval", "p", "p corrected", "verdict"], [])
        for r in rows:
            value, low, high = estimate(r)
            verdict = r["verdict"] + (" (one seed decides the sign)" if r.get("one_seed_decides") else "")
            if r.get("test") in WORST_CASE_TESTS:
                span = "none (the largest value)"
            elif math.isinf(low) and math.isinf(high):  # fewer than 6 pairs
                span = "none (< 6 pairs)"
            else:
                span = f"{_g(low)} .. {_g(high)}"
            table.rows.append([r["claim"], r["n_seeds"], value, span, r.get("p_value"),
                               r.get("p_adjusted"), verdict])
        table.note = ("Estimate: the paired relative gain for 'A beats B (by a margin)' and the per-seed slope for a "
                      "trend, both as Hodges-Lehmann estimates (the quantity their Wilcoxon tests are about), "
                      "the mean for a bound on a mean, the largest value for a claim about every instance. p: "
                      "two-sided, the verdict following the direction; corrected within the claim's family (Holm). "
                      "A counterexample takes no test. 'One seed decides the sign': leaving some seed out flips the "
                      "sign of the mean gain.")
        return table if table.rows else None

    def results(self) -> list[Table]:
        """The tables to show: the computed conclusions first, the claims point by point last."""
        first, last = self.conclusions(), self.claims()
        return ([first] if first else []) + self.tables + ([last] if last else [])

    def interval_figure(self, setting: Setting, rows: list[dict], x: str, file: str, caption: str,
                        log: bool = False, xlabel: str | None = None, xlog: bool = False) -> None:
        """Draw each method's mean with its 95% interval against ``x`` from summary ``rows`` (one
        point's rows: a sweep), save it as ``file`` and list it with ``caption``; nothing without rows.
        ``log``: a log y axis; ``xlog``: a base-2 log x axis (for sweeps that double, such as F)."""
        if not rows:
            return
        with figure(setting.out_dir / file) as (_, ax):
            intervals(rows, x, ax=ax, xlabel=xlabel, log=log, xlog=xlog,
                      ylabel=f"{rows[0]['summary']} (mean, 95% interval over {rows[0]['n_seeds']} seeds)",
                      title=" ")
        self.figures.append((file, caption))

    def gain_figure(self, setting: Setting, rows: list[dict], x: str, file: str, caption: str,
                    xlabel: str | None = None, xlog: bool = False) -> None:
        """Draw the reference's paired relative gain over each other method against ``x`` from summary
        ``rows`` (:func:`optsched.plot.gains`: the Hodges-Lehmann estimate with its 95% interval, paired
        by seed), save it as ``file`` and list it with ``caption``; nothing without paired rows. The
        paired figure shows what the verdicts test, which the means' wide intervals over seeds hide.
        Methods whose gains would sit on the zero line beside much larger ones
        (:func:`optsched.plot.close_to_zero`) get a second panel of their own, below, on their own scale."""
        if not paired_gains(rows):
            return
        if gains_figure(rows, x, setting.out_dir / file, xlabel=xlabel, xlog=xlog):
            caption += "; below, the methods close to 0 on their own scale"
        self.figures.append((file, caption))


def interval_rows(values: Mapping[tuple[Any, str], list[float]], x: str, label: str) -> list[dict]:
    """Rows :meth:`Report.interval_figure` draws, from per-seed ``values[(x value, method)]``: each
    method's mean and Student-t 95% interval at each value of ``x`` (named ``x``)."""
    from .study.stats import describe

    rows = []
    for (value, method), per_seed in values.items():
        stats = describe(list(per_seed))
        rows.append({x: value, "method": method, "summary": label, "n_seeds": stats["n"], "mean": stats["mean"],
                     "ci_low": stats["ci_low"], "ci_high": stats["ci_high"]})
    return rows


def save_case(setting: Setting, name: str, family_name: str, runs: dict[str, tuple[Any, Any, dict]],
              meta: dict) -> list[str]:
    """Write a worst case to ``worst/`` in the report folder, as files ``optsched verify`` reads:
    for each ``label -> (instance, schedule, produced_by)``, ``<name>.<label>.instance.json`` and
    ``<name>.<label>.schedule.json`` (an instance shared by two labels is written once per label;
    no schedule file where ``schedule`` is None: an optimum that is not a schedule, which
    ``optsched solve`` recomputes from the instance). Returns the file names, relative to the
    report folder."""
    from .documents import instance_document, schedule_document
    from .jsonio import write_json

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


def confirmed_optimum(family_name: str, instance: Any, formulation: str, what: str):
    """Solve ``instance`` exactly within :data:`EXACT_BUDGET`, cross-checked by the second solver (CBC
    on the same MILP, within the same node budget), and return the pipeline's ``Solved``;
    :class:`~optsched.errors.Failure` unless the optimum is proven, both solvers agree on it, and,
    where the formulation gives a schedule (``Formulation.gives_schedule``; not, for example, the
    edge family's fractional-flow ILP), that schedule is verified (``what`` names the instance in
    the message). The solver cross-check, not the CP-SAT model's: the node budget bounds both
    solves, where a CP-SAT partner would run without one."""
    family = get(family_name)
    solved = family.solve(instance, formulation, cross_check="solver", **EXACT_BUDGET)
    check = solved.result.cross_check
    scheduled = solved.verdict is not None and solved.verdict.feasible
    if not (solved.result.optimal and check is not None and check.verdict == "agree"
            and (scheduled or not family.formulations[formulation].gives_schedule)):
        raise Failure(f"{what} did not re-solve to a confirmed optimum: {solved.result.status} "
                      f"{solved.result.message}" + (f" ({check.detail})" if check is not None else ""))
    return solved


def _certified_task(task) -> dict:
    """One seed of :func:`certified_ratio`: the algorithm's objective and the bound route's bound."""
    family_name, preset, seed, generator, algorithm = task
    family = get(family_name)
    instance = family.generate(preset, seed=seed, **dict(generator))
    ran = family.run(instance, algorithm, seed=seed)
    route = family.solve(instance, _route(family), relax=family.bound_relax, threads=1, node_limit=ROUTE_ROUNDS)
    return {"seed": seed, "objective": ran.objective, "feasible": ran.feasible, "bound": route.result.bound,
            "bound_status": route.result.status}


def _route(family) -> str:
    if family.bound_route is None:
        raise Failure(f"family {family.name} has no bound route (Family.bound_route)")
    return family.bound_route


def certified_ratio(report: Report, setting: Setting, family_name: str, algorithm: str,
                    generator: dict[str, Any], what: str) -> None:
    """Add to ``report`` the paper algorithm's certified ratio at the paper's scale, where no
    optimum is in reach: per seed (the first :data:`CERTIFIED_SEEDS`), the algorithm's objective on
    ``family.generate("paper", seed,
    **generator)`` against the family's bound route (``Family.bound_route``; column generation
    stopped after :data:`ROUTE_ROUNDS` pricing rounds, a deterministic budget), as ``ALG/OPT <=
    ALG/LB`` (min) or ``OPT/ALG <= UB/ALG`` (max). A table, records labelled
    ``certified_ratio_bound`` and an assumption line say that it is a bound, not the ratio."""
    family = get(family_name)
    tasks = [(family_name, "paper", seed, tuple(sorted(generator.items())), algorithm)
             for seed in range(min(setting.seeds, CERTIFIED_SEEDS))]
    rows = parallel_map(_certified_task, tasks, setting, f"{family_name} certified ratio ({what})")
    route = _route(family) + (" --relax" if family.bound_relax else "")
    label = "ALG/OPT <=" if family.sense == "min" else "OPT/ALG <="
    table = Table(f"Certified ratio of {algorithm} at the paper's scale ({what}): a bound, not the ratio",
                  ["seed", f"{algorithm} objective", f"bound ({route})", "bound status", label], [])
    ratios = []
    for row in rows:
        if not row["feasible"]:
            raise Failure(f"{algorithm} gave an infeasible schedule on seed {row['seed']} ({what})")
        ratio = ratio_to(family.sense, row["objective"], row["bound"])  # ALG/LB (min) or UB/ALG (max)
        ratios.append(ratio)
        table.rows.append([row["seed"], row["objective"], row["bound"], row["bound_status"], ratio])
        report.records.append({"measurement": "certified_ratio_bound", "instance": what, "seed": row["seed"],
                               "method": algorithm, "objective": row["objective"], "bound": row["bound"],
                               "bound_route": route, "bound_status": row["bound_status"], "ratio_bound": ratio})
    table.note = (f"Worst over {len(ratios)} seeds: {label} {max(ratios):.4g}; mean {mean(ratios):.4g}. The bound is "
                  f"certified whatever stopped its route ('feasible': stopped, e.g. after {ROUTE_ROUNDS} pricing "
                  "rounds); the true ratio lies between 1 and this number.")
    report.tables.append(table)
    report.assumptions.append(
        f"Certified ratio at the paper's scale ({what}), on the first {len(rows)} seeds (a bound per instance, "
        f"deciding no verdict): {algorithm}'s objective against {family_name}'s bound route `{route}` "
        "(docs/benchmarks.md, 'Certified bounds at the papers' scale'), not against an optimum.")


def parallel_map(fn: Callable[[Any], Any], tasks: Sequence[Any], setting: Setting, label: str) -> list[Any]:
    """``[fn(t) for t in tasks]`` on the study engine (optsched/study/engine.py): each task a unit,
    cached in the report folder (a rerun of the same code computes only what is missing), run on
    ``setting.workers`` local processes or a Dask cluster, with a progress bar. ``fn`` is a
    module-level function; its values come back as plain JSON data. A task that raises stops the
    reproduction (:class:`~optsched.errors.Failure`), and is not cached."""
    from .study import engine
    from .study.cache import Cache
    from .study.units import make_task_unit

    units = [make_task_unit(fn, task) for task in tasks]
    cache = Cache(setting.out_dir / "cache.sqlite")
    try:
        batch = engine.execute(units, cache, executor=setting.executor, workers=setting.workers,
                               scheduler=setting.scheduler, label=label, progress=setting.progress,
                               keep=lambda unit, result: result["status"] != "error")
    finally:
        cache.close()
    units_before, cached_before, seconds_before = setting.ledger.get(label, (0, 0, 0.0))
    setting.ledger[label] = (units_before + batch.units, cached_before + batch.cached,
                             seconds_before + sum(r.get("wall_s", 0.0) for r in batch.results.values()))
    values = []
    for unit in units:
        result = batch.results[unit.key]
        if result["status"] == "error":
            raise Failure(f"{label}: a task failed: {result['message']}")
        values.append(result["value"])
    return values


def write_report(report: Report, setting: Setting, name: str, results: list[Table]) -> Path:
    """Write ``report.md`` (with the ``results`` tables, :meth:`Report.results`), ``results.csv`` and
    ``summary.csv`` next to the figures already in ``out_dir``."""
    versions = f"optsched {__version__}, HiGHS {highs_version()}, CBC {cbc_version()}, CP-SAT {cp_sat_version()}"
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


def run(name: str, scale: str, seeds: int | None, workers: int, out_dir: str | None, out: TextIO | None = None, *,
        progress: bool = True, executor: str = "local", scheduler: str | None = None, fresh: bool = False,
        as_json: bool = False) -> Report:
    """Run reproduction ``name``, print its tables to ``out`` (stdout; one JSON document with
    ``as_json``) and write its report folder (with the cache of its tasks, which ``fresh`` discards);
    a progress bar goes to stderr when it is a terminal."""
    out = out or sys.stdout
    table = reproductions()
    if name not in table:
        raise InputError(f"unknown reproduction '{name}' (known: {', '.join(table) or 'none'})")
    if scale not in SCALES:
        raise InputError(f"--preset must be one of {', '.join(SCALES)}, got {scale!r}")
    setting = Setting(scale, seeds or DEFAULT_SEEDS[scale], workers, Path(out_dir or f"reproduce-{name}"), progress,
                      executor, scheduler)
    # The owner of the folder is the reproduction and its preset; more seeds extend it (from the cache).
    with claim(setting.out_dir, {"verb": "reproduce", "name": name, "preset": scale}, fresh=fresh,
               subfolders=("worst",), parents=True) as folder:
        try:
            report = table[name].run(setting)
        except InputError:  # found late (an unreachable Dask scheduler): leave no folder this run made for nothing
            folder.abandon()
            raise
        results = report.results()
        path = write_report(report, setting, name, results)
        folder.finish()
    if as_json:
        document = {"name": name, "preset": scale, "seeds": setting.seeds, "output": str(setting.out_dir),
                    "report": str(path), "title": report.title, "figures": [report_name(f) for f, _ in report.figures],
                    "tables": [{"title": t.title, "columns": t.columns, "rows": t.rows, "note": t.note}
                               for t in results],
                    "assumptions": report.assumptions,
                    "units": {label: {"units": n, "cached": c, "seconds": t}
                              for label, (n, c, t) in setting.ledger.items()}}
        print(dumps(plain(document)), end="", file=out)
        return report
    print(f"{report.title}\n", file=out)
    if scale == "quick":
        print(QUICK_WARNING.replace("**", "") + "\n", file=out)
    for t in results:
        print(t.text() + "\n", file=out)
    print("Assumed where the paper is silent:", file=out)
    for a in report.assumptions:
        print(f"  - {a}", file=out)
    print(f"\nreport: {path}; figures: {', '.join(report_name(f) for f, _ in report.figures)}", file=out)
    return report


def _g(value: Any) -> str:
    return "nan" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.4g}"


def sweep_points(p: dict) -> list[tuple[int, int]]:
    """The (jobs, servers) points of a job sweep at ``p["servers_fixed"]`` and a server sweep at
    ``p["jobs_fixed"]``, each once: the two share a point when the fixed values meet, and it is
    computed and tested once."""
    points = [(j, p["servers_fixed"]) for j in p["jobs"]] + [(p["jobs_fixed"], n) for n in p["servers"]]
    return list(dict.fromkeys(points))


def sweep_rows(rows: list[dict], sweep: str, p: dict) -> list[dict]:
    """The rows of one sweep, ``"jobs"`` or ``"servers"`` (a shared point belongs to both), for its
    tables and figures."""
    if sweep == "jobs":
        return [r for r in rows if r["servers"] == p["servers_fixed"] and r["jobs"] in p["jobs"]]
    return [r for r in rows if r["jobs"] == p["jobs_fixed"] and r["servers"] in p["servers"]]


def mean(values: Iterable[float]) -> float:
    """The mean of ``values`` (NaN when there are none)."""
    values = list(values)
    return sum(values) / len(values) if values else float("nan")
