"""Running a study: generate the instances, skip what the cache holds, run the rest, write tables.

Output folder (``study.output``)::

    cache.sqlite          finished units (see cache.py); what makes a rerun resume
    results.csv           one row per (instance, method): objective, certified ratio, theorem check
    references.csv        one row per instance: the reference solve, its bound, the LP relaxation
    summary.csv           per (family, method) statistics; summary_references.csv per family
    study.json            the study as run, with optsched's and the solvers' versions
    report.md, *.png      the report (see optsched/study/report.py)

Tables are written only when every unit has finished, each atomically; a killed run leaves the
previous tables (if any) and the cache, and the next run finishes the missing units only.
"""

from __future__ import annotations

import io
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import pandas as pd
from tqdm import tqdm

from ..errors import InputError
from ..jsonio import fingerprint, write_json, write_text
from ..outputs import claim_folder
from ..pipeline import BEST
from ..provenance import version_string
from ..registry import Family, get
from ..solvers import SOLVERS, cbc_version, cp_sat_version, highs_version
from ..testing import OnlineCheckTask, online_task
from . import engine
from .cache import Cache
from .depends import code_of, whole_code
from .report import write_report
from .spec import Reference, Study
from .table import InstanceRecord, algorithm_row, reference_row, summary
from .units import make_task_unit, make_unit


@dataclass
class StudyOutcome:
    """What a study produced: the study, its results, references and their summaries, the unit counts (cached,
    recomputed), the wall time, the versions and the problems its checks found."""
    study: Study
    results: pd.DataFrame
    references: pd.DataFrame
    method_summary: pd.DataFrame
    reference_summary: pd.DataFrame
    units: int
    cached: int
    wall_s: float  #: from start to the tables (instance generation included, report writing not)
    compute_s: float  #: running the units that were not cached
    versions: dict
    recomputed: int = 0  #: cached results that failed their checksum and were run again
    #: per method label of a researcher's algorithm, what :func:`optsched.testing.check_online` found
    #: (``cases``, ``violation``); registered algorithms are tested by optsched's own tests
    online: dict = field(default_factory=dict)

    @property
    def problems(self) -> list[str]:
        """What should not happen: failed or infeasible runs, schedules better than the optimum,
        failed reference solves, solvers that disagree."""
        found = []
        r, s = self.results, self.references
        for label, count in (("algorithm runs crashed", (r["status"] == "error").sum()),
                             ("algorithm schedules failed the verifier", (r["status"] == "infeasible").sum()),
                             ("schedules beat the proven optimum or bound", r["beats_reference"].sum()),
                             ("reference solves failed", (s["status"] == "error").sum()),
                             ("cross-checks disagreed", (s["cross_check"] == "disagree").sum())):
            if count:
                found.append(f"{int(count)} {label}")
        found += [f"{label} {'is not online' if check['cases'] else 'could not be checked for online'}: "
                  f"{check['violation']}" for label, check in self.online.items() if check["violation"]]
        return found


def owner(study: Study) -> dict:
    """What makes a study the owner of its output folder (optsched/outputs.py): its name, and per
    part the instances and the reference solve. The methods are not part of it: a study run again
    with a method added or a parameter changed is the same study extended, which takes the
    references and the unchanged methods from its cache and rewrites every table. A preset is
    owned by its name: what it holds is optsched's to change (a new default reference), and a
    newer optsched running it again renews the same folder."""
    if study.preset is not None:
        return {"verb": "study", "preset": study.preset}
    parts = [{key: value for key, value in part.to_dict().items() if key != "algorithms"} for part in study.parts]
    return {"verb": "study", "name": study.name, "parts": parts}


def _same_preset(study: Study, recorded: dict) -> bool:
    """Whether a folder's recorded owner is this preset as an older optsched recorded it (by its
    name and parts, before presets were owned by their name)."""
    return (study.preset is not None and recorded.get("verb") == "study" and recorded.get("name") == study.name
            and "parts" in recorded)


