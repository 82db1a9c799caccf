"""Hypothesis strategies for the placement family, and the brute-force enumeration of count
matrices the exact checks compare with (spec asrpt.md §4.8). Public, for property-based tests of
a theorem or of your own algorithm (docs/own-algorithm.md); needs hypothesis (``pip install -e
'.[test]'``). optsched's own tests draw from here."""

import itertools

from hypothesis import strategies as st

from .instance import Cluster, Instance, Job, Stage


@st.composite
def jobs(draw, max_stages=4, max_replicas=4):
    """A pipeline job: up to ``max_stages`` stages of up to ``max_replicas`` replicas each."""
    S = draw(st.integers(1, max_stages))
    stages = []
    for s in range(S):
        stages.append(Stage(draw(st.floats(0.001, 0.1)), draw(st.integers(1, max_replicas)),
                            draw(st.sampled_from([0.0, draw(st.floats(0.1, 500.0))])),
                            draw(st.floats(0.0, 200.0)) if s < S - 1 else 0.0,
                            draw(st.sampled_from(["ring", "tree"]))))
    return Job(tuple(stages))


@st.composite
def clusters(draw, servers=(1, 4), gpus=(1, 8)):
    """A cluster of ``servers`` (a range) servers with ``gpus`` (a range) free GPUs each."""
    g = draw(st.integers(*gpus))
    inter = draw(st.floats(100.0, 5000.0))
    intra = draw(st.floats(inter / g, 400_000.0))
    return Cluster(draw(st.integers(*servers)), g, inter, intra)


@st.composite
def placements(draw, max_stages=3, max_replicas=3, fill="at_most"):
    """A placement instance small enough for brute force (at most 3 servers, 6 GPUs in the job)."""
    job = draw(jobs(max_stages, max_replicas).filter(lambda j: j.gpus <= 6))
    g = draw(st.integers(2, 4))
    servers = draw(st.integers(1, 3))
    available = draw(st.lists(st.integers(0, g), min_size=servers, max_size=servers)
                     .filter(lambda a: sum(a) >= job.gpus))
    inter = draw(st.floats(100.0, 5000.0))
    return Instance(job, g, inter, draw(st.floats(inter / g, 400_000.0)), tuple(available), fill)


def spread_matrices(job, servers, g):
    """Every count matrix of ``job`` over ``servers`` servers of ``g`` GPUs (brute force)."""
    per_stage = [[c for c in itertools.product(range(st.replicas + 1), repeat=servers) if sum(c) == st.replicas]
                 for st in job.stages]
    for columns in itertools.product(*per_stage):
        rows = [[col[m] for col in columns] for m in range(servers)]
        if all(sum(r) <= g for r in rows):
            yield rows
