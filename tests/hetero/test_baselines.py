"""The Section 7 baselines (spec §5.3): schedules of problem (2) that verify, never beat the
optimum, are deterministic, and exercise their preemption paths; the Jain-style batch greedy."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.hetero import baselines
from optsched.hetero.formulations import configuration, mwsp
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance
from optsched.hetero.schedule import Schedule, objective, verify
from optsched.solvers import solve

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
    empty = baselines.Cluster(inst)
    for j, config in enumerate(baselines.ideal(inst)):
        placed = empty.place(j, config, 1)
        assert placed is not None
        chosen = next(s for s in inst.shapes[j] if (s.m, s.p, s.workers) == (config.m, config.p, config.workers))
        faster = [s for s in inst.shapes[j] if s.d < chosen.d]
        assert all(empty.place(j, baselines.Config(s.m, s.p, s.workers), 1) is None for s in faster)
