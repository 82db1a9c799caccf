"""Edge benchmarks (issue: edge, item 9). Prints Markdown tables for docs/benchmarks.md.

1. MILP-2 (time-indexed) solve time for J = 4 ... 20 jobs on spec §6's random instances (integer
   p^0 in [1, p_max], p^1 <= p^0, D <= 3, r <= 2J, edge Δ in [0, 2], cloud Δ in [4, 8], every worker
   qualified), HiGHS against CBC in the same run. Target: J = 20 with 9 workers <= 15 s.
2. A_online's dispatch time per job at the simulator's scale (100 servers, 300 jobs). Target <= 5 ms.

    python benchmarks/bench_edge.py [--seeds 3] [--parts 1 2]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_single import machine

from optsched.edge.formulations import time_indexed
from optsched.edge.generate import _integer_jobs, generate
from optsched.edge.instance import Instance, Server
from optsched.edge.online import run_aonline
from optsched.solvers import solve

SIZES = ((4, 2, 3), (6, 4, 4), (8, 4, 4), (12, 6, 4), (15, 6, 5), (20, 9, 5))


def spec_instance(seed: int, jobs: int, workers: int, p_max: int) -> Instance:
    rng = np.random.default_rng(seed)
    servers = (workers + 1) // 2
    per = [2] * (workers // 2) + [1] * (workers % 2)
    cluster = tuple(Server(("w",) * n, ("p",) * workers) for n in per)
    return Instance(cluster, _integer_jobs(rng, jobs, servers, (1, 3), (1, p_max), (0, 2 * jobs), (0, 2), (4, 8)))


def milp_times(seeds: int) -> None:
    print("### MILP-2 on spec §6's random instances\n")
    print("| jobs | edge workers | p_max | variables | HiGHS median (s) | HiGHS max (s) | CBC median (s) "
          "| CBC / HiGHS |")
    print("|---|---|---|---|---|---|---|---|")
    for jobs, workers, p_max in SIZES:
        highs, cbc, variables = [], [], []
        for seed in range(seeds):
            instance = spec_instance(seed, jobs, workers, p_max)
            variables.append(len(time_indexed(instance).problem.variables()))
            start = time.perf_counter()
            a = solve(time_indexed(instance), time_limit=300)
            highs.append(time.perf_counter() - start)
            start = time.perf_counter()
            b = solve(time_indexed(instance), solver="cbc", time_limit=300)
            cbc.append(time.perf_counter() - start)
            if not a.optimal or (b.optimal and abs(a.objective - b.objective) > 1e-6 * a.objective):
                raise SystemExit(f"J={jobs} seed {seed}: HiGHS {a.status} {a.objective} "
                                 f"vs CBC {b.status} {b.objective}")
        highs_median, cbc_median = statistics.median(highs), statistics.median(cbc)
        print(f"| {jobs} | {workers} | {p_max} | {int(statistics.median(variables))} | {highs_median:.2f} | "
              f"{max(highs):.2f} | {cbc_median:.2f} | {cbc_median / highs_median:.1f}x |")
    print()


def dispatch_times(seeds: int) -> None:
    print("### A_online dispatch time per job at the simulator's scale\n")
    print("| preset | servers | jobs | chunks | total (s) | ms per job | ms per chunk |")
    print("|---|---|---|---|---|---|---|")
    for preset in ("paper", "synthetic"):
        totals, jobs, chunks = [], 0, 0
        for seed in range(seeds):
            instance = generate(preset, seed)
            start = time.perf_counter()
            run_aonline(instance)
            totals.append(time.perf_counter() - start)
            jobs += len(instance.jobs)
            chunks += sum(job.chunks for job in instance.jobs)
        total = sum(totals)
        print(f"| {preset} | 100 | 300 | {chunks // seeds} | {statistics.median(totals):.2f} | "
              f"{1000 * total / jobs:.2f} | {1000 * total / chunks:.3f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--parts", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    if 1 in args.parts:
        milp_times(args.seeds)
    if 2 in args.parts:
        dispatch_times(args.seeds)


if __name__ == "__main__":
    main()
