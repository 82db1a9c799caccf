"""Small solver models the solver tests share: a knapsack of known optimum and a split-deviation
MILP hard enough to need branch and bound."""

import random

import pulp


def knapsack(n=8, m=2, seed=0, sense=pulp.LpMaximize, constant=0.0):
    rnd = random.Random(seed)
    p = pulp.LpProblem("knapsack", sense)
    x = [p.add_variable(f"x{i}", cat="Binary") for i in range(n)]
    profit = [rnd.randint(10, 100) for _ in range(n)]
    p += pulp.lpSum(profit[i] * x[i] for i in range(n)) + constant
    for k in range(m):
        w = [profit[i] + rnd.randint(-5, 5) for i in range(n)]
        p += pulp.lpSum(w[i] * x[i] for i in range(n)) <= sum(w) // 2, f"cap{k}"
    return p


def split_deviation(seed: int = 5, rows: int = 3, items: int = 24) -> pulp.LpProblem:
    """The least deviation from a market split: an incumbent at once, far from proven at the root."""
    rnd = random.Random(seed)
    a = [[rnd.randint(0, 99) for _ in range(items)] for _ in range(rows)]
    problem = pulp.LpProblem("split_deviation", pulp.LpMinimize)
    x = [problem.add_variable(f"x{i}", 0, 1, pulp.LpBinary) for i in range(items)]
    over = [problem.add_variable(f"over{k}", 0) for k in range(rows)]
    under = [problem.add_variable(f"under{k}", 0) for k in range(rows)]
    problem += pulp.lpSum(over) + pulp.lpSum(under)
    for k in range(rows):
        problem += pulp.lpSum(a[k][i] * x[i] for i in range(items)) + over[k] - under[k] == sum(a[k]) // 2, f"r{k}"
    return problem
