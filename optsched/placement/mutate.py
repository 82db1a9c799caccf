"""The placement search space (``optsched search placement``, Heavy-Edge against the placement
ILP): ``tiny`` instances (``generate("tiny")``) and the moves the search may make on them: 1-4
servers of 1-8 GPUs with any number of them free, jobs of up to ``size`` stages (the search's size
limit counts stages here: an instance holds one job) of 1-4 replicas, compute 5-100 ms per
mini-batch, parameters 0-200 MB, activations 0-100 MB per iteration, inter-server bandwidth
100-10,000 MB/s (intra-server 50,000 is kept). The last stage sends nothing; the AllReduce kind of
each stage stays as generated."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate


def _start(seed: int, size: int) -> Document:
    doc = generate("tiny", seed).to_dict()
    return _last_sends_nothing({**doc, "job": {**doc["job"], "stages": doc["job"]["stages"][:size]}})


def _last_sends_nothing(doc: Document) -> Document:
    doc["job"]["stages"][-1]["send"] = 0.0
    return doc


def space() -> Space:
    """The search space of ``placement`` instances for ``optsched search``: the job's stages, the servers' free
    GPUs, GPUs per server and bandwidths."""
    return Space(
        start=_start,
        items=(Items("job.stages"), Items("available", 1, 4)),
        numbers=(Numbers("gpus", 1, 8), Numbers("available.*", 0, "gpus"),
                 Numbers("inter_bw", 100, 10_000, integer=False, log=True),
                 Numbers("job.stages.*.compute", 0.005, 0.1, integer=False, log=True),
                 Numbers("job.stages.*.replicas", 1, 4),
                 Numbers("job.stages.*.params", 0, 200, integer=False),
                 Numbers("job.stages.*.send", 0, 100, integer=False)),
        normalize=_last_sends_nothing)
