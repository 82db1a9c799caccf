"""What ``optsched search`` writes to its folder, and the certificate of its find.

* ``instance.json``: the shrunk instance (``found.instance.json``: the best before shrinking);
* ``alg.schedule.json`` and, where the target needs the optimum, ``opt.schedule.json``: the
  algorithm's schedule and the optimal one, both verified (``optsched verify`` reads them);
* ``result.json``: the search's definition, both finds, the certificate and the counts;
* ``history.csv``: every scored instance in order; ``progress.svg`` (``--format``): the value over the search;
* ``report.md``: all of it in words.

The certificate: the optimum of the shrunk instance re-solved within the node budget and confirmed
by the second solver (:func:`optsched.reproduce.confirmed_optimum`), and the algorithm's schedule
verified, so the reported ratio or slack rests on proven numbers only.
"""

from __future__ import annotations

import csv
import json
from typing import Any

from ..documents import instance_document, schedule_document
from ..jsonio import write_file, write_json, write_text
from ..plot import figure, markdown_figure
from ..provenance import version_string
from ..registry import Family
from ..reproduce import confirmed_optimum
from .evaluate import check_of, reference_formulation
from .space import size_of
from .strategy import Scored, Search, SearchOutcome, as_plain, describe, space_of


def _value_name(chosen: Search) -> str:
    if chosen.target == "ratio":
        return "ALG/OPT" if chosen.family.sense == "min" else "OPT/ALG"
    return "−slack"


def certify(chosen: Search, item: Scored) -> dict:
    """Re-run the algorithm and, where needed, re-solve the optimum with a cross-check; write both
    schedules. Returns the certificate for ``result.json``."""
    family, out = chosen.family, chosen.out_dir
    instance = family.instance_from_dict(item.doc, "instance")
    meta = {"search": {"target": chosen.target, "algorithm": chosen.algorithm, "params": chosen.params,
                       "seed": chosen.seed, "number": item.number}}
    write_json(str(out / "instance.json"), instance_document(family, instance, meta))
    ran = family.run(instance, chosen.algorithm, **chosen.params)
    write_json(str(out / "alg.schedule.json"), schedule_document(
        family, instance, ran.schedule, {"algorithm": chosen.algorithm, "params": chosen.params}))
    certificate: dict[str, Any] = {"alg": ran.objective, "alg_feasible": ran.feasible}
    needs = chosen.target == "ratio" or check_of(family, chosen.target.removeprefix("theorem:")).needs_optimum
    if needs:
        formulation = reference_formulation(family)
        solved = confirmed_optimum(family.name, instance, formulation, "the shrunk instance")
        write_json(str(out / "opt.schedule.json"), schedule_document(
            family, instance, solved.schedule, {"formulation": formulation, "solver": solved.result.solver,
                                                "status": solved.result.status}))
        cross = solved.result.cross_check
        certificate.update({"opt": solved.verdict.objective, "formulation": formulation,
                            "cross_check": cross.verdict if cross else None})
    return certificate


def write(chosen: Search, outcome: SearchOutcome) -> None:
    """Write the search's folder: ``history.csv``, the progress figure, the found and shrunk instances with their
    schedules, the re-proved certificate in ``result.json``, and ``report.md``."""
    out = chosen.out_dir
    space = space_of(chosen)
    rows = []
    best = None
    for s in outcome.history:
        if s.value is not None and (best is None or s.value > best):
            best = s.value if s.phase == "search" else best
        rows.append({"number": s.number, "phase": s.phase, "origin": s.origin, "valid": s.result.get("valid"),
                     "reason": s.result.get("reason", ""), "value": s.value, "best_so_far": best,
                     "alg": s.result.get("alg"), "opt": s.result.get("opt")})
    def history(tmp: str) -> None:
        with open(tmp, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["number"])
            writer.writeheader()
            writer.writerows(rows)

    write_file(str(out / "history.csv"), history)
    certificate = None
    if outcome.shrunk is not None and outcome.best is not None:
        write_json(str(out / "found.instance.json"),
                   instance_document(chosen.family, chosen.family.instance_from_dict(outcome.best.doc, "i"),
                                     {"search": {"number": outcome.best.number}}))
        certificate = certify(chosen, outcome.shrunk)
    outcome.certificate = certificate
    _figure(chosen, rows)
    result = {"family": chosen.family.name, "algorithm": chosen.algorithm, "params": chosen.params,
              "target": chosen.target, "value": _value_name(chosen), "strategy": chosen.strategy,
              "seed": chosen.seed, "size_max": chosen.size_max, "budget": chosen.budget,
              "shrink_budget": chosen.shrink_budget, "exceed": chosen.exceed, "regime": chosen.regime,
              "search_evaluations": outcome.search_evaluations, "shrink_evaluations": outcome.shrink_evaluations,
              "invalid": sum(not s.result.get("valid") for s in outcome.history),
              "wall_clock_budget": chosen.time_limit, "stopped_by_time": outcome.stopped_by_time,
              "best": as_plain(outcome.best), "shrunk": as_plain(outcome.shrunk), "certificate": certificate,
              "violation": violation(chosen, outcome), "optsched_version": version_string()}
    write_json(str(out / "result.json"), result)
    write_text(str(out / "report.md"), _report(chosen, outcome, result, space))


