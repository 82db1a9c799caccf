"""The baselines' queue orders: SPJF, SPWF and the work-conserving ones (optsched/asrpt/baselines.py)."""

from hypothesis import given, settings

from optsched.asrpt import baselines
from optsched.asrpt.schedule import completions, verify

from .strategies import integral_streams


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

