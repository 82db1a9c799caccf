"""Hypothesis strategies for the asrpt and placement families (spec asrpt.md §4.8)."""

from hypothesis import strategies as st

from optsched.asrpt.instance import (
    Cluster,
    Instance,
    Job,
    PlacementInstance,
    Stage,
    StreamJob,
)


@st.composite
def jobs(draw, max_stages=4, max_replicas=4):
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
    return PlacementInstance(job, g, inter, draw(st.floats(inter / g, 400_000.0)), tuple(available), fill)


@st.composite
def integral_streams(draw, servers=2, max_jobs=5, prediction="any"):
    """Integral instances (spec §4.7): 2 GPUs per server, every α a whole number of seconds."""
    cluster = Cluster(servers, 2, 1.0, 1.0)
    count = draw(st.integers(1, max_jobs))
    out = []
    for _ in range(count):
        S = draw(st.integers(1, 2))
        ks = [draw(st.integers(1, 2)) for _ in range(S)]
        if sum(ks) >= cluster.total_gpus:
            ks = [1] * S
        stages = tuple(Stage(float(draw(st.integers(1, 3))), k, float(draw(st.integers(0, 1))),
                             2.0 * draw(st.integers(0, 1)) if s < S - 1 else 0.0) for s, k in enumerate(ks))
        n = draw(st.integers(1, 3))
        mode = draw(st.sampled_from(["perfect", "over", "under", "zero", "noisy"])) if prediction == "any" \
            else prediction
        guess = {"perfect": n, "over": n + draw(st.integers(1, 3)), "under": draw(st.integers(0, n - 1)) if n > 1 else 0,
                 "zero": 0, "noisy": max(0, n + draw(st.integers(-2, 2)))}[mode]
        out.append(StreamJob(Job(stages), float(draw(st.integers(0, 6))), n, float(guess)))
    return Instance(cluster, tuple(out))
