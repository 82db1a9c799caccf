"""The baselines' queue orders: SPJF, SPWF and the work-conserving ones (optsched/asrpt/baselines.py)."""

from hypothesis import given, settings

from optsched.asrpt import baselines
from optsched.asrpt.cluster_state import estimates
from optsched.asrpt.schedule import completions, verify
from optsched.asrpt.strategies import integral_streams
from optsched.numeric import better_or_equal
from optsched.registry import get


@given(integral_streams(max_jobs=6))
@settings(max_examples=40)
def test_baseline_orders(instance):
    for name in ("wcs_duration", "wcs_workload", "wcs_subtime"):
        schedule = getattr(baselines, name)(instance)
        assert verify(instance, schedule) == []
        # work conserving: no job waits while the cluster has room for it
        ends = sorted(set(completions(instance, schedule)))
        for sj, run in zip(instance.jobs, schedule.jobs):
            for t in [sj.release] + [e for e in ends if sj.release <= e < run.start]:
                if t >= run.start:
                    continue
                busy = sum(sum(sum(r) for r in other.counts.values())
                           for j, other in enumerate(schedule.jobs)
                           if other.start <= t < other.start + (completions(instance, schedule)[j] - other.start))
                assert instance.cluster.total_gpus - busy < sj.job.gpus



@given(integral_streams(max_jobs=6))
@settings(max_examples=40, deadline=None)
def test_sjf_packed_starts_a_job_only_packed_or_on_an_idle_cluster(instance):
    slack = 0.2
    schedule = baselines.sjf_packed(instance, slack=slack)
    assert verify(instance, schedule) == []
    done = completions(instance, schedule)
    tilde = [e.alpha_tilde for e in estimates(instance, perfect=True)]
    for i, (sj, run) in enumerate(zip(instance.jobs, schedule.jobs)):
        alpha = (done[i] - run.start) / sj.iterations
        idle = not any(other.start <= run.start < done[j] for j, other in enumerate(schedule.jobs) if j != i)
        assert idle or alpha <= (1 + slack) * tilde[i] * (1 + 1e-9), (i, alpha, tilde[i])


def test_sjf_packed_is_never_below_the_proven_optimum():
    asrpt = get("asrpt")
    for seed in range(4):
        inst = asrpt.generate("tiny", seed=seed)
        optimum = asrpt.solve(inst, "best")
        assert optimum.result.optimal
        ran = asrpt.run(inst, "sjf-packed", seed=seed)
        assert ran.feasible and better_or_equal(optimum.verdict.objective, ran.objective, "min")
