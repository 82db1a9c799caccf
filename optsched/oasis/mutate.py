"""OASiS's search space (``optsched search oasis``): Family T instances (``generate("tiny")``,
spec §6.1) and the moves the search may make on them, within bounds that keep the time-indexed
MILP small enough to prove optimal in the node budget: up to 6 slots, 3 worker and 3 PS servers,
capacities 1-8, demands 1-3, ``E <= 3``, ``N <= 4``, utilities with ``γ1`` in [1, 500] (log steps)
and ``γ2, γ3`` in [0, 6]. Jobs stay in arrival order (the order OASiS takes them in).

Regime ``small-demands`` (``--regime small-demands``): the assumption of Theorem 4's proof
(Appendix E, "w ≪ c"), made a number: no job takes more than :data:`SMALL_SHARE` of a server."""

from __future__ import annotations

import math

from ..search.space import Document, Items, Numbers, Regime, Space
from .generate import generate
from .theory import largest_share

#: Appendix E's "w ≪ c" as a number: in the ``small-demands`` regime one job takes at most this share
#: of any server's resource in a slot (``δ`` of spec §4.6, ``theory.largest_share``).
SMALL_SHARE = 0.1


def _start(seed: int, size: int) -> Document:
    return generate("tiny", seed, jobs=size).to_dict()


def _by_arrival(doc: Document) -> Document:
    doc["jobs"].sort(key=lambda job: job["arrival"])
    return doc


#: The most jobs a search within ``small-demands`` may take: with no job above a tenth of a server, a
#: server binds only when about ten jobs share it, which the general limit of 8 never reaches; the
#: regime's optima stay quick (24 jobs, T = 6: under 0.1 s each; docs/search.md)
SMALL_DEMANDS_SIZE = 40


def _small_demands(doc: Document) -> Document:
    """Raise every server's capacity of a resource to ``N_i w_i^r / SMALL_SHARE`` for every job
    ``i`` (``N_i``: its chunks, the most workers or PSs it can place on one server), so that no job
    takes more than :data:`SMALL_SHARE` of a server."""
    for pool, demand in (("worker_servers", "worker_demand"), ("ps_servers", "ps_demand")):
        for caps in doc[pool]:
            for r in range(len(caps)):
                need = max((job["chunks"] * job[demand][r] for job in doc["jobs"]), default=0)
                caps[r] = max(caps[r], math.ceil(need / SMALL_SHARE))
    return doc


def _crowded(space_start, seed: int, size: int) -> Document:
    """Where a search within ``small-demands`` starts: the space's start with every job arriving in
    slot 1 on one worker and one PS server over ``T = 2``, so that a server's capacity binds as soon
    as about ten jobs share it (spread over the space's start, 40 jobs use at most half a server)."""
    doc = space_start(seed, size)
    doc["T"] = 2
    doc["worker_servers"], doc["ps_servers"] = doc["worker_servers"][:1], doc["ps_servers"][:1]
    for job in doc["jobs"]:
        job["arrival"] = 1
    return doc


def _outside_small_demands(instance) -> str:
    share = largest_share(instance)
    if share <= SMALL_SHARE + 1e-12:
        return ""
    return f"a job takes {share:.3g} of a server (regime: at most {SMALL_SHARE})"


def space() -> Space:
    """The search space of ``oasis`` instances for ``optsched search``: jobs, worker and PS servers, T and
    capacities, demands and utilities."""
    return Space(
        start=_start,
        items=(Items("jobs"), Items("worker_servers", 1, 3), Items("ps_servers", 1, 3)),
        numbers=(Numbers("T", 1, 6),
                 Numbers("worker_servers.*.*", 1, 8), Numbers("ps_servers.*.*", 1, 8),
                 Numbers("jobs.*.arrival", 1, "T"), Numbers("jobs.*.epochs", 1, 3),
                 Numbers("jobs.*.chunks", 1, 4), Numbers("jobs.*.tau", 0.25, 1.0, integer=False),
                 Numbers("jobs.*.worker_demand.*", 1, 3), Numbers("jobs.*.ps_demand.*", 1, 3),
                 Numbers("jobs.*.utility.gamma1", 1, 500, integer=False, log=True),
                 Numbers("jobs.*.utility.gamma2", 0, 6, integer=False),
                 Numbers("jobs.*.utility.gamma3", 0, 6, integer=False)),
        normalize=_by_arrival,
        regimes={"small-demands": Regime(
            f"Appendix E's w ≪ c: no job takes more than {SMALL_SHARE:g} of a server's resource in a slot "
            "(spec §4.6's δ); capacities up to 240",
            numbers=(Numbers("worker_servers.*.*", 1, 240), Numbers("ps_servers.*.*", 1, 240)),
            normalize=_small_demands, refusal=_outside_small_demands, size_max=SMALL_DEMANDS_SIZE,
            start=_crowded)})
