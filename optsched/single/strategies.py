"""Hypothesis strategies for 1|r_j|Σ w_j C_j instances. Public, for property-based tests of
a theorem or of your own algorithm (docs/own-algorithm.md); needs hypothesis (``pip install -e
'.[test]'``). optsched's own tests draw from here."""

from hypothesis import strategies as st

from .instance import Instance, Job


def instances(max_jobs=6, max_p=4, max_r=8, zero_release=False):
    """Valid single instances: 1 to ``max_jobs`` jobs, processing times up to ``max_p``, releases up
    to ``max_r`` (all 0 with ``zero_release``), weights 1 to 9."""
    release = st.just(0) if zero_release else st.integers(0, max_r)
    job = st.builds(Job, p=st.integers(1, max_p), w=st.integers(1, 9).map(float), r=release)
    return st.lists(job, min_size=1, max_size=max_jobs).map(lambda jobs: Instance(tuple(jobs)))
