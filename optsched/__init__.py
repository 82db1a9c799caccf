"""optsched: online scheduling of distributed ML training jobs, with exact offline baselines.

Each family (see :mod:`optsched.registry`) pairs a paper's offline formulations, solved through
:func:`optsched.solvers.solve`, with its online algorithms and baselines, and judges every schedule
with an independent verifier.
"""

__version__ = "0.1.0"
