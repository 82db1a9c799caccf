"""The Section 7 baselines (spec §5.3): schedules of problem (2) that verify, never beat the
optimum, are deterministic, and exercise their preemption paths; the Jain-style batch greedy."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero import baselines
from optsched.hetero.formulations import configuration, mwsp
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance
from optsched.hetero.schedule import Schedule, objective, verify
from optsched.solvers import solve

from ..digests import digest

RUNS = {"fifo": lambda i: baselines.run_fifo(i, 3), "drf": baselines.run_drf,
        "antman": lambda i: baselines.run_antman(i, 3), "tiresias": baselines.run_tiresias}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]))
def test_every_baseline_verifies_and_never_beats_the_optimum(seed, framework):
    inst = generate("tiny", seed, framework=framework)
    opt = solve(configuration(inst)).objective
    for name, run in RUNS.items():
        schedule = run(inst).schedule
        assert verify(inst, schedule) == [], name
        assert objective(inst, schedule) >= opt - 1e-9, name
        assert run(inst).schedule == schedule, name  # P8: deterministic


def test_preemptive_baselines_do_preempt_and_fifo_keeps_arrival_order():
    killed = {"antman": 0, "tiresias": 0}
    for seed in range(12):
        inst = generate("small", seed)
        for name in killed:
            killed[name] += RUNS[name](inst).stats["killed_runs"]
        starts = [l.start for l in baselines.run_fifo(inst, seed).schedule.jobs]
        order = sorted(range(len(inst.jobs)), key=lambda j: (inst.jobs[j].arrival, j))
        assert [starts[j] for j in order] == sorted(starts[j] for j in order)
    assert killed["antman"] > 0 and killed["tiresias"] > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), framework=st.sampled_from(["ps", "allreduce"]), tau=st.integers(3, 10))
def test_jain_greedy_is_a_feasible_batch_schedule_below_the_batch_optimum(seed, framework, tau):
    inst = generate("tiny", seed, framework=framework)
    batch = list(range(len(inst.jobs)))
    chosen = baselines.jain_greedy(inst, batch, tau)
    assert all(l.completion <= tau for l in chosen.values())
    alone = Instance(inst.framework, inst.T, inst.capacity, inst.worker_demand, inst.ps_demand, inst.bandwidth,
                     tuple(replace(inst.jobs[j], arrival=1) for j in chosen))
    assert verify(alone, Schedule(tuple(chosen.values()))) == []
    weight = sum(inst.jobs[j].weight for j in chosen)
    assert weight <= solve(mwsp(inst, batch, tau)).objective + 1e-9


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "small"]),
       framework=st.sampled_from(["ps", "allreduce"]))
def test_the_ideal_configuration_is_the_fastest_that_first_fit_places_on_the_empty_cluster(seed, preset, framework):
    inst = generate(preset, seed, framework=framework)
    empty = baselines.ClusterUsage(inst)
    for j, config in enumerate(baselines.ideal(inst)):
        placed = empty.place(j, config, 1)
        assert placed is not None
        chosen = next(s for s in inst.shapes[j] if (s.m, s.p, s.workers) == (config.m, config.p, config.workers))
        faster = [s for s in inst.shapes[j] if s.d < chosen.d]
        assert all(empty.place(j, baselines.Config(s.m, s.p, s.workers), 1) is None for s in faster)


#: sha256 (first 16 hex digits) of every baseline's schedule and killed runs on 'paper' instances of
#: 40 jobs and 30 servers, recorded with the code before the baselines were made faster (issue 29:
#: at least 10x at 200 jobs on 150 servers, without changing one decision).
RECORDED = {
    "ps-0-fifo": "11e8964c52b2a566",
    "ps-0-drf": "c363e1deb7c802cf",
    "ps-0-antman": "8eba0e052ee160cb",
    "ps-0-tiresias": "d49562e3edede263",
    "ps-1-fifo": "8ed0880e5c8ca5b1",
    "ps-1-drf": "16d0eb6d94c13a1f",
    "ps-1-antman": "31bf66f9cc23fbc1",
    "ps-1-tiresias": "084833d863941b3e",
    "allreduce-0-fifo": "54ae3124e3202961",
    "allreduce-0-drf": "dc46e548463aac0d",
    "allreduce-0-antman": "464a786ab9c200ec",
    "allreduce-0-tiresias": "7990dc05c02ff5cb",
    "allreduce-1-fifo": "1b78f5d64c965967",
    "allreduce-1-drf": "8fc231a1fd45d085",
    "allreduce-1-antman": "b58e680d60de53d6",
    "allreduce-1-tiresias": "2794353cfad960d9",
}


def _digest(run) -> str:
    doc = {"jobs": [l.to_dict() for l in run.schedule.jobs],
           "killed": [[j, l.to_dict(), t] for j, l, t in run.schedule.killed]}
    return digest(doc)


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_faster_baselines_take_every_decision_the_recorded_ones_took(framework, seed):
    instance = generate("paper", seed, jobs=40, servers=30, framework=framework)
    for name in ("fifo", "drf", "antman", "tiresias"):
        run = getattr(baselines, f"run_{name}")(instance)
        assert _digest(run) == RECORDED[f"{framework}-{seed}-{name}"], name


@pytest.mark.parametrize("preset,seed,sizes", [("small", 0, {}), ("small", 3, {}), ("paper", 0, {"jobs": 40}),
                                               ("paper", 5, {"jobs": 30, "servers": 1}),
                                               ("paper", 2, {"jobs": 30, "servers": 2, "kappa": 8.0})])
def test_ideal_on_arrays_picks_what_it_picks_from_the_shapes_one_by_one(preset, seed, sizes):
    """For ps, :func:`baselines.ideal` works on the arrays ``Instance.shapes`` is made from; it must
    pick the configuration the shape-by-shape rule picks, ties included (one server: no q = 0)."""
    instance = generate(preset, seed, framework="ps", **sizes)
    assert instance.framework == "ps"
    assert baselines.ideal(instance) == baselines._ideal_from_shapes(instance)
