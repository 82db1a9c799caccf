"""Record how the edge paper's dual fitting fares on random small instances (spec §4.3, L2-b/L2-c).

For each instance: does the printed dual fitting violate (6a) somewhere, and on the selected worker;
does the repaired variant (L2-c) violate its inequality. With and without job-dependent delays.

    python benchmarks/edge_theorems.py --instances 1000
"""

from __future__ import annotations

import argparse
import random

from optsched.edge.instance import Instance, Job, Server
from optsched.edge.online import run_aonline
from optsched.edge.theory import fitted_dual_check


def random_instance(rng: random.Random, job_dependent: bool) -> Instance:
    """Spec §6's small sizes with p^1 = p^0 (the dual-fitting diagnostics' setting [E7])."""
    S = rng.randint(1, 2)
    servers = tuple(Server(("w",) * rng.randint(1, 2), ("p",) * 4) for _ in range(S))
    shared = tuple(rng.randint(0, 2) for _ in range(S))
    jobs = []
    for release in sorted(rng.randint(0, 6) for _ in range(rng.randint(1, 4))):
        p = rng.randint(1, 4)
        delays = tuple(rng.randint(0, 2) for _ in range(S)) if job_dependent else shared
        jobs.append(Job(release, rng.randint(1, 3), p, p, delays, rng.randint(2, 8)))
    return Instance(servers, tuple(jobs), rng.random() < 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=1000)
    args = parser.parse_args()
    print("| delays | instances | printed fitting violates (6a) | on the selected worker | repaired (L2-c) violates |")
    print("|---|---|---|---|---|")
    for job_dependent in (False, True):
        rng = random.Random(2026)
        printed = selected = repaired = 0
        for _ in range(args.instances):
            instance = random_instance(rng, job_dependent)
            check = fitted_dual_check(run_aonline(instance))
            printed += check.violations > 0
            selected += check.on_selected > 0
            repaired += fitted_dual_check(run_aonline(instance, repaired=True), repaired=True).violations > 0
        label = "job-dependent" if job_dependent else "job-independent"
        n = args.instances
        print(f"| {label} | {n} | {printed} ({printed / n:.0%}) | {selected} ({selected / n:.0%}) "
              f"| {repaired} ({repaired / n:.1%}) |")


if __name__ == "__main__":
    main()
