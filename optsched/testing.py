"""Random small models for checking solvers against each other (tests, benchmarks, your own machine).

:func:`random_milp` draws a mixed-integer program with 2-7 bounded variables, mixed integer and
continuous, 1-5 rows of either sense, a random objective sense and constant. Such models are where
solver bugs show: ``benchmarks/solver_agreement.py`` found CBC 2.10.3's preprocessing errors with it.
"""

from __future__ import annotations

import random

import pulp


def random_milp(seed: int) -> pulp.LpProblem:
    """A small random MILP; the same seed gives the same model."""
    rnd = random.Random(seed)
    sense = rnd.choice([pulp.LpMinimize, pulp.LpMaximize])
    problem = pulp.LpProblem(f"random_milp_{seed}", sense)
    x = [problem.add_variable(f"x{i}", 0, rnd.randint(1, 4), cat=rnd.choice(["Integer", "Continuous"]))
         for i in range(rnd.randint(2, 7))]
    problem += pulp.lpSum(rnd.randint(-6, 9) * v for v in x) + rnd.randint(-3, 3)
    for k in range(rnd.randint(1, 5)):
        row = pulp.lpSum(rnd.randint(-2, 6) * v for v in x)
        rhs = rnd.randint(-2, 12)
        problem += (row <= rhs if rnd.random() < 0.7 else row >= rhs), f"r{k}"
    return problem