def violation(chosen: Search, outcome: SearchOutcome) -> bool | None:
    """Theorem targets: whether the shrunk instance breaks the claim; ratio targets with
    ``exceed``: whether its ratio is above it; else None."""
    if outcome.shrunk is None or outcome.shrunk.value is None:
        return None
    if chosen.target != "ratio":
        return outcome.shrunk.value > 0
    return None if chosen.exceed is None else outcome.shrunk.value > chosen.exceed


def _figure(chosen: Search, rows: list[dict]) -> None:
    searched = [r for r in rows if r["phase"] == "search"]
    with figure(chosen.out_dir / "progress.png") as (fig, ax):
        xs = [r["number"] for r in searched if r["value"] is not None]
        ax.plot(xs, [r["value"] for r in searched if r["value"] is not None], ".", alpha=0.4, label="scored")
        ax.step([r["number"] for r in searched if r["best_so_far"] is not None],
                [r["best_so_far"] for r in searched if r["best_so_far"] is not None], where="post", label="best so far")
        ax.set_xlabel("exact solves (scored instances)")
        ax.set_ylabel(_value_name(chosen))
        ax.set_title(f"{chosen.family.name} / {chosen.algorithm}: {chosen.target} ({chosen.strategy})")
        ax.legend()


def _report(chosen: Search, outcome: SearchOutcome, result: dict, space) -> str:
    name = _value_name(chosen)
    lines = [f"# Search: {chosen.family.name} / {chosen.algorithm}, target {chosen.target}", "",
             f"`optsched search {chosen.family.name} --algorithm {chosen.algorithm} --target {chosen.target} "
             f"--size-max {chosen.size_max} --budget {chosen.budget} --seed {chosen.seed} "
             f"--strategy {chosen.strategy}` (optsched {version_string()})", "",
             "**Paper:** " + "; ".join(paper.text() for paper in chosen.family.papers), ""]
    if chosen.target != "ratio":
        check = check_of(chosen.family, chosen.target.removeprefix("theorem:"))
        lines += [f"Claim: {check.claim}. The slack is >= 0 where the claim holds; the search drives it down.", ""]
    if chosen.regime:
        regime = chosen.family.space().regimes[chosen.regime]
        lines += [f"Within the regime `{chosen.regime}`: {regime.description}. Instances outside it were not "
                  "scored.", ""]
    lines += [f"- scored {outcome.search_evaluations} instances in the search and {outcome.shrink_evaluations} "
              f"while shrinking; {result['invalid']} were not scored (no proven optimum, or the algorithm "
              "earned nothing)."]
    if chosen.time_limit is not None:
        lines.append(f"- a wall-clock budget of {chosen.time_limit:g} s was set: what was found may change with "
                     "the machine's speed" + (" (it stopped the search)" if outcome.stopped_by_time else ""))
    if outcome.best is None or outcome.shrunk is None:
        lines += ["- no instance was scored: nothing to report."]
        return "\n".join(lines) + "\n"
    lines += [f"- best found: {name} = {outcome.best.value:.6g} (instance #{outcome.best.number}, "
              f"{outcome.best.origin}; {describe(outcome.best.doc, space)}), `found.instance.json`",
              f"- after shrinking: {name} = {outcome.shrunk.value:.6g} ({describe(outcome.shrunk.doc, space)}), "
              "`instance.json`"]
    cert = result["certificate"] or {}
    if "opt" in cert:
        lines.append(f"- certified: ALG = {cert['alg']:.10g} (verified schedule `alg.schedule.json`), OPT = "
                     f"{cert['opt']:.10g} by {cert['formulation']}, proven optimal and confirmed by the second "
                     f"solver ({cert['cross_check']}; `opt.schedule.json`)")
    if "details" in outcome.shrunk.result:
        lines.append(f"- slack {outcome.shrunk.result['slack']:.6g}; details: "
                     f"`{json.dumps(outcome.shrunk.result['details'])}`")
    if result["violation"] is not None:
        lines.append(f"- counterexample: {'yes' if result['violation'] else 'no'}")
    lines += ["", markdown_figure("progress.png", "progress"), ""]
    return "\n".join(lines) + "\n"


def summary_lines(family: Family, algorithm: str, target: str, outcome: SearchOutcome, result: dict,
                  time_limit: float | None) -> list[str]:
    """What ``optsched search`` prints: the best find, the shrunk one, its certificate, and whether
    it is a counterexample (``result`` is the folder's result.json)."""
    if outcome.shrunk is None or outcome.best is None:
        return [f"no instance could be scored in {outcome.search_evaluations} tries"]
    count, noun = size_of(family.space(), outcome.shrunk.doc)
    lines = [f"{family.name} / {algorithm}, {target}: best {result['value']} = "
             f"{outcome.best.value:.6g} over {outcome.search_evaluations} scored instances; shrunk to "
             f"{outcome.shrunk.value:.6g} ({count} {noun}) in {outcome.shrink_evaluations} more"]
    cert = result["certificate"]
    if "opt" in cert:
        lines.append(f"  certified: ALG {cert['alg']:.10g}, OPT {cert['opt']:.10g} (proven, {cert['cross_check']})")
    if result["violation"] is not None:
        lines.append(f"  counterexample: {'yes' if result['violation'] else 'no'}")
    if time_limit is not None:
        lines.append(f"  note: --time {time_limit:g} is a wall-clock budget: this result may change with the "
                     "machine's speed")
    return lines
