"""Job streams (optsched/asrpt/generate.py; spec asrpt.md §5.1): integral tiny and small streams, and the trace-driven stream scaled to its load [A21]."""


import pytest

from optsched.asrpt.generate import generate_stream
from optsched.errors import InputError
from optsched.placement.online import alpha_tilde
from optsched.placement.templates import PAPER_CLUSTER


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



@pytest.mark.parametrize("preset,servers,jobs", [("tiny", 2, 4), ("small", 3, 6)])
def test_integral_streams_keep_theorem_1s_g_below_G_and_are_seeded(preset, servers, jobs):
    for seed in range(5):
        instance = generate_stream(preset, seed)
        assert instance.cluster.servers == servers and len(instance.jobs) == jobs
        assert all(sj.job.gpus < instance.cluster.total_gpus and 1 <= sj.iterations <= 3 for sj in instance.jobs)
        assert generate_stream(preset, seed) == instance


@pytest.mark.parametrize("prediction,relation", [
    ("perfect", lambda n, guess: guess == n), ("zero", lambda n, guess: guess == 0),
    ("over", lambda n, guess: guess > n), ("under", lambda n, guess: guess < n),
    ("noisy", lambda n, guess: abs(guess - n) <= 1),
])
def test_each_toy_prediction_mode_predicts_as_named(prediction, relation):
    instance = generate_stream("small", 2, jobs=12, prediction=prediction)
    assert all(relation(sj.iterations, sj.predicted) for sj in instance.jobs)
    assert instance.provenance["prediction"] == prediction


def test_bad_options_are_one_line_errors():
    with pytest.raises(InputError, match="jobs must be >= 1"):
        generate_stream("tiny", 0, jobs=0)
    with pytest.raises(InputError, match="prediction must be one of"):
        generate_stream("tiny", 0, prediction="psychic")


def test_seeds_draw_their_own_synthetic_layer_so_the_whole_held_out_window_is_not_one_instance():
    """A window of 16,449 jobs is the whole held-out part (bar one job) for every seed;
    the seed's synthetic layer (groups, users, models) still makes the seeds different instances,
    so 30 seeds there are 30 observations, not one counted 30 times."""
    a, b = (generate_stream("paper", seed, jobs=16449, prediction="median") for seed in (0, 1))
    for x in (a, b):  # the window is the held-out part, bar at most one job: no room for the seed to move it
        assert 0 <= x.provenance["window"][0] - x.provenance["training"][1] <= 1
    assert (a.provenance["synthetic_layer"], b.provenance["synthetic_layer"]) == (0, 1)
    assert [sj.release for sj in a.jobs] != [sj.release for sj in b.jobs]  # the layer's models change the load
    assert [sj.job.model for sj in a.jobs] != [sj.job.model for sj in b.jobs]
