"""Stream schedules and their verifier (optsched/asrpt/schedule.py; spec asrpt.md §4.8)."""

import pytest

from optsched.asrpt.instance import Instance, StreamJob
from optsched.asrpt.schedule import JobRun, Schedule, objective, verify
from optsched.placement.instance import Cluster, Job, Stage


def test_stream_verifier_uses_half_open_intervals_and_counts_gpus_per_server():
    cluster = Cluster(1, 2, 1.0, 1.0)
    job = Job((Stage(2.0, 2),))  # all-reduce volume 0: α = 2 s
    instance = Instance(cluster, (StreamJob(job, 0.0, 1, 1.0), StreamJob(job, 0.0, 1, 1.0)))
    back_to_back = Schedule((JobRun(0.0, {0: (2,)}), JobRun(2.0, {0: (2,)})))
    assert verify(instance, back_to_back) == []
    assert objective(instance, back_to_back) == pytest.approx(2.0 + 4.0)
    overlap = Schedule((JobRun(0.0, {0: (2,)}), JobRun(1.5, {0: (2,)})))
    assert any("runs 4 GPUs" in p for p in verify(instance, overlap))
    early = Schedule((JobRun(0.0, {0: (2,)}), JobRun(2.0, {0: (1,)})))
    assert any("replicas placed" in p for p in verify(instance, early))

