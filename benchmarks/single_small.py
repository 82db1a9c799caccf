"""Where CP-SAT is single's faster ``best``: at small sizes, the whole call of optsched's
``reduced-time-indexed`` and ``cp-sat`` (``Family.solve``, one thread) against the peer models of
``peers.py`` (PyJobShop, plain CP-SAT), in one process, median of repeats, in milliseconds.

    pip install -e '.[bench]' && cd benchmarks && python single_small.py --sizes 10 12 --seeds 3 --repeats 5

Needs the ``bench`` extra (PyJobShop). Prints a Markdown table with the machine it ran on
(docs/single.md, "Formulation reduced-time-indexed").
"""

from __future__ import annotations

import argparse

import peers
from bench_single import machine, median_seconds

import optsched

FORMULATIONS = ("reduced-time-indexed", "cp-sat")
PEERS = {"PyJobShop": peers.single_pyjobshop, "plain CP-SAT": peers.single_cp_sat}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 12])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    family = optsched.get("single")
    family.solve(family.generate("small", seed=0, jobs=5), "cp-sat", threads=1)  # imports and warm-up, untimed
    print(machine())
    print("\n| jobs | seed | " + " | ".join(FORMULATIONS) + " | " + " | ".join(PEERS) + " |")
    print("|---" * (2 + len(FORMULATIONS) + len(PEERS)) + "|")
    for n in args.sizes:
        for seed in range(args.seeds):
            cells = row(family, family.generate("small", seed=seed, jobs=n), args.repeats)
            print(f"| {n} | {seed} | " + " | ".join(f"{1000 * c:.0f} ms" for c in cells) + " |", flush=True)


def row(family, instance, repeats: int) -> list[float]:
    """Median seconds of each formulation (after checking it proves the optimum), then each peer."""
    cells = []
    for name in FORMULATIONS:
        if not family.solve(instance, name, threads=1).result.optimal:
            raise SystemExit(f"{name} did not prove the optimum of a {instance.n}-job instance")
        cells.append(median_seconds(lambda name=name: family.solve(instance, name, threads=1), repeats))
    for peer in PEERS.values():
        cells.append(median_seconds(lambda peer=peer: peer(instance, {"max_time_in_seconds": 60.0}), repeats))
    return cells


if __name__ == "__main__":
    main()
