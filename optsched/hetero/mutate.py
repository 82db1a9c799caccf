"""Zhou et al.'s search space (``optsched search hetero``): ``tiny`` instances (``generate("tiny")``,
spec §6.1; PS framework) and the moves the search may make on them, within the tiny recipe's
grid, where durations stay exact and the configuration ILP stays provable: up to 3 servers with
capacities 1-8, 1-2 worker types and 1-2 PS types (a type's times in every job come and go with
it), arrivals ``1..⌈T/3⌉`` (T = 12 is kept), integer weights 1-20, ``K ∈ 1..3``, ``D ∈ 1..4``,
mini-batch times ``v`` in 0.25-2 and ``U, π`` in 0-1 slots, all multiples of 1/4; worker demands
``e`` in 1-2, a PS's first resource 0-3 (expensive PSs, the pattern of golden case A.5) and its
bandwidth ``B_p`` in 1-2. An instance with a job that fits the empty cluster in no shape is outside
A_online's domain (§3.2)."""

from __future__ import annotations

from ..search.space import Document, Items, Numbers, Space
from .generate import generate
from .instance import Instance


def _start(seed: int, size: int) -> Document:
    return generate("tiny", seed, jobs=size).to_dict()


def _quarters(doc: Document) -> Document:
    """Round every time to a multiple of 1/4 slot (the tiny recipe's grid, durations stay exact)."""
    for job in doc["jobs"]:
        for key in ("train", "update"):
            job[key] = [round(4 * v) / 4 for v in job[key]]
        job["gradient"] = round(4 * job["gradient"]) / 4
    return doc


def _refusal(instance: Instance) -> str:
    unfit = instance.unfittable()
    return f"job {unfit[0]} fits the empty cluster in no schedule" if unfit else ""


def space() -> Space:
    """The search space of ``hetero`` instances for ``optsched search``: jobs, servers, worker and PS types and their
    demands, and the jobs' parameters."""
    return Space(
        start=_start,
        items=(Items("jobs"), Items("capacity", 1, 3),
               Items("worker_demand", 1, 2, coupled=("jobs.*.train",)),
               Items("ps_demand", 1, 2, coupled=("jobs.*.update",))),
        numbers=(Numbers("capacity.*.*", 1, 8), Numbers("worker_demand.*.*", 1, 2),
                 Numbers("ps_demand.*.0", 0, 3), Numbers("ps_demand.*.1", 1, 2),
                 Numbers("jobs.*.arrival", 1, 4), Numbers("jobs.*.weight", 1, 20),
                 Numbers("jobs.*.chunks", 1, 4), Numbers("jobs.*.minibatches", 1, 3),
                 Numbers("jobs.*.train.*", 0.25, 2.0, integer=False),
                 Numbers("jobs.*.update.*", 0.0, 1.0, integer=False),
                 Numbers("jobs.*.gradient", 0.0, 1.0, integer=False)),
        normalize=_quarters, refusal=_refusal)
