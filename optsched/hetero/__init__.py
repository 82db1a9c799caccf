"""Family ``hetero``: Zhou et al., "Online Scheduling Algorithm for Heterogeneous Distributed
Machine Learning Jobs" (IEEE TCC). Minimise the total weighted completion time of training jobs
that choose their worker type, PS type, worker count and placement (PS or Ring-AllReduce). Spec:
zhou-heterogeneous.md; docs: docs/hetero.md.

Modules: ``instance`` (model, exact durations, shapes W1/W2, JSON), ``generate`` (presets),
``schedule`` (verifier V1-V9, objective), ``columns`` (placements, Γ_j, the horizon of §2.7),
``formulations`` (model A ``configuration``, model B ``time-indexed``, model C ``cp-sat``, the batch problems (7)/(8)
and the dual (9)), ``oracles`` (the per-job cost oracles, Alg. 4-7), ``online`` (A_maxweight,
A_dual, A_online, Alg. 1-3), ``baselines`` (FIFO, DRF, AntMan, Tiresias, the Jain-style greedy),
``theory`` (λ, γ, α, (A1)/(A2), bounds, the Theorem 5 hook), ``reproduce`` (Section 7).
"""

from ..citations import PAPERS
from ..params import Bounded, at_least, between, positive
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

FAMILY = Family(
    name="hetero",
    sense="min",
    summary="Zhou et al.: heterogeneous PS / Ring-AllReduce training jobs, min total weighted completion time",
    papers=(PAPERS["zhou2023"],),
    presets=("tiny", "small", "paper", "trace"),
    generator=here("generate:generate"),
    instance_from_dict=here("instance:Instance.from_dict"),
    schedule_from_dict=here("schedule:Schedule.from_dict"),
    bars=here("schedule:bars"),
    releases=here("schedule:releases"),
    time_unit="time (slots)",
    verify=here("schedule:verify"),
    objective=here("schedule:objective"),
    formulations={
        "configuration": Formulation("configuration", here("formulations:configuration"),
                                     "schedule-column ILP (model A); exact; --relax gives the configuration LP"),
        "reduced-configuration": Formulation("reduced-configuration", here("formulations:reduced_configuration"),
                                             "model A over the columns reduced-cost fixing keeps (column "
                                             "generation's prices and greedy schedule); exact"),
        "time-indexed": Formulation("time-indexed", here("formulations:time_indexed"),
                                    "compact linearised MILP of (2) / (15) (model B); exact"),
        "cp-sat": Formulation("cp-sat", here("formulations:cp_sat"),
                              "CP-SAT: an optional interval per placed shape, a cumulative per server and "
                              "resource (model C); exact", engine="cp-sat"),
        "column-generation": Formulation("column-generation", here("formulations:column_generation"),
                                         "model A's LP by column and row generation, with a Lagrangian bound "
                                         "every round", answers="bound"),
        "pooled": Formulation("pooled", here("formulations:pooled"),
                              "model A's LP with the servers pooled per resource, by column generation: a lower "
                              "bound at any size (the bound at the paper's scale), and a schedule in its LP order",
                              answers="bound"),
    },
    algorithms={
        "aonline": Algorithm("aonline", here("online:aonline"),
                             "Algorithm 1: doubling rounds, A_dual sub-rounds, A_maxweight with price functions (11)",
                             {"alpha_mode": ("fixed", "theorem", "per_round_safe"), "alpha": at_least(1, 4),
                              "oracle": ("exact", "paper"), "F": positive(1.0), "lambda_horizon": ("T", "tau"),
                              "tie_break": ("paper", "earliest_completion"),
                              "normalization": ("raw", "per_capacity")},
                             here("theory:theorem5")),
        "fifo": Algorithm("fifo", here("baselines:fifo"),
                          "first in first out, non-preemptive, random worker count in 1..30"),
        "drf": Algorithm("drf", here("baselines:drf"),
                         "dominant resource fairness by progressive filling when jobs wait"),
        "antman": Algorithm("antman", here("baselines:antman"),
                            "resource-guarantee jobs first, opportunistic jobs preempted",
                            {"guaranteed": between(0, 1, 0.5), "threshold": at_least(0, 5)}),
        "tiresias": Algorithm("tiresias", here("baselines:tiresias"),
                              "preemptive, smallest remaining work x GPUs first at every event"),
    },
    generator_options={"framework": ("ps", "allreduce"), "servers": at_least(0, 0),
                       "kappa": Bounded(0.35, 0, 10, open_low=True)},
    reproductions={"hetero-sec7": Reproduction("hetero-sec7", "Section 7: A_online vs FIFO, DRF, AntMan, Tiresias "
                                               "over jobs, servers and F; A_maxweight vs Jain",
                                               here("reproduce:reproduce")),
                   "hetero-theory": Reproduction("hetero-theory", "the theorems and lemmas on random instances: "
                                                 "counterexamples, or how rare one can be",
                                                 here("reproduce:reproduce_theory"))},
    space=here("mutate:space"),
    bound_route="pooled",
    best=here("formulations:best"),
    checks={"mincost1": Check("mincost1", "Theorem 1: A_mincost1 returns the cheapest distributed schedule [E5]",
                              ("aonline",), here("checks:mincost1_slack")),
            "lemma2": Check("lemma2", "Lemma 2: A_dual's accepted weight reaches the batch optimum (D4)", ("aonline",),
                            here("checks:lemma2_slack")),
            "theorem2": Check("theorem2", "Theorems 2 and 7: each sub-round's schedules fit and its prices stay in "
                              "[0, λ − 1]", ("aonline",), here("checks:theorem2_slack")),
            "theorem6": Check("theorem6", "Theorem 6: the Ring-AllReduce oracles find the cheapest schedule [E6-E9]",
                              ("aonline",), here("checks:theorem6_slack"))},
)
