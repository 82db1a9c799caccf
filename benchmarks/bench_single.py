"""Solve times of the `single` time-indexed MILP: HiGHS vs CBC, and what the CBC workaround costs.

For each size, a few seeded `small`-preset instances with that many jobs are solved; each solve is
repeated and the median wall time kept. Ratios are taken against HiGHS measured in the same run.
"CBC, preprocessing on" is PuLP's CBC called directly with its defaults, the reference for the cost
of optsched's choice to turn CBC's MIP preprocessing off (docs/solvers.md).

    python benchmarks/bench_single.py                 # default sizes, 3 instances x 3 repeats
    python benchmarks/bench_single.py --sizes 10 20 --instances 5 --repeats 5

Prints a Markdown table for docs/benchmarks.md, with the machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import pulp
from pulp.apis.coin_api import pulp_cbc_path

from optsched.single.formulations import time_indexed
from optsched.single.generate import generate
from optsched.single.online import wspt
from optsched.solvers import solve


def median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cbc_with_preprocessing(instance):
    model = time_indexed(instance)
    model.problem.solve(pulp.COIN_CMD(path=pulp_cbc_path, msg=False))
    return pulp.value(model.problem.objective)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 15, 20])
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    print(f"machine: {machine()}; median of {args.repeats} repeats, summed over {args.instances} instances\n")
    print("| jobs | MILP vars | HiGHS (s) | CBC, optsched (s) | CBC / HiGHS | CBC, preprocessing on (s) "
          "| optsched CBC / preprocessing on | WSPT (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        instances = [generate("small", seed=seed, jobs=n) for seed in range(args.instances)]
        highs = cbc = cbc_pre = online = 0.0
        variables = 0
        for instance in instances:
            model = time_indexed(instance)
            variables += len(model.problem.variables())
            result = solve(model)
            if not result.optimal:
                raise SystemExit(f"n={n}: HiGHS did not prove optimality ({result.status})")
            check = solve(time_indexed(instance), solver="cbc")
            if not (check.optimal and abs(check.objective - result.objective) <= 1e-6 * result.objective):
                raise SystemExit(f"n={n}: CBC disagrees ({check.status} {check.objective} vs {result.objective})")
            highs += median_seconds(lambda i=instance: solve(time_indexed(i)), args.repeats)
            cbc += median_seconds(lambda i=instance: solve(time_indexed(i), solver="cbc"), args.repeats)
            cbc_pre += median_seconds(lambda i=instance: cbc_with_preprocessing(i), args.repeats)
            online += median_seconds(lambda i=instance: wspt(i), args.repeats)
        print(f"| {n} | {variables // len(instances)} | {highs:.3f} | {cbc:.3f} | {cbc / highs:.1f}x | "
              f"{cbc_pre:.3f} | {cbc / cbc_pre:.2f}x | {1000 * online:.2f} |")


if __name__ == "__main__":
    main()
