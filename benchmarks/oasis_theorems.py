"""Record how OASiS's printed theorems fare on random Family T instances (spec §4.6, §6.4).

For each instance: OPT (time-indexed MILP), OASiS's P_I and raw dual D_I, the dual infeasibility Δ,
the paper's α and the discrete α_disc. Counts how often weak duality fails (D_I < OPT), how often the
paper's bound OPT/P_I <= 2α fails, how often Lemma 2 fails per job with the paper's α, and checks
that the certified forms (α_disc, Δ) never fail.

    python benchmarks/oasis_theorems.py --instances 200
"""

from __future__ import annotations

import argparse

from optsched.oasis import formulations as F
from optsched.oasis.generate import generate
from optsched.oasis.online import run_oasis
from optsched.oasis.theory import (
    alpha_discrete,
    certified_lower_bound,
    dual_check,
    paper_bound,
)
from optsched.solvers import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=200)
    parser.add_argument("--preset", default="tiny")
    args = parser.parse_args()
    n = weak_fail = paper_fail = certified_fail = jobs = lemma_fail = lemma_disc_fail = d0_fail = 0
    ratios, worst = [], 0.0
    for seed in range(args.instances):
        instance = generate(args.preset, seed)
        opt = solve(F.time_indexed(instance))
        if not opt.optimal or opt.objective <= 0:
            continue
        run = run_oasis(instance)
        check = dual_check(instance, run.prices_w, run.prices_p, run.payoffs)
        alpha, alpha_disc = run.constants.alpha, alpha_discrete(run.constants, run.delta)
        n += 1
        weak_fail += run.dual < opt.objective - 1e-9
        d0_fail += run.initial_dual > opt.objective / 2 + 1e-9
        ratio = opt.objective / run.primal if run.primal > 0 else float("inf")
        ratios.append(ratio)
        paper_fail += ratio > paper_bound(run.constants) + 1e-9
        worst = max(worst, ratio / paper_bound(run.constants))
        certified_fail += run.primal < certified_lower_bound(opt.objective, check.infeasibility, alpha_disc) - 1e-9
        for step in run.steps:
            if step.admitted:
                jobs += 1
                lemma_fail += step.utility < step.dual_increase / alpha - 1e-9
                lemma_disc_fail += step.utility < step.dual_increase / alpha_disc - 1e-9
    finite = [r for r in ratios if r != float("inf")]
    print(f"{args.preset} instances with OPT > 0: {n}\n")
    print("| quantity | value |\n|---|---|")
    print(f"| OPT / P_I: mean, max | {sum(finite) / len(finite):.3f}, {max(finite):.3f} |")
    print(f"| raw dual infeasible, D_I < OPT (weak duality fails) | {weak_fail} of {n} |")
    print(f"| paper's bound OPT/P_I <= 2α fails | {paper_fail} of {n} (worst ratio / 2α = {worst:.2f}) |")
    print(f"| Lemma 2 per admitted job fails with the paper's α | {lemma_fail} of {jobs} |")
    print(f"| Lemma 2 per admitted job fails with α_disc | {lemma_disc_fail} of {jobs} |")
    print(f"| D_0 <= OPT/2 fails | {d0_fail} of {n} |")
    print(f"| certified P_I >= (OPT/2 − Δ)/α_disc fails | {certified_fail} of {n} |")


if __name__ == "__main__":
    main()
