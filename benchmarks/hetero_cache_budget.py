"""What bounding A_online's market caches costs in memory and time (issue 29); a Markdown table for docs/benchmarks.md.

A_maxweight prices each round's jobs against one ``oracles.Market`` with deadline τ, and the market
caches arrays per duration d < τ (about 528 H τ² / 2 bytes for a whole round). ``Market.cache_bytes``
bounds them (``oracles.CACHE_BYTES`` when not given). This runs the paper preset's α-sweep unit (A_online,
α = 1, earliest-completion ties, a ``paper`` PS instance on 150 servers) once per budget, each in a
child process so that its peak resident memory (``os.wait4``'s ``ru_maxrss``) is its own. A budget
decides what is recomputed, never a decision, so every budget must reach the same objective: the
table says so per row, and the script exits 1 otherwise.

    python benchmarks/hetero_cache_budget.py [--jobs 250 300] [--seed 21] [--budgets 0.25 1 2 4] [--unbounded]

``--unbounded`` adds the run without a bound, which needed about 22 GB at 250 jobs (seed 21): run it
alone on a machine that has that much.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from bench_single import machine

GIB = 2 ** 30


def child(jobs: int, seed: int, budget: float | None) -> None:
    """One A_online run with the markets' budget set to ``budget`` GiB (None: unbounded); prints JSON."""
    from optsched.hetero import oracles
    from optsched.hetero.generate import generate
    from optsched.registry import get

    oracles.CACHE_BYTES = None if budget is None else int(budget * GIB)  # every market's budget
    instance = generate("paper", seed, jobs=jobs, servers=150, framework="ps")
    start = time.perf_counter()
    ran = get("hetero").run(instance, "aonline", seed=seed, tie_break="earliest_completion", alpha=1)
    print(json.dumps({"seconds": time.perf_counter() - start, "objective": ran.objective,
                      "feasible": ran.feasible}))


def measure(jobs: int, seed: int, budget: float | None) -> dict:
    """Run :func:`child` in its own process; its result with the peak resident memory in GB."""
    proc = subprocess.Popen([sys.executable, __file__, "--child", str(jobs), str(seed), str(budget)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"hetero_cache_budget: the run at {jobs} jobs, budget {budget} exited {proc.returncode}")
    return {**json.loads(out), "peak_gb": usage.ru_maxrss * 1024 / 1e9}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[250, 300])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.25, 1, 2, 4], help="GiB")
    parser.add_argument("--unbounded", action="store_true", help="also run without a bound (about 22 GB)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        jobs, seed, budget = args.child
        child(int(jobs), int(seed), None if budget == "None" else float(budget))
        return
    budgets: list[float | None] = list(args.budgets) + ([None] if args.unbounded else [])
    print(f"### A_online's market cache budget, α = 1, one `paper` PS instance per job count (150 servers, "
          f"seed {args.seed})\n")
    print(f"`python benchmarks/hetero_cache_budget.py --jobs {' '.join(map(str, args.jobs))} --seed {args.seed} "
          f"--budgets {' '.join(f'{b:g}' for b in args.budgets)}{' --unbounded' if args.unbounded else ''}`; "
          f"{machine()}; one run at a time.\n")
    print("| jobs | budget | seconds | peak memory | objective | same objective as the first budget |")
    print("|---|---|---|---|---|---|")
    differ = False
    for jobs in args.jobs:
        first = None
        for budget in budgets:
            r = measure(jobs, args.seed, budget)
            first = r["objective"] if first is None else first
            differ |= r["objective"] != first or not r["feasible"]
            label = "none" if budget is None else f"{budget:g} GiB"
            print(f"| {jobs} | {label} | {r['seconds']:.0f} | {r['peak_gb']:.1f} GB | {r['objective']:,.0f} | "
                  f"{'yes' if r['objective'] == first else 'NO'} |", flush=True)
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
