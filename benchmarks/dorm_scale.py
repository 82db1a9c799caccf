"""What Dorm costs at the paper's sizes (issue 29, item 9). Prints a Markdown table for docs/benchmarks.md.

Dorm solves a MILP at every event on its deterministic budget (HiGHS, one thread, a 1% gap or the
root node). This times one run of every method of ``oasis-sec5``'s Fig. 3 on the same ``paper``
instance (T = 300, 50 + 50 servers) per job count, so that Dorm is measured against OASiS and the
other baselines in the same run. It stops growing the job count once a Dorm run takes longer than
``--stop`` seconds: that is why the paper preset caps Dorm (``SCALES['paper'].dorm_max_jobs`` in
optsched/oasis/reproduce.py).

    python benchmarks/dorm_scale.py [--jobs 25 50 100 200] [--seed 0] [--stop 600]
"""

from __future__ import annotations

import argparse
import time

from bench_single import machine

from optsched.oasis.reproduce import ALGORITHMS, SCALES, Fig3Task, _fig3_task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stop", type=float, default=600.0, help="no larger job count once Dorm takes this long (s)")
    args = parser.parse_args()
    p = SCALES["paper"]
    print(f"### Dorm against OASiS and the baselines, one `paper` instance per job count (T = {p.T}, "
          f"{p.servers} + {p.servers} servers, seed {args.seed})\n")
    print(f"`python benchmarks/dorm_scale.py --jobs {' '.join(map(str, args.jobs))} --seed {args.seed} "
          f"--stop {args.stop:g}`; {machine()}; seconds per run.\n")
    print("| jobs | " + " | ".join(ALGORITHMS) + " | Dorm / OASiS |")
    print("|---|" + "---|" * (len(ALGORITHMS) + 1))
    for jobs in args.jobs:
        seconds = {}
        for name in ALGORITHMS:
            start = time.perf_counter()
            _fig3_task(Fig3Task(jobs, args.seed, p.T, p.servers, name))
            seconds[name] = time.perf_counter() - start
        print(f"| {jobs} | " + " | ".join(f"{seconds[a]:.1f}" for a in ALGORITHMS)
              + f" | {seconds['dorm'] / seconds['oasis']:.0f}x |", flush=True)
        if seconds["dorm"] > args.stop:
            print(f"\nStopped: Dorm took over {args.stop:g} s at {jobs} jobs.")
            break


if __name__ == "__main__":
    main()
