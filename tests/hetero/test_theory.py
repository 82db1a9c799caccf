"""Zhou et al.'s constants and bounds (optsched/hetero/theory.py): λ, γ and α from their formulas, the per-capacity F (D18), the lower bounds LB-solo and LB-fluid (P2), Theorem 3 under A1/A2 and Theorem 5 with the theorem's α."""

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero import theory as th
from optsched.hetero.columns import options
from optsched.hetero.formulations import configuration, mwsp
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job
from optsched.hetero.online import (
    maxweight,
    run_aonline,
)
from optsched.hetero.schedule import objective
from optsched.solvers import solve

from .cases import a2, tiny


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]))
def test_theorem5_holds_with_the_theorem_alpha(seed, framework):
    """With α from the formula (tens on tiny instances, above every batch size) and exact oracles,
    Theorem 5 is rigorous (spec §4): ALG <= 4α OPT."""
    inst = tiny(seed, framework)
    run = run_aonline(inst, alpha_mode="theorem")
    assert run.alpha_theorem >= run.largest_batch
    opt = solve(configuration(inst)).objective
    assert objective(inst, run.schedule) <= 4 * run.alpha_theorem * opt + 1e-9
    claim = th.theorem5(inst, alpha_mode="theorem")
    assert claim.bound == 4 * run.alpha_theorem


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]))
def test_lower_bounds_are_below_the_optimum(seed, framework):
    """P2: LB-solo, LB-fluid_r and both LP relaxations are at most OPT(2)."""
    inst = tiny(seed, framework)
    opt = solve(configuration(inst)).objective
    assert th.lb_solo(inst) <= opt + 1e-9
    assert all(th.lb_fluid(inst, r) <= opt + 1e-9 for r in range(inst.R))
    assert solve(configuration(inst, relax=True)).objective <= opt + 1e-6


def test_theorem3_on_instances_that_satisfy_a1_and_a2():
    """Spec §6.1's recipe for A1/A2: one resource of capacity 40 and weights between a job's largest
    and F times its smallest consumption. Then ΔD_j <= γ w_j and w(ACC) >= OPT_MW / γ."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        jobs = []
        for _ in range(6):
            K = int(rng.integers(1, 4))
            base = Job(arrival=1, weight=1.0, epochs=1, chunks=int(rng.integers(1, 3)), minibatches=K,
                       train=(1.0,), update=(0.0,), gradient=0.0)
            jobs.append(base)
        inst = Instance("ps", 8, ((40.0,), (40.0,)), ((1.0,),), ((1.0,),), 0, tuple(jobs))
        cons = [[th.consumption(inst, o.at(1)) for o in opts] for opts in options(inst)]
        F = max(max(c) / min(c) for c in cons)
        jobs = [Job(1, float(rng.uniform(max(c), F * min(c))), j.epochs, j.chunks, j.minibatches, j.train, j.update,
                    j.gradient) for j, c in zip(jobs, cons)]
        inst = Instance("ps", 8, inst.capacity, inst.worker_demand, inst.ps_demand, 0, tuple(jobs))
        lam = th.lam(inst, F)
        a = th.assumptions(inst, F, lam)
        if not (a.a1 and a.a2):
            continue
        checked += 1
        batch = list(range(len(jobs)))
        result = maxweight(inst, batch, 8, lam)
        g = th.gamma(lam)
        assert all(result.increment[j] <= g * inst.jobs[j].weight + 1e-9 for j in result.accepted)
        opt = solve(mwsp(inst, batch, 8)).objective
        assert opt <= g * result.weight(inst) + 1e-9
    assert checked >= 6


def test_the_constants_follow_the_formulas():
    inst = a2()
    lam = th.lam(inst, 2.0)
    assert lam == 2 * 8 * 1 * 1 * 2 + 1
    g = th.gamma(lam)
    assert g == pytest.approx(2 * math.log2(33))
    assert th.alpha_formula([1.0, 3.0], lam) == math.floor(math.log(4) / math.log(g / (g - 1))) + 1


def test_per_capacity_consumption_does_not_depend_on_the_units():
    """D18: measuring resource 0 in units 1000 times smaller changes (A1)'s raw consumption, not
    the per-capacity one."""
    inst = generate("tiny", 3)
    scale = np.array([1000.0] + [1.0] * (inst.R - 1))
    rescaled = replace(inst, capacity=tuple(tuple(np.asarray(c) * scale) for c in inst.capacity),
                       worker_demand=tuple(tuple(np.asarray(e) * scale) for e in inst.worker_demand),
                       ps_demand=tuple(tuple(np.asarray(z) * scale) for z in inst.ps_demand))
    assert th.instance_F(rescaled, "per_capacity") == pytest.approx(th.instance_F(inst, "per_capacity"))
    assert th.instance_F(rescaled) != pytest.approx(th.instance_F(inst))
    with pytest.raises(ValueError):
        th.instance_F(inst, "per_gpu")