def _instances(study: Study, progress: bool) -> list[tuple[InstanceRecord, dict, str | None]]:
    """Every instance of every part, generated in this process and fingerprinted, with the formulation
    whose LP its relaxation unit solves (None where the part takes no relaxation)."""
    plan = [(k, part, jobs, seed) for k, part in enumerate(study.parts) for jobs in part.jobs for seed in part.seeds]
    made = []
    for k, part, jobs, seed in tqdm(plan, desc="generating instances", unit="instance", file=sys.stderr,
                                    disable=None if progress else True, leave=False):
        family = get(part.family)
        instance = family.generate(part.instances, seed=seed, jobs=jobs, **part.options)
        content = instance.to_dict()
        record = InstanceRecord(k, family.name, family.sense, part.instances, seed, jobs, len(instance.jobs),
                                fingerprint(content))
        made.append((record, content, _relaxed(family, instance, part.reference) if part.reference.relax else None))
    return made


def _units(study: Study, instances: list[tuple[InstanceRecord, dict, str | None]], solvers: dict) -> list[tuple]:
    """``(record, role, unit)`` for every unit: role is "reference", "relaxation" or a method label."""
    plan = []
    budget = study.execution.algorithm_budget
    for record, content, relaxed in instances:
        part = study.parts[record.part]
        ref = part.reference
        solve_spec = {"formulation": ref.formulation, "solver": ref.solver, "time_limit": ref.time_limit}
        reference_spec = {**solve_spec, "node_limit": ref.node_limit, "work_limit": ref.work_limit,
                          "cross_check": ref.cross_check}
        plan.append((record, "reference", make_unit(record.family, content, record.instance_id, "reference",
                                                    reference_spec, record.seed, solvers)))
        if relaxed is not None:
            relaxation_spec = {"formulation": relaxed, "solver": ref.solver if ref.solver in SOLVERS else SOLVERS[0],
                               "time_limit": ref.time_limit}
            plan.append((record, "relaxation", make_unit(record.family, content, record.instance_id, "relaxation",
                                                         relaxation_spec, record.seed, solvers)))
        for m in part.methods:
            plan.append((record, m.label, make_unit(record.family, content, record.instance_id, "algorithm",
                                                    {"algorithm": m.algorithm, "params": dict(m.params)},
                                                    record.seed, solvers, budget)))
    return plan


def _relaxed(family: Family, instance: Any, ref: Reference) -> str:
    """The formulation whose LP relaxes ``ref`` on ``instance``: the reference's own MILP, else (``best``,
    or a CP-SAT model, which has no LP) the MILP ``best`` relaxes there. A relaxation unit is keyed by it,
    so that its key changes with that formulation's code alone; its solver is a MILP solver."""
    if ref.formulation != BEST and family.formulation(ref.formulation).engine == "milp":
        return ref.formulation
    return family.best_formulation(instance, relax=True)


def _plan(study: Study, progress: bool = False) -> tuple[list[tuple[InstanceRecord, dict, str | None]], list[tuple]]:
    """The study's instances, and ``(record, role, unit)`` for every unit of work it needs."""
    instances = _instances(study, progress)
    return instances, _units(study, instances, {"highs": highs_version(), "cbc": cbc_version(),
                                                "cp-sat": cp_sat_version()})


def unit_keys(study: Study) -> dict[str, str]:
    """Every unit's cache key with a readable label (``family/method/instance/seed``): what a run of
    ``study`` looks up in its cache. Nothing is run or written."""
    _, plan = _plan(study)
    return {unit.key: f"{record.family}/{role}/{record.instance_id}/{record.seed}" for record, role, unit in plan}


def run(study: Study, *, fresh: bool = False, progress: bool = True, log: TextIO | None = None) -> StudyOutcome:
    """Run ``study`` (resuming from its cache), write its tables and report, and return them.

    ``progress`` shows progress bars on stderr when it is a terminal; ``log`` gets one line of
    counts when the units are known and one when they are done.
    """
    started = time.perf_counter()
    out = study.output
    with claim_folder(out, owner(study), fresh=fresh, adopts=lambda recorded: _same_preset(study, recorded)) as folder:
        versions = {"optsched": version_string(), "code": whole_code(), "highs": highs_version(), "cbc": cbc_version(),
                    "cp-sat": cp_sat_version()}
        instances, plan = _plan(study, progress)

        def announce(units: int, cached: int, pending: int, damaged: int) -> None:
            if log:
                print(f"study {study.name}: {len(instances)} instances, {units} units, {cached} from the cache, "
                      f"{pending} to run ({study.execution.describe()})", file=log, flush=True)
                if damaged:
                    print(f"study {study.name}: {damaged} cached result(s) failed their checksum and run again",
                          file=log, flush=True)

        try:
            cache = Cache(out / "cache.sqlite")
            try:
                batch = engine.execute([unit for _, _, unit in plan], cache, study.execution, label=study.name,
                                       progress=progress, announce=announce)
            finally:
                cache.close()
        except InputError:
            folder.abandon()
            raise
        done, compute_s = batch.results, batch.compute_s
        online = _online_checks(study, progress)
        results, references = _tables(study, plan, done)
        method_summary, reference_summary = summary(results, references)
        outcome = StudyOutcome(study, results, references, method_summary, reference_summary, batch.units, batch.cached,
                          time.perf_counter() - started, compute_s, versions, batch.damaged, online)
        _write(outcome, out)
        folder.finish()
    if log:
        print(f"study {study.name}: {batch.units - batch.cached} units run in {compute_s:.1f} s; tables and report "
              f"written in {time.perf_counter() - started:.1f} s in all", file=log, flush=True)
    return outcome


