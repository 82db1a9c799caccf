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


def test_a_within_group_spread_varies_the_counts_and_nothing_else():
    """``spread`` (issue 52's A-SRPT set-up sweep): the same groups, users and models as without it,
    each member's count the group's times its own factor of mean 1; 0 is the workload as shipped."""
    import statistics

    plain, spread = workload(PAPER_CLUSTER, 0), workload(PAPER_CLUSTER, 0, 0.5)
    assert [(j.group, j.user, j.job, j.submit) for j in plain] == [(j.group, j.user, j.job, j.submit) for j in spread]
    counts: dict[int, set[int]] = {}
    sizes: dict[int, int] = {}
    for j in spread:
        counts.setdefault(j.group, set()).add(j.iterations)
        sizes[j.group] = sizes.get(j.group, 0) + 1
    recurring = [g for g, n in sizes.items() if n > 1]
    assert sum(len(counts[g]) > 1 for g in recurring) > 0.9 * len(recurring) > 0
    factors = [b.iterations / a.iterations for a, b in zip(plain, spread) if a.iterations >= 1000]
    assert 0.9 < statistics.fmean(factors) < 1.1
