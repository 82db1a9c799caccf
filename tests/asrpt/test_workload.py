"""Predictors, the recurring-job Philly workload and the trace-driven stream (spec asrpt.md §3.6, §5.1)."""


from optsched.asrpt.workload import recurrence, workload
from optsched.placement.templates import MEMORY_BYTES, MODELS, PAPER_CLUSTER, STATE_BYTES


def test_workload_recurs_like_the_papers_trace():
    jobs = workload(PAPER_CLUSTER, 0)
    assert len(jobs) > 80_000
    assert 0.6 <= recurrence(jobs) <= 0.7  # the paper: about 65% of jobs recur at least five times
    assert all(j.iterations >= 1 and j.job.gpus < PAPER_CLUSTER.total_gpus for j in jobs)
    one_gpu = {j.job.model for j in jobs if j.job.gpus == 1}
    assert all(MODELS[m].params * STATE_BYTES <= MEMORY_BYTES for m in one_gpu)
    by_group = {}
    for j in jobs:
        by_group.setdefault(j.group, set()).add((j.job, j.user))
    assert all(len(v) == 1 for v in by_group.values())  # one configuration and one user per group


def test_bundled_extract_matches_the_workload_model():
    import gzip
    import io
    from pathlib import Path

    from optsched.asrpt.workload import write_csv

    out = io.StringIO()
    write_csv(workload(PAPER_CLUSTER, 0), out)
    shipped = gzip.decompress((Path(__file__).parents[2] / "instances/asrpt/philly_recurring.csv.gz").read_bytes())
    assert shipped.decode() == out.getvalue()
