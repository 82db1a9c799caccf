"""The cluster A-SRPT and the baselines act on (optsched/asrpt/cluster_state.py): estimates from
predictions, free GPUs taken and given back, and completions at ``start + n_i α``."""

import pytest

from optsched.asrpt.cluster_state import ClusterState, estimates
from optsched.asrpt.generate import generate_stream
from optsched.placement.online import alpha_tilde
from optsched.placement.timing import alpha_max


def test_estimates_use_predictions_or_the_truth():
    instance = generate_stream("small", 1, prediction="over")
    for sj, guessed, perfect in zip(instance.jobs, estimates(instance), estimates(instance, perfect=True)):
        atilde = alpha_tilde(sj.job, instance.cluster)
        assert guessed.alpha_tilde == perfect.alpha_tilde == atilde
        assert guessed.alpha_max == alpha_max(sj.job, instance.cluster)
        assert guessed.duration == pytest.approx(sj.predicted * atilde)
        assert perfect.duration == pytest.approx(sj.iterations * atilde)
        assert perfect.virtual_size == pytest.approx(sj.job.gpus * sj.iterations * atilde / instance.cluster.total_gpus)


def test_a_started_job_holds_its_gpus_until_it_completes():
    instance = generate_stream("tiny", 3)
    state = ClusterState(instance)
    assert state.fits(0)
    counts, alpha = state.placement(0, "most")
    state.start(0, counts, instance.jobs[0].release)
    end = instance.jobs[0].release + instance.jobs[0].iterations * alpha
    assert state.next_completion() == pytest.approx(end)
    busy = instance.cluster.total_gpus - sum(state.free)
    assert busy == instance.jobs[0].job.gpus
    state.finish_until(end - 1e-9)
    assert sum(state.free) == instance.cluster.total_gpus - busy  # not yet complete
    state.finish_until(end)
    assert sum(state.free) == state.total_free == instance.cluster.total_gpus
    assert state.runs[0].start == instance.jobs[0].release
    with pytest.raises(RuntimeError, match="jobs never started"):
        state.schedule()


def test_a_placement_beyond_the_free_gpus_is_refused():
    instance = generate_stream("tiny", 3)
    state = ClusterState(instance)
    state.free[0] = 0
    with pytest.raises(RuntimeError, match="server 0 has 0 free GPUs"):
        state.start(0, {0: [1] * len(instance.jobs[0].job.stages)}, 0.0)
