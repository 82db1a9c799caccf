"""Family ``single``: 1|r_j|Σ w_j C_j, the toolkit's smallest worked example.

One machine, non-preemptive jobs with release dates; minimise total weighted completion time.
Layout as in every family: ``instance`` (model, JSON), ``generate`` (seeded presets), ``schedule`` (verifier and
objective), ``formulations`` (time-indexed MILP and its LP), ``online`` (WSPT), ``baselines`` (FIFO),
``theory`` (Smith's rule, brute force).
"""

from ..registry import Algorithm, Family, Formulation, lazy

FAMILY = Family(
    name="single",
    sense="min",
    summary="one machine, release dates, non-preemptive, min total weighted completion time (1|r_j|Σ w_j C_j)",
    source="textbook (Smith 1956; Sousa & Wolsey 1992 for the time-indexed formulation)",
    presets=("tiny", "small"),
    generate=lazy("optsched.single.generate:generate"),
    instance_from_dict=lazy("optsched.single.instance:Instance.from_dict"),
    schedule_from_dict=lazy("optsched.single.schedule:Schedule.from_dict"),
    verify=lazy("optsched.single.schedule:verify"),
    objective=lazy("optsched.single.schedule:objective"),
    formulations={
        "time-indexed": Formulation("time-indexed", lazy("optsched.single.formulations:time_indexed"),
                                    "x[j,t] = 1 iff job j starts at t; exact MILP, LP relaxation a lower bound"),
    },
    algorithms={
        "wspt": Algorithm("wspt", lazy("optsched.single.online:wspt"), "online: at each idle moment start the arrived job with largest w/p"),
        "fifo": Algorithm("fifo", lazy("optsched.single.baselines:fifo"), "online: at each idle moment start the earliest-released job"),
    },
)
