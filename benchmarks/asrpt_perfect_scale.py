"""A-SRPT against A-SRPT-Perfect as the trace window grows past the held-out jobs (docs/benchmarks.md,
"Certified bounds at the papers' scale", asrpt's "Left alone"): the total completion time of each
(verified), the median wait from release to start, how many jobs the predictor gave 0 iterations (a
group with no training job: it completes at once in the virtual machine, paper §IV-A), how many
communication-heavy jobs were held, and whether the window overlaps the predictor's training jobs.

    python benchmarks/asrpt_perfect_scale.py [--jobs 16449 40000 75000] [--seed 0]

Prints Markdown for docs/benchmarks.md. A measurement, not a test: it decides nothing.
"""

from __future__ import annotations

import argparse
import statistics

import optsched
from optsched.asrpt.generate import generate_stream
from optsched.asrpt.online import run_asrpt


def row(jobs: int, seed: int) -> str:
    instance = generate_stream("paper", seed, jobs=jobs)
    family = optsched.get("asrpt")
    cells = []
    for perfect in (False, True):
        outcome = run_asrpt(instance, perfect=perfect)
        verdict = family.judge(instance, outcome.schedule)
        if not verdict.feasible:
            raise SystemExit(f"{jobs} jobs: an infeasible schedule ({verdict.violations[0]})")
        waits = [run.start - job.release for run, job in zip(outcome.schedule.jobs, instance.jobs)]
        cells += [f"{verdict.objective:.4g}", f"{statistics.median(waits):.3g}", f"{len(outcome.waited):,}"]
    zeros = sum(job.predicted == 0 for job in instance.jobs)
    overlaps = instance.provenance["overlaps_training"]
    return f"| {jobs:,} | {overlaps} | {zeros:,} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[16449, 40000, 75000])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("| jobs | window overlaps training | predicted 0 | A-SRPT total (s) | median wait (s) | held "
          "| A-SRPT-Perfect total (s) | median wait (s) | held |")
    print("|---|---|---|---|---|---|---|---|---|")
    for jobs in args.jobs:
        print(row(jobs, args.seed), flush=True)


if __name__ == "__main__":
    main()
