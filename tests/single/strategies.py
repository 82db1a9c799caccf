"""Hypothesis strategies for 1|r_j|Σ w_j C_j instances."""

from hypothesis import strategies as st

from optsched.single.instance import Instance, Job


def instances(max_jobs=6, max_p=4, max_r=8, zero_release=False):
    release = st.just(0) if zero_release else st.integers(0, max_r)
    job = st.builds(Job, p=st.integers(1, max_p), w=st.integers(1, 9).map(float), r=release)
    return st.lists(job, min_size=1, max_size=max_jobs).map(lambda jobs: Instance(tuple(jobs)))
