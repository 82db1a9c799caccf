"""Hetero benchmarks (issue 3, item 9). Prints Markdown tables for docs/benchmarks.md.

1. A_online (earliest-completion ties, as in the reproduction) on ``paper`` instances (T = 150) of
   growing size, both frameworks, with the four baselines timed in the same run as the reference.
   Target (the paper's scale, 150 servers and 200 jobs): <= 12 s. Each size is run once; larger
   sizes are skipped once the baselines took longer than ``--budget`` seconds.
2. The exact frontier: the largest ``tiny``/``small`` instance (by job count) each formulation
   solves to proven optimality within 60 s with HiGHS, over ``--seeds`` seeds.
3. The target row alone: A_online with each tie rule at 200 jobs on 150 servers (ps), from a fresh
   instance each.

    python benchmarks/bench_hetero.py [--seeds 2] [--budget 300] [--parts 1 2 3]
"""

from __future__ import annotations

import argparse
import time

from bench_single import machine

import optsched
from optsched.hetero import baselines
from optsched.hetero.formulations import configuration, time_indexed
from optsched.hetero.generate import generate
from optsched.hetero.online import run_aonline
from optsched.hetero.oracles import TIE_BREAKS
from optsched.solvers import solve

SIZES = ((10, 10), (40, 40), (80, 80), (200, 150), (300, 150))
BASELINES = (baselines.run_fifo, baselines.run_drf, baselines.run_antman, baselines.run_tiresias)


def online_times(budget: float) -> None:
    """Each timing starts from a freshly generated instance, so building its shapes is included."""
    print("### A_online on `paper` instances (T = 150)\n")
    print("| framework | jobs | servers | shapes | A_online (s) | four baselines (s) | A_online / baselines | rounds |")
    print("|---|---|---|---|---|---|---|---|")
    for framework in ("ps", "allreduce"):
        for jobs, servers in SIZES:
            start = time.perf_counter()
            for run in BASELINES:
                run(generate("paper", 0, jobs=jobs, servers=servers, framework=framework))
            base = time.perf_counter() - start
            instance = generate("paper", 0, jobs=jobs, servers=servers, framework=framework)
            start = time.perf_counter()
            result = run_aonline(instance, tie_break="earliest_completion")
            online = time.perf_counter() - start
            assert optsched.get("hetero").judge(instance, result.schedule).feasible
            shapes = sum(len(s) for s in instance.shapes)
            print(f"| {framework} | {jobs} | {servers} | {shapes} | {online:.1f} | {base:.1f} | {online / base:.2f} "
                  f"| {len(result.rounds)} |", flush=True)
            if base > budget:
                print(f"\n{framework}: larger sizes skipped, the baselines took {base:.0f} s (budget {budget:g} s)\n")
                break
    print()


def target() -> None:
    print("### Target: A_online at 200 jobs, 150 servers, T = 150 (ps)\n")
    print("| tie_break | A_online (s) |")
    print("|---|---|")
    for tie_break in TIE_BREAKS:
        instance = generate("paper", 0, jobs=200, servers=150, framework="ps")
        start = time.perf_counter()
        run_aonline(instance, tie_break=tie_break)
        print(f"| {tie_break} | {time.perf_counter() - start:.1f} |", flush=True)
    print()


def frontier(seeds: int) -> None:
    print("### Exact frontier: largest instance solved to optimality within 60 s (HiGHS)\n")
    print("| preset | framework | formulation | jobs solved (all seeds) | time at that size, max (s) |")
    print("|---|---|---|---|---|")
    for preset in ("tiny", "small"):
        for framework in ("ps", "allreduce"):
            for name, build in (("configuration", configuration), ("time-indexed", time_indexed)):
                best, best_time = 0, 0.0
                for jobs in range(2, 13):
                    times = []
                    for seed in range(seeds):
                        instance = generate(preset, seed, jobs=jobs, framework=framework)
                        start = time.perf_counter()
                        result = solve(build(instance), time_limit=60)
                        times.append(time.perf_counter() - start)
                        if not result.optimal:
                            break
                    else:
                        best, best_time = jobs, max(times)
                        continue
                    break
                print(f"| {preset} | {framework} | {name} | {best} | {best_time:.1f} |", flush=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--budget", type=float, default=300.0)
    parser.add_argument("--parts", type=int, nargs="*", default=[1, 2, 3])
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    if 1 in args.parts:
        online_times(args.budget)
    if 2 in args.parts:
        frontier(args.seeds)
    if 3 in args.parts:
        target()


if __name__ == "__main__":
    main()
