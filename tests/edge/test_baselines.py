"""SRTF, Tiresias-L, BatchSche and the offline reference earliest-completion (optsched/edge/baselines.py):
feasible for (2), never below OPT."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.edge import baselines as B
from optsched.edge import formulations as F
from optsched.edge.generate import generate
from optsched.edge.instance import Instance, Job, Server
from optsched.edge.schedule import objective, verify
from optsched.edge.strategies import instances
from optsched.solvers import solve

from ..digests import digest

BASELINES = [B.srtf, B.tiresias_l, B.batchsche, B.earliest_completion]


@pytest.mark.parametrize("baseline", BASELINES, ids=lambda f: f.__name__)
@given(instance=instances())
@settings(max_examples=40)
def test_feasible_and_never_better_than_the_optimum(baseline, instance):
    schedule = baseline(instance)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) >= solve(F.time_indexed(instance)).objective - 1e-6


@pytest.mark.parametrize("baseline", BASELINES, ids=lambda f: f.__name__)
def test_physical_scale_is_feasible(baseline):
    instance = generate("synthetic", 0, jobs=25, servers=10)
    assert verify(instance, baseline(instance)) == []


def test_batchsche_sends_everything_to_the_cheaper_cloud_and_a_dear_cloud_keeps_jobs_on_the_edge():
    instance = Instance((Server(("w", "w"), ("p", "p")),), (Job(0, 2, 3, 2, (1,), 4), Job(1, 1, 2, 2, (0,), 4)))
    cheap = B.batchsche(instance)
    assert all(run.zeta for run in cheap.jobs)
    dear = B.batchsche(instance, cloud_price=10.0)  # job 1 waits for job 0 to free the edge
    assert not any(run.zeta for run in dear.jobs) and verify(instance, dear) == []
    assert min(t for t, _, _ in dear.jobs[1].edge) >= max(t for t, _, _ in dear.jobs[0].edge) + 1


@given(instance=instances(max_jobs=5), order=st.sampled_from(["gain", "release"]))
@settings(max_examples=40)
def test_earliest_completion_ends_every_job_no_later_than_the_cloud_and_the_first_as_if_alone(instance, order):
    """Each job takes the sooner of its two plans in the capacity left: never later than wholly in the
    cloud (r + Δ_c + p^1), and the first job planned ends as it would alone."""
    schedule = B.earliest_completion(instance, order=order)
    assert verify(instance, schedule) == []
    ends = [run.completion() for run in schedule.jobs]
    if instance.cloud:
        assert all(end <= job.release + job.delay_cloud + job.p_cloud for job, end in zip(instance.jobs, ends))
    alone = [B.earliest_completion(Instance(instance.servers, (job,), instance.cloud)).jobs[0].completion()
             for job in instance.jobs]
    first = (min(range(len(ends)), key=lambda j: (instance.jobs[j].release, j)) if order == "release" else
             min(range(len(ends)), key=lambda j: (-(B._cloud_end(instance, j) - alone[j]), j)))
    assert ends[first] == alone[first]


def test_earliest_completion_keeps_the_edge_for_the_job_that_gains_most():
    """Two jobs want the one edge worker before the cloud can help. Job 1 saves 5 slots over the cloud
    alone, job 0 saves 2: in gain order job 1 takes the worker and job 0 goes wholly to the cloud; in
    release order job 0 takes it first and job 1 runs on the edge after it."""
    instance = Instance((Server(("w",), ("p",)),), (Job(0, 1, 2, 1, (0,), 3), Job(0, 1, 3, 3, (0,), 5)))
    by_gain, by_release = B.earliest_completion(instance), B.earliest_completion(instance, order="release")
    assert [run.completion() for run in by_gain.jobs] == [4, 3] and by_gain.jobs[0].zeta
    assert [run.completion() for run in by_release.jobs] == [2, 5] and not by_release.jobs[1].zeta


def test_a_rigid_gang_waits_for_all_its_workers():
    """Edge only: two one-chunk jobs with gang 1 and a two-chunk job with gang 2 on two workers."""
    instance = Instance((Server(("w", "w"), ("p", "p")),),
                        (Job(0, 1, 3, 3, (0,), 0), Job(0, 2, 2, 2, (0,), 0, gang=2)), cloud=False)
    schedule = B.srtf(instance)
    assert verify(instance, schedule) == []
    both = [t for t, _, _ in schedule.jobs[1].edge]
    assert all(both.count(t) == 2 for t in set(both))  # always both workers at once


@pytest.mark.parametrize("baseline", [B.srtf, B.tiresias_l], ids=lambda f: f.__name__)
def test_a_demand_gang_runs_every_chunk_at_once(baseline):
    """[E34]'s alternative: with gang='demand' a job runs on D_j workers at once, not its trace gang."""
    instance = Instance((Server(("w", "w", "w"), ("p", "p", "p")),), (Job(0, 3, 2, 2, (0,), 0, gang=1),), cloud=False)
    trace, demand = baseline(instance), baseline(instance, gang="demand")
    assert verify(instance, trace) == [] and verify(instance, demand) == []
    width = [[t for t, _, _ in s.jobs[0].edge] for s in (trace, demand)]
    assert max(width[0].count(t) for t in width[0]) == 1 and all(width[1].count(t) == 3 for t in width[1])
    assert objective(instance, demand) < objective(instance, trace)
    with pytest.raises(ValueError, match="gang"):
        baseline(instance, gang="half")


#: sha256 (first 16 hex digits) of each rigid baseline's schedule and preemption count on 'paper'
#: instances (seed 0; 40 jobs on 20 servers and 60 jobs on 10, where the edge PSs run out), recorded
#: before the simulator found a free PS by a counter per (slot, type) and cached the gang sizes;
#: BatchSche at cloud price 2 (where it keeps jobs on the edge) recorded before it sorted each job's
#: workers once instead of every slot.
RECORDED = {
    "0-40-20-srtf": "939b5dae8281f415",
    "0-40-20-srtf-demand": "6cb06a8c41cf5ca4",
    "0-40-20-tiresias": "8b55e9211abd36db",
    "0-40-20-batchsche": "3d6ef16bdec255f0",
    "0-60-10-srtf": "f38e7acdc2fea32e",
    "0-60-10-srtf-demand": "71c2e2cf014c55f5",
    "0-60-10-tiresias": "82a9be5214911657",
    "0-60-10-batchsche": "31e5c902ca8ab457",
    "0-40-20-batchsche-price-2": "4f8fbf1be8b49b3d",
    "0-60-10-batchsche-price-2": "ac9f255ad68a4711",
}


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_the_baselines_take_every_decision_they_took_before_the_simulator_was_made_faster(case):
    seed, jobs, servers, name = case.split("-", 3)
    instance = generate("paper", int(seed), jobs=int(jobs), servers=int(servers))
    runs = {"srtf": lambda: B.run_srtf(instance), "srtf-demand": lambda: B.run_srtf(instance, "demand"),
            "tiresias": lambda: B.run_tiresias(instance), "batchsche": lambda: (B.batchsche(instance), 0),
            "batchsche-price-2": lambda: (B.batchsche(instance, cloud_price=2.0), 0)}
    schedule, preemptions = runs[name]()
    doc = {"s": schedule.to_dict(), "p": preemptions}
    assert digest(doc) == RECORDED[case]
