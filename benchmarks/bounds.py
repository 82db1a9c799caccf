"""Certified bounds at the papers' scale (issue 54, item 9): per family, on the instance its paper
preset's certified ratio uses, the bound route's bound, where it started, the best schedule known
(the route's own and every algorithm's, each verified) and the gap between them, with the time and
peak memory of the route. A route whose bound never left its start is flagged.

Each measurement runs in a fresh child process (its peak resident memory is that process's), one
thread, through the public pipeline (``Family.solve`` on ``Family.bound_route``, ``Family.run``).
The instances are those of ``optsched generate FAMILY --preset paper`` with the generator options
below (the reproductions' ``certified_ratio`` sizes).

    python benchmarks/bounds.py [--families hetero edge] [--seeds 0 1 2] [--skip dorm]
    python benchmarks/bounds.py --small      # hetero: the pooled bound against proven optima

Prints Markdown for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import resource
import time

from bench_single import machine

import optsched
from optsched.reproduce.exact import interval

#: Per family: generator preset and options of the certified instance, and the algorithm whose
#: ratio the reproductions certify (with the parameters its verdicts use).
INSTANCES = {
    "hetero": [("paper", {"jobs": 200, "servers": 150})],
    "oasis": [("paper", {"jobs": 600, "slots": 300, "servers": 50})],
    "edge": [("paper", {"jobs": 300, "servers": 100})],
    "asrpt": [("paper", {"jobs": 16449}), ("paper", {"jobs": 75000})],
    "single": [("small", {"jobs": 2000})],
}
#: Per family: the algorithm whose certified ratio the reproductions report, with its verdicts' parameters.
CERTIFIED = {"hetero": ("aonline", {"tie_break": "earliest_completion"}), "oasis": ("oasis", {}),
             "edge": ("aonline", {}), "asrpt": ("asrpt", {}), "single": ("wspt", {})}
#: Algorithms left out by default: wall-clock budgets or hours per run at these sizes.
SKIP = ("dorm",)


def _route(family: str, seed: int, preset: str, options: dict) -> dict:
    fam = optsched.get(family)
    instance = fam.generate(preset, seed=seed, **options)
    started = time.perf_counter()
    solved = fam.solve(instance, fam.bound_route, relax=fam.bound_relax, threads=1, **fam.bound_budget)
    took = time.perf_counter() - started
    found = solved.found_verdict
    return {"bound": solved.result.bound, "status": str(solved.result.status), "seconds": took,
            "trajectory": list(solved.result.trajectory), "moved": solved.result.bound_moved is not False,
            "found": found.objective if found is not None and found.feasible else None,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _algorithm(family: str, seed: int, preset: str, options: dict, algorithm: str, params: dict) -> dict:
    fam = optsched.get(family)
    instance = fam.generate(preset, seed=seed, **options)
    ran = fam.run(instance, algorithm, seed=seed, **params)
    return {"objective": ran.objective if ran.feasible else None, "seconds": ran.runtime_s}


def _in_child(function, *args) -> dict:
    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        return pool.apply(function, args)


def measure(family: str, seed: int, preset: str, options: dict, skip: tuple[str, ...]) -> dict:
    fam = optsched.get(family)
    route = _in_child(_route, family, seed, preset, options)
    certified, params = CERTIFIED[family]
    runs = {name: _in_child(_algorithm, family, seed, preset, options, name, params if name == certified else {})
            for name in fam.algorithms if name not in skip}
    schedules = {name: r["objective"] for name, r in runs.items() if r["objective"] is not None}
    if route["found"] is not None:
        schedules[f"{fam.bound_route} (its schedule)"] = route["found"]
    pick = min if fam.sense == "min" else max
    best_name = pick(schedules, key=schedules.__getitem__)
    best, bound = schedules[best_name], route["bound"]
    start = route["trajectory"][0] if route["trajectory"] else None
    return {"family": family, "seed": seed, "bound": bound, "start": start, "best": best, "by": best_name,
            "gap": abs(best - bound) / abs(best), "seconds": route["seconds"], "peak_mb": route["peak_mb"],
            "rounds": max(0, len(route["trajectory"]) - 1), "status": route["status"],
            "never_moved": not route["moved"], "certified": certified,
            "interval": None if runs[certified]["objective"] is None
            else interval(fam.sense, runs[certified]["objective"], best, bound)}


def small(seeds: range) -> list[dict]:
    """hetero's pooled bound against the optimum CP-SAT proves on congested small instances."""
    hetero = optsched.get("hetero")
    rows = []
    for jobs, servers in ((4, 1), (5, 2)):
        for seed in seeds:
            try:
                instance = hetero.generate("paper", seed=seed, jobs=jobs, servers=servers)
            except optsched.InputError:
                continue
            optimum = hetero.solve(instance, "best", work_limit=10**7)
            if not optimum.result.optimal:
                continue
            bound = hetero.solve(instance, "pooled")
            opt = optimum.verdict.objective
            rows.append({"jobs": jobs, "servers": servers, "seed": seed, "optimum": opt, "bound": bound.result.bound,
                         "start": bound.result.trajectory[0], "gap": (opt - bound.result.bound) / opt})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", nargs="+", default=list(INSTANCES), choices=list(INSTANCES))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--skip", nargs="*", default=list(SKIP), help="algorithms not run (default: %(default)s)")
    parser.add_argument("--small", action="store_true", help="hetero's pooled bound against proven optima")
    args = parser.parse_args()
    print(f"{machine()}; {datetime.date.today()}\n")
    if args.small:
        print("| jobs | servers | seed | optimum | start (each job alone) | pooled bound | gap |")
        print("|---|---|---|---|---|---|---|")
        for r in small(range(max(args.seeds) + 1)):
            print(f"| {r['jobs']} | {r['servers']} | {r['seed']} | {r['optimum']:,.0f} | {r['start']:,.0f} | "
                  f"{r['bound']:,.0f} | {r['gap']:.1%} |", flush=True)
        return
    print("| family | instance | seed | bound route | start | bound | rounds | best schedule (by) | certified gap "
          "| ratio of (ALG/OPT, OPT/ALG for max) | route (s) | peak memory |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for family, preset, options in ((f, p, o) for f in args.families for p, o in INSTANCES[f]):
        for seed in args.seeds:
            r = measure(family, seed, preset, options, tuple(args.skip))
            instance = f"{preset}, " + ", ".join(f"{k} {v:,}" for k, v in options.items())
            start = "-" if r["start"] is None else f"{r['start']:,.6g}"
            flag = " (never left its start)" if r["never_moved"] else ""
            low_high = r["interval"]
            ratio = "-" if low_high is None else f"{r['certified']} [{low_high[0]:.3f}, {low_high[1]:.3f}]"
            print(f"| {family} | {instance} | {seed} | {optsched.get(family).bound_route} | {start} | "
                  f"{r['bound']:,.6g}{flag} | {r['rounds']} | {r['best']:,.6g} ({r['by']}) | {r['gap']:.2%} | "
                  f"{ratio} | {r['seconds']:.0f} | {r['peak_mb']:,.0f} MB |", flush=True)


if __name__ == "__main__":
    main()
