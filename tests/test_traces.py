"""The bundled public traces (optsched/traces.py) and the generators built on them."""

import pytest

from optsched import traces
from optsched.oasis.generate import generate


def test_philly_is_complete_sorted_and_checked():
    jobs = traces.philly_jobs()
    assert len(jobs) == 82_247
    assert all(a.submit_s <= b.submit_s for a, b in zip(jobs, jobs[1:]))
    assert jobs[0].submit_s == 0.0 and max(j.gpus for j in jobs) == 128
    assert all(j.gpu_seconds >= 0 and j.duration_s > 0 for j in jobs)


def test_alibaba_gpu_nodes():
    nodes = traces.alibaba_gpu_nodes()
    assert len(nodes) == 1_213 and {n.gpus for n in nodes} == {1, 2, 4, 8}
    assert nodes[0].model == "P100" and nodes[0].cpus == 64.0 and nodes[0].memory_gb == 256.0


def test_alibaba_pods():
    pods = traces.alibaba_pods()
    assert len(pods) == 8_152 and all(a.created_s <= b.created_s for a, b in zip(pods, pods[1:]))
    assert {p.gpus for p in pods} <= set(range(9)) and all(0 <= p.gpu_share <= 1 for p in pods)
    assert all(p.deleted_s >= p.created_s for p in pods)
    assert any(0 < p.gpu_share < 1 for p in pods) and all(isinstance(p.gpu_models, tuple) for p in pods)


def test_sampled_jobs_come_from_one_window_in_submission_order_and_nodes_are_distinct():
    import numpy as np

    start, jobs = traces.sample_jobs(np.random.default_rng(5), 30, 40 * 86_400, 50 * 86_400, 86_400)
    assert 40 * 86_400 <= start < 50 * 86_400 and len(jobs) == 30
    assert all(start <= j.submit_s < start + 86_400 for j in jobs)
    assert all(a.submit_s <= b.submit_s for a, b in zip(jobs, jobs[1:]))
    nodes = traces.sample_nodes(np.random.default_rng(5), 50)
    assert len({n.name for n in nodes}) == 50


def test_window_selects_by_submission_time():
    jobs = traces.philly_jobs()
    start = 30 * 86_400
    chosen = traces.window(jobs, start, 3_600)
    assert chosen and all(start <= j.submit_s < start + 3_600 for j in chosen)
    assert len(chosen) == sum(start <= j.submit_s < start + 3_600 for j in jobs)


def test_a_corrupted_trace_is_refused(monkeypatch):
    monkeypatch.setitem(traces.SHA256, "alibaba2023_openb_node_list_gpu_node.csv", "0" * 64)
    with pytest.raises(RuntimeError, match="corrupted"):
        traces._read("alibaba2023_openb_node_list_gpu_node.csv")


def test_oasis_trace_preset_uses_real_arrivals_and_servers():
    instance = generate("trace", 3, jobs=40)
    assert len(instance.jobs) == 40 and instance.T == 300 and instance.H == 50
    gpu_counts = {int(c[0]) for c in instance.worker_servers}
    assert gpu_counts <= {1, 2, 4, 8}
    assert generate("trace", 3, jobs=40) == instance
