"""Hypothesis strategies for the asrpt family (spec asrpt.md §4.8); the placement family's are in
optsched/placement/strategies.py. Public, for property-based tests of
a theorem or of your own algorithm (docs/own-algorithm.md); needs hypothesis (``pip install -e
'.[test]'``). optsched's own tests draw from here."""

from hypothesis import strategies as st

from ..placement.instance import Cluster, Job, Stage
from .instance import Instance, StreamJob


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
        under = draw(st.integers(0, n - 1)) if n > 1 else 0
        guess = {"perfect": n, "over": n + draw(st.integers(1, 3)), "under": under,
                 "zero": 0, "noisy": max(0, n + draw(st.integers(-2, 2)))}[mode]
        out.append(StreamJob(Job(stages), float(draw(st.integers(0, 6))), n, float(guess)))
    return Instance(cluster, tuple(out))
