"""Family ``hetero`` (issue 3, in progress): Zhou et al., "Online Scheduling Algorithm for
Heterogeneous Distributed Machine Learning Jobs" (IEEE TCC); spec zhou-heterogeneous.md.

Landed: ``instance`` (PS and Ring-AllReduce model, exact durations, shapes W1/W2), ``generate``
(tiny, small), ``schedule`` (verifier V1-V9, objective), ``columns`` (placements, Γ_j, the one-pass
horizon of §2.7), ``formulations`` (model A ``configuration`` and model B ``time-indexed``, both
exact, with LP relaxations). Still to come before the family is registered in
``registry.FAMILY_PACKAGES``: the online algorithms (A_online, A_dual, A_maxweight, the oracles),
baselines, theory checks, the batch problems (7)/(8)/(9), the paper and trace generators,
reproduction, docs and benchmarks.
"""
