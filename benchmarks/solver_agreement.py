"""How often does each solver configuration give a wrong answer on small random MILPs?

Each model of :func:`optsched.testing.random_milp` is solved by four configurations: HiGHS (presolve
on, and off), CBC as optsched runs it (MIP preprocessing off, retried with it on after a crash), and
PuLP's CBC with its defaults (preprocessing on). The referee is independent of any one claim: the best
objective among the solutions that satisfy the model (checked by ``max_violation``), or
"infeasible" when no configuration found a solution and none crashed. A configuration is wrong when
it calls a worse value optimal, or calls a feasible model infeasible or unbounded.

    python benchmarks/solver_agreement.py --seeds 3000
"""

from __future__ import annotations

import argparse
from collections import Counter

import pulp
from pulp.apis.coin_api import pulp_cbc_path

from optsched.numeric import close
from optsched.solvers import CROSS_CHECK_RTOL, max_violation, solve
from optsched.testing import random_milp


def pulp_cbc_defaults(problem: pulp.LpProblem) -> tuple[str, float | None, dict]:
    try:
        problem.solve(pulp.COIN_CMD(path=pulp_cbc_path, msg=False))
    except pulp.PulpSolverError:
        return "error", None, {}
    status = {1: "optimal", -1: "infeasible", -2: "unbounded"}.get(problem.status, "not_solved")
    values = {v.name: v.varValue for v in problem.variables() if v.varValue is not None}
    # evaluated here: pulp.value() is None for a constant objective (PuLP's unvalued __dummy)
    objective = sum(c * values.get(v.name, 0.0) for v, c in problem.objective.items()) + problem.objective.constant
    return status, (objective if status == "optimal" else None), values


CONFIGURATIONS = {
    "HiGHS, presolve off (optsched's default)": lambda p: solve(p),
    "HiGHS, presolve on": lambda p: solve(p, presolve=True),
    "CBC as optsched runs it (presolve and preprocessing off)": lambda p: solve(p, solver="cbc"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3000)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    wrong, errors, examples = Counter(), Counter(), {}
    names = [*CONFIGURATIONS, "CBC 2.10.3, PuLP defaults"]
    for seed in range(args.first, args.first + args.seeds):
        answers = {}
        for name, run in CONFIGURATIONS.items():
            r = run(random_milp(seed))
            answers[name] = (r.status, r.objective, dict(r.values))
        answers[names[-1]] = pulp_cbc_defaults(random_milp(seed))
        model = random_milp(seed)
        sign = 1 if model.sense == pulp.LpMinimize else -1
        feasible = [obj for status, obj, values in answers.values()
                    if obj is not None and max_violation(model, values) <= 1e-6]
        best = min(sign * v for v in feasible) * sign if feasible else None
        for name, (status, obj, _) in answers.items():
            if status == "error":
                errors[name] += 1
                continue
            bad = (status == "optimal" and best is not None and not close(obj, best, CROSS_CHECK_RTOL)) or (
                status in ("infeasible", "unbounded") and best is not None)
            if bad:
                wrong[name] += 1
                examples.setdefault(name, f"seed {seed}: {status} {obj} (best feasible {best})")
    print(f"{args.seeds} random MILPs (seeds {args.first}..{args.first + args.seeds - 1})\n")
    print("| configuration | wrong answers | solver errors | first wrong example |")
    print("|---|---|---|---|")
    for name in names:
        print(f"| {name} | {wrong[name]} | {errors[name]} | {examples.get(name, '-')} |")


if __name__ == "__main__":
    main()
