"""Family ``single``: 1|r_j|Σ w_j C_j, the toolkit's smallest worked example.

One machine, non-preemptive jobs with release dates; minimise total weighted completion time.
Layout as in every family: ``instance`` (model, JSON), ``generate`` (seeded presets), ``schedule`` (verifier and
objective), ``formulations`` (time-indexed MILP and its LP), ``online`` (WSPT), ``baselines`` (FIFO),
``theory`` (Smith's rule, brute force), ``reproduce`` (the template reproduction of the kit).
"""

from ..citations import PAPERS
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

FAMILY = Family(
    name="single",
    sense="min",
    summary="one machine, release dates, non-preemptive, min total weighted completion time (1|r_j|Σ w_j C_j)",
    papers=(PAPERS["smith1956"], PAPERS["sousa1992"]),
    presets=("tiny", "small"),
    generator=here("generate:generate"),
    instance_from_dict=here("instance:Instance.from_dict"),
    schedule_from_dict=here("schedule:Schedule.from_dict"),
    bars=here("schedule:bars"),
    releases=here("schedule:releases"),
    verify=here("schedule:verify"),
    objective=here("schedule:objective"),
    formulations={
        "time-indexed": Formulation("time-indexed", here("formulations:time_indexed"),
                                    "x[j,t] = 1 iff job j starts at t; exact MILP, LP relaxation a lower bound"),
        "reduced-time-indexed": Formulation("reduced-time-indexed", here("formulations:reduced_time_indexed"),
                                            "the time-indexed MILP over the start times that reduced-cost fixing "
                                            "keeps (the LP's duals and a local-search schedule): exact"),
        "cp-sat": Formulation("cp-sat", here("formulations:cp_sat"),
                              "CP-SAT: a start and an interval per job, no overlap; the independent second model",
                              engine="cp-sat"),
        "mean-busy-time": Formulation("mean-busy-time", here("formulations:mean_busy_time"),
                                      "the mean-busy-time LP, computed by preemptive WSPT: a lower bound at any size",
                                      answers="bound"),
    },
    algorithms={
        "wspt": Algorithm("wspt", here("online:wspt"),
                          "online: at each idle moment start the arrived job with largest w/p"),
        "fifo": Algorithm("fifo", here("baselines:fifo"),
                          "online: at each idle moment start the earliest-released job"),
    },
    space=here("mutate:space"),
    bound_route="mean-busy-time",
    best=here("formulations:best"),
    checks={"smith": Check("smith", "Smith's rule: with every release date 0, WSPT is optimal",
                           ("wspt",), here("checks:smith_slack"), needs_optimum=True)},
    reproductions={
        "single-wspt": Reproduction("single-wspt", "the template reproduction: online WSPT against FIFO over a "
                                    "job sweep (no paper; the kit's worked example)", here("reproduce:reproduce")),
    },
)
