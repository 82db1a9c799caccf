"""A-SRPT / placement benchmarks (issue 6, item 8). Prints Markdown tables for docs/benchmarks.md.

1. Heavy-Edge per placement (the paper: 1.94 ms on VGG19; target <= 1 ms) and the placement ILP F1
   to proven optimality (the paper: 55.3 s with Gurobi; target <= 5 s with HiGHS), on the 20
   availability cases of ``asrpt-table2`` for VGG19 and GPT-175B; evaluating eq. (7) once is the
   reference measured in the same run.
2. A-SRPT on 75,000 jobs of the recurring-job Philly workload on 250 x 8 GPUs (target <= 120 s),
   with the time to build the instance (workload, random forest) and the baselines as references.

    python benchmarks/bench_asrpt.py [--parts 1 2] [--jobs 75000]
"""

from __future__ import annotations

import argparse
import random
import time
from statistics import fmean as mean

from bench_single import machine

import optsched
from optsched.asrpt import baselines
from optsched.asrpt.generate import generate_stream
from optsched.asrpt.online import run_asrpt
from optsched.placement.formulations import placement_ilp
from optsched.placement.generate import generate as generate_placement
from optsched.placement.instance import Instance
from optsched.placement.online import allot, place
from optsched.placement.reproduce import STAGES
from optsched.placement.timing import alpha
from optsched.solvers import solve


def placements(cases: int, gpus: int) -> None:
    print(f"### Placement: {cases} availability cases, {gpus}-GPU jobs (means; max for the ILP)\n")
    print("| model | eq. (7) once (ms) | Heavy-Edge (ms) | Heavy-Edge / eq. (7) | ILP exact fill (s) "
          "| ILP exact, max (s) | ILP any server (s) | ILP any server, max (s) | optimal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in STAGES:
        evals, heavies, exact, free, proven = [], [], [], [], 0
        for seed in range(cases):
            instance = generate_placement("paper", seed, model=model, gpus=gpus, stages=STAGES[model])
            job, cluster = instance.job, instance.cluster
            allotment = allot(instance.available, job.gpus, "most")
            start = time.perf_counter()
            for _ in range(50):
                counts, _ = place(job, allotment, cluster, random.Random(seed))
            heavies.append((time.perf_counter() - start) / 50)
            start = time.perf_counter()
            for _ in range(50):
                alpha(job, list(counts.values()), cluster)
            evals.append((time.perf_counter() - start) / 50)
            given = dict(allotment)
            fill = Instance(job, instance.gpus, instance.inter_bw, instance.intra_bw,
                                     tuple(given.get(m, 0) for m in range(len(instance.available))), "exact")
            for target, times in ((fill, exact), (instance, free)):
                start = time.perf_counter()
                result = solve(placement_ilp(target))
                times.append(time.perf_counter() - start)
                proven += result.optimal
        print(f"| {model} | {1000 * mean(evals):.3f} | {1000 * mean(heavies):.3f} | {mean(heavies) / mean(evals):.0f} "
              f"| {mean(exact):.2f} | {max(exact):.2f} | {mean(free):.2f} | {max(free):.2f} | {proven}/{2 * cases} |",
              flush=True)
    print()


def simulation(jobs: int) -> None:
    print(f"### A-SRPT on {jobs} trace jobs, 250 servers x 8 GPUs\n")
    start = time.perf_counter()
    instance = generate_stream("paper", 0, jobs=jobs)
    built = time.perf_counter() - start
    print(f"Instance built in {built:.1f} s (the workload, the random forest trained on 65,797 jobs, "
          f"configurations); window {instance.provenance['window']}, overlaps training: "
          f"{instance.provenance['overlaps_training']}.\n")
    print("| algorithm | time (s) | / A-SRPT |")
    print("|---|---|---|")
    start = time.perf_counter()
    schedule = run_asrpt(instance).schedule
    reference = time.perf_counter() - start
    assert optsched.get("asrpt").judge(instance, schedule).feasible
    print(f"| asrpt | {reference:.1f} | 1.00 |", flush=True)
    for name in ("spjf", "wcs_duration", "wcs_subtime"):
        start = time.perf_counter()
        schedule = getattr(baselines, name)(instance)
        took = time.perf_counter() - start
        print(f"| {name.replace('_', '-')} | {took:.1f} | {took / reference:.2f} |", flush=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--gpus", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=75_000)
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    if 1 in args.parts:
        placements(args.cases, args.gpus)
    if 2 in args.parts:
        simulation(args.jobs)


if __name__ == "__main__":
    main()