def _online_checks(study: Study, progress: bool) -> dict[str, dict]:
    """The online property (:func:`optsched.testing.check_online`) for each researcher's algorithm of
    the study, as cached task units keyed by the algorithm's code; by method label."""
    tasks = {}
    for part in study.parts:
        family = get(part.family)
        for m in part.methods:
            if family.algorithm(m.algorithm).external:
                code = code_of({"kind": "algorithm", "family": part.family, "spec": {"algorithm": m.algorithm}})
                tasks[m.label] = OnlineCheckTask(part.family, m.algorithm, tuple(sorted(m.params.items())), code,
                                                 budget_s=study.execution.algorithm_budget)
    if not tasks:
        return {}
    units = {label: make_task_unit(online_task, task) for label, task in tasks.items()}
    cache = Cache(study.output / "cache.sqlite")
    try:
        batch = engine.execute(list(units.values()), cache, study.execution, label="online check", progress=progress)
    finally:
        cache.close()
    checks = {}
    for label, unit in units.items():
        result = batch.results[unit.key]
        checks[label] = result["value"] if result["status"] == "done" else \
            {"cases": 0, "violation": result.get("message", "")}
    return checks


def _tables(study: Study, plan: list[tuple], done: dict[str, dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    by_instance: dict[tuple, dict] = {}
    for record, role, unit in plan:
        entry = by_instance.setdefault((record.part, record.instance_id, record.seed, record.jobs), {"record": record})
        entry[role] = (unit, done[unit.key])
    results, references = [], []
    for entry in by_instance.values():
        record = entry["record"]
        part = study.parts[record.part]
        ref_unit, ref = entry["reference"]
        lp = entry["relaxation"][1] if "relaxation" in entry else None
        references.append(reference_row(study.name, record, ref_unit.payload["spec"], ref, lp))
        for m in part.methods:
            unit, run_result = entry[m.label]
            results.append(algorithm_row(study.name, record, {"label": m.label, "algorithm": m.algorithm,
                                                              "params": dict(m.params)}, run_result, ref, lp))
    return pd.DataFrame(results), pd.DataFrame(references)


def _csv(frame: pd.DataFrame) -> str:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    return buffer.getvalue()


def _write(outcome: StudyOutcome, out: Path) -> None:
    write_text(str(out / "results.csv"), _csv(outcome.results))
    write_text(str(out / "references.csv"), _csv(outcome.references))
    summary = outcome.method_summary
    if len(summary):  # each family's papers, cited on its rows
        summary = summary.assign(paper=[
            "; ".join(paper.text() for paper in get(name).papers) for name in summary["family"]])
    write_text(str(out / "summary.csv"), _csv(summary))
    write_text(str(out / "summary_references.csv"), _csv(outcome.reference_summary))
    drawn = write_report(outcome, out, _figures_drawn(out / "study.json"))
    write_json(str(out / "study.json"), {**outcome.study.to_dict(), "versions": outcome.versions, "figures": drawn})


def _figures_drawn(path: Path) -> dict[str, str]:
    """What the last run of the folder drew each figure from (``study.json``'s ``figures``); empty
    when there was none, or its record cannot be read (every figure is then drawn)."""
    try:
        recorded = json.loads(path.read_text()).get("figures", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {k: v for k, v in recorded.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(recorded, dict) else {}
