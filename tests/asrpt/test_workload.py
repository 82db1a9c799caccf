"""Predictors, the recurring-job Philly workload and the trace-driven stream (spec asrpt.md §3.6, §5.1)."""

import numpy as np
import pytest

from optsched.asrpt.generate import generate_stream
from optsched.asrpt.predict import predict
from optsched.asrpt.workload import recurrence, workload
from optsched.placement.online import alpha_tilde
from optsched.placement.templates import MEMORY_BYTES, MODELS, PAPER_CLUSTER, STATE_BYTES


def test_predictors_on_recurring_groups():
    rng = np.random.default_rng(1)
    groups = [g for g in range(20) for _ in range(8)]
    users = [g % 5 for g in groups]
    iterations = [100 * (g + 1) for g in groups]
    test_groups, test_users = [3, 7, 99], [3, 2, 4]
    truth = [400, 800, 50]
    for kind in ("rf", "median", "mean"):
        guess = predict(kind, groups, users, iterations, test_groups, test_users, truth, seed=0)
        assert guess[2] == 0  # an unseen group
        assert list(guess[:2]) == [400, 800]  # uniform groups are predicted exactly
    noisy = [n + int(rng.integers(-30, 31)) for n in iterations]
    for kind in ("rf", "median", "mean"):
        guess = predict(kind, groups, users, noisy, test_groups, test_users, truth)
        assert (guess >= 0).all() and (guess == np.round(guess)).all()
    assert list(predict("perfect", groups, users, iterations, test_groups, test_users, truth)) == truth
    with pytest.raises(ValueError):
        predict("crystal-ball", groups, users, iterations, test_groups, test_users, truth)


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


@pytest.mark.slow
def test_trace_stream_is_scaled_to_the_load_and_labelled():
    instance = generate_stream("paper", 1, jobs=3000)
    p = instance.provenance
    assert "synthetic" in p["trace"] and p["overlaps_training"] is False and p["predictor"] == "rf"
    span = max(sj.release for sj in instance.jobs)
    offered = sum(sj.job.gpus * sj.iterations * alpha_tilde(sj.job, PAPER_CLUSTER) for sj in instance.jobs)
    assert offered / (span * instance.cluster.total_gpus) == pytest.approx(1.0, rel=1e-9)
    shares = generate_stream("paper", 1, jobs=3000, single_gpu_share=0.0)
    assert all(sj.job.gpus > 1 for sj in shares.jobs)
    assert shares.provenance["offered_load"] == pytest.approx(1.0)  # fixed-load: every setting offers 1.0


@pytest.mark.slow
def test_trace_arrivals_keep_the_time_scale_so_bigger_jobs_raise_the_load():
    """[A21]: with arrivals='trace' the window's own time scale (load 1.0 as recorded) is kept, so
    replacing single-GPU jobs by multi-GPU ones raises the offered load, as in the paper's Fig. 7."""
    loads = {share: generate_stream("paper", 1, jobs=600, single_gpu_share=share, arrivals="trace")
             for share in (0.8, 0.0)}
    assert loads[0.8].provenance["time_scale"] == pytest.approx(loads[0.0].provenance["time_scale"])
    assert loads[0.0].provenance["offered_load"] > loads[0.8].provenance["offered_load"]


def test_bundled_extract_matches_the_workload_model():
    import gzip
    import io
    from pathlib import Path

    from optsched.asrpt.workload import write_csv

    out = io.StringIO()
    write_csv(workload(PAPER_CLUSTER, 0), out)
    shipped = gzip.decompress((Path(__file__).parents[2] / "instances/asrpt/philly_recurring.csv.gz").read_bytes())
    assert shipped.decode() == out.getvalue()
