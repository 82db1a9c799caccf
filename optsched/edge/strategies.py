"""Hypothesis strategies for small edge-cloud instances (spec §6: J <= 4, <= 2 servers x <= 2 workers,
D <= 3, p <= 4, r <= 6, edge Δ <= 2, cloud Δ in [2, 8]). Public, for property-based tests of
a theorem or of your own algorithm (docs/own-algorithm.md); needs hypothesis (``pip install -e
'.[test]'``). optsched's own tests draw from here."""

from hypothesis import strategies as st

from .instance import Instance, Job, Server


@st.composite
def instances(draw, max_jobs=4, max_servers=2, max_workers=2, max_D=3, max_p=4, cloud=None,
              job_dependent_delays=True, equal_rates=False, types=("w",)):
    """Valid edge instances (spec §6 sizes): the module docstring's bounds, a cloud or not (``cloud``),
    delays per job or shared, equal edge and cloud rates with ``equal_rates``, worker types from ``types``."""
    S = draw(st.integers(1, max_servers))
    servers = tuple(Server(tuple(draw(st.sampled_from(types)) for _ in range(draw(st.integers(1, max_workers)))),
                           ("p",) * (max_servers * max_workers)) for _ in range(S))
    has_cloud = draw(st.booleans()) if cloud is None else cloud
    shared = tuple(draw(st.integers(0, 2)) for _ in range(S))
    jobs = []
    for release in sorted(draw(st.lists(st.integers(0, 6), min_size=1, max_size=max_jobs))):
        p0 = draw(st.integers(1, max_p))
        p1 = p0 if equal_rates else draw(st.integers(1, p0))
        delays = tuple(draw(st.integers(0, 2)) for _ in range(S)) if job_dependent_delays else shared
        kind = draw(st.sampled_from(types))
        jobs.append(Job(release, draw(st.integers(1, max_D)), p0, p1, delays, draw(st.integers(2, 8)), kind))
    instance_types = {w for server in servers for w in server.workers}
    if not has_cloud:  # every job needs a qualified edge worker
        kind = sorted(instance_types)[0]
        jobs = [j if j.worker_type in instance_types else Job(**{**j.__dict__, "worker_type": kind}) for j in jobs]
    return Instance(servers, tuple(jobs), has_cloud)
