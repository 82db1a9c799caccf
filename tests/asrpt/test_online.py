"""A-SRPT, Algorithm 1 (optsched/asrpt/online.py; spec asrpt.md §3.7-§3.9)."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.asrpt.cluster_state import estimates
from optsched.asrpt.online import run_asrpt
from optsched.asrpt.schedule import completions, verify
from optsched.asrpt.strategies import integral_streams


@given(integral_streams(max_jobs=6), st.sampled_from([0.0, 0.5, 1.0, 2.0, 4.0]), st.booleans())
@settings(max_examples=80)
def test_asrpt_invariants(instance, tau, blocking):
    out = run_asrpt(instance, tau=tau, blocking=blocking)
    assert verify(instance, out.schedule) == []
    runs = out.schedule.jobs
    for i, (sj, run) in enumerate(zip(instance.jobs, runs)):
        assert run.start >= out.virtual_completion[i] - 1e-9 >= sj.release - 1e-9  # virtual gating
    est = estimates(instance, False)
    for i, wait in out.waited.items():  # only a communication-heavy job is held, for at most τ p̃_i
        assert out.comm_heavy[i] and 0 <= wait <= tau * est[i].virtual_size + 1e-9
    if blocking:  # strict queue order: starts are non-decreasing in (C̃, id)
        order = sorted(range(len(runs)), key=lambda i: (out.virtual_completion[i], i))
        starts = [runs[i].start for i in order]
        assert starts == sorted(starts)


@given(integral_streams(max_jobs=6))
@settings(max_examples=40)
def test_without_classification_asrpt_is_list_scheduling_in_virtual_order(instance):
    """τ = 0 and COMM_HEAVY = ∞: strict list scheduling in C̃ order on LEAST allotments (spec §4.8)."""
    out = run_asrpt(instance, tau=0.0, comm_heavy=math.inf)
    order = sorted(range(len(instance.jobs)), key=lambda i: (out.virtual_completion[i], i))
    ends = completions(instance, out.schedule)
    for pos, i in enumerate(order):
        start = out.schedule.jobs[i].start
        earlier = [out.schedule.jobs[j].start for j in order[:pos]]
        assert start >= max(earlier, default=0.0) - 1e-9
        # it starts at its virtual completion, the previous start, or when some job completed
        moments = {out.virtual_completion[i], *earlier, *ends}
        assert any(abs(start - m) <= 1e-9 for m in moments)

