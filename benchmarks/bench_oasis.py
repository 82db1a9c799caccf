"""OASiS benchmarks (issue: oasis, item 9). Prints Markdown tables for docs/benchmarks.md.

1. OASiS's decision time per job (Algorithm 2 plus the price update) at the paper's scale: the
   paper reports under 1 s per job with T = 100 and 80 servers; the target here is <= 10 ms.
2. The time-indexed MILP (1) on Family S instances up to I = 30, T = 15, H = K = 6 (target <= 2 s),
   HiGHS against CBC in the same run, each answer checked.
3. LP(14) by column generation against explicit enumeration: instance size, columns, time.

    python benchmarks/bench_oasis.py [--seeds 3] [--parts 1 2 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_single import machine

from optsched.oasis import formulations as F
from optsched.oasis.columns import TooManyColumns, count_columns
from optsched.oasis.generate import generate, small_family
from optsched.oasis.online import run_oasis
from optsched.solvers import solve


def decision_times(seeds: int) -> None:
    print("### OASiS decision time per job (Algorithm 2 and the price update)\n")
    print("| setting | jobs | admitted | median ms/job | mean ms/job | max ms/job | median vs the paper's 1 s |")
    print("|---|---|---|---|---|---|---|")
    for label, kwargs in (("T = 100, 40 + 40 servers (the paper's footnote 4)", {"slots": 100, "servers": 40}),
                          ("T = 300, 50 + 50 servers (Fig. 3 scale)", {})):
        ms, admitted = [], 0
        for seed in range(seeds):
            run = run_oasis(generate("paper", seed, **kwargs))
            ms += [1000 * s.seconds for s in run.steps]
            admitted += sum(s.admitted for s in run.steps)
        print(f"| {label} | {len(ms)} | {admitted} | {statistics.median(ms):.2f} | {statistics.fmean(ms):.2f} | "
              f"{max(ms):.1f} | {1000 / statistics.median(ms):.0f}x faster |")
    print()


def milp_times(seeds: int) -> None:
    print("### Time-indexed MILP (1) on Family S (spec §6.2 sizes)\n")
    print("| I | T | H | K | HiGHS median (s) | HiGHS max (s) | CBC median (s) | CBC / HiGHS |")
    print("|---|---|---|---|---|---|---|---|")
    for I, T, H, K in ((4, 4, 2, 1), (8, 6, 3, 2), (10, 8, 3, 2), (15, 10, 5, 5), (20, 12, 5, 5), (30, 15, 6, 6)):
        highs, cbc = [], []
        for seed in range(seeds):
            instance = small_family(np.random.default_rng(seed), T, H, K, ("cpu", "memory", "bandwidth"), I,
                                    (4, 10), 3, 6, 3, (1.0, 4.0))
            start = time.perf_counter()
            a = solve(F.time_indexed(instance))
            highs.append(time.perf_counter() - start)
            start = time.perf_counter()
            b = solve(F.time_indexed(instance), solver="cbc", time_limit=120)
            cbc.append(time.perf_counter() - start)
            if not a.optimal or (b.optimal and abs(a.objective - b.objective) > 1e-5 * max(1, a.objective)):
                raise SystemExit(f"I={I} seed {seed}: HiGHS {a.status} {a.objective} vs CBC {b.status} {b.objective}")
        print(f"| {I} | {T} | {H} | {K} | {statistics.median(highs):.2f} | {max(highs):.2f} | "
              f"{statistics.median(cbc):.2f} | {statistics.median(cbc) / statistics.median(highs):.1f}x |")
    print()


def column_generation_vs_enumeration(seeds: int) -> None:
    print("### LP(14): column generation vs enumeration\n")
    print("| instance | largest job's columns | enumeration LP (s) | column generation (s) | CG iterations "
          "| CG columns | LP value agrees |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng
    cases = [("tiny", lambda seed: generate("tiny", seed)),
             ("tiny, 6 jobs", lambda seed: generate("tiny", seed, jobs=6)),
             ("small, 4 jobs", lambda seed: generate("small", seed, jobs=4)),
             ("small (12 jobs)", lambda seed: generate("small", seed)),
             ("Family S, I = 30, T = 15, H = K = 6", lambda seed: small_family(
                 rng(seed), 15, 6, 6, ("cpu", "memory", "bandwidth"), 30, (4, 10), 3, 6, 3, (1.0, 4.0)))]
    for label, make in cases:
        for seed in range(min(seeds, 2)):
            instance = make(seed)
            largest = max(count_columns(instance, i) for i in range(len(instance.jobs)))
            start = time.perf_counter()
            try:
                lp = solve(F.compact_exponential(instance, relax=True)).objective
                enum_s = f"{time.perf_counter() - start:.2f}"
            except TooManyColumns:
                lp, enum_s = None, "refused (> 20,000 per job)"
            start = time.perf_counter()
            state = F.run_column_generation(instance)
            cg_s = time.perf_counter() - start
            value = state.master_values[-1] if state.master_values else 0.0
            agrees = "-" if lp is None else ("yes" if abs(lp - value) <= 1e-6 * max(1, lp) else f"NO ({lp} vs {value})")
            print(f"| {label}, seed {seed} | {largest:.3g} | {enum_s} | {cg_s:.2f} | "
                  f"{state.iterations} | {sum(map(len, state.columns))} | {agrees} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--parts", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    if 1 in args.parts:
        decision_times(args.seeds)
    if 2 in args.parts:
        milp_times(args.seeds)
    if 3 in args.parts:
        column_generation_vs_enumeration(args.seeds)


if __name__ == "__main__":
    main()
