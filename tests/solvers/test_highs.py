"""The HiGHS backend: threads, the node budget without sub-MIPs, the model that stalled it (optsched/solvers/highs.py)."""



import subprocess
import sys

from optsched.limits import NODE_LIMIT
from optsched.solvers import solve

from .models import knapsack, split_deviation


def test_thread_count_can_change_between_solves():
    for threads in (1, 2, 1, None):
        assert solve(knapsack(n=10), threads=threads).status == "optimal"


def test_a_node_budget_switches_off_the_sub_mip_searches_it_cannot_count():
    problem = split_deviation()
    solve(problem, node_limit=10, threads=1)
    options = problem.solverModel.getOptions()
    assert (options.mip_heuristic_run_rins, options.mip_heuristic_run_rens) == (False, False)
    solve(problem, threads=1)  # without a budget HiGHS keeps its own defaults
    assert problem.solverModel.getOptions().mip_heuristic_run_rins is True


STALLING_MODEL = f"""
from fractions import Fraction
from optsched.edge.generate import generate
from optsched.edge.formulations import time_indexed
from optsched.edge.instance import speed_augmented
from optsched.solvers import solve
offline, _ = speed_augmented(generate("small", 161, jobs=6), Fraction(1, 5))
result = solve(time_indexed(offline).problem, node_limit={NODE_LIMIT}, threads=1, cross_check=True)
print(result.status, round(result.objective, 6))
"""


def test_the_edge_model_that_stalled_highs_inside_a_sub_mip_is_solved_within_the_node_budget():
    # HiGHS 1.16.0 with RINS/RENS on ran over 25 minutes inside a sub-MIP at the root of this model
    # (docs/solvers.md); the watchdog turns a regression into a failure instead of a hung suite.
    done = subprocess.run([sys.executable, "-c", STALLING_MODEL], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["optimal", "129.0"]  # HiGHS and CBC agree (cross_check)



def test_an_infeasible_mip_start_is_refused_and_the_optimum_unchanged():
    from optsched.solvers import Model

    problem = knapsack(n=10)
    exact = solve(problem)
    everything = {v.name: 1.0 for v in problem.variables()}  # over every capacity
    started = solve(Model(problem, start=everything))
    assert started.status == "optimal" and started.objective == exact.objective
