"""Readers for the public cluster traces that ship with optsched (``optsched/data/traces/``).

Every family's trace-driven generator reads traces through this module, never the files directly:

* :func:`philly_jobs`: the Microsoft Philly trace as published with AdaptDL (82,247 jobs,
  Sept-Dec 2017): submission time, duration, GPUs, GPU-seconds, virtual cluster; sorted by submission.
* :func:`alibaba_gpu_nodes`: the Alibaba 2023 GPU fleet (1,213 nodes): vCPUs, memory, GPUs, GPU model.
* :func:`alibaba_pods`: the Alibaba 2023 pod list (8,152 tasks): CPU, memory, GPUs, GPU share, creation
  and deletion times.
* :func:`window`: the jobs submitted in a time window, for binning arrivals into slots.
* :func:`sample_jobs` and :func:`sample_nodes`: the seeded draws every trace-driven generator makes
  (a job stream from a random window; a cluster of distinct real nodes).

Files are read once per process and checked against the sha256 of the original recorded in the
provenance note (``optsched/data/traces/README.md``).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import resources

SHA256 = {
    "philly_adaptdl.csv": "ebffb3dd1589bdf4e7bcd74496201c5ded1d557d498ee14f560463f37ec353da",
    "alibaba2023_openb_node_list_gpu_node.csv": "2beca64b4d3dfa342036a34b56a495c6cef9225db836c81f541282cb1df320b5",
    "alibaba2023_openb_pod_list_default.csv": "1ee7ed79c27a3b0861cda8ddba86a004c6aba904caafa329a76ae93ca63834a8",
}


@dataclass(frozen=True)
class TraceJob:
    """A Philly trace job: submission time (s since the first), duration, GPUs, GPU-seconds and its cluster."""
    submit_s: float  #: seconds since the first submission in the trace
    duration_s: float
    gpus: int
    gpu_seconds: float
    cluster: str


@dataclass(frozen=True)
class GpuNode:
    """An Alibaba 2023 GPU node: name, vCPUs, memory (GiB), GPUs and GPU model."""
    name: str
    cpus: float  #: vCPUs
    memory_gb: float  #: GiB
    gpus: int
    model: str  #: GPU type (P100, T4, V100M16, ...; G1-G3 undisclosed)


@dataclass(frozen=True)
class TracePod:
    """An Alibaba 2023 pod: name, vCPUs and memory requested, whole GPUs, and its share of one GPU."""
    name: str
    cpus: float  #: vCPUs requested
    memory_gb: float
    gpus: int  #: whole GPUs (0..8)
    gpu_share: float  #: fraction of one GPU for a single-GPU pod (1.0 = a whole GPU)
    gpu_models: tuple[str, ...]  #: allowed GPU types; empty means any
    created_s: float
    deleted_s: float  #: the trace's end for pods still running


def _read(name: str) -> str:
    data = gzip.decompress(resources.files("optsched").joinpath(f"data/traces/{name}.gz").read_bytes())
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256[name]:
        raise RuntimeError(f"trace {name} is corrupted: sha256 {digest}, expected {SHA256[name]}")
    return data.decode("utf-8")


@cache
def philly_jobs() -> tuple[TraceJob, ...]:
    """All Philly jobs, sorted by submission time (ties: file order)."""
    rows = [r for r in csv.DictReader(io.StringIO(_read("philly_adaptdl.csv"))) if r.get("timestamp")]
    stamps = [datetime.fromisoformat(r["timestamp"]) for r in rows]
    first = min(stamps)
    jobs = [TraceJob((s - first).total_seconds(), float(r["duration"]), int(r["num_gpus"]),
                     float(r["gpu_time"]), r["cluster"]) for s, r in zip(stamps, rows)]
    return tuple(sorted(jobs, key=lambda j: j.submit_s))


@cache
def alibaba_gpu_nodes() -> tuple[GpuNode, ...]:
    """The Alibaba 2023 GPU nodes, in file order."""
    rows = csv.DictReader(io.StringIO(_read("alibaba2023_openb_node_list_gpu_node.csv")))
    return tuple(GpuNode(r["sn"], int(r["cpu_milli"]) / 1000, int(r["memory_mib"]) / 1024, int(r["gpu"]), r["model"])
                 for r in rows)


@cache
def alibaba_pods() -> tuple[TracePod, ...]:
    """The Alibaba 2023 pods (default list), sorted by creation time (ties: file order)."""
    rows = csv.DictReader(io.StringIO(_read("alibaba2023_openb_pod_list_default.csv")))
    pods = [TracePod(r["name"], int(r["cpu_milli"]) / 1000, int(r["memory_mib"]) / 1024, int(r["num_gpu"]),
                     int(r["gpu_milli"]) / 1000 if r["gpu_milli"] else 0.0,
                     tuple(m for m in r["gpu_spec"].split("|") if m), float(r["creation_time"]),
                     float(r["deletion_time"])) for r in rows]
    return tuple(sorted(pods, key=lambda p: p.created_s))


def sample_jobs(rng, count: int, earliest_s: float, latest_s: float, length_s: float) -> tuple[float, list[TraceJob]]:
    """``count`` Philly jobs (fewer if the window holds fewer) drawn without replacement from a
    window of ``length_s`` seconds that starts uniformly in ``[earliest_s, latest_s)``, in submission
    order; returns the window's start and the jobs. ``rng`` is a numpy Generator."""
    start = float(rng.uniform(earliest_s, latest_s))
    found = window(philly_jobs(), start, length_s)
    chosen = sorted(rng.choice(len(found), size=min(count, len(found)), replace=False))
    return start, [found[k] for k in chosen]


def sample_nodes(rng, count: int) -> list[GpuNode]:
    """``count`` distinct Alibaba 2023 GPU nodes, drawn without replacement."""
    nodes = alibaba_gpu_nodes()
    return [nodes[int(k)] for k in rng.choice(len(nodes), size=count, replace=False)]


def window(jobs: tuple[TraceJob, ...], start_s: float, length_s: float) -> list[TraceJob]:
    """The jobs submitted in ``[start_s, start_s + length_s)``."""
    return [j for j in jobs if start_s <= j.submit_s < start_s + length_s]
