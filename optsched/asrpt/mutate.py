"""Luo et al.'s search space (``optsched search asrpt``): ``tiny`` instances (``generate("tiny")``,
the integral recipe of spec §4.7) and the moves the search may make on them, within bounds that
keep the time-indexed model F4 provable: 1-3 servers of 1-3 GPUs (``B_inter = B_intra = 1`` MB/s
are kept), jobs of 1-2 stages with 1-2 replicas, ``P`` in 1-3 s, parameters 0-2 MB and activation
volumes 0 or 2 MB (so every ``α`` stays a whole number of seconds), 1-4 iterations, predictions
0-6 and releases 0-8 s. Jobs stay in release order; a job wider than the cluster is outside every
algorithm's domain (it can never start)."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate_stream
from .instance import Instance


def _start(seed: int, size: int) -> Document:
    return generate_stream("tiny", seed, jobs=size).to_dict()


def _integral(doc: Document) -> Document:
    """Jobs in release order; activation volumes even (whole ``α``) and none out of the last stage."""
    doc["jobs"].sort(key=lambda job: job["release"])
    for job in doc["jobs"]:
        for stage in job["stages"]:
            stage["send"] = 2.0 * round(stage["send"] / 2)
        job["stages"][-1]["send"] = 0.0
    return doc


def _refusal(instance: Instance) -> str:
    G = instance.cluster.total_gpus
    wide = [i for i, sj in enumerate(instance.jobs) if sj.job.gpus > G]
    return f"job {wide[0]} needs more GPUs than the cluster's {G}" if wide else ""


def space() -> Space:
    """The search space of ``asrpt`` instances for ``optsched search`` (docs/search.md): jobs, their stages, the
    cluster's servers and GPUs, releases and iteration counts."""
    return Space(
        start=_start,
        items=(Items("jobs"), Items("jobs.*.stages", 1, 2)),
        numbers=(Numbers("cluster.servers", 1, 3), Numbers("cluster.gpus", 1, 3),
                 Numbers("jobs.*.release", 0, 8), Numbers("jobs.*.iterations", 1, 4),
                 Numbers("jobs.*.predicted", 0, 6),
                 Numbers("jobs.*.stages.*.compute", 1, 3), Numbers("jobs.*.stages.*.replicas", 1, 2),
                 Numbers("jobs.*.stages.*.params", 0, 2), Numbers("jobs.*.stages.*.send", 0, 2)),
        normalize=_integral, refusal=_refusal)
