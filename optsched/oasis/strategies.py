"""Hypothesis strategies for tiny OASiS instances (spec §4.2: integer capacities and demands,
exact binary ρ, sigmoid, step, constant and clipped-linear utilities). Public, for property-based tests of
a theorem or of your own algorithm (docs/own-algorithm.md); needs hypothesis (``pip install -e
'.[test]'``). optsched's own tests draw from here."""

from hypothesis import strategies as st

from .instance import Instance, Sigmoid, TableUtility, job_from_rho

RHOS = (0.25, 0.5, 0.75, 1.0)


@st.composite
def utilities(draw):
    """A utility function of one of the paper's shapes (sigmoid, or the others the generator draws)."""
    kind = draw(st.sampled_from(["sigmoid", "step", "constant", "linear"]))
    if kind == "sigmoid":
        gamma2 = draw(st.sampled_from([0.0, 0.5, 5.0]))
        return Sigmoid(float(draw(st.integers(1, 100))), gamma2, float(draw(st.integers(1, 3))))
    top = float(draw(st.integers(2, 100)))
    if kind == "constant":
        return TableUtility((top,))
    if kind == "step":
        deadline = draw(st.integers(1, 3))
        return TableUtility((top,) * deadline + (top / draw(st.sampled_from([2, 4, 8])),))
    slope = draw(st.sampled_from([1.0, 4.0, 16.0]))
    return TableUtility(tuple(max(top - slope * d, top / 8) for d in range(5)))


@st.composite
def instances(draw, max_T=4, max_jobs=3, max_servers=2, modes=("worker_slots", "chunks")):
    """Valid oasis instances: at most ``max_T`` slots, ``max_jobs`` jobs, ``max_servers`` servers of each
    kind, in the given accounting ``modes``."""
    T = draw(st.integers(1, max_T))
    R = draw(st.integers(1, 2))
    resources = ("cpu", "bandwidth")[-R:]
    H, K = draw(st.integers(1, max_servers)), draw(st.integers(1, max_servers))
    capacity = st.integers(1, 6).map(float)
    workers = tuple(tuple(draw(capacity) for _ in range(R)) for _ in range(H))
    pss = tuple(tuple(draw(capacity) for _ in range(R)) for _ in range(K))
    jobs = []
    for a in sorted(draw(st.lists(st.integers(1, T), min_size=1, max_size=max_jobs))):
        b = draw(st.integers(1, 2))
        B = draw(st.integers(b, 2))
        w = [float(draw(st.integers(0, 2))) for _ in range(R - 1)] + [float(b)]
        s = [float(draw(st.integers(0, 2))) for _ in range(R - 1)] + [float(B)]
        jobs.append(job_from_rho(a, draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.sampled_from(RHOS)),
                                 w, s, draw(utilities())))
    return Instance(T, resources, workers, pss, tuple(jobs), draw(st.sampled_from(modes)))
